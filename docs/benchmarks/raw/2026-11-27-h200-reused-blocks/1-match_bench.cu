// Micro-benchmark: peers of a lane's bucket by match.any vs a ballot per bit vs shared atomicOr table + ballots.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
template <int BITS>
__device__ __forceinline__ unsigned peers_ballot(unsigned b) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int i = 0; i < BITS; ++i) {
    bool s = (b >> i) & 1u;
    unsigned v = __ballot_sync(0xffffffffu, s);
    peers &= s ? v : ~v;
  }
  return peers;
}
template <int MODE, int BITS>
__global__ void k(const uint32_t* __restrict__ in, uint32_t* out, int iters) {
  uint32_t x = in[blockIdx.x * blockDim.x + threadIdx.x];
  uint32_t acc = 0;
  unsigned lt = (1u << (threadIdx.x & 31)) - 1u;
  for (int it = 0; it < iters; ++it) {
    uint32_t b = (x * 2654435761u) >> (32 - BITS);
    unsigned peers;
    if (MODE == 0) peers = peers_ballot<BITS>(b);
    else if (MODE == 1) peers = __match_any_sync(0xffffffffu, b);
    else peers = b | 1u;
    acc += __popc(peers & lt) + __popc(peers);
    x = x * 1664525u + 1013904223u + acc;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
template <int MODE, int BITS>
float run(const uint32_t* in, uint32_t* out, int blocks, int iters) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  k<MODE, BITS><<<blocks, 256>>>(in, out, iters);
  float best = 1e9;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(a);
    k<MODE, BITS><<<blocks, 256>>>(in, out, iters);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
  }
  return best;
}
int main() {
  int blocks = 132 * 8, iters = 4096;
  size_t n = (size_t)blocks * 256;
  uint32_t *in, *out; cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4);
  cudaMemset(in, 7, n * 4);
  double ops = (double)n * iters;
  printf("| method | bits | ms | G lane-ranks/s |\n|---|---:|---:|---:|\n");
#define R(M, B, NAME) { float ms = run<M, B>(in, out, blocks, iters); printf("| %s | %d | %.3f | %.1f |\n", NAME, B, ms, ops / ms / 1e6); }
  R(2, 5, "no peers");
  R(0, 1, "ballots"); R(1, 1, "match.any");
  R(0, 2, "ballots"); R(1, 2, "match.any");
  R(0, 3, "ballots"); R(1, 3, "match.any");
  R(0, 5, "ballots"); R(1, 5, "match.any");
  R(0, 8, "ballots"); R(1, 8, "match.any");
  R(0, 10, "ballots"); R(1, 10, "match.any");
  return 0;
}
