// CUB baselines of the multisplit benchmark (vkalgo-bench multisplit): u32 keys, or u32 -> u32
// pairs, into m buckets by bucket = (k * m) >> 32.
//
//   multisplit_bench <log2 sizes, comma-separated> <bucket counts, comma-separated>
//   e.g. multisplit_bench 24,26 2,3,8,32,256,1024
//
// Baselines:
// - reduced-bit sort: one kernel writes each element's bucket id (uint8_t for m <= 256, else
//   uint16_t) and its payload, then cub::DeviceRadixSort::SortPairs sorts the ids on bits
//   [0, ceil(log2 m)) carrying the payload (stable, like a multisplit). Keys only: the payload is
//   the key (u32). Pairs: the payload is the key and value packed into one u64 (key << 32 |
//   value); the result stays packed (no unpack pass is timed: favourable to CUB).
// - cub::DevicePartition::If for m = 2 (unstable: the second bucket comes out reversed), keys
//   only on the u32 keys, pairs on the packed u64 items (packed before timing: favourable to
//   CUB).
// Both are timed from the original keys (and values) to the split output, bucket-id kernel
// included; the times are GPU times between events with a spin kernel holding the stream while
// the host queues the work (as bench/cuda/cub_bench.cu). Median of 20 repeats after 3 warm-ups.
// Every output is checked against a stable CPU counting sort (the partition's second part as a
// multiset).
//
// Every measurement prints one tab-separated line for `bench/compare.py multisplit`:
//   RESULT cub multisplit_<keys|pairs>_m<m> <reduced_bit_sort|partition_if> <N> <ms> <G keys/s> <temp>
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o multisplit_bench bench/cuda/multisplit_bench.cu

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "launch_hook.h"

namespace {

__device__ __host__ __forceinline__ uint32_t bucket_of(uint32_t k, uint32_t m) {
  return uint32_t((uint64_t(k) * uint64_t(m)) >> 32);
}

__global__ void fill_keys(uint32_t* keys, uint32_t* values, size_t n, uint32_t seed) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[i] = mix32(uint32_t(i) * 0x9e3779b9U + seed);
    values[i] = uint32_t(i);
  }
}

// Bucket ids and payloads of the reduced-bit sort.
template <class Id>
__global__ void ids_keys(const uint32_t* __restrict__ keys, Id* __restrict__ ids, size_t n, uint32_t m) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    ids[i] = Id(bucket_of(keys[i], m));
  }
}

template <class Id>
__global__ void ids_pairs(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ values, Id* __restrict__ ids,
                          uint64_t* __restrict__ packed, size_t n, uint32_t m) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const uint32_t k = keys[i];
    ids[i] = Id(bucket_of(k, m));
    packed[i] = (uint64_t(k) << 32) | values[i];
  }
}

__global__ void pack(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ values,
                     uint64_t* __restrict__ packed, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    packed[i] = (uint64_t(keys[i]) << 32) | values[i];
  }
}

struct InFirstBucket {
  __device__ __forceinline__ bool operator()(uint32_t k) const { return bucket_of(k, 2) == 0; }
};

struct PackedInFirstBucket {
  __device__ __forceinline__ bool operator()(uint64_t p) const { return bucket_of(uint32_t(p >> 32), 2) == 0; }
};

template <class Work>
double median_time(const Gpu& gpu, Work&& work) {
  for (int i = 0; i < kWarmup; ++i) work();
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
  std::vector<float> t;
  for (int i = 0; i < kRepeats; ++i) t.push_back(time_once(gpu, work));
  std::sort(t.begin(), t.end());
  return 0.5 * (double(t[kRepeats / 2 - 1]) + double(t[kRepeats / 2]));
}

int ceil_log2(uint32_t m) {
  int bits = 0;
  while ((uint64_t(1) << bits) < m) ++bits;
  return bits;
}

void report(const char* type, uint32_t m, const char* variant, size_t n, double ms, size_t temp) {
  const double rate = double(n) / (ms * 1e-3) / 1e9;
  std::printf("cub %-9s %-6s m=%-5u N=%zu  %.4f ms  %.2f G keys/s  temp %zu B  ok\n", variant, type, m, n, ms, rate,
              temp);
  std::printf("RESULT\tcub\tmultisplit_%s_m%u\t%s\t%zu\t%.6f\t%.4f\t%zu\n", type, m, variant, n, ms, rate, temp);
  std::fflush(stdout);
}

[[noreturn]] void fail(const char* what, uint32_t m, size_t n, size_t at) {
  std::printf("FAIL %s m=%u N=%zu at %zu\n", what, m, n, at);
  std::exit(1);
}

// The reduced-bit sort with Id bucket ids (uint8_t or uint16_t).
template <class Id>
void reduced_bit_sort(const Gpu& gpu, const uint32_t* d_keys, const uint32_t* d_values, size_t n, uint32_t m,
                      bool pairs, const std::vector<uint32_t>& want_keys, const std::vector<uint32_t>& want_values) {
  const int num_items = int(n);
  const int end_bit = std::max(1, ceil_log2(m));
  Id *d_ids = nullptr, *d_ids_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_ids, n * sizeof(Id)));
  CUDA_CHECK(cudaMalloc(&d_ids_out, n * sizeof(Id)));
  uint64_t *d_packed = nullptr, *d_packed_out = nullptr;
  uint32_t* d_keys_out = nullptr;
  size_t temp_bytes = 0;
  if (pairs) {
    CUDA_CHECK(cudaMalloc(&d_packed, n * sizeof(uint64_t)));
    CUDA_CHECK(cudaMalloc(&d_packed_out, n * sizeof(uint64_t)));
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_ids, d_ids_out, d_packed, d_packed_out,
                                               num_items, 0, end_bit, gpu.stream));
  } else {
    CUDA_CHECK(cudaMalloc(&d_keys_out, n * sizeof(uint32_t)));
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_ids, d_ids_out, d_keys, d_keys_out, num_items,
                                               0, end_bit, gpu.stream));
  }
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto work = [&] {
    size_t tb = temp_bytes;
    if (pairs) {
      ids_pairs<Id><<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_keys, d_values, d_ids, d_packed, n, m);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, tb, d_ids, d_ids_out, d_packed, d_packed_out, num_items, 0,
                                                 end_bit, gpu.stream));
    } else {
      ids_keys<Id><<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_keys, d_ids, n, m);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, tb, d_ids, d_ids_out, d_keys, d_keys_out, num_items, 0,
                                                 end_bit, gpu.stream));
    }
  };
  const double ms = median_time(gpu, work);
  if (pairs) {
    std::vector<uint64_t> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d_packed_out, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
      if (uint32_t(h[i] >> 32) != want_keys[i] || uint32_t(h[i]) != want_values[i]) fail("reduced-bit sort pairs", m, n, i);
    }
  } else {
    std::vector<uint32_t> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d_keys_out, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
      if (h[i] != want_keys[i]) fail("reduced-bit sort keys", m, n, i);
    }
  }
  report(pairs ? "pairs" : "keys", m, "reduced_bit_sort", n, ms, temp_bytes);
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_ids));
  CUDA_CHECK(cudaFree(d_ids_out));
  if (d_packed) CUDA_CHECK(cudaFree(d_packed));
  if (d_packed_out) CUDA_CHECK(cudaFree(d_packed_out));
  if (d_keys_out) CUDA_CHECK(cudaFree(d_keys_out));
}

// cub::DevicePartition::If into the two buckets of m = 2.
void partition_if(const Gpu& gpu, const uint32_t* d_keys, const uint32_t* d_values, size_t n, bool pairs,
                  const std::vector<uint32_t>& want_keys, const std::vector<uint32_t>& want_values, uint64_t first) {
  const int num_items = int(n);
  int* d_selected = nullptr;
  CUDA_CHECK(cudaMalloc(&d_selected, sizeof(int)));
  size_t temp_bytes = 0;
  uint64_t *d_packed = nullptr, *d_packed_out = nullptr;
  uint32_t* d_out = nullptr;
  if (pairs) {
    CUDA_CHECK(cudaMalloc(&d_packed, n * sizeof(uint64_t)));
    CUDA_CHECK(cudaMalloc(&d_packed_out, n * sizeof(uint64_t)));
    pack<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_keys, d_values, d_packed, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cub::DevicePartition::If(nullptr, temp_bytes, d_packed, d_packed_out, d_selected, num_items,
                                        PackedInFirstBucket{}, gpu.stream));
  } else {
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(uint32_t)));
    CUDA_CHECK(cub::DevicePartition::If(nullptr, temp_bytes, d_keys, d_out, d_selected, num_items, InFirstBucket{},
                                        gpu.stream));
  }
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));
  auto work = [&] {
    size_t tb = temp_bytes;
    if (pairs) {
      CUDA_CHECK(cub::DevicePartition::If(d_temp, tb, d_packed, d_packed_out, d_selected, num_items,
                                          PackedInFirstBucket{}, gpu.stream));
    } else {
      CUDA_CHECK(cub::DevicePartition::If(d_temp, tb, d_keys, d_out, d_selected, num_items, InFirstBucket{},
                                          gpu.stream));
    }
  };
  const double ms = median_time(gpu, work);
  int selected = 0;
  CUDA_CHECK(cudaMemcpy(&selected, d_selected, sizeof(int), cudaMemcpyDeviceToHost));
  if (uint64_t(selected) != first) fail("partition count", 2, n, size_t(selected));
  std::vector<uint64_t> got(n), want(n);
  if (pairs) {
    CUDA_CHECK(cudaMemcpy(got.data(), d_packed_out, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  } else {
    std::vector<uint32_t> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d_out, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) got[i] = uint64_t(h[i]) << 32;
  }
  for (size_t i = 0; i < n; ++i) want[i] = (uint64_t(want_keys[i]) << 32) | (pairs ? want_values[i] : 0u);
  // The first bucket in input order; the second as a multiset (CUB writes it reversed).
  for (size_t i = 0; i < first; ++i) {
    if (got[i] != want[i]) fail("partition first bucket", 2, n, i);
  }
  std::sort(got.begin() + first, got.end());
  std::sort(want.begin() + first, want.end());
  if (got != want) fail("partition second bucket", 2, n, first);
  report(pairs ? "pairs" : "keys", 2, "partition_if", n, ms, temp_bytes);
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_selected));
  if (d_packed) CUDA_CHECK(cudaFree(d_packed));
  if (d_packed_out) CUDA_CHECK(cudaFree(d_packed_out));
  if (d_out) CUDA_CHECK(cudaFree(d_out));
}

std::vector<long> parse_list(const char* s) {
  std::vector<long> out;
  std::string text(s);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(pos, comma - pos);
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0') {
      std::fprintf(stderr, "bad list item '%s'\n", item.c_str());
      std::exit(2);
    }
    out.push_back(v);
    pos = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: multisplit_bench <log2 sizes, e.g. 24,26> <bucket counts, e.g. 2,3,8,32,256,1024>\n");
    return 2;
  }
  const std::vector<long> sizes = parse_list(argv[1]);
  const std::vector<long> ms = parse_list(argv[2]);
  for (long s : sizes) {
    if (s < 1 || s > 30) {
      std::fprintf(stderr, "log2 size %ld not in 1..30\n", s);
      return 2;
    }
  }
  for (long m : ms) {
    if (m < 1 || m > 65536) {
      std::fprintf(stderr, "bucket count %ld not in 1..65536\n", m);
      return 2;
    }
  }
  cudaDeviceProp prop{};
  Gpu gpu = open_gpu(&prop);
  std::printf("device: %s (sm_%d%d, %d SMs), CUB %d\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount,
              int(CUB_VERSION));
  for (long log2n : sizes) {
    const size_t n = size_t(1) << log2n;
    uint32_t *d_keys = nullptr, *d_values = nullptr;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(uint32_t)));
    fill_keys<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(d_keys, d_values, n, 0x5eedU + uint32_t(log2n));
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
    std::vector<uint32_t> keys(n);
    CUDA_CHECK(cudaMemcpy(keys.data(), d_keys, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (long m_long : ms) {
      const uint32_t m = uint32_t(m_long);
      // The stable CPU counting sort every result is checked against.
      std::vector<uint64_t> start(m + 1, 0);
      for (size_t i = 0; i < n; ++i) start[bucket_of(keys[i], m) + 1]++;
      for (uint32_t b = 0; b < m; ++b) start[b + 1] += start[b];
      const uint64_t first = start[1];
      std::vector<uint32_t> want_keys(n), want_values(n);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t at = start[bucket_of(keys[i], m)]++;
        want_keys[at] = keys[i];
        want_values[at] = uint32_t(i);
      }
      for (bool pairs : {false, true}) {
        if (m <= 256) {
          reduced_bit_sort<uint8_t>(gpu, d_keys, d_values, n, m, pairs, want_keys, want_values);
        } else {
          reduced_bit_sort<uint16_t>(gpu, d_keys, d_values, n, m, pairs, want_keys, want_values);
        }
        if (m == 2) {
          partition_if(gpu, d_keys, d_values, n, pairs, want_keys, want_values, first);
        }
      }
    }
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_values));
  }
  close_gpu(gpu);
  return 0;
}
