#!/usr/bin/env bash
# Packs what bench/gpu_lbvh.sh runs on the GPU machine: the lbvh binary (built against the
# installed package in build/prefix; libpng and zlib linked in statically) and libvkalgo.so.*,
# stripped, into .devbin/lbvh + .devbin/lib/ and .devpack/lbvh.tar.xz (both git-ignored).
# Carry .devpack and .gl in the device command; bench/gpu_lbvh.sh unpacks it there.
#
# Usage: examples/lbvh/pack.sh   (after scripts/ffi-test.sh has installed build/prefix)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
prefix=$PWD/build/prefix
[ -e "$prefix/lib/libvkalgo.so" ] || { echo "error: $prefix/lib/libvkalgo.so is missing: run scripts/ffi-test.sh" >&2; exit 1; }
cmake -S examples/lbvh -B build/examples-lbvh -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build/examples-lbvh
mkdir -p .devbin/lib .devpack
cp build/examples-lbvh/lbvh .devbin/lbvh
cp -P "$prefix"/lib/libvkalgo.so* .devbin/lib/
# The one real file (the others are its SONAME and development links).
strip .devbin/lbvh "$(readlink -f .devbin/lib/libvkalgo.so)"
tar -cJf .devpack/lbvh.tar.xz .devbin/lbvh .devbin/lib
ls -la .devbin/lbvh .devbin/lib .devpack/lbvh.tar.xz
