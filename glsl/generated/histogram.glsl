// @generated from src/histogram/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The histogram's pass codes and scratch layout.
#ifndef VKALGO_GENERATED_HISTOGRAM_GLSL
#define VKALGO_GENERATED_HISTOGRAM_GLSL

#define HISTOGRAM_PASS_COUNT 0u
#define HISTOGRAM_PASS_FINISH 1u
#define HISTOGRAM_SCRATCH_COUNTS 16ul

#endif
