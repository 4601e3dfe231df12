// @generated from src/set/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The sets' chunk and block sizes, directory layout, scratch header, kernel limits, operation codes and order-statistics modes.
#ifndef VKALGO_GENERATED_SET_GLSL
#define VKALGO_GENERATED_SET_GLSL

#define CHUNKS 65536u
#define ARRAY_MAX 4096u
#define ARRAY_BLOCK_WORDS 48u
#define BITMAP_WORDS 2048u
#define RUN_SHIFT 17u
#define CARD_MASK 131071u
#define RUN_MAX 48u
#define OP_AND 0u
#define OP_OR 1u
#define OP_ANDNOT 2u
#define OP_XOR 3u
#define META_DIR 256ul
#define S_WORK 32u
#define DIR_PACKED_D 1u
#define DIR_PACKED_A 2u
#define DIR_PACKED_B 4u
#define DIR_GROUPS 1024u
#define DIR_INDEX_BYTES 16384ul
#define RUN_PAIR_MAX 46u
#define CLASSIFY_ONE_KERNEL 4u
#define FILTER_ITEMS 4u
#define OFFSET_BLOCK 256u
#define OFFSET_BLOCKS 256u
#define S_ORDER_TOTAL 24u
#define ORDER_RANK 0u
#define ORDER_SELECT 1u
#define ORDER_MIN_MAX 2u
#define ORDER_MIN_MAX_RESOLVE 3u

#endif
