// CUB baseline for `vkalgo-bench select`: cub::DeviceSelect::Flagged / If / Unique /
// UniqueByKey, and Flagged over zipped keys and values for the flagged pairs.
//
//   select_bench <case> <log2 sizes...>
//   cases: flagged_u32 if_u32 unique_u32 flagged_u32_pairs unique_u32_pairs
//
// Inputs as vkalgo-bench select makes them (crates/vkalgo-bench/src/select/mod.rs), written on
// the GPU once per size: keys random_values(n, 1), values random_values(n, 4), flags the low bit
// of random_values(n, 2) (a byte each), unique's keys the low bit of random_values(n, 3); the
// predicate keeps even keys. The last repeat's output is checked against a host select.
// Prints `RESULT cub select_<case> cub <N> <median ms> <G elements/s> <temp bytes>` lines
// (bench/compare.py).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -I bench/cuda -o select_bench bench/cuda/select_bench.cu

#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <thrust/iterator/zip_iterator.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

// vkalgo-bench's random_values(n, seed) (crates/vkalgo-bench/src/harness/fresh.rs).
__host__ __device__ uint32_t random_value(size_t i, uint32_t seed) {
  const uint32_t salt = mix32(seed * 0x9e3779b9U + 0x632be5abU);
  return mix32(uint32_t(i) * 0x9e3779b9U + salt);
}

// out[i] = random_value(i, seed) & mask, as T.
template <class T>
__global__ void fill(T* out, size_t n, uint32_t seed, uint32_t mask) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = T(random_value(i, seed) & mask);
  }
}

struct Even {
  __host__ __device__ bool operator()(uint32_t k) const { return (k & 1U) == 0U; }
};

enum class Mode { Flagged, If, Unique };

struct Buffers {
  uint32_t* keys = nullptr;
  uint32_t* values = nullptr;
  uint8_t* flags = nullptr;
  uint32_t* keys_out = nullptr;
  uint32_t* values_out = nullptr;
  int* kept = nullptr;
};

cudaError_t device_select(void* temp, size_t& temp_bytes, const Buffers& b, int n, Mode mode, bool pairs,
                          cudaStream_t s) {
  if (mode == Mode::Flagged && pairs) {
    auto in = thrust::make_zip_iterator(b.keys, b.values);
    auto out = thrust::make_zip_iterator(b.keys_out, b.values_out);
    return cub::DeviceSelect::Flagged(temp, temp_bytes, in, b.flags, out, b.kept, n, s);
  }
  if (mode == Mode::Flagged) {
    return cub::DeviceSelect::Flagged(temp, temp_bytes, b.keys, b.flags, b.keys_out, b.kept, n, s);
  }
  if (mode == Mode::If) {
    return cub::DeviceSelect::If(temp, temp_bytes, b.keys, b.keys_out, b.kept, n, Even{}, s);
  }
  if (pairs) {
    return cub::DeviceSelect::UniqueByKey(temp, temp_bytes, b.keys, b.values, b.keys_out, b.values_out, b.kept, n,
                                          s);
  }
  return cub::DeviceSelect::Unique(temp, temp_bytes, b.keys, b.keys_out, b.kept, n, s);
}

// The host select the GPU's output must equal.
bool check(const Buffers& b, size_t n, Mode mode, bool pairs) {
  std::vector<uint32_t> want_keys, want_values;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t key = mode == Mode::Unique ? (random_value(i, 3) & 1U) : random_value(i, 1);
    bool keep = false;
    if (mode == Mode::Flagged) {
      keep = (random_value(i, 2) & 1U) != 0U;
    } else if (mode == Mode::If) {
      keep = Even{}(key);
    } else {
      keep = i == 0 || (random_value(i - 1, 3) & 1U) != key;
    }
    if (keep) {
      want_keys.push_back(key);
      want_values.push_back(random_value(i, 4));
    }
  }
  int kept = 0;
  CUDA_CHECK(cudaMemcpy(&kept, b.kept, sizeof(int), cudaMemcpyDeviceToHost));
  if (size_t(kept) != want_keys.size()) return false;
  std::vector<uint32_t> got(want_keys.size());
  CUDA_CHECK(cudaMemcpy(got.data(), b.keys_out, got.size() * 4, cudaMemcpyDeviceToHost));
  if (got != want_keys) return false;
  if (pairs) {
    CUDA_CHECK(cudaMemcpy(got.data(), b.values_out, got.size() * 4, cudaMemcpyDeviceToHost));
    if (got != want_values) return false;
  }
  return true;
}

void bench_select(const Gpu& gpu, const std::string& name, Mode mode, bool pairs, int log2n) {
  const size_t n = size_t(1) << log2n;
  const int num_items = int(n);  // log2n <= 30
  Buffers b;
  CUDA_CHECK(cudaMalloc(&b.keys, n * 4));
  CUDA_CHECK(cudaMalloc(&b.values, n * 4));
  CUDA_CHECK(cudaMalloc(&b.flags, n));
  CUDA_CHECK(cudaMalloc(&b.keys_out, n * 4));
  CUDA_CHECK(cudaMalloc(&b.values_out, n * 4));
  CUDA_CHECK(cudaMalloc(&b.kept, sizeof(int)));
  const unsigned grid = grid_for(n, gpu.sm_count);
  fill<uint32_t><<<grid, kBlock, 0, gpu.stream>>>(b.keys, n, mode == Mode::Unique ? 3U : 1U,
                                                   mode == Mode::Unique ? 1U : 0xFFFFFFFFU);
  fill<uint32_t><<<grid, kBlock, 0, gpu.stream>>>(b.values, n, 4U, 0xFFFFFFFFU);
  fill<uint8_t><<<grid, kBlock, 0, gpu.stream>>>(b.flags, n, 2U, 1U);
  CUDA_CHECK_LAUNCH();
  size_t temp_bytes = 0;
  CUDA_CHECK(device_select(nullptr, temp_bytes, b, num_items, mode, pairs, gpu.stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto select = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(device_select(d_temp, tb, b, num_items, mode, pairs, gpu.stream));
    CUDA_CHECK_LAUNCH();
  };
  const std::vector<float> times = time_fresh(gpu, 0, [](uint32_t) {}, select);
  report_cub("select_" + name, "cub", log2n, n, times, temp_bytes, check(b, n, mode, pairs));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(b.kept));
  CUDA_CHECK(cudaFree(b.values_out));
  CUDA_CHECK(cudaFree(b.keys_out));
  CUDA_CHECK(cudaFree(b.flags));
  CUDA_CHECK(cudaFree(b.values));
  CUDA_CHECK(cudaFree(b.keys));
}

void usage() {
  std::fprintf(stderr,
               "usage: select_bench flagged_u32|if_u32|unique_u32|flagged_u32_pairs|unique_u32_pairs "
               "<log2 sizes...> (1..30)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string name = argv[1];
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], 1, 30));
  Mode mode = Mode::Flagged;
  bool pairs = false;
  if (name == "flagged_u32") {
  } else if (name == "if_u32") {
    mode = Mode::If;
  } else if (name == "unique_u32") {
    mode = Mode::Unique;
  } else if (name == "flagged_u32_pairs") {
    pairs = true;
  } else if (name == "unique_u32_pairs") {
    mode = Mode::Unique;
    pairs = true;
  } else {
    usage();
  }

  Gpu gpu = open_gpu();
  for (int log2n : sizes) bench_select(gpu, name, mode, pairs, log2n);
  close_gpu(gpu);
  return 0;
}
