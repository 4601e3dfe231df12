// Linear-probing GPU hash table baseline for vkalgo's hash-map benchmark.
//
// The design of the seed (seeds/003, "A Simple GPU Hash Table"): open addressing over single
// {u32 key, u32 value} slots, murmur3's finalizer as hash, linear probing, insert by
// atomicCAS(slot.key, EMPTY, key) on every probed slot then a plain store of the value, lookup
// walking until the key or an EMPTY slot, erase writing EMPTY into the value (the key stays as
// a tombstone). The start slot is hash * capacity >> 32 (capacity need not be a power of two);
// probing wraps at the capacity and is bounded by it (the seed's loop is unbounded).
//
// Measured like `vkalgo-bench hash` (src/bin/vkalgo-bench/hash.rs): N unique u32 keys (the same
// generator: key i = fmix32(i ^ salt), reserved values skipped), inserted into an empty table of
// N / load slots, N lookups of those keys (hits), N of other keys (misses), N erases; CUDA
// events around each kernel, median of the repeats after a warm-up; then the load sweep into a
// 2^27-slot table in batches of 2^22 keys up to load 0.95, each batch timed. Every result is
// verified.
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o hash_bench bench/cuda/hash_bench.cu
// Usage: hash_bench [log2n=26] [reps=10] [sweep_log2cap=27] [sweep_log2batch=22] [sweep_to=0.95]
// Output: a table per part, plus tab-separated lines for `bench/compare.py hash`:
//   RESULT cuda_lp <op> <variant> <N> <median ms> <G keys/s> <extra>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

namespace {

constexpr uint32_t kEmpty = 0xffffffffu;
constexpr int kBlock = 256;

struct KeyValue {
  uint32_t key;
  uint32_t value;
};

__host__ __device__ inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__device__ inline uint64_t start_slot(uint32_t key, uint64_t capacity) {
  return (uint64_t(fmix32(key)) * capacity) >> 32;
}

__global__ void insert_kernel(KeyValue* table, uint64_t capacity, const uint32_t* keys,
                              const uint32_t* values, uint32_t n, unsigned int* failed) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t key = keys[i];
  uint64_t slot = start_slot(key, capacity);
  for (uint64_t probe = 0; probe < capacity; ++probe) {
    const uint32_t prev = atomicCAS(&table[slot].key, kEmpty, key);
    if (prev == kEmpty || prev == key) {
      table[slot].value = values[i];
      return;
    }
    slot = slot + 1 == capacity ? 0 : slot + 1;
  }
  atomicAdd(failed, 1u);
}

// Not found: 0 (vkalgo's convention; the benchmark's values are never 0).
__global__ void find_kernel(const KeyValue* table, uint64_t capacity, const uint32_t* keys,
                            uint32_t* values_out, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t key = keys[i];
  uint64_t slot = start_slot(key, capacity);
  uint32_t result = 0;
  for (uint64_t probe = 0; probe < capacity; ++probe) {
    const KeyValue kv = table[slot];
    if (kv.key == key) {
      result = kv.value == kEmpty ? 0 : kv.value;
      break;
    }
    if (kv.key == kEmpty) break;
    slot = slot + 1 == capacity ? 0 : slot + 1;
  }
  values_out[i] = result;
}

__global__ void erase_kernel(KeyValue* table, uint64_t capacity, const uint32_t* keys, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t key = keys[i];
  uint64_t slot = start_slot(key, capacity);
  for (uint64_t probe = 0; probe < capacity; ++probe) {
    if (table[slot].key == key) {
      table[slot].value = kEmpty;
      return;
    }
    if (table[slot].key == kEmpty) return;
    slot = slot + 1 == capacity ? 0 : slot + 1;
  }
}

// Live entries: key set and value not the erased marker.
__global__ void count_live(const KeyValue* table, uint64_t capacity, unsigned long long* count) {
  unsigned long long local = 0;
  for (uint64_t s = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; s < capacity;
       s += uint64_t(gridDim.x) * blockDim.x) {
    const KeyValue kv = table[s];
    local += (kv.key != kEmpty && kv.value != kEmpty) ? 1 : 0;
  }
  atomicAdd(count, local);
}

std::vector<uint32_t> unique_keys(size_t n, uint32_t salt) {
  std::vector<uint32_t> keys;
  keys.reserve(n);
  for (uint32_t i = 0; keys.size() < n; ++i) {
    const uint32_t k = fmix32(i ^ salt);
    if (k < kEmpty - 1) keys.push_back(k);
  }
  return keys;
}

unsigned grid(uint64_t n) { return unsigned((n + kBlock - 1) / kBlock); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Events {
  cudaEvent_t start, stop;
  Events() {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  template <class F>
  double time(F&& launch) {
    CUDA_CHECK(cudaEventRecord(start));
    launch();
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }
};

uint64_t live_entries(const KeyValue* table, uint64_t capacity) {
  unsigned long long* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d, 0, sizeof(unsigned long long)));
  count_live<<<1024, kBlock>>>(table, capacity, d);
  CUDA_CHECK_LAUNCH();
  unsigned long long h = 0;
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
  return h;
}

bool g_all_ok = true;

void report(const char* op, const char* variant, uint64_t n, double ms, bool ok) {
  const double rate = double(n) / (ms * 1e-3) / 1e9;
  std::printf("| %s | %s | %llu | %.3f | %.2f | %s |\n", op, variant, (unsigned long long)n, ms, rate,
              ok ? "yes" : "NO");
  std::printf("RESULT\tcuda_lp\thash_%s_u32\t%s\t%llu\t%.6f\t%.3f\t0\n", op, variant,
              (unsigned long long)n, ms, rate);
  std::fflush(stdout);
  g_all_ok = g_all_ok && ok;
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 26;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  const int sweep_log2cap = argc > 3 ? std::atoi(argv[3]) : 27;
  const int sweep_log2batch = argc > 4 ? std::atoi(argv[4]) : 22;
  const double sweep_to = argc > 5 ? std::atof(argv[5]) : 0.95;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (linear-probing baseline, seed design)\n", prop.name);

  const uint64_t n = 1ull << log2n;
  const std::vector<uint32_t> keys = unique_keys(2 * n, 0x5bd1e995u);
  std::vector<uint32_t> values(n);
  for (uint64_t i = 0; i < n; ++i) values[i] = fmix32(keys[i] ^ 0x2545f491u) | 1u;
  uint32_t *d_keys, *d_values, *d_out;
  unsigned int* d_failed;
  CUDA_CHECK(cudaMalloc(&d_keys, 2 * n * 4));
  CUDA_CHECK(cudaMalloc(&d_values, n * 4));
  CUDA_CHECK(cudaMalloc(&d_out, n * 4));
  CUDA_CHECK(cudaMalloc(&d_failed, 4));
  CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), 2 * n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_values, values.data(), n * 4, cudaMemcpyHostToDevice));
  const uint32_t* d_hits = d_keys;
  const uint32_t* d_misses = d_keys + n;
  std::vector<uint32_t> got(n);
  Events ev;

  std::printf("\nlinear probing, u32 keys and values, N = 2^%d keys\n", log2n);
  std::printf("| op | variant | N | ms | G keys/s | verified |\n|---|---|---|---|---|---|\n");
  for (double load : {0.5, 0.8}) {
    const uint64_t capacity = uint64_t(double(n) / load + 0.5);
    char variant[32];
    std::snprintf(variant, sizeof variant, "load%g", load);
    KeyValue* table = nullptr;
    CUDA_CHECK(cudaMalloc(&table, capacity * sizeof(KeyValue)));
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      CUDA_CHECK(cudaMemset(table, 0xff, capacity * sizeof(KeyValue)));
      CUDA_CHECK(cudaMemset(d_failed, 0, 4));
      const double ms = ev.time([&] {
        insert_kernel<<<grid(n), kBlock>>>(table, capacity, d_hits, d_values, uint32_t(n), d_failed);
      });
      if (r > 0) t.push_back(ms);
    }
    report("insert", variant, n, median(t), live_entries(table, capacity) == n);
    for (int miss = 0; miss < 2; ++miss) {
      t.clear();
      for (int r = 0; r <= reps; ++r) {
        const double ms = ev.time([&] {
          find_kernel<<<grid(n), kBlock>>>(table, capacity, miss ? d_misses : d_hits, d_out, uint32_t(n));
        });
        if (r > 0) t.push_back(ms);
      }
      CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
      const bool ok = miss ? std::all_of(got.begin(), got.end(), [](uint32_t v) { return v == 0; })
                           : got == values;
      report(miss ? "find_miss" : "find_hit", variant, n, median(t), ok);
    }
    t.clear();
    for (int r = 0; r <= reps; ++r) {
      if (r > 0) {
        CUDA_CHECK(cudaMemset(table, 0xff, capacity * sizeof(KeyValue)));
        insert_kernel<<<grid(n), kBlock>>>(table, capacity, d_hits, d_values, uint32_t(n), d_failed);
        CUDA_CHECK_LAUNCH();
      }
      const double ms = ev.time([&] {
        erase_kernel<<<grid(n), kBlock>>>(table, capacity, d_hits, uint32_t(n));
      });
      if (r > 0) t.push_back(ms);
    }
    report("erase", variant, n, median(t), live_entries(table, capacity) == 0);
    CUDA_CHECK(cudaFree(table));
  }
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_values));
  CUDA_CHECK(cudaFree(d_out));

  // Load sweep.
  const uint64_t capacity = 1ull << sweep_log2cap;
  const uint64_t batch = 1ull << sweep_log2batch;
  const uint64_t total = uint64_t(double(capacity) * sweep_to);
  const std::vector<uint32_t> skeys = unique_keys(total, 0x12345678u);
  std::vector<uint32_t> svalues(total);
  for (uint64_t i = 0; i < total; ++i) svalues[i] = skeys[i] + 1;
  KeyValue* table = nullptr;
  CUDA_CHECK(cudaMalloc(&table, capacity * sizeof(KeyValue)));
  CUDA_CHECK(cudaMalloc(&d_keys, total * 4));
  CUDA_CHECK(cudaMalloc(&d_values, total * 4));
  CUDA_CHECK(cudaMalloc(&d_out, total * 4));
  CUDA_CHECK(cudaMemcpy(d_keys, skeys.data(), total * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_values, svalues.data(), total * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(table, 0xff, capacity * sizeof(KeyValue)));
  CUDA_CHECK(cudaMemset(d_failed, 0, 4));
  std::printf("\nload sweep: capacity %llu slots, batches of 2^%d keys (the last shorter), to load %.3f\n",
              (unsigned long long)capacity, sweep_log2batch, double(total) / double(capacity));
  std::printf("| batch | load before | load after | ms | G keys/s |\n|---|---|---|---|---|\n");
  uint64_t band_keys = 0;
  double band_ms = 0;
  for (uint64_t start = 0, b = 0; start < total; start += batch, ++b) {
    const uint64_t len = std::min(batch, total - start);
    const double ms = ev.time([&] {
      insert_kernel<<<grid(len), kBlock>>>(table, capacity, d_keys + start, d_values + start, uint32_t(len),
                                           d_failed);
    });
    const double before = double(start) / double(capacity), after = double(start + len) / double(capacity);
    const double rate = double(len) / (ms * 1e-3) / 1e9;
    std::printf("| %llu | %.3f | %.3f | %.3f | %.2f |\n", (unsigned long long)b, before, after, ms, rate);
    std::printf("RESULT\tcuda_lp\thash_sweep_insert_u32\t%.4f-%.4f\t%llu\t%.6f\t%.3f\t%llu\n", before, after,
                (unsigned long long)len, ms, rate, (unsigned long long)capacity);
    std::fflush(stdout);
    if (before >= 0.9 - 1e-9) {
      band_keys += len;
      band_ms += ms;
    }
  }
  unsigned int failed = 0;
  CUDA_CHECK(cudaMemcpy(&failed, d_failed, 4, cudaMemcpyDeviceToHost));
  std::vector<double> t;
  for (int r = 0; r < 4; ++r) {
    const double ms = ev.time([&] {
      find_kernel<<<grid(total), kBlock>>>(table, capacity, d_keys, d_out, uint32_t(total));
    });
    if (r > 0) t.push_back(ms);
  }
  std::vector<uint32_t> sgot(total);
  CUDA_CHECK(cudaMemcpy(sgot.data(), d_out, total * 4, cudaMemcpyDeviceToHost));
  const bool ok = failed == 0 && sgot == svalues && live_entries(table, capacity) == total;
  std::printf("sweep: %llu keys, failures %u, all found with their values: %s\n", (unsigned long long)total,
              failed, ok ? "yes" : "NO");
  const double fms = median(t);
  std::printf("RESULT\tcuda_lp\thash_find_hit_u32\tload%.3f_sweep\t%llu\t%.6f\t%.3f\t0\n",
              double(total) / double(capacity), (unsigned long long)total, fms, double(total) / (fms * 1e-3) / 1e9);
  if (band_keys > 0) {
    const double rate = double(band_keys) / (band_ms * 1e-3) / 1e9;
    std::printf("sweep: insert between loads 0.90 and %.3f: %llu keys in %.3f ms = %.3f G keys/s\n",
                double(total) / double(capacity), (unsigned long long)band_keys, band_ms, rate);
    std::printf("RESULT\tcuda_lp\thash_sweep_band_u32\t0.90-0.95\t%llu\t%.6f\t%.3f\t0\n",
                (unsigned long long)band_keys, band_ms, rate);
  }
  g_all_ok = g_all_ok && ok;
  CUDA_CHECK(cudaFree(table));
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_values));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_failed));
  if (!g_all_ok) {
    std::fprintf(stderr, "VERIFICATION FAILED\n");
    return 1;
  }
  return 0;
}
