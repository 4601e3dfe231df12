// @generated from src/hash/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The insert-or-apply kernels' mode bits; the reclaim's passes and mark.
#ifndef VKALGO_GENERATED_HASH_GLSL
#define VKALGO_GENERATED_HASH_GLSL

#define APPLY_OP_SUM 0u
#define APPLY_OP_MIN 1u
#define APPLY_OP_MAX 2u
#define APPLY_OP_MASK 3u
#define APPLY_RESERVE_ONLY 4u
#define RECLAIM_CHECK 0u
#define RECLAIM_UNMARK 1u
#define RECLAIM_MARK 2u
#define RECLAIM_SWEEP 3u
#define RECLAIM_MOVE 4u
#define RECLAIM_MOVE_KEY_LAST 5u
#define RECLAIM_MARKED 1u

#endif
