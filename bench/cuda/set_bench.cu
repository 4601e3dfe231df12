// CUDA baselines of the set benchmark (bench/gpu_set.sh): what a CUDA user does without a
// chunked set.
//   flat bitmaps of 2^32 bits (512 MiB each): c = a op b with the popcount of c (AND, OR,
//     ANDNOT, XOR), one pass (reads a and b, writes c);
//   sorted array of N random values over 2^32 -> flat bitmap (clear + atomicOr per value);
//   flat bitmap -> sorted array (popcount per word, cub exclusive scan, scatter);
//   thrust::set_intersection / thrust::set_union / thrust::set_difference of two sorted
//     unique arrays of N values (the sorted-array representation of the same sets).
// Each timed with CUDA events, median of `reps` after a warm-up; results checked on the host.
// Usage: set_bench [log2n=24] [reps=5]
// Output: RESULT cuda <name> <case> <N> <median ms> <G values/s> <extra>
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/set_operations.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <vector>

#include "cuda_check.h"

static const uint64_t kWords = 1ull << 27;  // 2^32 bits as u32 words

__global__ void bitmap_op(const uint32_t* a, const uint32_t* b, uint32_t* c, int op,
                          unsigned long long* count) {
  unsigned long long local = 0;
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < kWords / 4;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint4 x = reinterpret_cast<const uint4*>(a)[i];
    uint4 y = reinterpret_cast<const uint4*>(b)[i];
    uint4 r;
    if (op == 0) r = make_uint4(x.x & y.x, x.y & y.y, x.z & y.z, x.w & y.w);
    else if (op == 1) r = make_uint4(x.x | y.x, x.y | y.y, x.z | y.z, x.w | y.w);
    else if (op == 2) r = make_uint4(x.x & ~y.x, x.y & ~y.y, x.z & ~y.z, x.w & ~y.w);
    else r = make_uint4(x.x ^ y.x, x.y ^ y.y, x.z ^ y.z, x.w ^ y.w);
    reinterpret_cast<uint4*>(c)[i] = r;
    local += __popc(r.x) + __popc(r.y) + __popc(r.z) + __popc(r.w);
  }
  for (int o = 16; o > 0; o >>= 1) local += __shfl_down_sync(0xffffffffu, local, o);
  if ((threadIdx.x & 31) == 0 && local) atomicAdd(count, local);
}

__global__ void set_bits(const uint32_t* v, uint64_t n, uint32_t* bitmap) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t x = v[i];
    atomicOr(&bitmap[x >> 5], 1u << (x & 31));
  }
}

__global__ void word_counts(const uint32_t* bitmap, uint32_t* counts) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < kWords;
       i += (uint64_t)gridDim.x * blockDim.x)
    counts[i] = __popc(bitmap[i]);
}

__global__ void scatter_bits(const uint32_t* bitmap, const uint32_t* offsets, uint32_t* out) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < kWords;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t w = bitmap[i];
    uint32_t p = offsets[i];
    while (w) {
      int b = __ffs(w) - 1;
      w &= w - 1;
      out[p++] = (uint32_t)(i * 32 + b);
    }
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static double time_ms(int reps, const std::function<void()>& f) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  f();  // warm-up
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int r = 0; r < reps; r++) {
    CUDA_CHECK(cudaEventRecord(start));
    f();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    t.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(t);
}

static void result(const char* name, const char* cs, uint64_t n, double ms, const char* extra) {
  std::printf("%-22s %-10s n=%-10llu %9.4f ms %8.2f G/s %s\n", name, cs, (unsigned long long)n, ms,
              n / (ms * 1e-3) / 1e9, extra);
  std::printf("RESULT\tcuda\t%s\t%s\t%llu\t%.6f\t%.3f\t%s\n", name, cs, (unsigned long long)n, ms,
              n / (ms * 1e-3) / 1e9, extra);
  std::fflush(stdout);
}

static std::vector<uint32_t> sorted_unique(uint64_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull | 1;
  std::vector<uint32_t> v(n);
  for (auto& x : v) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x = (uint32_t)(s >> 32);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 24;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  int grid = prop.multiProcessorCount * 8;

  std::vector<uint32_t> ha = sorted_unique(1ull << log2n, 1), hb = sorted_unique(1ull << log2n, 2);
  uint32_t *a, *b, *c, *va, *vb, *counts, *offsets, *out;
  unsigned long long* count;
  CUDA_CHECK(cudaMalloc(&a, kWords * 4));
  CUDA_CHECK(cudaMalloc(&b, kWords * 4));
  CUDA_CHECK(cudaMalloc(&c, kWords * 4));
  CUDA_CHECK(cudaMalloc(&counts, kWords * 4));
  CUDA_CHECK(cudaMalloc(&offsets, kWords * 4));
  CUDA_CHECK(cudaMalloc(&count, 8));
  CUDA_CHECK(cudaMalloc(&va, ha.size() * 4));
  CUDA_CHECK(cudaMalloc(&vb, hb.size() * 4));
  CUDA_CHECK(cudaMalloc(&out, 2 * ha.size() * 4));
  CUDA_CHECK(cudaMemcpy(va, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(vb, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));

  // Copy bandwidth yardstick: 512 MiB device-to-device.
  double copy_ms = time_ms(reps, [&] { CUDA_CHECK(cudaMemcpyAsync(c, a, kWords * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("cudaMemcpy of 512 MiB: %.4f ms, %.0f GB/s (read + write)\n", copy_ms, 2.0 * kWords * 4 / (copy_ms * 1e-3) / 1e9);

  // Array -> flat bitmap (the clear included).
  double ms = time_ms(reps, [&] {
    CUDA_CHECK(cudaMemsetAsync(a, 0, kWords * 4));
    set_bits<<<grid, 256>>>(va, ha.size(), a);
    CUDA_CHECK_LAUNCH();
  });
  result("array_to_flat_bitmap", "sparse", ha.size(), ms, "");
  CUDA_CHECK(cudaMemset(b, 0, kWords * 4));
  set_bits<<<grid, 256>>>(vb, hb.size(), b);
  CUDA_CHECK_LAUNCH();

  const char* names[4] = {"flat_and", "flat_or", "flat_andnot", "flat_xor"};
  for (int op = 0; op < 4; op++) {
    ms = time_ms(reps, [&] {
      CUDA_CHECK(cudaMemsetAsync(count, 0, 8));
      bitmap_op<<<grid, 256>>>(a, b, c, op, count);
      CUDA_CHECK_LAUNCH();
    });
    unsigned long long got = 0;
    CUDA_CHECK(cudaMemcpy(&got, count, 8, cudaMemcpyDeviceToHost));
    char extra[128];
    std::snprintf(extra, sizeof extra, "card=%llu,%.1f%%copyBW", got, 100.0 * copy_ms / ms * 1.5);
    result(names[op], "sparse", ha.size() + hb.size(), ms, extra);
  }

  // Flat bitmap -> sorted array (a).
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts, offsets, (int64_t)kWords));
  void* temp;
  CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
  ms = time_ms(reps, [&] {
    word_counts<<<grid, 256>>>(a, counts);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, counts, offsets, (int64_t)kWords));
    scatter_bits<<<grid, 256>>>(a, offsets, out);
    CUDA_CHECK_LAUNCH();
  });
  std::vector<uint32_t> back(ha.size());
  CUDA_CHECK(cudaMemcpy(back.data(), out, ha.size() * 4, cudaMemcpyDeviceToHost));
  result("flat_bitmap_to_array", "sparse", ha.size(), ms, back == ha ? "verified" : "WRONG");

  // Thrust on the sorted arrays.
  thrust::device_ptr<uint32_t> pa(va), pb(vb), po(out);
  uint64_t n_and = 0, n_or = 0, n_diff = 0;
  ms = time_ms(reps, [&] {
    n_and = thrust::set_intersection(thrust::device, pa, pa + ha.size(), pb, pb + hb.size(), po) - po;
  });
  result("thrust_set_intersection", "sparse", ha.size() + hb.size(), ms, "");
  ms = time_ms(reps, [&] {
    n_or = thrust::set_union(thrust::device, pa, pa + ha.size(), pb, pb + hb.size(), po) - po;
  });
  result("thrust_set_union", "sparse", ha.size() + hb.size(), ms, "");
  ms = time_ms(reps, [&] {
    n_diff = thrust::set_difference(thrust::device, pa, pa + ha.size(), pb, pb + hb.size(), po) - po;
  });
  result("thrust_set_difference", "sparse", ha.size() + hb.size(), ms, "");
  std::vector<uint32_t> inter;
  std::set_intersection(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(inter));
  bool ok = n_and == inter.size() && n_or == ha.size() + hb.size() - inter.size() && n_diff == ha.size() - inter.size();
  std::printf("thrust results %s\n", ok ? "verified" : "WRONG");
  return ok && back == ha ? 0 : 1;
}
