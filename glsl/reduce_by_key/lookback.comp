#version 460
// Reduce-by-key in one pass with decoupled look-back (tile t is workgroup t on GPUs). Each tile
// publishes its pair (rbk_common.glsl) as an aggregate, its first subgroup walks back over the
// predecessors' published pairs (a subgroup's width of them per step) to the first inclusive
// one, and the tile publishes its own inclusive pair and writes the runs that end in it. A
// predecessor that stays silent for SPIN_LIMIT steps has its pair computed from the input by
// the waiter itself (the fallback of glsl/common/lookback.glsl), so no schedule can hang it;
// SPIN_LIMIT 0 is a test mode that takes the fallback for every tile's nearest predecessor.
//
// On CPU drivers tiles are taken in the order workgroups start (common/tile_ticket.glsl).
//
// Scratch (zero before): 16 bytes of header (the u32 at byte 0 hands out the tiles, the one at
// byte 4 counts fallbacks), then RBK_STATUS_WORDS u64 status words per tile: the flag
// (RBK_FLAG_*) in bits 32..33 of each, beside the heads (word 0) and the value's low and high
// halves (words 1 and 2). Each word is written and read as one relaxed atomic; a reader takes a
// tile's pair when every word carries the same flag (a tile publishes one aggregate and then
// one inclusive pair, so equal flags mean parts of one pair) and sees the tile as silent
// otherwise (docs/tuning/reduce_by_key.md#lookback-status). The last tile writes the number of
// runs.
//
// Self-cleaning (SELF_CLEANING, a kept-zeroed scratch): vkalgo records no clear and the last
// workgroup to finish zeroes the state again for the next call
// (common/last_workgroup.glsl lookback_state_finish).
#extension GL_EXT_shader_atomic_int64 : require
#include "rbk_tile.glsl"
#include "../common/tile_ticket.glsl"
#include "../common/last_workgroup.glsl"

#if WIDE_VALUES
#define RBK_STATUS_WORDS 3u
#else
#define RBK_STATUS_WORDS 2u
#endif

uint64_t status_addr(uint tile) {
    return pc.scratch + RBK_SCRATCH_HEADER + uint64_t(tile) * uint64_t(RBK_STATUS_WORDS * 8u);
}

uint64_t status_word(uint flag, uint bits) {
    return (uint64_t(flag) << 32) | uint64_t(bits);
}

// Publishes the pair of `tile` (one invocation).
void publish(uint tile, uint flag, uint heads, VALUE_T value) {
    U64AtomicRef status = U64AtomicRef(status_addr(tile));
    uvec2 halves = unpack_value(value);
    atomicStore(status.v[0], status_word(flag, heads), gl_ScopeDevice, gl_StorageSemanticsNone,
                gl_SemanticsRelaxed);
    atomicStore(status.v[1], status_word(flag, halves.x), gl_ScopeDevice, gl_StorageSemanticsNone,
                gl_SemanticsRelaxed);
#if WIDE_VALUES
    atomicStore(status.v[2], status_word(flag, halves.y), gl_ScopeDevice, gl_StorageSemanticsNone,
                gl_SemanticsRelaxed);
#endif
}

// The flag and pair of tile `idx` (an inclusive identity pair before tile 0); RBK_FLAG_NONE
// where its words disagree (a publication seen in part).
uint read_status(int idx, out uint heads, out VALUE_T value) {
    heads = 0u;
    value = op_identity();
    if (idx < 0) {
        return RBK_FLAG_INCLUSIVE;
    }
    U64AtomicRef status = U64AtomicRef(status_addr(uint(idx)));
    uint64_t w0 = atomicLoad(status.v[0], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    uint64_t w1 = atomicLoad(status.v[1], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    uint flag = uint(w0 >> 32);
    bool whole = flag == uint(w1 >> 32);
    uvec2 halves = uvec2(uint(w1), 0u);
#if WIDE_VALUES
    uint64_t w2 = atomicLoad(status.v[2], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    whole = whole && flag == uint(w2 >> 32);
    halves.y = uint(w2);
#endif
    if (!whole || flag == RBK_FLAG_NONE) {
        return RBK_FLAG_NONE;
    }
    heads = uint(w0);
    value = pack_value(halves);
    return flag;
}

#define WALK_PROGRESS 0u
#define WALK_STALLED 1u
#define WALK_DONE 2u

// One step's result, from the first subgroup to the workgroup.
shared uint s_step_heads;
shared VALUE_T s_step_value;
shared int s_step_look;
shared uint s_step_kind;

// op over the values of the first `lanes` lanes (a power of two; every one of them active).
VALUE_T lanes_op(VALUE_T v, uint lanes) {
    for (uint d = 1u; d < lanes; d *= 2u) {
        v = op_apply(v, shuffle_value(v, gl_SubgroupInvocationID ^ d));
    }
    return v;
}

// One step of the look-back by the first subgroup: lane l reads tile `look - l`. The window's
// pairs up to its first tile that is not an aggregate (that one too if it is inclusive)
// combine in tile order into the s_step_* slots, with where the walk goes next and whether it
// is done, stalled on a silent `look`, or made progress. Subgroup-uniform control flow.
void walk_window(int look) {
    uint lane = gl_SubgroupInvocationID;
    uint lanes = min(gl_SubgroupSize, WG_SIZE);
    uint heads;
    VALUE_T value;
    uint flag = read_status(look - int(lane), heads, value);
    uvec4 stops = subgroupBallot(flag != RBK_FLAG_AGGREGATE);
    uint first = stops == uvec4(0u) ? lanes : subgroupBallotFindLSB(stops);
    uint first_flag = subgroupShuffle(flag, min(first, lanes - 1u));
    bool take = lane < first || (lane == first && flag == RBK_FLAG_INCLUSIVE);
    heads = take ? heads : 0u;
    // Tiles run from the highest lane (oldest) to lane 0: the combined value runs from the
    // newest taken pair that starts a run (the lowest such lane) to lane 0 (the operations
    // commute).
    uvec4 headed = subgroupBallot(heads > 0u);
    uint newest_head = headed == uvec4(0u) ? lanes : subgroupBallotFindLSB(headed);
    value = take && lane <= newest_head ? value : op_identity();
    VALUE_T total_value = lanes_op(value, lanes);
    uint total_heads = subgroup_sum(heads);
    if (subgroupElect()) {
        s_step_heads = total_heads;
        s_step_value = total_value;
        if (first == lanes) {
            s_step_look = look - int(lanes);
            s_step_kind = WALK_PROGRESS;
        } else {
            s_step_look = look - int(first);
            s_step_kind = first_flag == RBK_FLAG_INCLUSIVE ? WALK_DONE
                        : first == 0u ? WALK_STALLED : WALK_PROGRESS;
        }
    }
}

// The pair of every element before tile `tile` (> 0): the first subgroup reads a window of
// predecessors per step while the others wait; a predecessor silent for SPIN_LIMIT steps has
// its pair computed from its input by the whole workgroup. Workgroup-uniform control flow
// throughout (lavapipe drops invocations that spin in divergent control flow).
void look_back(uint tile, uint n, out uint heads, out VALUE_T value) {
    heads = 0u;
    value = op_identity();
    int look = int(tile) - 1;
    uint spins = 0u;
    bool fallback = SPIN_LIMIT == 0u;  // the test mode: the nearest predecessor from its input
    while (true) {
        if (!fallback) {
            if (gl_SubgroupID == 0u) {
                walk_window(look);
            }
            barrier();
            uint window_heads = s_step_heads;
            VALUE_T window_value = s_step_value;
            look = s_step_look;
            uint kind = s_step_kind;
            barrier();
            // The window's tiles come before everything gathered so far.
            pair_combine(window_heads, window_value, heads, value);
            if (kind == WALK_DONE) {
                return;
            }
            spins = kind == WALK_STALLED ? spins + 1u : 0u;
            fallback = spins >= SPIN_LIMIT;
        }
        if (fallback) {
            // The silent predecessor's pair from its input.
            uint h;
            VALUE_T v;
            tile_pair(uint(look), n, h, v);
            pair_combine(h, v, heads, value);
            if (gl_LocalInvocationIndex == 0u) {
                atomicAdd(U32AtomicRef(pc.scratch + 4ul).v[0], 1u);
            }
            look -= 1;
            spins = 0u;
            fallback = false;
            if (look < 0) {
                return;
            }
        }
    }
}

// SELF_CLEANING: the last workgroup to finish its look-back (before its runs are written)
// zeroes the state of the `tiles` tiles. Workgroup-uniform control flow.
void finish_and_clean(uint tiles) {
    lookback_state_finish(pc.scratch, pc.scratch + RBK_SCRATCH_HEADER, tiles * RBK_STATUS_WORDS);
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = tile_count(n);
    uint tile = lookback_tile(pc.scratch);
    if (tile >= tiles) {
        if (tile == 0u && gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.run_count).v[0] = 0u;  // no elements, no runs
        }
        finish_and_clean(tiles);
        return;
    }
    uint start = tile * TILE;
    uint valid = min(n - start, TILE);
    uint tile_heads;
    VALUE_T tile_value;
    tile_elements_pair(start, valid, n, tile_heads, tile_value);
    if (gl_LocalInvocationIndex == 0u) {
        publish(tile, tile == 0u ? RBK_FLAG_INCLUSIVE : RBK_FLAG_AGGREGATE, tile_heads, tile_value);
    }
    uint carry_heads = 0u;
    VALUE_T carry_value = op_identity();
    if (tile > 0u) {
        look_back(tile, n, carry_heads, carry_value);
        uint inc_heads = tile_heads;
        VALUE_T inc_value = tile_value;
        pair_combine(carry_heads, carry_value, inc_heads, inc_value);
        if (gl_LocalInvocationIndex == 0u) {
            publish(tile, RBK_FLAG_INCLUSIVE, inc_heads, inc_value);
        }
    }
    if (tile + 1u == tiles && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.run_count).v[0] = carry_heads + tile_heads;
    }
    finish_and_clean(tiles);
    write_runs(carry_heads, carry_value);
}
