// @generated from src/segmented_sort/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The segmented sort's partition passes, padding tag and tiny segments' limit.
#ifndef VKALGO_GENERATED_SEGMENTED_SORT_GLSL
#define VKALGO_GENERATED_SEGMENTED_SORT_GLSL

#define SEGSORT_PASS_COUNT 0u
#define SEGSORT_PASS_PARTITION 1u
#define SEGSORT_PASS_SEGMENT_TABLE 2u
#define SEGSORT_PASS_ROUND_ARGS 3u
#define SEGSORT_PASS_BLOCK_ARGS 4u
#define SEGSORT_PASS_TINY_FIRST 5u
#define SEGSORT_NO_TAG 65535u
#define SEGSORT_TINY_LIMIT 64u

#endif
