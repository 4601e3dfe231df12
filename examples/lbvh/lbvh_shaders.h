// The example's compute shaders as SPIR-V words, compiled at build time by glslc -mfmt=num
// (CMakeLists.txt) from shaders/*.comp into the build directory.
#pragma once
#include <cstdint>

static const uint32_t kMortonSpv[] = {
#include "morton.spv.inc"
};
static const uint32_t kHierarchySpv[] = {
#include "hierarchy.spv.inc"
};
static const uint32_t kRefitSpv[] = {
#include "refit.spv.inc"
};
static const uint32_t kTraceSpv[] = {
#include "trace.spv.inc"
};
