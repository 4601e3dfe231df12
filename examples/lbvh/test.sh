#!/usr/bin/env bash
# The LBVH example's test (scripts/test.sh calls it after scripts/ffi-test.sh has installed the
# package into build/prefix): builds examples/lbvh against the INSTALLED package, runs it on the
# Vulkan device (lavapipe in CI) with the validation layer and synchronization validation (any
# message fails a run), and checks every --output file independently with check_bvh.py against
# the triangles it was built from. Then the bad inputs: each must fail with a message and a
# nonzero status, and write nothing.
#
# Usage: examples/lbvh/test.sh [PREFIX]   (default: build/prefix; from anywhere)
# Needs: cmake, a C++17 compiler, glslc, libpng-dev, python3.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
prefix=$(realpath "${1:-build/prefix}")
build=build/examples-lbvh
work=build/lbvh-test
lbvh=$build/lbvh
check="python3 examples/lbvh/check_bvh.py"
start=$SECONDS

step() { printf '\n=== lbvh: %s (%ds)\n' "$*" "$((SECONDS - start))"; }
die() { echo "lbvh test: error: $*" >&2; exit 1; }

step "configure + build against $prefix"
cmake -S examples/lbvh -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build"
ldd "$lbvh" | grep -E 'vkalgo|vulkan|png' || true

rm -rf "$work"
mkdir -p "$work"
python3 examples/lbvh/make_triangles.py "$work"
export VKALGO_VALIDATION=1

# run NAME ARGS...: a run that must succeed with validation on, its tree checked by lbvh and
# by check_bvh.py (the triangles of a random scene come from LBVH_WRITE_TRIANGLES).
run() {
  local name=$1
  shift
  local log=$work/$name.log tris=$work/$name.tris
  local input=""
  for a in "$@"; do
    [ "${prev:-}" = "--input" ] && input=$a
    prev=$a
  done
  prev=""
  if ! LBVH_WRITE_TRIANGLES="$tris" "$lbvh" "$@" --output "$work/$name.bvh" >"$log" 2>&1; then
    cat "$log"
    die "$name: lbvh $* failed"
  fi
  grep -q '^validation: on (with synchronization validation)' "$log" || { cat "$log"; die "$name: validation was not on"; }
  grep -q '^check: OK' "$log" || { cat "$log"; die "$name: no CPU check"; }
  $check "${input:-$tris}" "$work/$name.bvh" || die "$name: check_bvh.py rejected the tree"
  grep -E '^phase total|^build rate|^image:' "$log" | sed "s/^/  $name: /"
}

step "random scenes"
run n1 --triangles 1 --seed 7
run n2 --triangles 2 --seed 7
run n3 --triangles 3
run n1000 --triangles 1000 --seed 3
run n100000 --triangles 100000 --seed 11 --repeat 3
step "duplicate and degenerate triangles from --input"
run duplicates --input "$work/duplicates.bin"
run identical --input "$work/identical.bin"
run point --input "$work/point.bin"
run flat --input "$work/flat.bin"
step "lavapipe thread counts and subgroup sizes (the refit's atomics across workgroups)"
LP_NUM_THREADS=1 run threads1 --triangles 20000 --seed 5
LP_NUM_THREADS=4 run threads4 --triangles 100000 --seed 5
LP_NATIVE_VECTOR_WIDTH=128 run width128 --input "$work/duplicates.bin"
LP_NATIVE_VECTOR_WIDTH=512 run width512 --triangles 20000 --seed 9

step "--image"
run image --triangles 20000 --seed 2 --image "$work/scene.png" --width 160 --height 90

# --async-compute: the sort in its own submission between semaphores (lavapipe has one queue
# family, so the ownership transfers are left out there; the GPU run takes them).
run async1 --triangles 1 --async-compute
run async100000 --triangles 100000 --seed 11 --repeat 2 --async-compute
run async-duplicates --input "$work/duplicates.bin" --async-compute --image "$work/async.png" --width 64 --height 48
python3 - "$work/scene.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (160, 90), (w, h)
print(f"  image: PNG {w} x {h}, {len(data)} bytes")
PY

step "bad input: an error message, a nonzero status, nothing written"
# bad NAME ARGS...: lbvh must exit nonzero with "lbvh: error:" on stderr and create no file.
bad() {
  local name=$1
  shift
  local out=$work/bad-$name.bvh img=$work/bad-$name.png rc=0
  "$lbvh" "$@" --output "$out" --image "$img" >"$work/bad-$name.log" 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || { cat "$work/bad-$name.log"; die "bad input $name: exit status 0"; }
  grep -q 'lbvh: error:' "$work/bad-$name.log" || { cat "$work/bad-$name.log"; die "bad input $name: no error message"; }
  [ ! -e "$out" ] && [ ! -e "$img" ] || die "bad input $name: a file was written"
  echo "  $name: status $rc: $(grep -m1 'lbvh: error:' "$work/bad-$name.log")"
}
bad missing-file --input "$work/no-such-file.bin"
bad ragged-file --input "$work/ragged.bin"
bad empty-file --input "$work/empty.bin"
bad nan-file --input "$work/nan.bin"
bad n0 --triangles 0
bad n-too-large --triangles 33554433
bad n-negative --triangles -5
bad n-text --triangles 12abc
bad n-missing --triangles
bad seed-text --seed 0x10
bad width0 --triangles 10 --width 0
bad height-large --triangles 10 --height 4001
bad repeat0 --triangles 10 --repeat 0
bad unknown --triangles 10 --fast
bad input-and-n --input "$work/flat.bin" --triangles 10
bad output-dir --triangles 10 --output-dir x

step "all passed ($((SECONDS - start)) s)"
