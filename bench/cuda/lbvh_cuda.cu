// The CUDA yardstick of the LBVH example (examples/lbvh): the same build, phase by phase, with
// CUB's radix sort, on the same triangles (the scene generator of examples/lbvh/lbvh_common.h:
// the same seed gives bit-identical triangles, as the printed checksum shows).
//
//   lbvh_cuda [--triangles N] [--seed S] [--repeat R]
//
// Phases (Karras, "Maximizing Parallelism in the Construction of BVHs, Octrees, and k-d
// Trees", HPG 2012), as in examples/lbvh/shaders/:
//   morton     30-bit Morton codes of the triangle centroids in the centroid box (computed on
//              the CPU when the scene is loaded, as lbvh does), triangle indices as values
//   sort       cub::DeviceRadixSort::SortPairs on bits [0, 30), keys and values into second
//              buffers (temporary storage allocated once, before the timing)
//   hierarchy  the radix tree; equal codes fall back to the sorted position
//   refit      a memset of the per-node counters, then leaf boxes and the bottom-up union
//              (the second child to arrive at a node goes on, the first stops)
// Node layout and numbering as lbvh's: inner i is node i, the leaf of sorted position k is
// node N - 1 + k, the root is node 0.
//
// Timing: a warm-up build, then R timed builds; each starts behind a short spin kernel (so the
// host has queued the whole build before it starts: the events bracket device time only), with
// an event between phases. The last build's tree is copied back and checked on the CPU
// (lbvh::check_tree). Output: one line per phase, tab-separated, as lbvh prints:
//   RESULT cuda lbvh <phase> <N> <median ms> <best ms>
//
// Build (bench/gpu_lbvh.sh): nvcc -O3 -std=c++17 -arch=sm_90 -Xcompiler -ffp-contract=off
//   -o lbvh_cuda bench/cuda/lbvh_cuda.cu
// (-ffp-contract=off keeps the host's scene generator bit-identical to lbvh's.)

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../examples/lbvh/lbvh_common.h"
#include "cuda_check.h"

namespace {

constexpr int kBlock = 256;
constexpr long long kSpinCycles = 20'000'000;  // ~10 ms at 2 GHz: enough to queue a build
constexpr uint32_t kLeaf = lbvh::kLeafMark;

using lbvh::Node;

__device__ uint32_t spread3(uint32_t v) {
  v &= 0x3FFu;
  v = (v | (v << 16)) & 0x030000FFu;
  v = (v | (v << 8)) & 0x0300F00Fu;
  v = (v | (v << 4)) & 0x030C30C3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

__device__ uint32_t quantize10(float x, float lo, float inv) {
  const float t = (x - lo) * inv * 1024.0f;
  if (!(t > 0.0f)) return 0u;
  return t >= 1023.0f ? 1023u : uint32_t(t);
}

struct Bounds {
  float lo[3], inv[3];
};

__global__ void morton_kernel(const float* __restrict__ tris, uint32_t* __restrict__ keys,
                              uint32_t* __restrict__ values, Bounds b, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* v = tris + size_t(i) * 9;
  const float cx = (v[0] + v[3] + v[6]) / 3.0f;
  const float cy = (v[1] + v[4] + v[7]) / 3.0f;
  const float cz = (v[2] + v[5] + v[8]) / 3.0f;
  keys[i] = spread3(quantize10(cx, b.lo[0], b.inv[0])) << 2 | spread3(quantize10(cy, b.lo[1], b.inv[1])) << 1 |
            spread3(quantize10(cz, b.lo[2], b.inv[2]));
  values[i] = i;
}

// Karras' delta: the common prefix length of keys i and j, the code followed by the position.
__device__ int delta(const uint32_t* __restrict__ keys, int n, int i, int j) {
  if (j < 0 || j >= n) return -1;
  const uint32_t ki = keys[i], kj = keys[j];
  return ki != kj ? __clz(ki ^ kj) : 32 + __clz(uint32_t(i ^ j));
}

__global__ void hierarchy_kernel(const uint32_t* __restrict__ keys, Node* __restrict__ nodes,
                                 uint32_t* __restrict__ parents, int n) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int inner = n - 1;
  if (i >= inner) return;
  const int d = delta(keys, n, i, i + 1) - delta(keys, n, i, i - 1) >= 0 ? 1 : -1;
  const int dmin = delta(keys, n, i, i - d);
  int lmax = 2;
  while (delta(keys, n, i, i + lmax * d) > dmin) lmax *= 2;
  int l = 0;
  for (int t = lmax / 2; t >= 1; t /= 2) {
    if (delta(keys, n, i, i + (l + t) * d) > dmin) l += t;
  }
  const int j = i + l * d;
  const int dnode = delta(keys, n, i, j);
  int s = 0;
  for (int div = 2;; div *= 2) {
    const int t = (l + div - 1) / div;
    if (delta(keys, n, i, i + (s + t) * d) > dnode) s += t;
    if (t <= 1) break;
  }
  const int gamma = i + s * d + (d < 0 ? d : 0);
  const int first = i < j ? i : j, last = i < j ? j : i;
  const uint32_t left = first == gamma ? uint32_t(inner + gamma) : uint32_t(gamma);
  const uint32_t right = last == gamma + 1 ? uint32_t(inner + gamma + 1) : uint32_t(gamma + 1);
  nodes[i].a = left;
  nodes[i].b = right;
  parents[left] = uint32_t(i);
  parents[right] = uint32_t(i);
}

__global__ void refit_kernel(const float* __restrict__ tris, const uint32_t* __restrict__ values, Node* nodes,
                             const uint32_t* __restrict__ parents, uint32_t* flags, uint32_t n) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const uint32_t t = values[k];
  const float* v = tris + size_t(t) * 9;
  uint32_t node = n - 1 + k;
  Node leaf;
  for (int a = 0; a < 3; a++) {
    leaf.lo[a] = fminf(fminf(v[a], v[3 + a]), v[6 + a]);
    leaf.hi[a] = fmaxf(fmaxf(v[a], v[3 + a]), v[6 + a]);
  }
  leaf.a = t;
  leaf.b = kLeaf;
  nodes[node] = leaf;
  // Climb while this thread is the second to reach the parent. The fences order this node's
  // box before the counter and the sibling's box after it; the volatile loads bypass L1.
  for (int level = 0; node != 0 && level < 80; level++) {
    const uint32_t p = parents[node];
    __threadfence();
    if (atomicAdd(&flags[p], 1u) == 0u) break;
    __threadfence();
    const volatile Node* vn = nodes;
    const uint32_t ca = vn[p].a, cb = vn[p].b;
    for (int a = 0; a < 3; a++) {
      const float lo = fminf(vn[ca].lo[a], vn[cb].lo[a]);
      const float hi = fmaxf(vn[ca].hi[a], vn[cb].hi[a]);
      nodes[p].lo[a] = lo;
      nodes[p].hi[a] = hi;
    }
    node = p;
  }
}

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? double(v[m]) : 0.5 * (double(v[m - 1]) + double(v[m]));
}

bool parse_u64(const char* s, uint64_t lo, uint64_t hi, uint64_t& out) {
  if (!s || !*s) return false;
  for (const char* p = s; *p; p++) {
    if (*p < '0' || *p > '9') return false;
  }
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (*end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

unsigned blocks_for(uint32_t items) { return std::max(1u, (items + kBlock - 1) / kBlock); }

}  // namespace

int main(int argc, char** argv) {
  uint32_t n = 1000000, repeat = 10;
  uint64_t seed = 1;
  for (int i = 1; i < argc; i += 2) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    uint64_t v = 0;
    if (arg == "--triangles" && parse_u64(value, 1, lbvh::kMaxTriangles, v)) {
      n = uint32_t(v);
    } else if (arg == "--seed" && parse_u64(value, 0, UINT64_MAX, v)) {
      seed = v;
    } else if (arg == "--repeat" && parse_u64(value, 1, 1000, v)) {
      repeat = uint32_t(v);
    } else {
      std::fprintf(stderr, "usage: lbvh_cuda [--triangles N (1..2^25)] [--seed S] [--repeat R (1..1000)]\n");
      return 2;
    }
  }

  const std::vector<float> tris = lbvh::generate_scene(n, seed);
  const lbvh::CentroidBounds cb = lbvh::centroid_bounds(tris);
  std::printf("scene: %u random triangles, seed %" PRIu64 ", checksum %016" PRIx64 "\n", n, seed,
              lbvh::checksum(tris));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);

  const uint64_t node_count = 2ull * n - 1;
  float* d_tris = nullptr;
  uint32_t *d_keys = nullptr, *d_values = nullptr, *d_keys_out = nullptr, *d_values_out = nullptr;
  uint32_t *d_parents = nullptr, *d_flags = nullptr;
  Node* d_nodes = nullptr;
  CUDA_CHECK(cudaMalloc(&d_tris, tris.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_keys, size_t(n) * 4));
  CUDA_CHECK(cudaMalloc(&d_values, size_t(n) * 4));
  CUDA_CHECK(cudaMalloc(&d_keys_out, size_t(n) * 4));
  CUDA_CHECK(cudaMalloc(&d_values_out, size_t(n) * 4));
  CUDA_CHECK(cudaMalloc(&d_nodes, node_count * sizeof(Node)));
  CUDA_CHECK(cudaMalloc(&d_parents, node_count * 4));
  CUDA_CHECK(cudaMalloc(&d_flags, size_t(std::max(n - 1, 1u)) * 4));
  CUDA_CHECK(cudaMemcpy(d_tris, tris.data(), tris.size() * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_keys, d_keys_out, d_values, d_values_out, int(n), 0,
                                             30, stream));
  void* d_temp = nullptr;
  CUDA_CHECK(cudaMalloc(&d_temp, std::max<size_t>(temp_bytes, 1)));

  Bounds b{};
  std::memcpy(b.lo, cb.lo, sizeof b.lo);
  std::memcpy(b.inv, cb.inv_extent, sizeof b.inv);
  cudaEvent_t ev[5];
  for (auto& e : ev) CUDA_CHECK(cudaEventCreate(&e));

  const char* const phases[4] = {"morton", "sort", "hierarchy", "refit"};
  std::vector<float> phase_ms[4], total_ms;
  for (uint32_t r = 0; r <= repeat; r++) {  // r = 0: the warm-up, not counted
    spin<<<1, 1, 0, stream>>>(kSpinCycles);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(ev[0], stream));
    morton_kernel<<<blocks_for(n), kBlock, 0, stream>>>(d_tris, d_keys, d_values, b, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(ev[1], stream));
    size_t tb = temp_bytes;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, tb, d_keys, d_keys_out, d_values, d_values_out, int(n), 0, 30,
                                               stream));
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(ev[2], stream));
    if (n > 1) {
      hierarchy_kernel<<<blocks_for(n - 1), kBlock, 0, stream>>>(d_keys_out, d_nodes, d_parents, int(n));
      CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaEventRecord(ev[3], stream));
    CUDA_CHECK(cudaMemsetAsync(d_flags, 0, size_t(std::max(n - 1, 1u)) * 4, stream));
    refit_kernel<<<blocks_for(n), kBlock, 0, stream>>>(d_tris, d_values_out, d_nodes, d_parents, d_flags, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(ev[4], stream));
    CUDA_CHECK(cudaEventSynchronize(ev[4]));
    if (r == 0) continue;
    for (int p = 0; p < 4; p++) {
      float ms = 0.0f;
      CUDA_CHECK(cudaEventElapsedTime(&ms, ev[p], ev[p + 1]));
      phase_ms[p].push_back(ms);
    }
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[4]));
    total_ms.push_back(ms);
  }

  std::vector<Node> nodes(node_count);
  CUDA_CHECK(cudaMemcpy(nodes.data(), d_nodes, node_count * sizeof(Node), cudaMemcpyDeviceToHost));
  const std::string err = lbvh::check_tree(tris.data(), n, 0, nodes.data());
  if (!err.empty()) {
    std::fprintf(stderr, "lbvh_cuda: error: the tree is wrong: %s\n", err.c_str());
    return 1;
  }
  std::printf("check: OK (%" PRIu64 " nodes, exact boxes)\n", node_count);
  for (int p = 0; p < 4; p++) {
    std::printf("RESULT\tcuda\tlbvh\t%s\t%u\t%.4f\t%.4f\n", phases[p], n, median(phase_ms[p]),
                double(*std::min_element(phase_ms[p].begin(), phase_ms[p].end())));
  }
  const double med = median(total_ms), best = *std::min_element(total_ms.begin(), total_ms.end());
  std::printf("RESULT\tcuda\tlbvh\ttotal\t%u\t%.4f\t%.4f\n", n, med, best);
  std::printf("build rate: %.1f M triangles/s (median)\n", med > 0 ? n / (med * 1e3) : 0.0);

  for (auto& e : ev) CUDA_CHECK(cudaEventDestroy(e));
  CUDA_CHECK(cudaStreamDestroy(stream));
  for (void* p : {static_cast<void*>(d_tris), static_cast<void*>(d_keys), static_cast<void*>(d_values),
                  static_cast<void*>(d_keys_out), static_cast<void*>(d_values_out), static_cast<void*>(d_nodes),
                  static_cast<void*>(d_parents), static_cast<void*>(d_flags), d_temp}) {
    CUDA_CHECK(cudaFree(p));
  }
  return 0;
}
