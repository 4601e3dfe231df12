// CUB baseline for the vkalgo benchmarks.
//
//   cub_bench scan <log2 sizes...>   cub::DeviceScan::ExclusiveSum on uint32_t
//   cub_bench copy <log2 size>       uint4 device-to-device copy kernel (bandwidth yardstick)
//   cub_bench sort_u32|sort_pairs|sort_u64|sort_f32|sort_pairs64|sort_i32|sort_i64|sort_f64 <log2 sizes...>
//                                    cub::DeviceRadixSort::SortKeys / SortPairs (u32 values;
//                                    pairs: u32 keys, pairs64: u64 keys), keys in and out in
//                                    separate buffers; also
//                                    prints the temp storage of the DoubleBuffer API
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cub_bench bench/cuda/cub_bench.cu
//
// Shared-memory experiment (CUB under the shared memory an SM gives a Vulkan pipeline): built
// with -DCUB_LAUNCH_HOOK -cudart shared -ldl, every kernel launch goes through a hook that, when
// CUB_CARVEOUT=<percent> is set, sets the kernel's preferred shared-memory carveout first, and
// prints each kernel's registers, static shared memory and resident blocks per SM once.
//
// Every measurement prints one tab-separated line for bench/compare.py:
//   RESULT <impl> <algo> <variant> <N> <median ms> <rate> <extra>
// The rate is G elements/s for scans and GB/s (bytes read + written) for the copy.
//
// Timing: each repeat regenerates its input on the GPU, then a short spin kernel holds the
// stream while the host queues the start event, the work and the stop event, so the events
// bracket device time only (no host launch gaps). The median of the timed repeats is reported.

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_common.h"
#include "launch_hook.h"

namespace {

// Full-range pseudo-random u32 values, different for every seed.
__global__ void fill_random(uint32_t* out, size_t n, uint32_t seed) {
  const uint32_t salt = mix32(seed * 0x9e3779b9U + 0x632be5abU);
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = mix32(uint32_t(i) * 0x9e3779b9U + salt);
  }
}

void launch_fill(const Gpu& gpu, uint32_t* d, size_t n, uint32_t seed) {
  fill_random<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d, n, seed);
  CUDA_CHECK_LAUNCH();
}

void bench_scan(const Gpu& gpu, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);  // log2n <= 30, so this fits
  const size_t bytes = n * sizeof(uint32_t);

  uint32_t* d_in = nullptr;
  uint32_t* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));

  // Phase one: ask CUB how much scratch it needs.
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_in, d_out, num_items, gpu.stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));

  auto scan = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, tb, d_in, d_out, num_items, gpu.stream));
    CUDA_CHECK_LAUNCH();
  };

  uint32_t seed = 0x5ca1ab1eU ^ uint32_t(log2n);
  for (int i = 0; i < kWarmup; ++i) {
    launch_fill(gpu, d_in, n, seed++);
    scan();
  }
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));

  std::vector<float> times;
  times.reserve(kRepeats);
  for (int i = 0; i < kRepeats; ++i) {
    launch_fill(gpu, d_in, n, seed++);  // outside the timed region
    times.push_back(time_once(gpu, scan));
  }
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));

  // Check the last repeat against a wrapping u32 scan on the host.
  std::vector<uint32_t> h_in(n), h_out(n);
  CUDA_CHECK(cudaMemcpy(h_in.data(), d_in, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  uint32_t acc = 0;
  for (size_t i = 0; i < n; ++i) {
    if (h_out[i] != acc) {
      std::printf("FAIL scan N=%zu: first mismatch at %zu: got %u, expected %u\n", n, i, h_out[i], acc);
      std::exit(1);
    }
    acc += h_in[i];
  }

  report_cub("scan_exclusive_u32", "cub", log2n, n, times, temp_bytes, true, 8.0);  // read + write

  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_in));
}

void bench_copy(const Gpu& gpu, int log2n) {
  const size_t n = size_t(1) << log2n;  // u32 elements; log2n >= 2 so n4 is exact
  const size_t n4 = n / 4;
  const size_t bytes = n * sizeof(uint32_t);

  uint32_t* d_src = nullptr;
  uint32_t* d_dst = nullptr;
  CUDA_CHECK(cudaMalloc(&d_src, bytes));
  CUDA_CHECK(cudaMalloc(&d_dst, bytes));

  // One uint4 per thread; the grid-stride loop only matters if the grid would overflow.
  const size_t blocks = (n4 + kBlock - 1) / kBlock;
  const unsigned grid = unsigned(std::min<size_t>(blocks, 0x7fffffff));
  auto copy = [&] {
    copy_u32x4<<<grid, kBlock, 0, gpu.stream>>>(reinterpret_cast<const uint4*>(d_src),
                                                 reinterpret_cast<uint4*>(d_dst), n4);
    CUDA_CHECK_LAUNCH();
  };

  uint32_t seed = 0xc0ffee00U ^ uint32_t(log2n);
  for (int i = 0; i < kWarmup; ++i) {
    launch_fill(gpu, d_src, n, seed++);
    copy();
  }
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));

  std::vector<float> times;
  times.reserve(kRepeats);
  for (int i = 0; i < kRepeats; ++i) {
    launch_fill(gpu, d_src, n, seed++);
    times.push_back(time_once(gpu, copy));
  }
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));

  std::vector<uint32_t> h_src(n), h_dst(n);
  CUDA_CHECK(cudaMemcpy(h_src.data(), d_src, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_dst.data(), d_dst, bytes, cudaMemcpyDeviceToHost));
  if (std::memcmp(h_src.data(), h_dst.data(), bytes) != 0) {
    std::printf("FAIL copy N=%zu: destination differs from source\n", n);
    std::exit(1);
  }

  const double ms = median(times);
  const double gbps = 2.0 * double(bytes) / (ms * 1e-3) / 1e9;
  std::printf("cuda copy u32x4  N=2^%d u32  median %.4f ms  %.1f GB/s (read+write)  ok\n", log2n, ms, gbps);
  std::printf("RESULT\tcuda\tcopy_u32x4\tkernel\t%zu\t%.6f\t%.4f\t0\n", n, ms, gbps);
  std::fflush(stdout);

  CUDA_CHECK(cudaFree(d_dst));
  CUDA_CHECK(cudaFree(d_src));
}

__global__ void fill_iota(uint32_t* out, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = uint32_t(i);
  }
}

// A 64-bit finalizer (bijective), for the multiset check of sorted keys.
uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

template <class K>
bool key_less(K a, K b) {
  return a < b;
}

// Floats in the order CUB's bit twiddle gives (IEEE-754 totalOrder: -0.0 before +0.0).
template <>
bool key_less<float>(float a, float b) {
  uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  x = (x & 0x80000000U) ? ~x : (x | 0x80000000U);
  y = (y & 0x80000000U) ? ~y : (y | 0x80000000U);
  return x < y;
}

template <>
bool key_less<double>(double a, double b) {
  uint64_t x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  x = (x >> 63) ? ~x : (x | (uint64_t(1) << 63));
  y = (y >> 63) ? ~y : (y | (uint64_t(1) << 63));
  return x < y;
}

// Keys (and, with values, index payloads) sorted: ascending, and for pairs each value points
// at an input key equal to the output key, with equal keys keeping input order (stability).
template <class K, bool kPairs>
void bench_sort(const Gpu& gpu, const char* name, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);
  K* d_keys_in = nullptr;
  K* d_keys_out = nullptr;
  uint32_t* d_vals_in = nullptr;
  uint32_t* d_vals_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_keys_in, n * sizeof(K)));
  CUDA_CHECK(cudaMalloc(&d_keys_out, n * sizeof(K)));
  if (kPairs) {
    CUDA_CHECK(cudaMalloc(&d_vals_in, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_vals_out, n * sizeof(uint32_t)));
  }
  size_t temp_bytes = 0;
  size_t double_buffer_temp = 0;
  cub::DoubleBuffer<K> db_keys(d_keys_in, d_keys_out);
  cub::DoubleBuffer<uint32_t> db_vals(d_vals_in, d_vals_out);
  if (kPairs) {
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_keys_in, d_keys_out, d_vals_in,
                                               d_vals_out, num_items, 0, int(sizeof(K) * 8), gpu.stream));
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, double_buffer_temp, db_keys, db_vals, num_items, 0,
                                               int(sizeof(K) * 8), gpu.stream));
  } else {
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, d_keys_in, d_keys_out, num_items, 0,
                                              int(sizeof(K) * 8), gpu.stream));
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, double_buffer_temp, db_keys, num_items, 0,
                                              int(sizeof(K) * 8), gpu.stream));
  }
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto sort = [&] {
    size_t tb = temp_bytes;
    if (kPairs) {
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, tb, d_keys_in, d_keys_out, d_vals_in, d_vals_out,
                                                 num_items, 0, int(sizeof(K) * 8), gpu.stream));
    } else {
      CUDA_CHECK(cub::DeviceRadixSort::SortKeys(d_temp, tb, d_keys_in, d_keys_out, num_items, 0,
                                                int(sizeof(K) * 8), gpu.stream));
    }
    CUDA_CHECK_LAUNCH();
  };
  auto refill = [&](uint32_t seed) {
    fill_keys<K><<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_keys_in, n, seed);
    CUDA_CHECK_LAUNCH();
    if (kPairs) {
      fill_iota<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_vals_in, n);
      CUDA_CHECK_LAUNCH();
    }
  };
  const std::vector<float> times = time_fresh(gpu, 0x50f7U ^ uint32_t(log2n), refill, sort);
  std::vector<K> h_in(n), h_out(n);
  std::vector<uint32_t> h_vals(kPairs ? n : 0);
  CUDA_CHECK(cudaMemcpy(h_in.data(), d_keys_in, n * sizeof(K), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_keys_out, n * sizeof(K), cudaMemcpyDeviceToHost));
  if (kPairs) CUDA_CHECK(cudaMemcpy(h_vals.data(), d_vals_out, n * 4, cudaMemcpyDeviceToHost));
  // O(n) check: the output is ordered, and it holds the input's keys (pairs: the values are a
  // permutation naming equal input keys, equal keys in input order; keys alone: equal sums and
  // xors of a hash of every key's bits on both sides).
  std::vector<bool> named(kPairs ? n : 0);
  uint64_t sum_in = 0, sum_out = 0, xor_in = 0, xor_out = 0;
  for (size_t i = 0; i < n; ++i) {
    bool ok = i == 0 || !key_less<K>(h_out[i], h_out[i - 1]);
    if (ok && kPairs) {
      ok = h_vals[i] < n && !named[h_vals[i]] && std::memcmp(&h_in[h_vals[i]], &h_out[i], sizeof(K)) == 0 &&
           (i == 0 || std::memcmp(&h_out[i - 1], &h_out[i], sizeof(K)) != 0 || h_vals[i - 1] < h_vals[i]);
      if (ok) named[h_vals[i]] = true;
    }
    if (!ok) {
      std::printf("FAIL %s N=%zu at %zu\n", name, n, i);
      std::exit(1);
    }
    uint64_t a = 0, b = 0;
    std::memcpy(&a, &h_in[i], sizeof(K));
    std::memcpy(&b, &h_out[i], sizeof(K));
    a = mix64(a);
    b = mix64(b);
    sum_in += a;
    sum_out += b;
    xor_in ^= a;
    xor_out ^= b;
  }
  // The output's keys must be the input's (sums and XORs of mixed keys; the order is checked above).
  std::printf("%s N=2^%d: the DoubleBuffer API takes %zu B of temporary storage\n", name, log2n, double_buffer_temp);
  report_cub(name, "cub", log2n, n, times, temp_bytes, sum_in == sum_out && xor_in == xor_out);
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_keys_in));
  CUDA_CHECK(cudaFree(d_keys_out));
  if (kPairs) {
    CUDA_CHECK(cudaFree(d_vals_in));
    CUDA_CHECK(cudaFree(d_vals_out));
  }
}

void usage() {
  std::fprintf(stderr,
               "usage: cub_bench scan <log2 sizes...>   (each 1..30)\n"
               "       cub_bench copy <log2 size>       (2..30, u32 elements)\n"
               "       cub_bench sort_u32|sort_pairs|sort_u64|sort_f32|sort_pairs64|sort_i32|sort_i64|sort_f64 <log2 sizes...>\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const bool is_scan = std::strcmp(argv[1], "scan") == 0;
  const bool is_copy = std::strcmp(argv[1], "copy") == 0;
  const std::string mode = argv[1];
  const bool is_sort = mode.rfind("sort_", 0) == 0;
  if (!is_scan && !is_copy && !is_sort) usage();
  if (is_copy && argc != 3) usage();

  // Validate every size before touching the GPU.
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], is_copy ? 2 : 1, 30));

  cudaDeviceProp prop{};
  Gpu gpu = open_gpu(&prop);
  int runtime_version = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime_version));
#ifdef CUB_VERSION
  std::printf("device: %s (sm_%d%d, %d SMs), CUDA runtime %d, CUB %d\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, runtime_version, int(CUB_VERSION));
#else
  std::printf("device: %s (sm_%d%d, %d SMs), CUDA runtime %d\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, runtime_version);
#endif


  for (int log2n : sizes) {
    if (mode == "sort_u32") {
      bench_sort<uint32_t, false>(gpu, "sort_u32", log2n);
    } else if (mode == "sort_pairs") {
      bench_sort<uint32_t, true>(gpu, "sort_pairs_u32_u32", log2n);
    } else if (mode == "sort_u64") {
      bench_sort<uint64_t, false>(gpu, "sort_u64", log2n);
    } else if (mode == "sort_pairs64") {
      bench_sort<uint64_t, true>(gpu, "sort_pairs_u64_u32", log2n);
    } else if (mode == "sort_f32") {
      bench_sort<float, false>(gpu, "sort_f32", log2n);
    } else if (mode == "sort_i32") {
      bench_sort<int32_t, false>(gpu, "sort_i32", log2n);
    } else if (mode == "sort_i64") {
      bench_sort<int64_t, false>(gpu, "sort_i64", log2n);
    } else if (mode == "sort_f64") {
      bench_sort<double, false>(gpu, "sort_f64", log2n);
    } else if (is_sort) {
      usage();
    } else if (is_scan) {
      bench_scan(gpu, log2n);
    } else {
      bench_copy(gpu, log2n);
    }
  }

  close_gpu(gpu);
  return 0;
}
