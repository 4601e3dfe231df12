// CUB baseline for the typed rows of `vkalgo-bench scan` (`--types`): cub::DeviceScan
// ExclusiveSum / ExclusiveScan with cuda::maximum / cuda::minimum on other key types.
//
//   scan_typed_bench <case> <log2 sizes...>
//   cases: sum_u64 sum_f32 max_i32 min_u64
//
// Integer cases scan fresh full-range random input written just before each repeat (outside
// the timed region), as vkalgo-bench does; sum_f32 scans one input of multiples of 0.5 in
// [-3.5, 3.5] every repeat (every prefix exact in any association order, so the check is
// exact; vkalgo-bench does the same). The last repeat is checked against a host scan. Prints
// `RESULT cub scan_exclusive_<case> cub <N> <median ms> <G elements/s> <temp bytes>` lines
// (bench/compare.py).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o scan_typed_bench bench/cuda/scan_typed_bench.cu

#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

enum class Op { Sum, Min, Max };

// Multiples of 0.5 in [-3.5, 3.5] (the sum_f32 input; the same values as vkalgo-bench's).
__global__ void fill_halves(float* out, size_t n, uint32_t seed) {
  const uint32_t salt = mix32(seed * 0x9e3779b9U + 0x632be5abU);
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = float(int(mix32(uint32_t(i) * 0x9e3779b9U + salt) >> 29) - 4) + 0.5f;
  }
}

// The identity the exclusive scan starts from.
template <class K>
K identity(Op op) {
  return op == Op::Sum ? K(0) : op == Op::Min ? std::numeric_limits<K>::max() : std::numeric_limits<K>::lowest();
}

template <class K>
cudaError_t device_scan(void* temp, size_t& temp_bytes, const K* in, K* out, int n, Op op, cudaStream_t s) {
  switch (op) {
    case Op::Sum:
      return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, s);
    case Op::Min:
      return cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, cuda::minimum<K>{}, identity<K>(op), n, s);
    default:
      return cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, cuda::maximum<K>{}, identity<K>(op), n, s);
  }
}

template <class K>
void bench_scan(const Gpu& gpu, const std::string& name, Op op, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);  // log2n <= 30
  const bool fixed = std::is_same<K, float>::value;
  K* d_in = nullptr;
  K* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(K)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(K)));
  size_t temp_bytes = 0;
  CUDA_CHECK(device_scan<K>(nullptr, temp_bytes, d_in, d_out, num_items, op, gpu.stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto scan = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(device_scan<K>(d_temp, tb, d_in, d_out, num_items, op, gpu.stream));
    CUDA_CHECK_LAUNCH();
  };
  if (fixed) {
    fill_halves<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(reinterpret_cast<float*>(d_in), n,
                                                                     0x5ca7U ^ uint32_t(log2n));
    CUDA_CHECK_LAUNCH();
  }
  auto refill = [&](uint32_t seed) {
    if (!fixed) {
      fill_keys<K><<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_in, n, seed);
      CUDA_CHECK_LAUNCH();
    }
  };
  const std::vector<float> times = time_fresh(gpu, 0x5ca9U ^ uint32_t(log2n), refill, scan);
  std::vector<K> h_in(n), h_out(n);
  CUDA_CHECK(cudaMemcpy(h_in.data(), d_in, n * sizeof(K), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(K), cudaMemcpyDeviceToHost));
  K acc = identity<K>(op);
  for (size_t i = 0; i < n; ++i) {
    if (std::memcmp(&h_out[i], &acc, sizeof(K)) != 0) {
      std::printf("FAIL scan_exclusive_%s N=%zu: first mismatch at %zu\n", name.c_str(), n, i);
      std::exit(1);
    }
    const K k = h_in[i];
    acc = op == Op::Sum ? K(acc + k) : op == Op::Min ? (k < acc ? k : acc) : (k > acc ? k : acc);
  }
  report_cub("scan_exclusive_" + name, "cub", log2n, n, times, temp_bytes, true, 2.0 * sizeof(K));  // read + write
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_in));
}

void usage() {
  std::fprintf(stderr, "usage: scan_typed_bench sum_u64|sum_f32|max_i32|min_u64 <log2 sizes...> (1..30)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string mode = argv[1];
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], 1, 30));
  Gpu gpu = open_gpu();
  for (int log2n : sizes) {
    if (mode == "sum_u64") {
      bench_scan<uint64_t>(gpu, mode, Op::Sum, log2n);
    } else if (mode == "sum_f32") {
      bench_scan<float>(gpu, mode, Op::Sum, log2n);
    } else if (mode == "max_i32") {
      bench_scan<int32_t>(gpu, mode, Op::Max, log2n);
    } else if (mode == "min_u64") {
      bench_scan<uint64_t>(gpu, mode, Op::Min, log2n);
    } else {
      usage();
    }
  }
  close_gpu(gpu);
  return 0;
}
