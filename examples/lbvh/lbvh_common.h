// Shared by examples/lbvh/lbvh.cpp (Vulkan + vkalgo) and bench/cuda/lbvh_cuda.cu (CUDA + CUB):
// the random scene generator (the same seed gives bit-identical triangles in both programs),
// the scene's centroid bounds, the output file's node layout and the CPU check of a finished
// tree. Plain C++17, host code only.
//
// Floating point: every value is produced by IEEE single-precision +, -, *, / and sqrtf, each
// rounded on its own (both builds pass -ffp-contract=off; x86-64 without -march has no FMA and
// no excess precision), so two compilers give the same bits. No sin/cos/exp (their last bit
// differs between C libraries).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace lbvh {

// Largest triangle count: node indices (< 2N) and float indices of the triangle array (9N)
// stay below 2^31 in every shader, and the node array ((2N - 1) * 32 bytes) below 2 GiB.
constexpr uint32_t kMaxTriangles = 1u << 25;
constexpr uint32_t kLeafMark = 0xFFFFFFFFu;  // b of a leaf node
constexpr uint32_t kMagic = 0x4856424Cu;     // "LBVH" little-endian

// One node of the output file (and of the GPU's node array): 32 bytes.
struct Node {
  float lo[3];
  float hi[3];
  uint32_t a;  // inner: left child; leaf: triangle index in the input
  uint32_t b;  // inner: right child; leaf: kLeafMark
};
static_assert(sizeof(Node) == 32, "node layout");

// splitmix64 (Steele, Lea, Flood 2014) turns the seed into the generator's first state.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// xorshift64* (Vigna 2016): 32 random bits per call from the high half of the product.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(splitmix64(seed)) {
    if (s == 0) s = 0x9E3779B97F4A7C15ull;
  }
  uint32_t u32() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return uint32_t((s * 0x2545F4914F6CDD1Dull) >> 32);
  }
  // Uniform in [0, 1): 24 random bits, exact in a float.
  float unit() { return float(u32() >> 8) * (1.0f / 16777216.0f); }
  // Uniform in [-1, 1).
  float sym() { return 2.0f * unit() - 1.0f; }
};

struct V3 {
  float x, y, z;
};
inline V3 add(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 scale(V3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline float dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 normalize(V3 a) { return scale(a, 1.0f / std::sqrt(dot(a, a))); }

// N random triangles (9 floats each: x0 y0 z0 x1 y1 z1 x2 y2 z2) that look like a scene: seven
// spheres floating over a square ground plate (100 x 100, y = 0), all covered by small triangles
// lying in the surface's tangent plane at a random point. Half of the triangles go on the
// plate, the other half on a sphere chosen uniformly. The triangle size shrinks with N so the
// surfaces stay covered about three times (a random triangle in a square of side 2e has a mean area
// of about 0.3 e^2).
inline std::vector<float> generate_scene(uint32_t n, uint64_t seed) {
  Rng rng(seed);
  constexpr int kSpheres = 7;
  V3 center[kSpheres];
  float radius[kSpheres];
  float area = 100.0f * 100.0f;
  for (int s = 0; s < kSpheres; s++) {
    // Sphere s in cell (s mod 3, s / 3) of a 3 x 3 grid over the plate, floating over it.
    radius[s] = 5.0f + 8.0f * rng.unit();
    center[s] = {18.0f + 32.0f * float(s % 3) + 5.0f * rng.sym(), radius[s] + 2.0f + 15.0f * rng.unit(),
                 18.0f + 32.0f * float(s / 3) + 5.0f * rng.sym()};
    area += 4.0f * 3.14159265f * radius[s] * radius[s];
  }
  const float edge = 3.2f * std::sqrt(area / float(n));
  std::vector<float> tris(size_t(n) * 9);
  for (uint32_t t = 0; t < n; t++) {
    V3 p, nrm;
    if (rng.u32() % 2u == 0u) {  // the ground plate
      p = {100.0f * rng.unit(), 0.0f, 100.0f * rng.unit()};
      nrm = {0.0f, 1.0f, 0.0f};
    } else {  // a sphere: a random direction by rejection in the unit cube
      const uint32_t k = rng.u32() % uint32_t(kSpheres);
      V3 d;
      float l2;
      do {
        d = {rng.sym(), rng.sym(), rng.sym()};
        l2 = dot(d, d);
      } while (l2 > 1.0f || l2 < 1e-4f);
      nrm = scale(d, 1.0f / std::sqrt(l2));
      p = add(center[k], scale(nrm, radius[k]));
    }
    const V3 axis = std::fabs(nrm.x) < 0.9f ? V3{1.0f, 0.0f, 0.0f} : V3{0.0f, 1.0f, 0.0f};
    const V3 t1 = normalize(cross(nrm, axis));
    const V3 t2 = cross(nrm, t1);
    for (int v = 0; v < 3; v++) {
      const float u = edge * rng.sym(), w = edge * rng.sym();
      const V3 q = add(p, add(scale(t1, u), scale(t2, w)));
      tris[size_t(t) * 9 + size_t(v) * 3 + 0] = q.x;
      tris[size_t(t) * 9 + size_t(v) * 3 + 1] = q.y;
      tris[size_t(t) * 9 + size_t(v) * 3 + 2] = q.z;
    }
  }
  return tris;
}

// FNV-1a (64-bit) of the triangle bytes: both programs print it, so a run shows they built
// the same scene.
inline uint64_t checksum(const std::vector<float>& tris) {
  uint64_t h = 0xCBF29CE484222325ull;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(tris.data());
  for (size_t i = 0; i < tris.size() * sizeof(float); i++) {
    h = (h ^ p[i]) * 0x100000001B3ull;
  }
  return h;
}

// The box of the triangle centroids ((v0 + v1 + v2) / 3), which the Morton codes quantize.
// Returns lo and 1 / extent per axis (0 for a flat axis: every centroid quantizes to 0 there).
struct CentroidBounds {
  float lo[3];
  float inv_extent[3];
};
inline CentroidBounds centroid_bounds(const std::vector<float>& tris) {
  const size_t n = tris.size() / 9;
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t t = 0; t < n; t++) {
    const float* v = &tris[t * 9];
    for (int a = 0; a < 3; a++) {
      const float c = (v[a] + v[3 + a] + v[6 + a]) / 3.0f;
      lo[a] = std::min(lo[a], c);
      hi[a] = std::max(hi[a], c);
    }
  }
  CentroidBounds b{};
  for (int a = 0; a < 3; a++) {
    b.lo[a] = lo[a];
    b.inv_extent[a] = hi[a] > lo[a] ? 1.0f / (hi[a] - lo[a]) : 0.0f;
  }
  return b;
}

// The exact box of triangle t.
inline void triangle_box(const float* tris, uint32_t t, float lo[3], float hi[3]) {
  const float* v = tris + size_t(t) * 9;
  for (int a = 0; a < 3; a++) {
    lo[a] = std::min(std::min(v[a], v[3 + a]), v[6 + a]);
    hi[a] = std::max(std::max(v[a], v[3 + a]), v[6 + a]);
  }
}

// Checks a finished tree of N triangles, 2N - 1 nodes: every node reachable exactly once from
// the root; N leaves holding every triangle exactly once; N - 1 inner nodes with two distinct
// children each; leaf boxes the exact box of their triangle, inner boxes the exact union of
// their children's (compared with ==, so -0 and +0 are equal). Returns "" or the first error.
inline std::string check_tree(const float* tris, uint32_t n, uint32_t root, const Node* nodes) {
  const uint64_t count = 2ull * n - 1;
  char msg[256];
  if (root >= count) {
    std::snprintf(msg, sizeof msg, "root %u out of range (%llu nodes)", root, (unsigned long long)count);
    return msg;
  }
  std::vector<unsigned char> node_seen(count, 0), tri_seen(n, 0);
  std::vector<uint32_t> stack{root};
  uint64_t visited = 0, leaves = 0;
  while (!stack.empty()) {
    const uint32_t i = stack.back();
    stack.pop_back();
    if (node_seen[i]) {
      std::snprintf(msg, sizeof msg, "node %u reached twice", i);
      return msg;
    }
    node_seen[i] = 1;
    visited++;
    const Node& nd = nodes[i];
    float lo[3], hi[3];
    if (nd.b == kLeafMark) {
      if (nd.a >= n || tri_seen[nd.a]) {
        std::snprintf(msg, sizeof msg, "leaf %u holds triangle %u (%s)", i, nd.a,
                      nd.a >= n ? "out of range" : "already in another leaf");
        return msg;
      }
      tri_seen[nd.a] = 1;
      leaves++;
      triangle_box(tris, nd.a, lo, hi);
    } else {
      if (nd.a >= count || nd.b >= count || nd.a == nd.b) {
        std::snprintf(msg, sizeof msg, "inner node %u has children %u and %u", i, nd.a, nd.b);
        return msg;
      }
      stack.push_back(nd.a);
      stack.push_back(nd.b);
      const Node& l = nodes[nd.a];
      const Node& r = nodes[nd.b];
      for (int a = 0; a < 3; a++) {
        lo[a] = std::min(l.lo[a], r.lo[a]);
        hi[a] = std::max(l.hi[a], r.hi[a]);
      }
    }
    for (int a = 0; a < 3; a++) {
      if (!(nd.lo[a] == lo[a] && nd.hi[a] == hi[a])) {
        std::snprintf(msg, sizeof msg, "%s node %u: axis %d box [%.9g, %.9g], want [%.9g, %.9g]",
                      nd.b == kLeafMark ? "leaf" : "inner", i, a, nd.lo[a], nd.hi[a], lo[a], hi[a]);
        return msg;
      }
    }
  }
  if (visited != count || leaves != n) {
    std::snprintf(msg, sizeof msg, "%llu nodes reachable (%llu leaves), want %llu (%u leaves)",
                  (unsigned long long)visited, (unsigned long long)leaves, (unsigned long long)count, n);
    return msg;
  }
  return "";
}

}  // namespace lbvh
