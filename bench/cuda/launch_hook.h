// Launch hook for the CUDA baselines (bench/cuda/*.cu), compiled in with -DCUB_LAUNCH_HOOK
// -cudart shared -ldl: every kernel launch goes through it. When CUB_CARVEOUT=<percent> is set,
// it sets the kernel's preferred shared-memory carveout first (as a Vulkan pipeline cannot); it
// prints each kernel's registers, static shared memory and resident blocks per SM once.
// Include after <cuda_runtime.h> and cuda_check.h.
#ifndef VKALGO_BENCH_LAUNCH_HOOK_H
#define VKALGO_BENCH_LAUNCH_HOOK_H

#ifdef CUB_LAUNCH_HOOK
#include <dlfcn.h>

#include <set>

// The first time a kernel is launched: applies CUB_CARVEOUT to it and prints its resources.
static void prepare_launch(const void* func, dim3 block, size_t shared_mem) {
  static const char* carveout = std::getenv("CUB_CARVEOUT");
  static std::set<const void*> seen;
  if (seen.insert(func).second) {
    if (carveout != nullptr) {
      CUDA_CHECK(cudaFuncSetAttribute(func, cudaFuncAttributePreferredSharedMemoryCarveout, std::atoi(carveout)));
    }
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, func));
    int blocks = 0;
    const int threads = int(block.x * block.y * block.z);
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, threads, shared_mem));
    std::printf("kernel %p: %d threads, %d registers, %zu B static + %zu B dynamic shared, %d blocks/SM (carveout %s)\n",
                func, threads, attr.numRegs, attr.sharedSizeBytes, shared_mem, blocks,
                carveout != nullptr ? carveout : "default");
  }
}

// Interposes the runtime entries that launches go through: the compiler's <<<>>> stubs and
// cudaLaunchKernelEx (CUB's launches with programmatic dependent launch).
extern "C" cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                                    size_t shared_mem, cudaStream_t stream) {
  using Launch = cudaError_t (*)(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t);
  static const Launch real = reinterpret_cast<Launch>(dlsym(RTLD_NEXT, "__cudaLaunchKernel"));
  prepare_launch(reinterpret_cast<const void*>(kernel), block, shared_mem);
  return real(kernel, grid, block, args, shared_mem, stream);
}

extern "C" cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                                     void** args) {
  using Launch = cudaError_t (*)(const cudaLaunchConfig_t*, const void*, void**);
  static const Launch real = reinterpret_cast<Launch>(dlsym(RTLD_NEXT, "cudaLaunchKernelExC"));
  prepare_launch(func, config->blockDim, config->dynamicSmemBytes);
  return real(config, func, args);
}
#endif

#endif
