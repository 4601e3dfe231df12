#!/usr/bin/env bash
# A CUDA compiler here, without a GPU: NVIDIA's nvcc 13.0 and its headers from PyPI wheels (the
# release the GPU machine has), unpacked under build/cuda, for the CUDA baselines of bench/cuda
# (they then travel to the GPU machine built, and no device time goes to nvcc). Compiling needs
# no GPU; running the binaries does.
#
# Usage: scripts/cuda-toolchain.sh   (prints the nvcc path; needs python3 -m pip, g++)
set -euo pipefail
cd "$(dirname "$0")/.."
root=build/cuda
nvcc=$root/nvidia/cu13/bin/nvcc
if [ ! -x "$nvcc" ]; then
  mkdir -p "$root/wheels"
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$root/wheels" \
    "nvidia-cuda-nvcc==13.0.88" "nvidia-cuda-crt==13.0.88" "nvidia-nvvm==13.0.88" \
    "nvidia-cuda-runtime==13.0.96" "nvidia-cuda-cccl==13.0.85" >&2
  for w in "$root"/wheels/*.whl; do
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$w" "$root"
  done
  chmod +x "$root"/nvidia/cu13/bin/* "$root"/nvidia/cu13/nvvm/bin/* 2>/dev/null || true
fi
echo "$PWD/$nvcc"
