// @generated from src/scan/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The scan's push flags and the typed kernel's passes.
#ifndef VKALGO_GENERATED_SCAN_GLSL
#define VKALGO_GENERATED_SCAN_GLSL

#define SCAN_FLAG_WORKGROUP_LOOKBACK 2u
#define SCAN_FLAG_ACCUMULATOR_BITS 4u
#define SCAN_TYPED_PASS_REDUCE 0u
#define SCAN_TYPED_PASS_DOWNSWEEP 1u

#endif
