// Reduce-by-key: a tile in registers, for the kernels that read and write elements (the
// look-back and the reduce-then-scan path's tiles; not the spine, which scans the tiles'
// pairs alone).
//
// A subgroup owns a contiguous stretch of its tile (its lanes * ITEMS elements) in ROWS rows
// of lanes * ROW_E consecutive elements; lane l holds elements l * ROW_E .. l * ROW_E + ROW_E - 1
// of every row, so that each load instruction of a subgroup reads one contiguous span
// (16-byte vectors where ITEMS is a multiple of 4 and the keys or values are aligned). A row's
// pairs are scanned by subgroup operations, the subgroups' totals through shared memory. No
// shared memory holds the tile, so that the occupancy is the registers' (the driver's shared
// memory per multiprocessor is small); the runs leave through a small window per subgroup
// (write_runs). docs/tuning/reduce_by_key.md#striped-rows.
#ifndef RBK_TILE_GLSL
#define RBK_TILE_GLSL

#include "rbk_common.glsl"

// Elements of a row per lane: whole 16-byte vectors of 32-bit elements where ITEMS allows.
#define ROW_E (ITEMS % 4u == 0u ? 4u : (ITEMS % 2u == 0u ? 2u : 1u))
#define ROWS (ITEMS / ROW_E)

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v[]; };

// This invocation's elements (element j: row j / ROW_E, place j % ROW_E of the lane's part),
// values past the tile's end read as the identity; bit j of t_heads / t_ends set where element
// j starts / ends a run.
KEY_T t_keys[ITEMS];
VALUE_T t_values[ITEMS];
uint t_heads;
uint t_ends;
// Per row (first ROWS entries): the pair of the subgroup's elements before this lane's part of
// the row, and (subgroup-uniform) the heads before the row plus one if the row's first element
// starts a run.
uint t_row_heads[ITEMS];
VALUE_T t_row_value[ITEMS];
uint t_row_run0[ITEMS];
// The pair of the tile's elements before this subgroup's.
uint t_sg_heads;
VALUE_T t_sg_value;
// The subgroup's lanes (fewer than gl_SubgroupSize in a workgroup smaller than a subgroup) and
// the tile position of its first element.
uint t_lanes;
uint t_sg_start;

// Tile position of this lane's element j.
uint element_position(uint j) {
    return t_sg_start + (j / ROW_E) * t_lanes * ROW_E + gl_SubgroupInvocationID * ROW_E + j % ROW_E;
}

// dst[4q .. 4q + 3] of every row q (ITEMS / 4 rows) from the 16-byte aligned address
// `addr`, rows `stride` bytes apart: 32-bit or 64-bit elements.
#define LOAD_ROWS_32(dst, addr, stride)                                 \
    [[unroll]] for (uint q = 0u; q < ITEMS / 4u; ++q) {                 \
        uvec4 w = Vec4Ref((addr) + uint64_t(q) * (stride)).v[0];        \
        dst[4u * q] = w.x;                                              \
        dst[4u * q + 1u] = w.y;                                         \
        dst[4u * q + 2u] = w.z;                                         \
        dst[4u * q + 3u] = w.w;                                         \
    }
#define LOAD_ROWS_64(dst, addr, stride)                                 \
    [[unroll]] for (uint q = 0u; q < ITEMS / 4u; ++q) {                 \
        Vec4Ref row = Vec4Ref((addr) + uint64_t(q) * (stride));         \
        uvec4 w0 = row.v[0];                                            \
        uvec4 w1 = row.v[1];                                            \
        dst[4u * q] = packUint2x32(w0.xy);                              \
        dst[4u * q + 1u] = packUint2x32(w0.zw);                         \
        dst[4u * q + 2u] = packUint2x32(w1.xy);                         \
        dst[4u * q + 3u] = packUint2x32(w1.zw);                         \
    }

// Loads t_keys and t_values of the tile at `start` (`valid` elements): 16-byte vectors where the
// tile is whole and the array aligned, else element by element.
void load_row_elements(uint start, uint valid) {
    uint first = t_sg_start + gl_SubgroupInvocationID * ROW_E;
    uint row_stride = t_lanes * ROW_E;
    bool whole = valid == TILE && ROW_E == 4u;
    uint64_t key_addr = pc.keys_in + uint64_t(start + first) * uint64_t(KEY_BITS / 8);
    uint64_t key_stride = uint64_t(row_stride) * uint64_t(KEY_BITS / 8);
    if (whole && (pc.keys_in & 15ul) == 0ul) {
#if KEY_BITS == 64
        LOAD_ROWS_64(t_keys, key_addr, key_stride)
#else
        LOAD_ROWS_32(t_keys, key_addr, key_stride)
#endif
    } else {
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            uint p = element_position(j);
            t_keys[j] = p < valid ? load_key(start + p) : KEY_T(0);
        }
    }
#if VALUE_WORDS > 0
    uint64_t value_addr = pc.values_in + uint64_t(start + first) * uint64_t(VALUE_WORDS * 4);
    uint64_t value_stride = uint64_t(row_stride) * uint64_t(VALUE_WORDS * 4);
    if (whole && (pc.values_in & 15ul) == 0ul) {
#if VALUE_WORDS == 2
        LOAD_ROWS_64(t_values, value_addr, value_stride)
#else
        LOAD_ROWS_32(t_values, value_addr, value_stride)
#endif
    } else {
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            uint p = element_position(j);
            t_values[j] = p < valid ? load_value(start + p) : op_identity();
        }
    }
#else
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        t_values[j] = element_position(j) < valid ? VALUE_T(1) : op_identity();
    }
#endif
}

KEY_T shuffle_key(KEY_T k, uint lane) {
#if KEY_BITS == 64
    return subgroup_shuffle_u64(k, lane);
#else
    return subgroupShuffle(k, lane);
#endif
}

// Marks where runs start and end (t_heads, t_ends). The key before a lane's part of a row is
// the previous lane's last of the row (for lane 0: the last lane's last of the row before, or
// from memory); an element's end is its successor's head, except for the subgroup's last
// element, compared with the key after it in memory. Subgroup-uniform control flow.
void mark_runs(uint start, uint valid, uint n) {
    uint lane = gl_SubgroupInvocationID;
    uint prev_lane = lane == 0u ? t_lanes - 1u : lane - 1u;
    uint next_lane = lane + 1u == t_lanes ? 0u : lane + 1u;
    KEY_T carried = KEY_T(0);
    if (lane == 0u && start + t_sg_start > 0u && t_sg_start < valid) {
        carried = load_key(start + t_sg_start - 1u);
    }
    t_heads = 0u;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        KEY_T prev;
        if (j % ROW_E == 0u) {
            KEY_T up = shuffle_key(t_keys[j + ROW_E - 1u], prev_lane);
            prev = lane == 0u ? carried : up;
            carried = up;
        } else {
            prev = t_keys[j - 1u];
        }
        uint p = element_position(j);
        bool head = p < valid && (start + p == 0u || t_keys[j] != prev);
        t_heads |= head ? 1u << j : 0u;
    }
    uint next_heads = subgroupShuffle(t_heads, next_lane);
    t_ends = 0u;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint p = element_position(j);
        bool end;
        if (j % ROW_E + 1u < ROW_E) {
            end = p + 1u >= valid || (t_heads & (1u << (j + 1u))) != 0u;
        } else if (lane + 1u < t_lanes) {
            end = p + 1u >= valid || (next_heads & (1u << (j + 1u - ROW_E))) != 0u;
        } else if (j + 1u < ITEMS) {
            end = p + 1u >= valid || (next_heads & (1u << (j + 1u))) != 0u;
        } else {
            end = start + p + 1u >= n || load_key(start + p + 1u) != t_keys[j];
        }
        t_ends |= p < valid && end ? 1u << j : 0u;
    }
}

// The pair of the tile at `start` (`valid` elements, `n` in all), read into registers, in
// `tile_*`; keeps what write_runs needs. Workgroup-uniform control flow.
void tile_elements_pair(uint start, uint valid, uint n, out uint tile_heads,
                        out VALUE_T tile_value) {
    uint lane = gl_SubgroupInvocationID;
    t_lanes = min(gl_SubgroupSize, WG_SIZE);
    t_sg_start = gl_SubgroupID * t_lanes * ITEMS;
    load_row_elements(start, valid);
    mark_runs(start, valid, n);
    // Each row's pair over this lane's part, and the highest lane at or below this one whose
    // part starts a run (-1: none).
    uint row_h[ITEMS];
    VALUE_T row_v[ITEMS];
    int seg[ITEMS];
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint q = j / ROW_E;
        bool head = (t_heads & (1u << j)) != 0u;
        if (j % ROW_E == 0u) {
            row_h[q] = head ? 1u : 0u;
            row_v[q] = t_values[j];
        } else {
            row_h[q] += head ? 1u : 0u;
            row_v[q] = head ? t_values[j] : op_apply(row_v[q], t_values[j]);
        }
    }
    [[unroll]] for (uint q = 0u; q < ROWS; ++q) {
        uvec4 below = subgroupBallot(row_h[q] > 0u) & gl_SubgroupLeMask;
        seg[q] = below == uvec4(0u) ? -1 : int(subgroupBallotFindMSB(below));
    }
    // Inclusive segmented scan of each row's values over the lanes.
    for (uint d = 1u; d < t_lanes; d *= 2u) {
        uint from = lane >= d ? lane - d : lane;
        [[unroll]] for (uint q = 0u; q < ROWS; ++q) {
            VALUE_T v = shuffle_value(row_v[q], from);
            if (lane >= d && int(lane - d) >= seg[q]) {
                row_v[q] = op_apply(v, row_v[q]);
            }
        }
    }
    // The heads before this lane's part of each row and in the whole row, by ballots.
    uint ex_h[ITEMS];
    uint all_h[ITEMS];
    uint first_head[ITEMS];
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint q = j / ROW_E;
        uvec4 b = subgroupBallot((t_heads & (1u << j)) != 0u);
        uint ex = subgroupBallotExclusiveBitCount(b);
        uint all = subgroupBallotBitCount(b);
        if (j % ROW_E == 0u) {
            ex_h[q] = ex;
            all_h[q] = all;
            first_head[q] = b.x & 1u;
        } else {
            ex_h[q] += ex;
            all_h[q] += all;
        }
    }
    // Rows in order: the pair before each lane's part, from the rows before and the lanes
    // before in the row.
    uint carry_heads = 0u;
    VALUE_T carry_value = op_identity();
    uint last = t_lanes - 1u;
    [[unroll]] for (uint q = 0u; q < ROWS; ++q) {
        VALUE_T before = shuffle_value(row_v[q], lane == 0u ? 0u : lane - 1u);
        VALUE_T row_total = shuffle_value(row_v[q], last);
        uint h = ex_h[q];
        VALUE_T v = lane == 0u ? op_identity() : before;
        pair_combine(carry_heads, carry_value, h, v);
        t_row_heads[q] = h;
        t_row_value[q] = v;
        t_row_run0[q] = carry_heads + first_head[q];
        uint th = all_h[q];
        VALUE_T tv = row_total;
        pair_combine(carry_heads, carry_value, th, tv);
        carry_heads = th;
        carry_value = tv;
    }
    // The subgroups' pairs in tile order.
    workgroup_subgroup_pairs(subgroupElect(), carry_heads, carry_value, t_sg_heads, t_sg_value,
                             tile_heads, tile_value);
}

// Each subgroup's runs leave through a window of 4 entries per invocation of shared memory, a
// row at a time, coalesced: a row's ends are consecutive runs (at most 4 a lane).
#define OUT_WINDOW_PER_LANE 4u
shared KEY_T s_out_keys[OUT_WINDOW_PER_LANE * WG_SIZE];
shared VALUE_T s_out_values[OUT_WINDOW_PER_LANE * WG_SIZE];

// Writes the runs that end in this invocation's elements (tile_elements_pair first).
// `heads`/`value`: the pair of every element before the tile. Subgroup-uniform control flow.
void write_runs(uint heads, VALUE_T value) {
    uint lane = gl_SubgroupInvocationID;
    pair_combine(heads, value, t_sg_heads, t_sg_value);
    uint sg_heads = t_sg_heads;
    VALUE_T sg_value = t_sg_value;
    uint slot0 = OUT_WINDOW_PER_LANE * gl_SubgroupID * t_lanes;
    uint h = 0u;
    VALUE_T v = op_identity();
    uint row_ends = 0u;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint q = j / ROW_E;
        if (j % ROW_E == 0u) {
            h = t_row_heads[q];
            v = t_row_value[q];
            pair_combine(sg_heads, sg_value, h, v);
            row_ends = 0u;
        }
        bool end = (t_ends & (1u << j)) != 0u;
        if ((t_heads & (1u << j)) != 0u) {
            h += 1u;
            v = t_values[j];
        } else {
            v = op_apply(v, t_values[j]);
        }
        uint run0 = sg_heads + t_row_run0[q] - 1u;  // the run of the row's first end
        if (end) {
            uint at = slot0 + (h - 1u - run0);
            s_out_keys[at] = t_keys[j];
            s_out_values[at] = v;
        }
        row_ends += subgroupBallotBitCount(subgroupBallot(end));
        if (j % ROW_E + 1u == ROW_E && row_ends > 0u) {
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            [[unroll]] for (uint e = 0u; e < ROW_E; ++e) {
                uint k = e * t_lanes + lane;
                if (k < row_ends) {
                    uint run = run0 + k;
                    KeyRef(pc.keys_out + uint64_t(run) * uint64_t(KEY_BITS / 8)).v[0] = s_out_keys[slot0 + k];
#if VALUE_WORDS == 2
                    U64Ref(pc.values_out + uint64_t(run) * 8ul).v[0] = s_out_values[slot0 + k];
#else
                    U32Ref(pc.values_out + uint64_t(run) * 4ul).v[0] = s_out_values[slot0 + k];
#endif
                }
            }
            subgroupMemoryBarrierShared();
            subgroupBarrier();
        }
    }
}

#endif
