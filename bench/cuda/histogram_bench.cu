// CUB baseline for `vkalgo-bench histogram`: cub::DeviceHistogram::HistogramEven /
// HistogramRange.
//
//   histogram_bench <case> <log2 sizes...>
//   cases: even_u32_b256 even_u32_b4096 even_u32_b65536 range_u32_b256 range_u32_b4096
//          even_u64_b256
//
// `even_<type>_b<m>`: m even bins over the key type's whole range (HistogramEven, levels 0 and
// 2^32 as 64-bit levels for u32 keys: bin b holds the keys whose top log2(m) bits are b, as
// vkalgo's BITS bucket function). `even_u64_b<m>` times HistogramRange with the m + 1 levels
// b * 2^64 / m (the last 2^64 - 1): CUB's HistogramEven refuses 64-bit samples over the whole
// range (its bin arithmetic has no wider type to compute in). `range_u32_b<m>`: the
// same bins given as m + 1 levels (HistogramRange; vkalgo's SPLITTERS with the m - 1 inner
// levels). Each repeat counts fresh full-range random input written just before it (outside
// the timed region), as vkalgo-bench does; the last repeat's counts are checked against a host
// histogram (u64 keys: the counts sum to N). Prints `RESULT cub histogram_<case> cub <N>
// <median ms> <G elements/s> <temp bytes>` lines (bench/compare.py).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -I bench/cuda -o histogram_bench bench/cuda/histogram_bench.cu

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

struct Case {
  bool range;     // HistogramRange (else HistogramEven)
  bool wide;      // u64 keys (else u32)
  int bins;       // m
};

Case parse_case(const std::string& name) {
  Case c{};
  c.range = name.rfind("range_", 0) == 0;
  c.wide = name.find("_u64_") != std::string::npos;
  const size_t b = name.rfind("_b");
  c.bins = b == std::string::npos ? 0 : std::atoi(name.c_str() + b + 2);
  return c;
}

template <class K>
cudaError_t device_histogram(void* temp, size_t& temp_bytes, const K* in, int* counts, const Case& c,
                             const unsigned long long* d_levels, int n, cudaStream_t s) {
  if (c.range || sizeof(K) == 8) {
    return cub::DeviceHistogram::HistogramRange(temp, temp_bytes, in, counts, c.bins + 1, d_levels, n, s);
  }
  const unsigned long long upper = sizeof(K) == 8 ? ~0ULL : (1ULL << 32);
  return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, c.bins + 1, 0ULL, upper, n, s);
}

template <class K>
void bench_histogram(const Gpu& gpu, const std::string& name, const Case& c, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);  // log2n <= 30
  K* d_in = nullptr;
  int* d_counts = nullptr;
  unsigned long long* d_levels = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(K)));
  CUDA_CHECK(cudaMalloc(&d_counts, size_t(c.bins) * sizeof(int)));
  std::vector<unsigned long long> levels(size_t(c.bins) + 1);
  const int log2_bins = __builtin_ctz(unsigned(c.bins));
  for (int b = 0; b <= c.bins; ++b) {
    levels[b] = sizeof(K) == 8 ? (b == c.bins ? ~0ULL : (unsigned long long)b << (64 - log2_bins))
                               : (unsigned long long)b * ((1ULL << 32) / c.bins);
  }
  CUDA_CHECK(cudaMalloc(&d_levels, levels.size() * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemcpy(d_levels, levels.data(), levels.size() * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  CUDA_CHECK(device_histogram<K>(nullptr, temp_bytes, d_in, d_counts, c, d_levels, num_items, gpu.stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto histogram = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(device_histogram<K>(d_temp, tb, d_in, d_counts, c, d_levels, num_items, gpu.stream));
    CUDA_CHECK_LAUNCH();
  };
  auto refill = [&](uint32_t seed) {
    fill_keys<K><<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_in, n, seed);
    CUDA_CHECK_LAUNCH();
  };
  const std::vector<float> times = time_fresh(gpu, 0x4157U ^ uint32_t(log2n), refill, histogram);
  std::vector<K> h_in(n);
  std::vector<int> got(size_t(c.bins));
  CUDA_CHECK(cudaMemcpy(h_in.data(), d_in, n * sizeof(K), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got.data(), d_counts, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  if (sizeof(K) == 8) {
    unsigned long long total = 0;
    for (int v : got) total += (unsigned long long)v;
    ok = total + 1 >= n && total <= n;  // (a key of 2^64 - 1 lies past the last level)
  } else {
    std::vector<int> want(size_t(c.bins), 0);
    const int shift = 32 - __builtin_ctz(unsigned(c.bins));
    for (K k : h_in) ++want[size_t(uint64_t(k) >> shift)];
    ok = want == got;
  }
  report_cub("histogram_" + name, "cub", log2n, n, times, temp_bytes, ok, sizeof(K));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_levels));
  CUDA_CHECK(cudaFree(d_counts));
  CUDA_CHECK(cudaFree(d_in));
}

void usage() {
  std::fprintf(stderr,
               "usage: histogram_bench even_u32_b256|even_u32_b4096|even_u32_b65536|range_u32_b256|"
               "range_u32_b4096|even_u64_b256 <log2 sizes...> (1..30)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string mode = argv[1];
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], 1, 30));
  const char* known[] = {"even_u32_b256",  "even_u32_b4096",  "even_u32_b65536",
                         "range_u32_b256", "range_u32_b4096", "even_u64_b256"};
  bool ok = false;
  for (const char* k : known) ok = ok || mode == k;
  if (!ok) usage();
  const Case c = parse_case(mode);

  Gpu gpu = open_gpu();
  for (int log2n : sizes) {
    if (c.wide) {
      bench_histogram<uint64_t>(gpu, mode, c, log2n);
    } else {
      bench_histogram<uint32_t>(gpu, mode, c, log2n);
    }
  }
  close_gpu(gpu);
  return 0;
}
