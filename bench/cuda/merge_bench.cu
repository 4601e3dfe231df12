// CUB / Thrust baseline for the vkalgo merge benchmark (vkalgo-bench merge).
//
//   merge_bench copy <log2 size>                  uint4 copy kernel (bandwidth yardstick)
//   merge_bench merge_keys <log2 run sizes...>    cub::DeviceMerge::MergeKeys, u32, 2^k + 2^k
//   merge_bench merge_pairs <log2 run sizes...>   cub::DeviceMerge::MergePairs, u32 -> u32
//   merge_bench set_and|set_or|set_andnot|set_xor <log2 run sizes...>
//                                                 thrust::set_intersection / set_union /
//                                                 set_difference / set_symmetric_difference
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o merge_bench bench/cuda/merge_bench.cu
//
// Data (the same as vkalgo-bench merge): run r (0: A, 1: B) element i is
// 2 * i + (mix32(i * 2 + r + seed) & 1): both runs sorted and unique, closely interleaved, about
// a quarter of the values in both. Pairs carry values i (A) and i | 2^31 (B).
//
// Every measurement prints one tab-separated line for bench/compare.py:
//   RESULT <impl> <algo> <variant> <N = |A| + |B|> <median ms> <G input elements/s> <bytes moved>
// (copy: GB/s and 0). Bytes moved: merges read and write every key (and value); set operations
// read both inputs and write their output.
//
// Timing: a short spin kernel holds the stream while the host queues the start event, the work
// and the stop event, so the events bracket device time only. Thrust's set operations return
// the output's end, so they wait for the GPU inside the call: their stop event is queued after
// that wait (a few microseconds of host latency included). Thrust's temporary storage comes from
// a caching allocator, so no cudaMalloc is timed. The median of the timed repeats is reported.

#include <cub/device/device_merge.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/set_operations.h>
#include <thrust/system/cuda/execution_policy.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "bench_common.h"
#include "launch_hook.h"

namespace {

__host__ __device__ __forceinline__ uint32_t run_key(uint32_t i, uint32_t run, uint32_t seed) {
  return 2U * i + (mix32(i * 2U + run + seed) & 1U);
}

__global__ void fill_run(uint32_t* keys, uint32_t* values, size_t n, uint32_t run, uint32_t seed) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[i] = run_key(uint32_t(i), run, seed);
    if (values != nullptr) {
      values[i] = uint32_t(i) | (run << 31);
    }
  }
}

// Thrust's temporary storage from a cache of device blocks (after Thrust's
// custom_temporary_allocation example), so that no cudaMalloc/cudaFree is timed.
struct CachingAllocator {
  using value_type = char;
  std::multimap<std::ptrdiff_t, char*> free_blocks;
  std::map<char*, std::ptrdiff_t> in_use;

  char* allocate(std::ptrdiff_t bytes) {
    char* p = nullptr;
    auto it = free_blocks.lower_bound(bytes);
    if (it != free_blocks.end()) {
      bytes = it->first;
      p = it->second;
      free_blocks.erase(it);
    } else {
      CUDA_CHECK(cudaMalloc(&p, size_t(bytes)));
    }
    in_use.emplace(p, bytes);
    return p;
  }

  void deallocate(char* p, size_t) {
    auto it = in_use.find(p);
    if (it == in_use.end()) {
      std::fprintf(stderr, "CachingAllocator: unknown block\n");
      std::exit(2);
    }
    free_blocks.emplace(it->second, p);
    in_use.erase(it);
  }

  ~CachingAllocator() {
    for (auto& b : free_blocks) cudaFree(b.second);
    for (auto& b : in_use) cudaFree(b.first);
  }
};

void bench_copy(const Gpu& gpu, int log2n) {
  const size_t n = size_t(1) << log2n;
  const size_t n4 = n / 4;
  const size_t bytes = n * sizeof(uint32_t);
  uint32_t* d_src = nullptr;
  uint32_t* d_dst = nullptr;
  CUDA_CHECK(cudaMalloc(&d_src, bytes));
  CUDA_CHECK(cudaMalloc(&d_dst, bytes));
  fill_run<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_src, nullptr, n, 0, 1);
  CUDA_CHECK_LAUNCH();
  const unsigned grid = unsigned(std::min<size_t>((n4 + kBlock - 1) / kBlock, 0x7fffffff));
  auto copy = [&] {
    copy_u32x4<<<grid, kBlock, 0, gpu.stream>>>(reinterpret_cast<const uint4*>(d_src),
                                                 reinterpret_cast<uint4*>(d_dst), n4);
    CUDA_CHECK_LAUNCH();
  };
  for (int i = 0; i < kWarmup; ++i) copy();
  std::vector<float> times;
  for (int i = 0; i < kRepeats; ++i) times.push_back(time_once(gpu, copy));
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
  std::vector<uint32_t> h_src(n), h_dst(n);
  CUDA_CHECK(cudaMemcpy(h_src.data(), d_src, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_dst.data(), d_dst, bytes, cudaMemcpyDeviceToHost));
  if (std::memcmp(h_src.data(), h_dst.data(), bytes) != 0) {
    std::printf("FAIL copy: destination differs from source\n");
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

// The two runs (and values) on the device and on the host.
struct Runs {
  size_t n = 0;
  uint32_t* keys[2] = {nullptr, nullptr};
  uint32_t* values[2] = {nullptr, nullptr};
  std::vector<uint32_t> host_keys[2];

  Runs(const Gpu& gpu, int log2n, bool with_values) : n(size_t(1) << log2n) {
    for (uint32_t r = 0; r < 2; ++r) {
      CUDA_CHECK(cudaMalloc(&keys[r], n * 4));
      if (with_values) CUDA_CHECK(cudaMalloc(&values[r], n * 4));
      fill_run<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(keys[r], values[r], n, r, uint32_t(log2n));
      CUDA_CHECK_LAUNCH();
      host_keys[r].resize(n);
    }
    CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
    for (int r = 0; r < 2; ++r) {
      CUDA_CHECK(cudaMemcpy(host_keys[r].data(), keys[r], n * 4, cudaMemcpyDeviceToHost));
    }
  }

  ~Runs() {
    for (int r = 0; r < 2; ++r) {
      cudaFree(keys[r]);
      if (values[r] != nullptr) cudaFree(values[r]);
    }
  }
};

void bench_merge(const Gpu& gpu, bool pairs, int log2n) {
  Runs runs(gpu, log2n, pairs);
  const size_t n = runs.n;
  const int64_t count = int64_t(n);
  uint32_t* d_out_keys = nullptr;
  uint32_t* d_out_values = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out_keys, 2 * n * 4));
  if (pairs) CUDA_CHECK(cudaMalloc(&d_out_values, 2 * n * 4));
  size_t temp_bytes = 0;
  const auto less = ::cuda::std::less<uint32_t>{};
  if (pairs) {
    CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, temp_bytes, runs.keys[0], runs.values[0], count, runs.keys[1],
                                            runs.values[1], count, d_out_keys, d_out_values, less, gpu.stream));
  } else {
    CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, runs.keys[0], count, runs.keys[1], count, d_out_keys,
                                           less, gpu.stream));
  }
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto merge = [&] {
    size_t tb = temp_bytes;
    if (pairs) {
      CUDA_CHECK(cub::DeviceMerge::MergePairs(d_temp, tb, runs.keys[0], runs.values[0], count, runs.keys[1],
                                              runs.values[1], count, d_out_keys, d_out_values, less, gpu.stream));
    } else {
      CUDA_CHECK(cub::DeviceMerge::MergeKeys(d_temp, tb, runs.keys[0], count, runs.keys[1], count, d_out_keys, less,
                                             gpu.stream));
    }
    CUDA_CHECK_LAUNCH();
  };
  for (int i = 0; i < kWarmup; ++i) merge();
  std::vector<float> times;
  for (int i = 0; i < kRepeats; ++i) times.push_back(time_once(gpu, merge));
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));

  // Check: keys equal the host merge; every value names an input element with the output's key
  // (DeviceMerge is unstable, so equal keys may come in either order).
  std::vector<uint32_t> want(2 * n), got(2 * n), got_values(pairs ? 2 * n : 0);
  std::merge(runs.host_keys[0].begin(), runs.host_keys[0].end(), runs.host_keys[1].begin(), runs.host_keys[1].end(),
             want.begin());
  CUDA_CHECK(cudaMemcpy(got.data(), d_out_keys, 2 * n * 4, cudaMemcpyDeviceToHost));
  if (pairs) CUDA_CHECK(cudaMemcpy(got_values.data(), d_out_values, 2 * n * 4, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < 2 * n; ++i) {
    bool ok = got[i] == want[i];
    if (ok && pairs) {
      const uint32_t v = got_values[i];
      const uint32_t run = v >> 31;
      const uint32_t index = v & 0x7fffffffU;
      ok = index < n && runs.host_keys[run][index] == got[i];
    }
    if (!ok) {
      std::printf("FAIL merge %s 2^%d: first mismatch at %zu\n", pairs ? "pairs" : "keys", log2n, i);
      std::exit(1);
    }
  }
  const double ms = median(times);
  const double gelems = double(2 * n) / (ms * 1e-3) / 1e9;
  const double bytes = double(2 * n) * (pairs ? 16.0 : 8.0);
  const char* algo = pairs ? "merge_pairs_u32_u32" : "merge_keys_u32";
  std::printf("cub DeviceMerge %s  2^%d + 2^%d  median %.4f ms  %.2f G elem/s  %.1f GB/s  temp %zu B  ok\n",
              pairs ? "MergePairs u32->u32" : "MergeKeys u32", log2n, log2n, ms, gelems, bytes / (ms * 1e-3) / 1e9,
              temp_bytes);
  std::printf("RESULT\tcub\t%s\tcub\t%zu\t%.6f\t%.4f\t%.0f\n", algo, 2 * n, ms, gelems, bytes);
  std::fflush(stdout);
  CUDA_CHECK(cudaFree(d_temp));
  if (d_out_values != nullptr) CUDA_CHECK(cudaFree(d_out_values));
  CUDA_CHECK(cudaFree(d_out_keys));
}

void bench_set(const Gpu& gpu, const std::string& op, int log2n) {
  Runs runs(gpu, log2n, false);
  const size_t n = runs.n;
  uint32_t* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, 2 * n * 4));
  CachingAllocator alloc;
  const uint32_t* a = runs.keys[0];
  const uint32_t* b = runs.keys[1];
  size_t out_count = 0;
  auto run = [&] {
    auto policy = thrust::cuda::par(alloc).on(gpu.stream);
    uint32_t* end = nullptr;
    if (op == "set_and") {
      end = thrust::set_intersection(policy, a, a + n, b, b + n, d_out);
    } else if (op == "set_or") {
      end = thrust::set_union(policy, a, a + n, b, b + n, d_out);
    } else if (op == "set_andnot") {
      end = thrust::set_difference(policy, a, a + n, b, b + n, d_out);
    } else {
      end = thrust::set_symmetric_difference(policy, a, a + n, b, b + n, d_out);
    }
    out_count = size_t(end - d_out);
  };
  for (int i = 0; i < kWarmup; ++i) run();
  std::vector<float> times;
  for (int i = 0; i < kRepeats; ++i) times.push_back(time_once(gpu, run));
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));

  const auto& ha = runs.host_keys[0];
  const auto& hb = runs.host_keys[1];
  std::vector<uint32_t> want;
  if (op == "set_and") {
    std::set_intersection(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(want));
  } else if (op == "set_or") {
    std::set_union(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(want));
  } else if (op == "set_andnot") {
    std::set_difference(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(want));
  } else {
    std::set_symmetric_difference(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(want));
  }
  std::vector<uint32_t> got(out_count);
  if (out_count > 0) CUDA_CHECK(cudaMemcpy(got.data(), d_out, out_count * 4, cudaMemcpyDeviceToHost));
  if (got != want) {
    std::printf("FAIL %s 2^%d: %zu keys, want %zu\n", op.c_str(), log2n, out_count, want.size());
    std::exit(1);
  }
  const double ms = median(times);
  const double gelems = double(2 * n) / (ms * 1e-3) / 1e9;
  const double bytes = double(2 * n + out_count) * 4.0;
  std::printf("thrust %s u32  2^%d + 2^%d  median %.4f ms  %.2f G input elem/s  %.1f GB/s  output %zu  ok\n",
              op.c_str(), log2n, log2n, ms, gelems, bytes / (ms * 1e-3) / 1e9, out_count);
  std::printf("RESULT\tthrust\t%s_u32\tthrust\t%zu\t%.6f\t%.4f\t%.0f\n", op.c_str(), 2 * n, ms, gelems, bytes);
  std::fflush(stdout);
  CUDA_CHECK(cudaFree(d_out));
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: merge_bench copy <log2 size> | merge_keys|merge_pairs <log2 run sizes...> |\n"
               "       set_and|set_or|set_andnot|set_xor <log2 run sizes...>\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string mode = argv[1];
  const bool is_copy = mode == "copy";
  const bool is_merge = mode == "merge_keys" || mode == "merge_pairs";
  const bool is_set = mode == "set_and" || mode == "set_or" || mode == "set_andnot" || mode == "set_xor";
  if (!is_copy && !is_merge && !is_set) usage();
  if (is_copy && argc != 3) usage();
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], is_copy ? 2 : 1, is_copy ? 30 : 29));

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
    if (is_copy) {
      bench_copy(gpu, log2n);
    } else if (is_merge) {
      bench_merge(gpu, mode == "merge_pairs", log2n);
    } else {
      bench_set(gpu, mode, log2n);
    }
  }
  close_gpu(gpu);
  return 0;
}
