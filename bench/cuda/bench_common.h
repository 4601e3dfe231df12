// Timing and data helpers shared by the CUB baselines (cub_bench.cu, merge_bench.cu,
// multisplit_bench.cu). Each benchmark is one translation unit, so everything here has
// internal linkage.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.h"

namespace {

constexpr int kWarmup = 3;
constexpr int kRepeats = 20;
constexpr int kBlock = 256;
// ~100 us at H100/H200 SM clocks; long enough for the host to queue one repeat's work.
constexpr long long kSpinCycles = 200000;

// Integer finalizer-style hash: a bijection on 32-bit values with good avalanche.
__host__ __device__ __forceinline__ uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Plain vectorized copy, one uint4 per thread per iteration (the bandwidth yardstick).
__global__ void copy_u32x4(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n4) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    dst[i] = src[i];
  }
}

// Random keys of every width: 4-byte keys from one 32-bit draw, 8-byte keys from two (floats
// with the exponent's top bit clear, so no NaN or infinity).
template <class K>
__global__ void fill_keys(K* out, size_t n, uint32_t seed) {
  const uint32_t salt = mix32(seed * 0x9e3779b9U + 0x632be5abU);
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const uint32_t lo = mix32(uint32_t(i) * 0x9e3779b9U + salt);
    if constexpr (std::is_same<K, double>::value) {
      const uint32_t hi = mix32(lo ^ 0x85ebca6bU ^ uint32_t(i >> 32)) & 0xbfffffffU;
      out[i] = __longlong_as_double((long long)((uint64_t(hi) << 32) | lo));
    } else if constexpr (sizeof(K) == 8) {
      const uint32_t hi = mix32(lo ^ 0x85ebca6bU ^ uint32_t(i >> 32));
      out[i] = K((uint64_t(hi) << 32) | lo);
    } else if constexpr (std::is_same<K, float>::value) {
      const uint32_t bits = lo & 0xbfffffffU;
      out[i] = __uint_as_float(bits);
    } else {
      out[i] = K(lo);
    }
  }
}

// Busy-waits on one thread so that the work queued behind it starts back to back.
__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// The stream, timing events and multiprocessor count every measurement uses.
struct Gpu {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  int sm_count = 0;
};

// The current device's stream, timing events and multiprocessor count; its properties in
// `*prop` where given.
Gpu open_gpu(cudaDeviceProp* prop = nullptr) {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  if (prop) *prop = p;
  Gpu gpu;
  gpu.sm_count = p.multiProcessorCount;
  CUDA_CHECK(cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreate(&gpu.start));
  CUDA_CHECK(cudaEventCreate(&gpu.stop));
  return gpu;
}

// Releases what open_gpu made.
void close_gpu(Gpu& gpu) {
  CUDA_CHECK(cudaEventDestroy(gpu.stop));
  CUDA_CHECK(cudaEventDestroy(gpu.start));
  CUDA_CHECK(cudaStreamDestroy(gpu.stream));
}

// Blocks of kBlock threads for `items` items, at most 32 per multiprocessor (grid-stride loops
// cover the rest).
unsigned grid_for(size_t items, int sm_count) {
  const size_t blocks = (items + kBlock - 1) / kBlock;
  const size_t cap = size_t(sm_count) * 32;
  return unsigned(std::max<size_t>(1, std::min(blocks, cap)));
}

// Times one call of `work` (which only enqueues onto gpu.stream) in milliseconds: a spin kernel
// holds the stream while the host queues the events and the work, so they bracket device time.
template <class Work>
float time_once(const Gpu& gpu, Work&& work) {
  spin<<<1, 1, 0, gpu.stream>>>(kSpinCycles);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaEventRecord(gpu.start, gpu.stream));
  work();
  CUDA_CHECK(cudaEventRecord(gpu.stop, gpu.stream));
  CUDA_CHECK(cudaEventSynchronize(gpu.stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, gpu.start, gpu.stop));
  return ms;
}

// The median ms of kRepeats timed calls of `work`, after kWarmup untimed ones, each call after
// `refill(seed)` (outside the timing) with seeds counting up from `seed`: fresh input for every
// repetition (a refill that does nothing: the same input every time). Returns with the
// stream synchronized.
template <class Refill, class Work>
std::vector<float> time_fresh(const Gpu& gpu, uint32_t seed, Refill&& refill, Work&& work) {
  for (int i = 0; i < kWarmup; ++i) {
    refill(seed++);
    work();
  }
  std::vector<float> times;
  for (int i = 0; i < kRepeats; ++i) {
    refill(seed++);
    times.push_back(time_once(gpu, work));
  }
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
  return times;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? double(v[m]) : 0.5 * (double(v[m - 1]) + double(v[m]));
}

// One CUB row after its timed calls: with `ok` false prints `FAIL <algo> <variant> N=<n>` and
// exits 1; else prints a line for people (median ms, G elements/s, GB/s where
// `bytes_per_element` > 0, temporary bytes) and the record bench/compare.py reads:
// `RESULT cub <algo> <variant> <n> <median ms> <G elements/s> <temp bytes>`.
void report_cub(const std::string& algo, const std::string& variant, int log2n, size_t n,
                const std::vector<float>& times, size_t temp_bytes, bool ok, double bytes_per_element = 0.0) {
  if (!ok) {
    std::printf("FAIL %s %s N=%zu\n", algo.c_str(), variant.c_str(), n);
    std::exit(1);
  }
  const double ms = median(times);
  const double gelems = double(n) / (ms * 1e-3) / 1e9;
  std::printf("cub %s %s N=2^%d  median %.4f ms  %.2f G elements/s", algo.c_str(), variant.c_str(), log2n, ms, gelems);
  if (bytes_per_element > 0.0) std::printf("  %.0f GB/s", gelems * bytes_per_element);
  std::printf("  temp %zu B  ok\n", temp_bytes);
  std::printf("RESULT\tcub\t%s\t%s\t%zu\t%.6f\t%.4f\t%zu\n", algo.c_str(), variant.c_str(), n, ms, gelems,
              temp_bytes);
  std::fflush(stdout);
}

// Parses a log2 size in [lo, hi]; exits with a message otherwise.
int parse_log2(const char* s, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "invalid log2 size '%s' (expected %d..%d)\n", s, lo, hi);
    std::exit(2);
  }
  return int(v);
}

}  // namespace
