# Sourced by the bench/gpu_*.sh scripts on the GPU machine: output folder, the Vulkan loader
# (shipped as .deb files in .gl/ next to the checkout), the GPU's state, and nvcc.
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
