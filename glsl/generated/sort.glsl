// @generated from src/sort/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The radix sort's digit width, Onesweep ring and scratch layout.
#ifndef VKALGO_GENERATED_SORT_GLSL
#define VKALGO_GENERATED_SORT_GLSL

#define RADIX_BITS 8u
#define RING_TILES 1016u
#define SCRATCH_STATS 8256ul
#define SCRATCH_RING 8320ul

#endif
