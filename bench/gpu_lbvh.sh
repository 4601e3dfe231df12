#!/usr/bin/env bash
# The LBVH benchmark on the GPU machine, in one command: builds the CUDA yardstick
# (bench/cuda/lbvh_cuda.cu: Morton codes, cub::DeviceRadixSort::SortPairs, Karras hierarchy,
# atomic refit) with nvcc, runs it and the `lbvh` example (examples/lbvh, built on the build
# machine and carried) on the same random scenes (same generator and seed: the scene checksums
# must match), writes a picture of a 2^20-triangle scene, and prints a table last: the median
# milliseconds of each phase for both, and the ratio CUDA / vkalgo (> 1: vkalgo is faster).
#
# On the build machine, before the device command (the lbvh binary links libpng and zlib
# statically, so the GPU machine needs no libpng; it needs libvkalgo.so.* (its SONAME), which travels with
# it, libvulkan.so.1 from .gl, and the C++ runtime):
#   scripts/ffi-test.sh        # installs vkalgo into build/prefix
#   examples/lbvh/pack.sh      # .devbin/lbvh, .devbin/lib/libvkalgo.so*, .devpack/lbvh.tar.xz
# Device command (carry .gl and .devpack; this script unpacks .devpack/lbvh.tar.xz):
#   bash bench/gpu_lbvh.sh
#
# Environment:
#   OUT            output folder (default /tmp/out): lbvh-cuda.txt, lbvh-vkalgo.txt,
#                  lbvh-async.txt, lbvh-table.md, lbvh-scene.png
#   LBVH           the lbvh binary (default .devbin/lbvh)
#   VKALGO_LIB     folder with libvkalgo.so* (default .devbin/lib)
#   SIZES          log2 triangle counts (default "16 20 24")
#   SEED           scene seed (default 1)
#   REPS           timed builds per size, after one warm-up (default 20)
#   PICTURE_LOG2   log2 triangle count of the picture (default 20), size PICTURE_W x PICTURE_H
#                  (default 1920 x 1080)
#   ARCH, NVCC     as bench/gpu_setup.sh; LBVH_CUDA: a prebuilt lbvh_cuda (skips nvcc)
set -euo pipefail

SIZES="${SIZES:-16 20 24}"
SEED="${SEED:-1}"
REPS="${REPS:-20}"
PICTURE_LOG2="${PICTURE_LOG2:-20}"
PICTURE_W="${PICTURE_W:-1920}"
PICTURE_H="${PICTURE_H:-1080}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"
if [ -f .devpack/lbvh.tar.xz ]; then
  tar -xJf .devpack/lbvh.tar.xz
fi
LBVH="${LBVH:-.devbin/lbvh}"
VKALGO_LIB="${VKALGO_LIB:-.devbin/lib}"
export LD_LIBRARY_PATH="$(realpath "$VKALGO_LIB")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ldd "$LBVH" | grep -E 'vkalgo|vulkan|png|not found' || true

if [ -n "${LBVH_CUDA:-}" ]; then
  cp "$LBVH_CUDA" /tmp/lbvh_cuda
else
  cuda_build lbvh_cuda bench/cuda/lbvh_cuda.cu -Xcompiler -ffp-contract=off
fi

: >"$OUT/lbvh-cuda.txt"
: >"$OUT/lbvh-vkalgo.txt"
rc=0
for s in $SIZES; do
  n=$((1 << s))
  echo "=== 2^$s = $n triangles"
  /tmp/lbvh_cuda --triangles "$n" --seed "$SEED" --repeat "$REPS" | tee -a "$OUT/lbvh-cuda.txt" || rc=1
  "$LBVH" --triangles "$n" --seed "$SEED" --repeat "$REPS" | tee -a "$OUT/lbvh-vkalgo.txt" || rc=1
  a=$(grep "^scene: $n " "$OUT/lbvh-cuda.txt" | tail -n 1 | sed 's/.*checksum //')
  b=$(grep "^scene: $n " "$OUT/lbvh-vkalgo.txt" | tail -n 1 | sed 's/.*checksum //')
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "error: the two programs built different scenes at 2^$s (checksums '$a' and '$b')" >&2
    rc=1
  fi
done

# Async compute: the sort on a compute-only family's queue (ownership transfers, semaphores),
# checked on the CPU like every build; its own log (the phases then include the hand-offs).
echo "=== --async-compute, 2^20 triangles"
"$LBVH" --triangles $((1 << 20)) --seed "$SEED" --repeat "$REPS" --async-compute | tee "$OUT/lbvh-async.txt" || rc=1

echo "=== picture: 2^$PICTURE_LOG2 triangles, $PICTURE_W x $PICTURE_H"
"$LBVH" --triangles $((1 << PICTURE_LOG2)) --seed "$SEED" --image "$OUT/lbvh-scene.png" \
  --width "$PICTURE_W" --height "$PICTURE_H" | tee "$OUT/lbvh-picture.txt" || rc=1

echo
python3 - "$OUT/lbvh-cuda.txt" "$OUT/lbvh-vkalgo.txt" <<'PY' | tee "$OUT/lbvh-table.md"
import sys
def load(path):
    r = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) == 7 and f[0] == "RESULT":
            r[(int(f[4]), f[3])] = (float(f[5]), float(f[6]))
    return r
cuda, vk = load(sys.argv[1]), load(sys.argv[2])
print("LBVH build, median ms of the timed builds (best in parentheses); ratio = CUDA / vkalgo, > 1: vkalgo faster\n")
print("| triangles | phase | CUDA + CUB ms | vkalgo ms | CUDA / vkalgo |")
print("|---:|---|---:|---:|---:|")
for n in sorted({k[0] for k in cuda} | {k[0] for k in vk}):
    for phase in ("morton", "sort", "hierarchy", "refit", "total"):
        c, v = cuda.get((n, phase)), vk.get((n, phase))
        cs = f"{c[0]:.3f} ({c[1]:.3f})" if c else "-"
        vs = f"{v[0]:.3f} ({v[1]:.3f})" if v else "-"
        ratio = f"{c[0] / v[0]:.2f}x" if c and v and v[0] > 0 else "-"
        name = f"**{phase}**" if phase == "total" else phase
        label = f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)
        print(f"| {label} | {name} | {cs} | {vs} | {ratio} |")
PY
exit "$rc"
