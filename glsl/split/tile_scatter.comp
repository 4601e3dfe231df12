#version 460
// Multisplit, tile path, step 4 (after the exclusive scan of the matrix and the offsets): every
// workgroup ranks its tile stably and writes it out. Writes nothing when a bucket was bad (the
// scanned matrix's total falls short of the count: split_common.glsl tile_split_bad).
//  1. Each subgroup walks its items (see split_common.glsl, tiles) and ranks each element among
//     the subgroup's earlier elements of its bucket: one ballot per id bit finds the item's
//     peers (or, MATCH_TABLE, a table of lane masks in shared memory); the running count per
//     bucket is a register of lane b where m fits the subgroup, else row `subgroup` of shared
//     counters (m words per subgroup).
//  2. Per bucket, the rows become positions: an exclusive prefix over the subgroups, started
//     at the tile's first position of the bucket. Without TILE_STAGED that is the global
//     position (matrix entry (b, tile)) and every element is written straight from its
//     registers: for small m each store of a subgroup hits few contiguous runs.
//     SUBGROUP_POSITIONS (register counters; direct, or subgroup-staged keys alone): each
//     subgroup sums the rows before its own to the matrix entries itself; the rows stay as
//     they are.
//  3. TILE_STAGED: the start is the bucket's first slot in the tile (an exclusive scan of the
//     tile's bucket totals); the keys, then the values, are staged in shared memory in bucket
//     order, and each invocation writes consecutive slots (coalesced runs, one per bucket),
//     finding a slot's bucket by a binary search of the tile's bucket starts.
//     STAGED_POSITIONS (register counters): each subgroup scans the bucket totals itself
//     instead of the workgroup, and no row becomes a position.
//  3b. TILE_SUBGROUP_STAGED instead: each subgroup stages only its own run, with subgroup
//     barriers (subgroup_staged_write).
//  4. Bounds (an impure bucket function: split_common.glsl STATUS_INCONSISTENT): the scanned
//     matrix's entry after (b, tile) is where the tile's run of bucket b ends, so the run holds
//     next - entry places (the count pass's count). Before any write, the places this tile's
//     ranking gives bucket b (each subgroup's, up to its own, with SUBGROUP_POSITIONS; the
//     tile's elsewhere) are checked against that: more, and the subgroup (or the tile) writes
//     nothing and raises the status. As the ranking meets every element of the tile once (an
//     id >= m, which the count did not see, raises the status too), no bucket falls short unless
//     another one overflows: every element out of its counted place is reported, and every
//     write lies in its run, below the count. Where a staged element's bucket is computed again
//     from its key (GLSL: BITS is pure), its slot must lie in that bucket's run of the staged
//     tile, else it is not written and the status is raised.
// Shared pool (COUNTER_WORDS words): the counter rows at [0, rows * m) (two sets of rows with
// DOUBLE_BUFFERED_ROWS); the staged keys or values at [0, TILE_LENGTH * words) (after the
// counters are consumed); with TILE_STAGED the tile's bucket starts at [aux, aux + m) and the
// global-minus-local bases at [aux + m, aux + 2m), aux = max of both regions' ends; with
// TILE_SUBGROUP_STAGED subgroup s's run at [counter rows * m + s * S * BATCH * STAGE_WORDS, ...)
// beside the counters; with STAGED_POSITIONS the tile at [0, TILE_LENGTH * STAGE_WORDS), the
// bucket tables right after it and the counter rows after those (the plan sizes the pool).
// Variants: the bits of TILE_VARIANT (specialization constant 2) select about eight structural
// variants of this kernel; the table of bits, names and meanings is in split_common.glsl.
#define SPLIT_TILES 1
#define SPLIT_TILE_KERNEL 1 // loops over id bits unrolled to the plan's count (bucket_fn.glsl)
#include "split_common.glsl"
#include "../common/workgroup_scan.glsl"

shared uint s_pool[COUNTER_WORDS];
shared uint s_status;

// The variant, fixed per pipeline so the driver drops the other code paths: the bits of
// TILE_VARIANT (the table in split_common.glsl). TILE_REGISTERS: the plan sets it only where m
// <= the smallest subgroup size (docs/tuning/split.md#register-counters).
const bool TILE_STAGED = (TILE_VARIANT & TILE_VARIANT_STAGED) != 0u;
const bool TILE_REGISTERS = (TILE_VARIANT & TILE_VARIANT_REGISTERS) != 0u;
// With TILE_REGISTERS only: see step 3b.
const bool TILE_SUBGROUP_STAGED = (TILE_VARIANT & TILE_VARIANT_SUBGROUP_STAGED) != 0u;
// Items addressed from the lane's first one (keys alone; pairs by BITS subgroup-staged into
// more than 4 buckets): see load_items.
#define LANE_FORM (VALUE_WORDS == 0 || (BUCKET_FN == 0 && TILE_SUBGROUP_STAGED && UNROLLED_ID_BITS >= 3u))
#define KEY_WORDS (KEY_BITS / 32)
#define NONE 0xFFFFFFFFu
// Pool words per staged element (step 3b): the wider of the key and the value.
#define STAGE_WORDS (KEY_WORDS > VALUE_WORDS ? KEY_WORDS : VALUE_WORDS)

// The bucket of the staged element at `slot` whose key is `key` (step 3; the tile's bucket
// starts at s_pool[aux..aux + m)). BITS and GLSL recompute it from the key. IDS and SPLITTERS
// (whose ids are not at hand, or would cost a search of the splitters in global memory)
// search the bucket starts for the last bucket whose first slot is <= slot (empty buckets
// share their successor's start and are passed over): a chain of ceil(log2 m) + 1 dependent
// shared loads per element, slower than the bucket recomputed
// (docs/tuning/split.md#staged-bucket).
uint staged_bucket(KEY_T key, uint slot, uint m, uint aux) {
#if BUCKET_FN == 0 || BUCKET_FN == 3
    return bucket_of(key, 0ul);
#else
    uint lo = 0u;
    uint len = m;
    [[dont_unroll]] for (uint bit = 0u; bit <= pc.id_bits; ++bit) {
        if (len > 0u) {
            uint half_len = len >> 1;
            if (s_pool[aux + lo + half_len] <= slot) {
                lo += half_len + 1u;
                len -= half_len + 1u;
            } else {
                len = half_len;
            }
        }
    }
    return lo - 1u;
#endif
}

// The word of bucket b's run in the staged tile at s_pool[aux + b]: its first slot, and with
// GLSL its end (first slot + count) in the high 16 bits (slots are below TILE_LENGTH <= 2^13),
// for staged_slot_in_run; IDS and SPLITTERS search the first slots.
uint staged_run_word(uint first, uint end) {
#if BUCKET_FN == 3
    return first | (end << 16);
#else
    return first;
#endif
}

// GLSL (computed again from the key: an impure function may answer otherwise than for the
// ranking): whether bucket `b` of the staged element at `slot` holds that slot in the staged
// tile (the runs at s_pool[aux..aux + m), staged_run_word); else the element is not written and
// the status is raised. The other bucket functions find the bucket from the slot (or are
// pure).
bool staged_slot_in_run(uint b, uint slot, uint m, uint aux) {
#if BUCKET_FN == 3
    uint run = b < m ? s_pool[aux + b] : 0u;
    bool in_run = slot - (run & 0xFFFFu) < (run >> 16) - (run & 0xFFFFu);
    if (!in_run) {
        report_inconsistent();
    }
    return in_run;
#else
    return true;
#endif
}

// Step 3b, TILE_SUBGROUP_STAGED (the warp-level multisplit's local reordering, Ashkiani et
// al.; m at most the subgroup size, counters in registers): each subgroup stages its own run
// of S * BATCH elements in bucket order in a private region of the pool (after the counter
// rows), with no workgroup barrier, and stores consecutive slots: a store of S lanes then
// spans about S * m / (S * BATCH) + 1 runs instead of up to m. Lane b holds the subgroup's
// count of bucket b (`counter`) and its first global position (`lane_start`); the runs lie
// after the pool's `counter_rows` counter rows.
void subgroup_staged_write(KEY_T keys[BATCH],
#if VALUE_WORDS > 0
                           VALUE_T values[BATCH],
#endif
                           uint packed[BATCH], uint counter, uint lane_start, uint m,
                           uint counter_rows) {
    uint lane = gl_SubgroupInvocationID;
    uint local_start = subgroupExclusiveAdd(counter); // lane b: bucket b's first slot
    uint held = subgroup_total(local_start, counter);
    uint shift = lane_start - local_start; // global - slot (wraps)
    uint span = gl_SubgroupSize * BATCH;
    uint region = counter_rows * m + gl_SubgroupID * span * STAGE_WORDS;
    uint slots[BATCH];
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        uint b = packed[i] == NONE ? 0u : (packed[i] & 0xFFFFu);
        slots[i] = subgroupShuffle(local_start, b) + (packed[i] >> 16);
        if (packed[i] != NONE) {
            s_pool[region + slots[i]] = uint(keys[i]);
#if KEY_BITS == 64
            s_pool[region + span + slots[i]] = uint(keys[i] >> 32);
#endif
        }
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    uint dest[BATCH];
    [[unroll]] for (uint k = 0u; k < BATCH; ++k) {
        uint slot = k * gl_SubgroupSize + lane;
        bool ok = slot < held;
        KEY_T key = KEY_T(0);
        if (ok) {
            key = KEY_T(s_pool[region + slot]);
#if KEY_BITS == 64
            key |= uint64_t(s_pool[region + span + slot]) << 32;
#endif
        }
#if BUCKET_FN == 0 || BUCKET_FN == 3
        uint b = ok ? bucket_of(key, 0ul) : 0u;
#if BUCKET_FN == 3
        // Computed again (see staged_slot_in_run): the slot must lie in bucket b's run (lane
        // b: its first slot | its count << 16; slots are below 2^12).
        uint run = subgroupShuffle(local_start | (counter << 16), min(b, m - 1u));
        if (ok && (b >= m || slot - (run & 0xFFFFu) >= (run >> 16))) {
            report_inconsistent();
            ok = false;
            b = 0u;
        }
#endif
#else
        // The last bucket whose first slot is <= slot, by a search of the lanes' starts
        // (subgroup-uniform: every lane probes in every round).
        uint lo = 0u;
        uint len = m;
        [[dont_unroll]] for (uint bit = 0u; bit <= pc.id_bits; ++bit) {
            uint half_len = len >> 1;
            uint probe = subgroupShuffle(local_start, min(lo + half_len, m - 1u));
            if (len > 0u) {
                if (probe <= slot) {
                    lo += half_len + 1u;
                    len -= half_len + 1u;
                } else {
                    len = half_len;
                }
            }
        }
        uint b = ok ? lo - 1u : 0u;
#endif
        dest[k] = subgroupShuffle(shift, b) + slot;
        if (ok) {
            KeyRef(pc.keys_out + uint64_t(dest[k]) * uint64_t(KEY_BITS / 8)).v[0] = key;
        } else {
            dest[k] = NONE; // (positions are below the count, so below 2^32 - 1)
        }
    }
#if VALUE_WORDS > 0
    subgroupMemoryBarrierShared();
    subgroupBarrier(); // every staged key is read
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        if (packed[i] != NONE) {
            s_pool[region + slots[i]] = uint(values[i]);
#if VALUE_WORDS == 2
            s_pool[region + span + slots[i]] = uint(values[i] >> 32);
#endif
        }
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    [[unroll]] for (uint k = 0u; k < BATCH; ++k) {
        uint slot = k * gl_SubgroupSize + lane;
        if (dest[k] != NONE) {
            VALUE_T value = VALUE_T(s_pool[region + slot]);
#if VALUE_WORDS == 2
            value |= uint64_t(s_pool[region + span + slot]) << 32;
#endif
            ValueRef(pc.values_out + uint64_t(dest[k]) * uint64_t(VALUE_WORDS * 4u)).v[0] = value;
        }
    }
#endif
}

// Item i of this lane: its index, whether it is below the count, its key. The lane form
// (LANE_FORM) addresses it as a constant offset from the lane's first key (and value) and
// tests it against the tile's item count in 32 bits, with no 64-bit arithmetic per item.
// Keys alone take it, and pairs by BITS on the subgroup-staged path into more than 4 buckets;
// other pairs were slower with it (docs/tuning/split.md#lane-form). The macros read their
// caller's tile, n, lane_first, lane_end, lane_index, keys_lane and values_lane.
#if BUCKET_FN == 2
// Pairs by IDS also test an item against the tile's count in 32 bits and take its index (which
// addresses its id) from the lane's first, on every path (docs/tuning/split.md#lane-form).
#define ITEM_INDEX(i) (lane_index + uint64_t((i) * gl_SubgroupSize))
#define ITEM_OK(i) (lane_first + (i) * gl_SubgroupSize < lane_end)
#else
#define ITEM_INDEX(i) (LANE_FORM ? lane_index + uint64_t((i) * gl_SubgroupSize) : tile_item_index(tile, i))
#define ITEM_OK(i) (LANE_FORM ? lane_first + (i) * gl_SubgroupSize < lane_end : tile_item_index(tile, i) < uint64_t(n))
#endif
#define ITEM_KEY(i) (LANE_FORM ? KeyRef(keys_lane + uint64_t((i) * gl_SubgroupSize) * uint64_t(KEY_BITS / 8)).v[0] \
                               : KeyRef(pc.keys_in + tile_item_index(tile, i) * uint64_t(KEY_BITS / 8)).v[0])
#if VALUE_WORDS > 0
#define ITEM_VALUE(i) (LANE_FORM ? ValueRef(values_lane + uint64_t((i) * gl_SubgroupSize) * uint64_t(VALUE_WORDS * 4u)).v[0] \
                                 : ValueRef(pc.values_in + tile_item_index(tile, i) * uint64_t(VALUE_WORDS * 4u)).v[0])
#endif

// Tiles per workgroup (the variant's tiles field holds its log2; src/split/tuning.rs
// SCATTER_TILES_PER_GROUP): each workgroup splits consecutive tiles, the next tile's loads
// issued before this tile is ranked, so that a workgroup's loads overlap its ranking and
// stores. Keys alone on the subgroup-staged path take 4 (into as many buckets as a subgroup has
// lanes 2), u32 -> u32 pairs into up to 4 buckets 2 on the direct and subgroup-staged paths;
// every other variant 1 (the staged path's workgroup barriers made it slower with more).
const uint TILES_PER_GROUP = 1u << ((TILE_VARIANT >> TILE_VARIANT_TILES_SHIFT) & TILE_VARIANT_TILES_MASK);

// Register counters (TILE_REGISTERS) need no zeroing: each subgroup writes its whole row (lane
// b bucket b's count) after its ranking, and nothing reads a row before that. The subgroup-
// staged variants with several tiles a workgroup leave the zeroing and the two workgroup
// barriers around it out of every tile. Every other variant keeps it, as the driver's code for
// them was slower without it, though the zeroing is just as needless there
// (docs/tuning/split.md#row-zeroing).
const bool SKIP_ROW_ZEROING = TILE_REGISTERS && TILE_SUBGROUP_STAGED && TILES_PER_GROUP > 1u;

// TILE_VARIANT_SUBGROUP_POSITIONS (register counters, the direct or subgroup-staged path;
// src/split/tuning.rs subgroup_positions): each subgroup finds its buckets' output starts itself, lane b bucket
// b's (the scanned matrix's entry, loaded before the ranking, plus the rows of the subgroups
// before it): no invocation rewrites the rows into positions and no second workgroup barrier
// follows. The direct path takes its elements' positions by a shuffle; the subgroup-staged
// one shifts its staged runs by them (used in split_tile only).
const bool SUBGROUP_POSITIONS = (TILE_VARIANT & TILE_VARIANT_SUBGROUP_POSITIONS) != 0u && TILE_REGISTERS && !TILE_STAGED;
// TILE_VARIANT_SUBGROUP_POSITIONS on the staged path (register counters): each subgroup finds the tile's bucket starts
// itself (lane b sums bucket b's rows and the subgroup scans the sums), with no workgroup scan,
// no rewrite of the rows into positions and none of the barriers around those. The rows lie
// after the staged tile and the bucket tables (STAGED_ROWS_BASE), so staging need not wait
// until every subgroup has read them.
const bool STAGED_POSITIONS = (TILE_VARIANT & TILE_VARIANT_SUBGROUP_POSITIONS) != 0u && TILE_REGISTERS && TILE_STAGED;
// STAGED_POSITIONS: the bucket tables' first word (after the staged tile) and the rows' first.
#define STAGED_AUX (TILE_LENGTH * STAGE_WORDS)
#define STAGED_ROWS_BASE(m) (STAGED_AUX + 2u * (m))
// With several tiles a workgroup, SUBGROUP_POSITIONS keeps two sets of counter rows, one for
// even tiles and one for odd (src/split/tiles.rs double_buffered_rows): a subgroup writes its
// row for the next tile while later subgroups may still read this tile's rows, and the one
// workgroup barrier a tile orders every read of a set before its next write. No zeroing either.
const bool DOUBLE_BUFFERED_ROWS = SUBGROUP_POSITIONS && TILES_PER_GROUP > 1u;
// TILE_VARIANT_MATCH_TABLE (register counters on the subgroup-staged path, or on the staged
// path with STAGED_POSITIONS and one tile a workgroup; subgroups of at most 32 lanes;
// src/split/tuning.rs match_table): the lanes holding one bucket find each other through a table of lane masks in
// shared memory instead of one ballot per id bit, as the sort's ranking does for a digit's low
// bits (CUB's atomic-OR match ranking): each ok lane ORs its bit into its bucket's slot, and
// after a subgroup barrier lane b takes slot b, which is its bucket count and, shuffled, every
// peer's mask. Two tables, used by even and odd items, so that lane b's clearing of slot b
// after its read is ordered before the next use of that table by the next item's barrier. They
// lie where the elements are staged after the ranking (the subgroup's own run on the
// subgroup-staged path, words [2 * S * subgroup, + 2 * S) of the tile on the staged one), which
// is free while the subgroup ranks: no shared memory is added.
const bool MATCH_TABLE = (TILE_VARIANT & TILE_VARIANT_MATCH_TABLE) != 0u && MAX_SUBGROUP_SIZE <= 32u
                         && (TILE_SUBGROUP_STAGED || (STAGED_POSITIONS && TILES_PER_GROUP == 1u));
// TILE_VARIANT_SHUFFLES_FIRST (SUBGROUP_POSITIONS on the direct path; src/split/tiles.rs
// shuffles_before_stores): every element's position is shuffled before the first store,
// instead of each store right after its position's shuffle. The same instructions; the
// driver's schedule differs (docs/tuning/split.md#shuffles-first).
const bool SHUFFLES_FIRST = (TILE_VARIANT & TILE_VARIANT_SHUFFLES_FIRST) != 0u;

// Loads this lane's BATCH items of `tile` (0 past the count).
void load_items(uint tile, uint n, out KEY_T keys[BATCH]
#if VALUE_WORDS > 0
                , out VALUE_T values[BATCH]
#endif
) {
    uint lane_first = tile_lane_first();
    uint lane_end = tile_items(tile, n);
    uint64_t lane_index = uint64_t(tile) * uint64_t(TILE_LENGTH) + uint64_t(lane_first);
    uint64_t keys_lane = pc.keys_in + lane_index * uint64_t(KEY_BITS / 8);
#if VALUE_WORDS > 0
    uint64_t values_lane = pc.values_in + lane_index * uint64_t(VALUE_WORDS * 4u);
#endif
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        bool ok = ITEM_OK(i);
        keys[i] = ok ? ITEM_KEY(i) : KEY_T(0);
#if VALUE_WORDS > 0
        values[i] = ok ? ITEM_VALUE(i) : VALUE_T(0);
#endif
    }
}

// Zeroes the pool's counter rows (rows * m words).
void zero_counter_rows(uint rows, uint m) {
    for (uint w = gl_LocalInvocationIndex; w < rows * m; w += WG_SIZE) {
        s_pool[w] = 0u;
    }
}

// Writes one element straight from its registers to output position `position` (the direct
// path).
#if VALUE_WORDS > 0
void write_element(uint position, KEY_T key, VALUE_T value) {
#else
void write_element(uint position, KEY_T key) {
#endif
    uint64_t pos = uint64_t(position);
    KeyRef(pc.keys_out + pos * uint64_t(KEY_BITS / 8)).v[0] = key;
#if VALUE_WORDS > 0
    ValueRef(pc.values_out + pos * uint64_t(VALUE_WORDS * 4u)).v[0] = value;
#endif
}
#if VALUE_WORDS > 0
#define WRITE_ELEMENT(position, i) write_element(position, keys[i], values[i])
#else
#define WRITE_ELEMENT(position, i) write_element(position, keys[i])
#endif

// The position of a ranked item (`packed`: rank << 16 | bucket) from its bucket's first
// position, which lane b of `starts` holds for bucket b; meaningless for NONE (past the end),
// which the callers test themselves (a select here was slower, the driver's code for the test
// and the store being laid out differently: docs/tuning/split.md#shuffles-first). A shuffle: call in subgroup-uniform control flow.
uint position_from_starts(uint packed, uint starts) {
    uint b = packed == NONE ? 0u : (packed & 0xFFFFu);
    return subgroupShuffle(starts, b) + (packed >> 16);
}

// MATCH_TABLE: the ok lanes (`ok`) holding bucket `b`, and in `count` the number of ok lanes
// holding bucket gl_SubgroupInvocationID (0 for a lane >= m), through the subgroup's table
// `parity` (alternating between items) of the two at s_pool[tables..]. The tables start zeroed
// (split_tile) and each item leaves its table zeroed. A subgroup barrier: call in
// subgroup-uniform control flow.
uvec4 peers_from_table(uint b, bool ok, uint tables, uint parity, out uint count) {
    uint lane = gl_SubgroupInvocationID;
    uint table = tables + parity * gl_SubgroupSize;
    uint before = 0u;
    if (ok) {
        // (The result is used, below: with it unused the NVIDIA driver wraps the atomic in a
        // test of whether every lane hits one address; see the sort's rank_in_subgroup.)
        before = atomicOr(s_pool[table + b], gl_SubgroupEqMask.x);
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier(); // every OR of this item is done
    uint own = s_pool[table + lane];
    s_pool[table + lane] = 0u; // no lane ORs into this table before the next item's barrier
    count = bitCount(own);
    // (`before` never holds this lane's bit: the OR adds nothing to the mask.)
    return uvec4(subgroupShuffle(own, b) | (before & gl_SubgroupEqMask.x), 0u, 0u, 0u);
}

// Ranks tile `tile` (its items loaded by load_items) and writes it out. `parity`: the tile's
// index in its workgroup & 1 (DOUBLE_BUFFERED_ROWS). `zeroed`: the counter rows are zero and
// every invocation has passed a barrier since (a constant at each call; SKIP_ROW_ZEROING and
// DOUBLE_BUFFERED_ROWS variants need neither).
void split_tile(uint tile, uint parity, uint n, bool zeroed, KEY_T keys[BATCH]
#if VALUE_WORDS > 0
                , VALUE_T values[BATCH]
#endif
) {
    uint lid = gl_LocalInvocationIndex;
    uint m = pc.bucket_count;
    uint rows = gl_NumSubgroups;
    if (!zeroed && !SKIP_ROW_ZEROING && !DOUBLE_BUFFERED_ROWS) {
        barrier(); // the previous tile's reads of the pool are done
        zero_counter_rows(rows, m);
        barrier();
    }
    bool staged = TILE_STAGED;
    bool in_registers = TILE_REGISTERS;
    uint set_first_row = 0u; // DOUBLE_BUFFERED_ROWS: this tile's set of rows
    uint counter_rows = rows;
    if (DOUBLE_BUFFERED_ROWS) {
        set_first_row = parity * rows;
        counter_rows = 2u * rows;
    }
    uint row = (set_first_row + gl_SubgroupID) * m;
    if (STAGED_POSITIONS) {
        row = STAGED_ROWS_BASE(m) + gl_SubgroupID * m;
    }
    uint subgroup_start = 0u; // SUBGROUP_POSITIONS: lane b, bucket b's first output position
    uint run_end = 0u; // ... and the end of the tile's run of bucket b (step 4)
    if ((SUBGROUP_POSITIONS || (STAGED_POSITIONS && gl_SubgroupID == 0u)) && gl_SubgroupInvocationID < m) {
        subgroup_start = U32Ref(matrix_addr(gl_SubgroupInvocationID, tile)).v[0];
        run_end = U32Ref(matrix_addr(gl_SubgroupInvocationID, tile) + 4ul).v[0];
    }

    uint lane_first = tile_lane_first();
    uint lane_end = tile_items(tile, n);
    uint64_t lane_index = uint64_t(tile) * uint64_t(TILE_LENGTH) + uint64_t(lane_first);

    // MATCH_TABLE: the subgroup's two tables, zeroed, at the start of its staging run (as
    // subgroup_staged_write places it) once every lane has read its last tile's run, or in the
    // staged tile's words (one tile a workgroup: nothing staged yet).
    uint match_tables = TILE_SUBGROUP_STAGED
        ? counter_rows * m + gl_SubgroupID * gl_SubgroupSize * BATCH * STAGE_WORDS
        : gl_SubgroupID * 2u * gl_SubgroupSize;
    if (MATCH_TABLE) {
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        s_pool[match_tables + gl_SubgroupInvocationID] = 0u;
        s_pool[match_tables + gl_SubgroupSize + gl_SubgroupInvocationID] = 0u;
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
    // 1. Ranks within the subgroup: packed[i] = (rank << 16) | bucket, NONE past the end.
    uint packed[BATCH];
    uint counter = 0u; // register counters: bucket gl_SubgroupInvocationID's running count
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        uint64_t index = ITEM_INDEX(i);
        bool ok = ITEM_OK(i);
        uint b = ok ? bucket_of(keys[i], index) : 0u;
        if (b >= m) {
            // (The count saw every id below m, else the status would stop this pass: the
            // bucket function answered otherwise there.)
            report_inconsistent();
            if (!SUBGROUP_POSITIONS) {
                atomicOr(s_status, 1u); // (the staged tile would not fill: nothing is written)
            }
            ok = false;
            b = 0u;
        }
        uvec4 okmask = ballot(ok);
        uvec4 peers;
        uint base;
        if (in_registers) {
            uint count_of_lane;
            if (MATCH_TABLE) {
                peers = peers_from_table(b, ok, match_tables, i & 1u, count_of_lane);
            } else {
                peers = peers_and_count_of(b, okmask, gl_SubgroupInvocationID, count_of_lane);
            }
            base = subgroupShuffle(counter, b);
            counter += count_of_lane;
        } else {
            peers = peers_of(b, okmask);
            base = ok ? s_pool[row + b] : 0u;
            subgroupMemoryBarrierShared();
            subgroupBarrier(); // every peer has read the counter before the leader advances it
            if (ok && (peers & fold_mask(gl_SubgroupGtMask)) == uvec4(0u)) {
                s_pool[row + b] = base + popcount4(peers);
            }
            subgroupMemoryBarrierShared();
            subgroupBarrier(); // the next item reads the advanced counter
        }
        packed[i] = ok ? ((base + popcount4(peers & fold_mask(gl_SubgroupLtMask))) << 16) | b : NONE;
    }
    if (SKIP_ROW_ZEROING && !DOUBLE_BUFFERED_ROWS) {
        // No workgroup barrier since this subgroup read its row for the previous tile's
        // positions: those reads are done before any lane overwrites the row.
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
    if (in_registers && gl_SubgroupInvocationID < m) {
        s_pool[row + gl_SubgroupInvocationID] = counter;
    }
    barrier();
    if (SUBGROUP_POSITIONS) {
        uint before = 0u;
        if (gl_SubgroupInvocationID < m) {
            for (uint r = 0u; r < gl_SubgroupID; ++r) {
                before += s_pool[(set_first_row + r) * m + gl_SubgroupInvocationID];
            }
        }
        // Step 4: the places of this subgroup and those before it in the tile's run of each
        // bucket must not exceed the count's (run_end - subgroup_start).
        bool over = before + counter > run_end - subgroup_start;
        subgroup_start += before;
        if (subgroupAny(over)) {
            if (subgroupElect()) {
                report_inconsistent();
            }
            return; // subgroup-uniform: no workgroup barrier follows
        }
        if (TILE_SUBGROUP_STAGED) {
            subgroup_staged_write(keys,
#if VALUE_WORDS > 0
                                  values,
#endif
                                  packed, counter, subgroup_start, m, counter_rows);
            return;
        }
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            uint at = position_from_starts(packed[i], subgroup_start);
            if (SHUFFLES_FIRST) {
                packed[i] = packed[i] == NONE ? NONE : at;
            } else if (packed[i] != NONE) {
                WRITE_ELEMENT(at, i);
            }
        }
        if (SHUFFLES_FIRST) {
            [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
                if (packed[i] != NONE) {
                    WRITE_ELEMENT(packed[i], i);
                }
            }
        }
        return;
    }

    uint aux = max(rows * m, TILE_LENGTH * STAGE_WORDS);
    if (STAGED_POSITIONS) {
        // Lane b: bucket b's total in the tile and in the rows before this subgroup's.
        aux = STAGED_AUX;
        uint lane = gl_SubgroupInvocationID;
        uint total = 0u;
        uint before = 0u;
        if (lane < m) {
            for (uint r = 0u; r < rows; ++r) {
                uint c = s_pool[STAGED_ROWS_BASE(m) + r * m + lane];
                total += c;
                before += r < gl_SubgroupID ? c : 0u;
            }
        }
        uint tile_start = subgroupExclusiveAdd(total);
        if (gl_SubgroupID == 0u && lane < m) {
            s_pool[aux + lane] = staged_run_word(tile_start, tile_start + total);
            s_pool[aux + m + lane] = subgroup_start - tile_start; // (wraps back in pos = it + slot)
            if (total > run_end - subgroup_start) {
                // Step 4 (read after the staging barrier below).
                report_inconsistent();
                atomicOr(s_status, 1u);
            }
        }
        uint start = tile_start + before;
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            uint at = position_from_starts(packed[i], start);
            packed[i] = packed[i] == NONE ? NONE : at;
        }
    } else {
        // 2. Rows to positions. Invocation lid takes buckets [lid * per, lid * per + per).
        uint per = (m + WG_SIZE - 1u) / WG_SIZE;
        uint first_bucket = lid * per;
        uint local = 0u; // staged: the first slot of my first bucket in the tile
        if (staged) {
            uint mine = 0u;
            for (uint k = 0u; k < per; ++k) {
                uint b = first_bucket + k;
                for (uint r = 0u; b < m && r < rows; ++r) {
                    mine += s_pool[r * m + b];
                }
            }
            uint total;
            local = workgroup_exclusive_scan(mine, total);
        }
        for (uint k = 0u; k < per; ++k) {
            uint b = first_bucket + k;
            if (b < m) {
                uint global = U32Ref(matrix_addr(b, tile)).v[0];
                uint places = U32Ref(matrix_addr(b, tile) + 4ul).v[0] - global;
                uint run = staged ? local : global;
                uint first = run;
                for (uint r = 0u; r < rows; ++r) {
                    uint c = s_pool[r * m + b];
                    s_pool[r * m + b] = run;
                    run += c;
                }
                if (run - first > places) {
                    // Step 4: more of bucket b than the count placed in the tile.
                    report_inconsistent();
                    atomicOr(s_status, 1u);
                }
                if (staged) {
                    s_pool[aux + b] = staged_run_word(local, run);
                    s_pool[aux + m + b] = global - local; // (wraps back in pos = it + slot)
                    local = run;
                }
            }
        }
        barrier();
        if (subgroupAny(s_status != 0u)) {
            // Step 4 failed (set before the barrier; this tile alone sets it here, and a
            // later tile's ranking only sets it again): write nothing.
            return;
        }

        if (TILE_SUBGROUP_STAGED) {
            subgroup_staged_write(keys,
#if VALUE_WORDS > 0
                                  values,
#endif
                                  packed, counter,
                                  gl_SubgroupInvocationID < m ? s_pool[row + gl_SubgroupInvocationID] : 0u,
                                  m, counter_rows);
            return;
        }

        // Positions: global (direct) or the slot in the tile (staged).
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            if (packed[i] != NONE) {
                packed[i] = s_pool[row + (packed[i] & 0xFFFFu)] + (packed[i] >> 16);
            }
        }
        if (!staged) {
            [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
                if (packed[i] != NONE) {
                    WRITE_ELEMENT(packed[i], i);
                }
            }
            return;
        }
        barrier(); // every counter row is read
    }

    // 3. Staged: keys in bucket order, then each slot to its global position.
    uint in_tile = tile_items(tile, n);
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        if (packed[i] != NONE) {
            s_pool[packed[i]] = uint(keys[i]);
#if KEY_BITS == 64
            s_pool[TILE_LENGTH + packed[i]] = uint(keys[i] >> 32);
#endif
        }
    }
    barrier();
    if (STAGED_POSITIONS && subgroupAny(s_status != 0u)) {
        return; // workgroup-uniform (one tile a workgroup): step 4 failed, write nothing
    }
    uint dest[BATCH]; // global position of slot k * WG_SIZE + lid
    [[unroll]] for (uint k = 0u; k < BATCH; ++k) {
        uint slot = k * WG_SIZE + lid;
        dest[k] = NONE;
        if (slot < in_tile) {
            KEY_T key = KEY_T(s_pool[slot]);
#if KEY_BITS == 64
            key |= uint64_t(s_pool[TILE_LENGTH + slot]) << 32;
#endif
            uint b = staged_bucket(key, slot, m, aux);
            if (staged_slot_in_run(b, slot, m, aux)) {
                dest[k] = s_pool[aux + m + b] + slot;
                KeyRef(pc.keys_out + uint64_t(dest[k]) * uint64_t(KEY_BITS / 8)).v[0] = key;
            }
        }
    }
#if VALUE_WORDS > 0
    barrier(); // every staged key is read
    [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
        if (packed[i] != NONE) {
            s_pool[packed[i]] = uint(values[i]);
#if VALUE_WORDS == 2
            s_pool[TILE_LENGTH + packed[i]] = uint(values[i] >> 32);
#endif
        }
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < BATCH; ++k) {
        uint slot = k * WG_SIZE + lid;
        if (dest[k] != NONE) {
            VALUE_T value = VALUE_T(s_pool[slot]);
#if VALUE_WORDS == 2
            value |= uint64_t(s_pool[TILE_LENGTH + slot]) << 32;
#endif
            ValueRef(pc.values_out + uint64_t(dest[k]) * uint64_t(VALUE_WORDS * 4u)).v[0] = value;
        }
    }
#endif
}

// How a workgroup with one tile orders its start (the variant's first-order field;
// src/split/tiles.rs FirstTileOrder): 0 checks the status under a barrier, loads the tile's
// items, and zeroes the counter rows between two more barriers; 1 zeroes the rows under the
// status check's barrier, then loads; 2 loads first, then zeroes the rows under the status
// check's barrier. The three cost the same instructions, but the driver schedules each variant
// differently with each; the plan picks one per variant from measurements
// (src/split/tuning.rs FIRST_TILE_ORDER, docs/tuning/split.md#first-tile-order).
const uint FIRST_TILE_ORDER = (TILE_VARIANT >> TILE_VARIANT_FIRST_ORDER_SHIFT) & TILE_VARIANT_FIRST_ORDER_MASK;
const uint ORDER_CHECK_LOAD_ZERO = 0u;
const uint ORDER_ZERO_LOAD = 1u;
const uint ORDER_LOAD_ZERO = 2u;

// Writes the status word to s_status (the tile paths set SPLIT_FLAG_TOTAL_STATUS) and, with
// `zero`, zeroes the counter rows; a barrier; whether the split goes on (workgroup-uniform).
bool status_ok(bool zero) {
    if (gl_LocalInvocationIndex == 0u) {
        s_status = uint(tile_split_bad());
    }
    if (zero) {
        zero_counter_rows(gl_NumSubgroups, pc.bucket_count);
    }
    barrier();
    return s_status == 0u;
}

void main() {
    uint first_tile = linear_workgroup_id() * TILES_PER_GROUP;
    if (first_tile >= pc.columns) {
        return; // workgroup-uniform
    }
    vkalgo_params = pc.params;
    uint n = element_count();
    if (TILES_PER_GROUP == 1u) {
        // One tile: loaded and split with no arrays carried across a loop (the loop form was
        // slower: docs/tuning/split.md#one-tile-no-loop).
        if (uint64_t(first_tile) * uint64_t(TILE_LENGTH) >= uint64_t(n)) {
            return; // workgroup-uniform: a tile past an indirect count
        }
        KEY_T keys[BATCH];
#if VALUE_WORDS > 0
        VALUE_T values[BATCH];
#define LOAD_FIRST_TILE load_items(first_tile, n, keys, values)
#else
#define LOAD_FIRST_TILE load_items(first_tile, n, keys)
#endif
        if (FIRST_TILE_ORDER == ORDER_LOAD_ZERO) {
            LOAD_FIRST_TILE;
        }
        if (!status_ok(FIRST_TILE_ORDER != ORDER_CHECK_LOAD_ZERO)) {
            return; // workgroup-uniform
        }
        if (FIRST_TILE_ORDER != ORDER_LOAD_ZERO) {
            LOAD_FIRST_TILE;
        }
#undef LOAD_FIRST_TILE
        split_tile(first_tile, 0u, n, FIRST_TILE_ORDER != ORDER_CHECK_LOAD_ZERO, keys
#if VALUE_WORDS > 0
                   , values
#endif
        );
        return;
    }
    if (!status_ok(false)) {
        return; // workgroup-uniform
    }
    KEY_T next_keys[BATCH];
#if VALUE_WORDS > 0
    VALUE_T next_values[BATCH];
#endif
    load_items(first_tile, n, next_keys
#if VALUE_WORDS > 0
               , next_values
#endif
    );
    for (uint k = 0u; k < TILES_PER_GROUP; ++k) {
        uint tile = first_tile + k;
        if (tile >= pc.columns || uint64_t(tile) * uint64_t(TILE_LENGTH) >= uint64_t(n)) {
            return; // workgroup-uniform: past the last tile or an indirect count
        }
        KEY_T keys[BATCH];
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            keys[i] = next_keys[i];
        }
#if VALUE_WORDS > 0
        VALUE_T values[BATCH];
        [[unroll]] for (uint i = 0u; i < BATCH; ++i) {
            values[i] = next_values[i];
        }
#endif
        if (k + 1u < TILES_PER_GROUP && tile + 1u < pc.columns) {
            load_items(tile + 1u, n, next_keys
#if VALUE_WORDS > 0
                       , next_values
#endif
            );
        }
        split_tile(tile, k & 1u, n, false, keys
#if VALUE_WORDS > 0
                   , values
#endif
        );
    }
}
