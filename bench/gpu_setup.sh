# Sourced by the bench/gpu_*.sh scripts on the GPU machine: output folder, the Vulkan loader
# (shipped as .deb files in .gl/ next to the checkout), the GPU's state, and the CUDA baselines
# (prebuilt here by bench/build_cuda.sh and carried in .cuda/, else built there with nvcc).
#   OUT   output folder (default /tmp/out)
#   ARCH  nvcc target (default sm_90)
#   NVCC  the CUDA compiler (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
OUT="${OUT:-/tmp/out}"
ARCH="${ARCH:-sm_90}"
mkdir -p "$OUT"
if [ -f .devpack/devbin.tar.xz ]; then
  tar -xJf .devpack/devbin.tar.xz
fi
if [ -d .gl ]; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# The shaderc library the GLSL bucket functions load (scripts/build-devbin.sh packs it; it
# needs libshaderc1, carried in .gl).
if [ -f .devbin/lib/libshaderc_shared.so.1 ]; then
  export VKALGO_SHADERC_LIBRARY=$PWD/.devbin/lib/libshaderc_shared.so.1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" --version | tail -n 2
if [ -f .cuda/cuda-bench.tar.xz ]; then
  mkdir -p /tmp/cuda-prebuilt
  tar -xJf .cuda/cuda-bench.tar.xz -C /tmp/cuda-prebuilt
fi

# cuda_build NAME SOURCE [NVCC FLAGS...]: /tmp/NAME, the carried prebuilt binary where there is
# one (it was built from bench/cuda/NAME.cu with the same flags), else SOURCE compiled here.
cuda_build() {
  local name=$1 src=$2
  shift 2
  if [ -x "/tmp/cuda-prebuilt/$name" ]; then
    cp "/tmp/cuda-prebuilt/$name" "/tmp/$name"
    echo "$name: prebuilt (bench/build_cuda.sh)"
  else
    "$NVCC" -O3 -std=c++17 -arch="$ARCH" "$@" -o "/tmp/$name" "$src"
  fi
}
