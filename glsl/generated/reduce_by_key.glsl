// @generated from src/reduce_by_key/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The reduce-by-key's operation codes, look-back flags, options and scratch header.
#ifndef VKALGO_GENERATED_REDUCE_BY_KEY_GLSL
#define VKALGO_GENERATED_REDUCE_BY_KEY_GLSL

#define RBK_OP_SUM 0u
#define RBK_OP_MIN 1u
#define RBK_OP_MAX 2u
#define RBK_FLAG_NONE 0u
#define RBK_FLAG_AGGREGATE 1u
#define RBK_FLAG_INCLUSIVE 2u
#define RBK_SCRATCH_HEADER 16ul

#endif
