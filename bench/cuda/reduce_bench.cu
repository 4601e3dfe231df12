// CUB baseline for `vkalgo-bench reduce`: cub::DeviceReduce::Sum / Min / Max.
//
//   reduce_bench <case> <log2 sizes...>
//   cases: sum_u32 min_u32 max_u32 sum_u64 max_u64 min_i32
//
// Each repeat reduces fresh full-range random input written just before it (outside the timed
// region), as vkalgo-bench does; the last repeat's result is checked against a host reduce.
// Prints `RESULT cub reduce_<case> cub <N> <median ms> <G elements/s> <temp bytes>` lines
// (bench/compare.py).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -I bench/cuda -o reduce_bench bench/cuda/reduce_bench.cu

#include <cub/cub.cuh>
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

// The host reduce the GPU's result must equal (integer sums wrap).
template <class K>
K host_reduce(const std::vector<K>& in, Op op) {
  K acc = op == Op::Sum ? K(0) : op == Op::Min ? std::numeric_limits<K>::max() : std::numeric_limits<K>::lowest();
  for (K k : in) {
    if (op == Op::Sum) {
      acc = K(acc + k);
    } else if (op == Op::Min) {
      acc = k < acc ? k : acc;
    } else {
      acc = k > acc ? k : acc;
    }
  }
  return acc;
}

template <class K>
cudaError_t device_reduce(void* temp, size_t& temp_bytes, const K* in, K* out, int n, Op op, cudaStream_t s) {
  switch (op) {
    case Op::Sum:
      return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, s);
    case Op::Min:
      return cub::DeviceReduce::Min(temp, temp_bytes, in, out, n, s);
    default:
      return cub::DeviceReduce::Max(temp, temp_bytes, in, out, n, s);
  }
}

template <class K>
void bench_reduce(const Gpu& gpu, const std::string& name, Op op, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);  // log2n <= 30
  K* d_in = nullptr;
  K* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(K)));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(K)));
  size_t temp_bytes = 0;
  CUDA_CHECK(device_reduce<K>(nullptr, temp_bytes, d_in, d_out, num_items, op, gpu.stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto reduce = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(device_reduce<K>(d_temp, tb, d_in, d_out, num_items, op, gpu.stream));
    CUDA_CHECK_LAUNCH();
  };
  auto refill = [&](uint32_t seed) {
    fill_keys<K><<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_in, n, seed);
    CUDA_CHECK_LAUNCH();
  };
  const std::vector<float> times = time_fresh(gpu, 0x7ed0U ^ uint32_t(log2n), refill, reduce);
  std::vector<K> h_in(n);
  K got{};
  CUDA_CHECK(cudaMemcpy(h_in.data(), d_in, n * sizeof(K), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof(K), cudaMemcpyDeviceToHost));
  report_cub("reduce_" + name, "cub", log2n, n, times, temp_bytes, got == host_reduce(h_in, op), sizeof(K));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_in));
}

void usage() {
  std::fprintf(stderr, "usage: reduce_bench sum_u32|min_u32|max_u32|sum_u64|max_u64|min_i32 <log2 sizes...> (1..30)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string mode = argv[1];
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], 1, 30));
  const char* known[] = {"sum_u32", "min_u32", "max_u32", "sum_u64", "max_u64", "min_i32"};
  bool ok = false;
  for (const char* k : known) ok = ok || mode == k;
  if (!ok) usage();

  Gpu gpu = open_gpu();
  const Op op = mode.rfind("sum", 0) == 0 ? Op::Sum : mode.rfind("min", 0) == 0 ? Op::Min : Op::Max;
  for (int log2n : sizes) {
    if (mode.find("u64") != std::string::npos) {
      bench_reduce<uint64_t>(gpu, mode, op, log2n);
    } else if (mode.find("i32") != std::string::npos) {
      bench_reduce<int32_t>(gpu, mode, op, log2n);
    } else {
      bench_reduce<uint32_t>(gpu, mode, op, log2n);
    }
  }
  close_gpu(gpu);
  return 0;
}
