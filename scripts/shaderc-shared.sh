#!/usr/bin/env bash
# Builds a loadable shaderc shared library from Debian 12's own packages, for vkalgo's run-time
# GLSL bucket functions: Debian's libshaderc.so.1 (package libshaderc1) leaves glslang and
# SPIRV-Tools symbols undefined (only glslc, which links them itself, can use it), so this links
# it with libshaderc-dev's static glslang and SPIRV-Tools into one library that loads.
#
# Usage: scripts/shaderc-shared.sh [OUT_DIR]   (default build/shaderc; prints the library path)
# Then: VKALGO_SHADERC_LIBRARY=<printed path>. Needs libshaderc-dev and g++.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/shaderc}
lib=$out/libshaderc_shared.so.1
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
dir=/usr/lib/$multiarch
if [ ! -f "$lib" ] || [ "$dir/libshaderc.so.1" -nt "$lib" ]; then
  mkdir -p "$out"
  archives=()
  for a in glslang MachineIndependent OSDependent GenericCodeGen OGLCompiler SPIRV SPIRV-Tools-opt SPIRV-Tools; do
    [ -f "$dir/lib$a.a" ] && archives+=("$dir/lib$a.a")
  done
  g++ -shared -o "$lib.tmp" -Wl,-soname,libshaderc_shared.so.1 \
    -Wl,--whole-archive "${archives[@]}" -Wl,--no-whole-archive \
    -Wl,--no-as-needed "$dir/libshaderc.so.1" -lpthread
  mv "$lib.tmp" "$lib"
fi
echo "$PWD/$lib"
