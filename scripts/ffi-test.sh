#!/usr/bin/env bash
# Builds vkalgo through CMake (cargo underneath), installs it into build/prefix, checks the
# installed shared library's SONAME and the pkg-config file, then builds and runs the C/C++ ABI
# tests of ffi-tests/ and the C example of examples/c/ as separate CMake projects against the
# installed package.
# Usage: scripts/ffi-test.sh   (from anywhere; everything goes under build/, which git ignores)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
prefix=$root/build/prefix

step() { printf '\n=== %s (%ds)\n' "$*" "$SECONDS"; }

step "configure + build + install vkalgo"
cmake -S . -B build/cmake -DCMAKE_BUILD_TYPE=Release
cmake --build build/cmake
rm -rf "$prefix"   # install into a clean prefix: no stale files from earlier runs
cmake --install build/cmake --prefix "$prefix"

step "check the installed shared library"
soname=$(readelf -d "$prefix/lib/libvkalgo.so.0" | grep SONAME || true)
echo "$soname"
if [[ $soname != *"[libvkalgo.so.0]"* ]]; then
  echo "error: $prefix/lib/libvkalgo.so.0 has SONAME '${soname:-none}', want libvkalgo.so.0" >&2
  exit 1
fi
if [[ $(readlink "$prefix/lib/libvkalgo.so") != libvkalgo.so.0 ]]; then
  echo "error: $prefix/lib/libvkalgo.so is not a symlink to libvkalgo.so.0" >&2
  exit 1
fi

if command -v pkg-config >/dev/null; then
  step "check the pkg-config file (compile and link header_c99.c and test_c.c with it)"
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  pkg-config --modversion vkalgo
  pkg-config --cflags --libs vkalgo
  pkg-config --static --libs vkalgo
  mkdir -p build/pkgconfig-check
  # shellcheck disable=SC2046  # word splitting of pkg-config output is intended
  cc -std=c99 -pedantic -Werror ffi-tests/header_c99.c $(pkg-config --cflags vkalgo) -o build/pkgconfig-check/header_c99
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -pedantic -Werror ffi-tests/test_c.c $(pkg-config --cflags --libs vkalgo) -lvulkan \
    -o build/pkgconfig-check/test_c_shared
  # Static: the same flags with --static, libvkalgo.a picked explicitly.
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -pedantic -Werror ffi-tests/test_c.c $(pkg-config --cflags vkalgo) \
    $(pkg-config --static --libs vkalgo | sed 's/-lvkalgo\b/-l:libvkalgo.a/') -o build/pkgconfig-check/test_c_static
  if readelf -d build/pkgconfig-check/test_c_static | grep -q 'libvkalgo'; then
    echo "error: the static pkg-config link still needs libvkalgo.so" >&2
    exit 1
  fi
  echo "pkg-config: header, shared and static links OK"
fi

step "configure + build ffi-tests against the installed package"
cmake -S ffi-tests -B build/ffi-tests -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
cmake --build build/ffi-tests
ldd build/ffi-tests/test_c | grep -E 'vkalgo|vulkan'

# Two at a time: most of their time is lavapipe compiling pipelines, on one core each.
step "run the tests"
ctest --test-dir build/ffi-tests --output-on-failure -j 2

# The C example (examples/c): a user's standalone project with its own VkInstance/VkDevice and
# the record layer, built against the same installed package. A small N keeps it quick on
# lavapipe; VKALGO_VALIDATION=1 runs it under the validation layer (synchronization validation
# included), where any message fails it.
step "configure + build + run the C example (examples/c) against the installed package"
cmake -S examples/c -B build/examples-c -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
cmake --build build/examples-c
VKALGO_VALIDATION=1 build/examples-c/morton_sort 200000

step "all passed"
