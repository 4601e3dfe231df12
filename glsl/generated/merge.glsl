// @generated from src/merge/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The partition kernel's tile-table modes and the set operations' codes.
#ifndef VKALGO_GENERATED_MERGE_GLSL
#define VKALGO_GENERATED_MERGE_GLSL

#define MODE_TWO 0u
#define MODE_UNIFORM 1u
#define MODE_OFFSETS 2u
#define MODE_COUNT_TILES 3u
#define MODE_TWO_BALANCED 4u
#define SET_AND 0u
#define SET_OR 1u
#define SET_ANDNOT 2u
#define SET_XOR 3u

#endif
