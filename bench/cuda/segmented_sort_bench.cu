// CUB baseline for `vkalgo-bench segmented_sort`: cub::DeviceSegmentedSort::StableSortKeys and
// StableSortPairs (u32 keys, u32 values).
//
//   segmented_sort_bench <case> <log2 sizes...>
//   cases: tiny_u32 huge_u32 power_u32 tiny_u32_pairs huge_u32_pairs power_u32_pairs
//
// Segment offsets as vkalgo-bench segmented_sort makes them
// (crates/vkalgo-bench/src/segmented_sort/mod.rs), from one 64-bit LCG seeded 1, integers only:
// tiny: sizes (state >> 33) % 65; huge: 16 equal segments; power: sizes
// 1 + ((state >> 8) & (2^b - 1)), b = (state >> 33) % (log2(n) - 1); the last segment cut at n.
// Every repetition sorts fresh full-range random keys (and values) written on the GPU before it,
// outside the timing. The last repeat's output is checked against a host stable sort of each
// segment of its input. Prints `RESULT cub segmented_sort_<case> cub <N> <median ms>
// <G elements/s> <temp bytes>` lines (bench/compare.py).
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o segmented_sort_bench bench/cuda/segmented_sort_bench.cu

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

enum class Layout { Tiny, Huge, Power };

// The offsets of n keys in `layout` (the same as the Rust side's).
std::vector<int> offsets_of(Layout layout, uint64_t n) {
  std::vector<int> offsets{0};
  if (layout == Layout::Huge) {
    for (uint64_t s = 1; s <= 16; ++s) offsets.push_back(int(s == 16 ? n : s * (n / 16)));
    return offsets;
  }
  uint64_t log2 = 63 - __builtin_clzll(std::max<uint64_t>(n, 4));
  uint64_t state = 1;
  uint64_t at = 0;
  while (at < n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t size;
    if (layout == Layout::Tiny) {
      size = (state >> 33) % 65;
    } else {
      const uint64_t bits = (state >> 33) % (log2 - 1);
      size = 1 + ((state >> 8) & ((uint64_t(1) << bits) - 1));
    }
    at = std::min(at + size, n);
    offsets.push_back(int(at));
  }
  return offsets;
}

// out[i] = a full-range random word of (i, seed).
__global__ void fill(uint32_t* out, size_t n, uint32_t seed) {
  const uint32_t salt = mix32(seed * 0x9e3779b9U + 0x632be5abU);
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = mix32(uint32_t(i) * 0x9e3779b9U + salt);
  }
}

struct Buffers {
  uint32_t* keys = nullptr;
  uint32_t* values = nullptr;
  uint32_t* keys_out = nullptr;
  uint32_t* values_out = nullptr;
  int* offsets = nullptr;
};

cudaError_t device_sort(void* temp, size_t& temp_bytes, const Buffers& b, int n, int segments, bool pairs,
                        cudaStream_t s) {
  if (pairs) {
    return cub::DeviceSegmentedSort::StableSortPairs(temp, temp_bytes, b.keys, b.keys_out, b.values, b.values_out, n,
                                                     segments, b.offsets, b.offsets + 1, s);
  }
  return cub::DeviceSegmentedSort::StableSortKeys(temp, temp_bytes, b.keys, b.keys_out, n, segments, b.offsets,
                                                  b.offsets + 1, s);
}

// Whether the outputs are the host's stable sort of each segment of the inputs.
bool check(const Buffers& b, size_t n, const std::vector<int>& offsets, bool pairs) {
  std::vector<uint32_t> keys(n), values(n), got_keys(n), got_values(n);
  CUDA_CHECK(cudaMemcpy(keys.data(), b.keys, n * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_keys.data(), b.keys_out, n * 4, cudaMemcpyDeviceToHost));
  if (pairs) {
    CUDA_CHECK(cudaMemcpy(values.data(), b.values, n * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got_values.data(), b.values_out, n * 4, cudaMemcpyDeviceToHost));
  }
  std::vector<uint32_t> order;
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    const uint32_t a = uint32_t(offsets[s]), e = uint32_t(offsets[s + 1]);
    order.resize(e - a);
    std::iota(order.begin(), order.end(), a);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return keys[x] < keys[y]; });
    for (uint32_t i = a; i < e; ++i) {
      if (got_keys[i] != keys[order[i - a]]) return false;
      if (pairs && got_values[i] != values[order[i - a]]) return false;
    }
  }
  return true;
}

void bench_segmented_sort(const Gpu& gpu, const std::string& name, Layout layout, bool pairs, int log2n) {
  const size_t n = size_t(1) << log2n;
  const std::vector<int> offsets = offsets_of(layout, n);
  const int segments = int(offsets.size() - 1);
  Buffers b;
  CUDA_CHECK(cudaMalloc(&b.keys, n * 4));
  CUDA_CHECK(cudaMalloc(&b.values, n * 4));
  CUDA_CHECK(cudaMalloc(&b.keys_out, n * 4));
  CUDA_CHECK(cudaMalloc(&b.values_out, n * 4));
  CUDA_CHECK(cudaMalloc(&b.offsets, offsets.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(b.offsets, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  CUDA_CHECK(device_sort(nullptr, temp_bytes, b, int(n), segments, pairs, gpu.stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  const unsigned grid = grid_for(n, gpu.sm_count);
  auto refill = [&](uint32_t seed) {
    fill<<<grid, kBlock, 0, gpu.stream>>>(b.keys, n, 2 * seed + 1);
    if (pairs) fill<<<grid, kBlock, 0, gpu.stream>>>(b.values, n, 2 * seed + 2);
    CUDA_CHECK_LAUNCH();
  };
  auto sort = [&] {
    size_t tb = temp_bytes;
    CUDA_CHECK(device_sort(d_temp, tb, b, int(n), segments, pairs, gpu.stream));
    CUDA_CHECK_LAUNCH();
  };
  const std::vector<float> times = time_fresh(gpu, 0, refill, sort);
  std::printf("segmented_sort_%s N=2^%d: %d segments\n", name.c_str(), log2n, segments);
  report_cub("segmented_sort_" + name, "cub", log2n, n, times, temp_bytes, check(b, n, offsets, pairs));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(b.offsets));
  CUDA_CHECK(cudaFree(b.values_out));
  CUDA_CHECK(cudaFree(b.keys_out));
  CUDA_CHECK(cudaFree(b.values));
  CUDA_CHECK(cudaFree(b.keys));
}

void usage() {
  std::fprintf(stderr,
               "usage: segmented_sort_bench tiny_u32|huge_u32|power_u32|tiny_u32_pairs|huge_u32_pairs|power_u32_pairs "
               "<log2 sizes...> (4..30)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string name = argv[1];
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(parse_log2(argv[i], 4, 30));
  const bool pairs = name.size() > 6 && name.compare(name.size() - 6, 6, "_pairs") == 0;
  const std::string layout_name = name.substr(0, name.find('_'));
  Layout layout;
  if (layout_name == "tiny") {
    layout = Layout::Tiny;
  } else if (layout_name == "huge") {
    layout = Layout::Huge;
  } else if (layout_name == "power") {
    layout = Layout::Power;
  } else {
    usage();
  }
  if (name != layout_name + "_u32" && name != layout_name + "_u32_pairs") usage();

  Gpu gpu = open_gpu();
  for (int log2n : sizes) bench_segmented_sort(gpu, name, layout, pairs, log2n);
  close_gpu(gpu);
  return 0;
}
