// @generated from src/split/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The multisplit's push flags, scratch layout, key-order bits and tile-variant bits.
#ifndef VKALGO_GENERATED_SPLIT_GLSL
#define VKALGO_GENERATED_SPLIT_GLSL

#define SPLIT_FLAG_TOTAL_STATUS 1u
#define SCAN_STATE_OFFSET 16ul
#define SPLIT_KEY_ORDER_INDEXED 8u
#define SMALL_WORDS 4096u
#define TILE_VARIANT_STAGED 1u
#define TILE_VARIANT_REGISTERS 2u
#define TILE_VARIANT_SUBGROUP_STAGED 4u
#define TILE_VARIANT_COUNT_REGISTERS 8u
#define TILE_VARIANT_ID_BITS_SHIFT 8
#define TILE_VARIANT_ID_BITS_MASK 63u
#define TILE_VARIANT_TILES_SHIFT 16
#define TILE_VARIANT_TILES_MASK 15u
#define TILE_VARIANT_FIRST_ORDER_SHIFT 20
#define TILE_VARIANT_FIRST_ORDER_MASK 3u
#define TILE_VARIANT_SUBGROUP_POSITIONS 4194304u
#define TILE_VARIANT_SHUFFLES_FIRST 8388608u
#define TILE_VARIANT_MATCH_TABLE 16777216u

#endif
