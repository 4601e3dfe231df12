// @generated from src/reduce/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The reduce's operation codes and scratch layout.
#ifndef VKALGO_GENERATED_REDUCE_GLSL
#define VKALGO_GENERATED_REDUCE_GLSL

#define REDUCE_OP_SUM 0u
#define REDUCE_OP_MIN 1u
#define REDUCE_OP_MAX 2u
#define REDUCE_SCRATCH_PARTIALS 16ul

#endif
