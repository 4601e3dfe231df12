// Read-bandwidth probe: how fast can one kernel read N u32 (fresh data written just before,
// as the benchmarks do) on this GPU, against a copy.
#include <cub/cub.cuh>
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
__global__ void fill(uint32_t* p, size_t n, uint32_t salt) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i * 0x9e3779b9u + salt; x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; p[i] = x;
  }
}
// grid-stride, V uint4 per thread per round
template <int V>
__global__ void read_gs(const uint4* p, size_t n4, uint32_t* out) {
  uint32_t acc = 0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride * V) {
    uint4 v[V];
#pragma unroll
    for (int k = 0; k < V; k++) { size_t j = i + k * stride; v[k] = j < n4 ? p[j] : make_uint4(0,0,0,0); }
#pragma unroll
    for (int k = 0; k < V; k++) acc += (v[k].x >> 31) + (v[k].y >> 31) + (v[k].z >> 31) + (v[k].w >> 31);
  }
  if (acc == 0x12345678u) out[0] = acc;
}
// tiles of 2048 u32 (512 uint4), one warp a tile, 8 warps a block, tiles in reverse (like the count pass)
template <bool REV>
__global__ void read_tiles(const uint4* p, size_t tiles, uint32_t* out) {
  size_t g = blockIdx.x * 8 + threadIdx.x / 32;
  if (g >= tiles) return;
  size_t tile = REV ? tiles - 1 - g : g;
  const uint4* t = p + tile * 512;
  int lane = threadIdx.x & 31;
  uint32_t acc = 0;
  for (int r = 0; r < 2; r++) {
    uint4 v[8];
#pragma unroll
    for (int k = 0; k < 8; k++) v[k] = t[r * 256 + k * 32 + lane];
#pragma unroll
    for (int k = 0; k < 8; k++) acc += (v[k].x >> 31) + (v[k].y >> 31) + (v[k].z >> 31) + (v[k].w >> 31);
  }
  acc = __reduce_add_sync(0xffffffffu, acc);
  if (lane < 2) out[1 + (tile * 2 + lane) % 65536] = acc;
}
__global__ void copy4(const uint4* a, uint4* b, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}
int main() {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs\n", prop.name, sms);
  for (int lg : {24, 26}) {
    size_t n = (size_t)1 << lg, n4 = n / 4;
    uint32_t *a, *b, *out;
    CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&out, (65536 + 1) * 4));
    uint32_t* red; CK(cudaMalloc(&red, 8));
    void* tmp = nullptr; size_t tmp_bytes = 0;
    cub::DeviceReduce::Sum(tmp, tmp_bytes, a, red, (int)n); CK(cudaMalloc(&tmp, tmp_bytes));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](const char* name, double bytes, auto launch) {
      std::vector<float> ts;
      for (int r = 0; r < 21; r++) {
        fill<<<sms * 8, 256>>>(a, n, r * 77u + 1);
        cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1); if (r) ts.push_back(ms);
      }
      CK(cudaGetLastError());
      std::sort(ts.begin(), ts.end()); float med = ts[ts.size() / 2];
      printf("| 2^%d | %-28s | %.4f ms | %.0f GB/s |\n", lg, name, med, bytes / med / 1e6);
    };
    double rb = n * 4.0;
    time("copy uint4 (read+write)", 2 * rb, [&] { copy4<<<sms * 8, 256>>>((uint4*)a, (uint4*)b, n4); });
    time("read grid-stride V=1", rb, [&] { read_gs<1><<<sms * 8, 256>>>((uint4*)a, n4, out); });
    time("read grid-stride V=4", rb, [&] { read_gs<4><<<sms * 8, 256>>>((uint4*)a, n4, out); });
    time("read grid-stride V=4 x4 grid", rb, [&] { read_gs<4><<<sms * 32, 256>>>((uint4*)a, n4, out); });
    size_t tiles = n / 2048;
    time("read tiles forward", rb, [&] { read_tiles<false><<<(tiles + 7) / 8, 256>>>((uint4*)a, tiles, out); });
    time("read tiles reverse", rb, [&] { read_tiles<true><<<(tiles + 7) / 8, 256>>>((uint4*)a, tiles, out); });
    time("cub::DeviceReduce::Sum", rb, [&] { cub::DeviceReduce::Sum(tmp, tmp_bytes, a, red, (int)n); });
    cudaFree(a); cudaFree(b); cudaFree(out); cudaFree(red); cudaFree(tmp);
  }
}
