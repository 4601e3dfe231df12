// @generated from src/split/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The bucket functions' limits and status bits (the multisplit and the sort's bucket hook).
#ifndef VKALGO_GENERATED_BUCKET_FN_GLSL
#define VKALGO_GENERATED_BUCKET_FN_GLSL

#define MAX_ID_BITS 16u
#define SPLITTERS_PLAIN_MAX 64u
#define STATUS_BAD_BUCKET 1u
#define STATUS_INCONSISTENT 2u

#endif
