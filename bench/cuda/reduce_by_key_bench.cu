// CUB baseline for `vkalgo-bench reduce_by_key`: cub::DeviceReduce::ReduceByKey (u32 keys, u32
// values, sum) and cub::DeviceRunLengthEncode::Encode (u32 keys).
//
//   reduce_by_key_bench <rbk|rle> <mean run length> <log2 sizes...>
//
// The input is sorted u32 keys in runs of lengths 1..=2L-1 (mean L) and u32 values, made by the
// same integer hash as vkalgo-bench (crates/vkalgo-bench/src/reduce_by_key) and uploaded once;
// the last repeat's runs are checked against a host reduce-by-key. Prints
// `RESULT cub <reduce_by_key_u32_u32_sum|run_length_encode_u32> run<L> <N> <median ms>
// <G elements/s> <temp bytes>` lines (bench/compare.py).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -I bench/cuda -o reduce_by_key_bench bench/cuda/reduce_by_key_bench.cu

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

// The data's hash (the same as vkalgo-bench's).
uint32_t data_hash(uint32_t x) {
  uint32_t h = x * 0x9E3779B1U;
  h ^= h >> 16;
  h *= 0x85EBCA6BU;
  return h ^ (h >> 13);
}

void make_data(size_t n, uint32_t mean, std::vector<uint32_t>& keys, std::vector<uint32_t>& values) {
  keys.clear();
  keys.reserve(n);
  uint32_t key = 0, run = 0;
  while (keys.size() < n) {
    const uint32_t len = 1 + data_hash(run) % (2 * mean - 1);
    key += 1 + data_hash(run ^ 0xA5A5A5A5U) % 7;
    for (uint32_t i = 0; i < len && keys.size() < n; ++i) keys.push_back(key);
    ++run;
  }
  values.resize(n);
  for (size_t i = 0; i < n; ++i) values[i] = data_hash(uint32_t(i) ^ 0x5BD1E995U);
}

// Host runs: keys and sums (wrapping), or lengths.
void host_runs(const std::vector<uint32_t>& keys, const std::vector<uint32_t>* values, std::vector<uint32_t>& out_keys,
               std::vector<uint32_t>& out_values) {
  out_keys.clear();
  out_values.clear();
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint32_t v = values ? (*values)[i] : 1U;
    if (i == 0 || keys[i] != keys[i - 1]) {
      out_keys.push_back(keys[i]);
      out_values.push_back(v);
    } else {
      out_values.back() += v;
    }
  }
}

void bench(const Gpu& gpu, bool rle, uint32_t mean, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);  // log2n <= 30
  std::vector<uint32_t> h_keys, h_values;
  make_data(n, mean, h_keys, h_values);
  uint32_t *d_keys = nullptr, *d_values = nullptr, *d_keys_out = nullptr, *d_values_out = nullptr;
  int* d_runs = nullptr;
  CUDA_CHECK(cudaMalloc(&d_keys, n * 4));
  CUDA_CHECK(cudaMalloc(&d_values, n * 4));
  CUDA_CHECK(cudaMalloc(&d_keys_out, n * 4));
  CUDA_CHECK(cudaMalloc(&d_values_out, n * 4));
  CUDA_CHECK(cudaMalloc(&d_runs, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_keys, h_keys.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_values, h_values.data(), n * 4, cudaMemcpyHostToDevice));
  auto call = [&](void* temp, size_t& temp_bytes) {
    if (rle) {
      return cub::DeviceRunLengthEncode::Encode(temp, temp_bytes, d_keys, d_keys_out, d_values_out, d_runs, num_items,
                                                gpu.stream);
    }
    return cub::DeviceReduce::ReduceByKey(temp, temp_bytes, d_keys, d_keys_out, d_values, d_values_out, d_runs,
                                          cuda::std::plus<uint32_t>{}, num_items, gpu.stream);
  };
  size_t temp_bytes = 0;
  CUDA_CHECK(call(nullptr, temp_bytes));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto run = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(call(d_temp, tb));
    CUDA_CHECK_LAUNCH();
  };
  const std::vector<float> times = time_fresh(gpu, 0, [](uint32_t) {}, run);
  std::vector<uint32_t> want_keys, want_values;
  host_runs(h_keys, rle ? nullptr : &h_values, want_keys, want_values);
  int runs = 0;
  CUDA_CHECK(cudaMemcpy(&runs, d_runs, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<uint32_t> got_keys(want_keys.size()), got_values(want_values.size());
  CUDA_CHECK(cudaMemcpy(got_keys.data(), d_keys_out, want_keys.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_values.data(), d_values_out, want_values.size() * 4, cudaMemcpyDeviceToHost));
  const char* name = rle ? "run_length_encode_u32" : "reduce_by_key_u32_u32_sum";
  report_cub(name, "run" + std::to_string(mean), log2n, n, times, temp_bytes,
             size_t(runs) == want_keys.size() && got_keys == want_keys && got_values == want_values);
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_runs));
  CUDA_CHECK(cudaFree(d_values_out));
  CUDA_CHECK(cudaFree(d_keys_out));
  CUDA_CHECK(cudaFree(d_values));
  CUDA_CHECK(cudaFree(d_keys));
}

void usage() {
  std::fprintf(stderr, "usage: reduce_by_key_bench rbk|rle <mean run length 1..4096> <log2 sizes...> (1..30)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) usage();
  const std::string mode = argv[1];
  if (mode != "rbk" && mode != "rle") usage();
  const int mean = parse_log2(argv[2], 1, 4096);
  std::vector<int> sizes;
  for (int i = 3; i < argc; ++i) sizes.push_back(parse_log2(argv[i], 1, 30));
  Gpu gpu = open_gpu();
  for (int log2n : sizes) bench(gpu, mode == "rle", uint32_t(mean), log2n);
  close_gpu(gpu);
  return 0;
}
