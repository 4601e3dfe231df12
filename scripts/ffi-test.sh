#!/usr/bin/env bash
# Builds vkalgo through CMake (cargo underneath), installs it into build/prefix and checks the
# installed libraries (SONAME and symlinks from Cargo.toml's version, no shader compiler linked
# in, sizes) and the pkg-config file; builds a consumer that takes vkalgo's source tree with
# add_subdirectory and with FetchContent; then builds and runs the C/C++ ABI tests of ffi-tests/
# and the C example of examples/c/ as separate CMake projects against the installed package.
# Usage: scripts/ffi-test.sh   (from anywhere; everything goes under build/, which git ignores)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
prefix=$root/build/prefix

step() { printf '\n=== %s (%ds)\n' "$*" "$SECONDS"; }
die() { echo "error: $*" >&2; exit 1; }

# The version, from the one place it is written: Cargo.toml's [workspace.package].
version=$(awk '{ sub(/\r$/, "") } /^\[/ { section = $0 }
  section == "[workspace.package]" && /^version[ \t]*=/ { gsub(/^[^"]*"|".*$/, ""); print; exit }' Cargo.toml)
[[ $version =~ ^([0-9]+)\.([0-9]+)\.([0-9]+) ]] || die "no version in Cargo.toml's [workspace.package]"
major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]} patch=${BASH_REMATCH[3]}
version=$major.$minor.$patch   # as CMake, pkg-config and vkalgo_version() give it (no pre-release tag)
# The SONAME rule of crates/vkalgo-capi/build.rs: MAJOR.MINOR before 1.0, MAJOR from 1.0 on.
if [ "$major" -eq 0 ]; then abi=0.$minor; else abi=$major; fi
soname=libvkalgo.so.$abi
libfile=libvkalgo.so.$major.$minor.$patch
echo "vkalgo $version: $libfile, SONAME $soname"

step "configure + build + install vkalgo"
cmake -S . -B build/cmake -DCMAKE_BUILD_TYPE=Release
cmake --build build/cmake
rm -rf "$prefix"   # install into a clean prefix: no stale files from earlier runs
cmake --install build/cmake --prefix "$prefix"

step "check the installed libraries"
lib=$prefix/lib
[ -f "$lib/$libfile" ] && [ ! -L "$lib/$libfile" ] || die "$lib/$libfile is missing or not a file"
got=$(readelf -d "$lib/$libfile" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
echo "SONAME $got"
[ "$got" = "$soname" ] || die "$lib/$libfile has SONAME '${got:-none}', want $soname"
[ "$(readlink "$lib/$soname")" = "$libfile" ] || die "$lib/$soname is not a symlink to $libfile"
[ "$(readlink "$lib/libvkalgo.so")" = "$soname" ] || die "$lib/libvkalgo.so is not a symlink to $soname"
# No shader compiler is linked in (the GLSL compiler is loaded at run time): no symbol of
# glslang, SPIRV-Tools or shaderc, defined or undefined. vkalgo's own loader module
# (vkalgo::split::shaderc, mangled ...7shaderc...) is not one of them.
symbols=$(nm --format=just-symbols "$lib/libvkalgo.a" 2>/dev/null)   # (members without symbols: stderr)
[ -n "$symbols" ] || die "nm lists no symbols in $lib/libvkalgo.a"
foreign=$(grep -c -E '^(shaderc_|_ZN7shaderc|_ZN11shaderc_util|spv[A-Z])|glslang|spvtools' <<<"$symbols" || true)
echo "glslang/SPIRV-Tools/shaderc symbols in libvkalgo.a: $foreign (of $(wc -l <<<"$symbols"))"
[ "$foreign" -eq 0 ] || die "libvkalgo.a has $foreign glslang/SPIRV-Tools/shaderc symbols"
mkdir -p build/size-check
strip -o build/size-check/libvkalgo.so "$lib/$libfile"
so_size=$(stat -c %s build/size-check/libvkalgo.so)
a_size=$(stat -c %s "$lib/libvkalgo.a")
mib() { awk -v b="$1" 'BEGIN { printf "%.2f MiB (%d bytes)", b / 1048576, b }'; }
echo "libvkalgo.so stripped: $(mib "$so_size"); libvkalgo.a: $(mib "$a_size")"
[ "$so_size" -le $((8 << 20)) ] || die "stripped libvkalgo.so is over 8 MiB"
[ "$a_size" -le $((16 << 20)) ] || die "libvkalgo.a is over 16 MiB"

if command -v pkg-config >/dev/null; then
  step "check the pkg-config file (compile and link header_c99.c and test_c.c with it)"
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  [ "$(pkg-config --modversion vkalgo)" = "$version" ] || die "pkg-config --modversion vkalgo is not $version"
  pkg-config --modversion vkalgo
  pkg-config --cflags --libs vkalgo
  pkg-config --static --libs vkalgo
  mkdir -p build/pkgconfig-check
  # shellcheck disable=SC2046  # word splitting of pkg-config output is intended
  cc -std=c99 -pedantic -Werror ffi-tests/header_c99.c $(pkg-config --cflags vkalgo) \
    -DEXPECT_VERSION_MAJOR="$major" -DEXPECT_VERSION_MINOR="$minor" -DEXPECT_VERSION_PATCH="$patch" \
    -o build/pkgconfig-check/header_c99
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -pedantic -Werror ffi-tests/test_c.c $(pkg-config --cflags --libs vkalgo) -lvulkan \
    -o build/pkgconfig-check/test_c_shared
  readelf -d build/pkgconfig-check/test_c_shared | grep -q "NEEDED.*\[$soname\]" ||
    die "the shared pkg-config link does not record $soname"
  # Static: the same flags with --static, libvkalgo.a picked explicitly.
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -pedantic -Werror ffi-tests/test_c.c $(pkg-config --cflags vkalgo) \
    $(pkg-config --static --libs vkalgo | sed 's/-lvkalgo\b/-l:libvkalgo.a/') -o build/pkgconfig-check/test_c_static
  if readelf -d build/pkgconfig-check/test_c_static | grep -q 'libvkalgo'; then
    die "the static pkg-config link still needs libvkalgo.so"
  fi
  echo "pkg-config: header, shared and static links OK"
fi

# A project that builds vkalgo from source inside its own build (ffi-tests/subproject): first
# with add_subdirectory and a cargo build of its own from scratch (which checks that linking
# the targets waits for cargo), then with FetchContent, sharing build/cmake's cargo output.
# check_consumer DIR: both programs print the version and link the library they should.
check_consumer() {
  local dir=$1 out
  for exe in version_static version_shared; do
    out=$("$dir/$exe") || die "$dir/$exe failed: $out"
    echo "$exe: $out"
    [[ $out == "vkalgo $version "* ]] || die "$dir/$exe reports '$out', want vkalgo $version"
  done
  ! readelf -d "$dir/version_static" | grep -q libvkalgo || die "$dir/version_static needs libvkalgo.so"
  readelf -d "$dir/version_shared" | grep -q "NEEDED.*\[$soname\]" || die "$dir/version_shared does not need $soname"
}
step "a consumer with vkalgo as a subproject: add_subdirectory (cargo build from scratch)"
rm -rf build/subproject
cmake -S ffi-tests/subproject -B build/subproject -DCMAKE_BUILD_TYPE=Release
cmake --build build/subproject
check_consumer build/subproject
step "a consumer with vkalgo as a subproject: FetchContent"
rm -rf build/subproject-fetchcontent
cmake -S ffi-tests/subproject -B build/subproject-fetchcontent -DCMAKE_BUILD_TYPE=Release \
  -DVKALGO_TEST_FETCHCONTENT=ON -DVKALGO_CARGO_TARGET_DIR="$root/build/cmake/cargo"
cmake --build build/subproject-fetchcontent
check_consumer build/subproject-fetchcontent

step "configure + build ffi-tests against the installed package"
cmake -S ffi-tests -B build/ffi-tests -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DVKALGO_REQUIRED_VERSION="$major.$minor"
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
