// Error checking shared by the CUDA benchmarks (nvcc includes cuda_runtime.h itself).
#pragma once

#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(expr)                                                                       \
  do {                                                                                         \
    cudaError_t err_ = (expr);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n  in: %s\n", cudaGetErrorName(err_), \
                   __FILE__, __LINE__, cudaGetErrorString(err_), #expr);                      \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

// After every kernel launch: catches bad launch configurations.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
