#version 460
// Reduce-by-key in one pass with decoupled look-back (tile t is workgroup t on GPUs). Each tile
// publishes its pair (rbk_common.glsl) as an aggregate, walks back over its predecessors'
// published pairs (a workgroup's width of them per step) to the first inclusive one,
// publishes its own inclusive pair and writes the runs that end in it. A predecessor that stays silent for SPIN_LIMIT steps has its pair
// computed from the input by the waiter itself (the fallback of glsl/common/lookback.glsl),
// so no schedule can hang it; SPIN_LIMIT 0 is a test mode that takes the fallback for every
// tile's nearest predecessor.
//
// On CPU drivers tiles are taken in the order workgroups start (common/tile_ticket.glsl).
//
// Scratch (zero before, as far as the flags): 16 bytes of header (the u32 at byte 0 hands out
// the tiles, the one at byte 4 counts fallbacks), one u32 flag per tile (RBK_FLAG_*), then one 16-byte aggregate pair per tile and
// one 16-byte inclusive pair per tile. A pair is written before its flag, the flag with a
// device-scope release; a reader acquires the flag before it reads the pair. The last tile
// writes the number of runs.
#include "rbk_common.glsl"
#include "../common/tile_ticket.glsl"

uint64_t flag_addr(uint tile) {
    return pc.scratch + RBK_SCRATCH_HEADER + uint64_t(tile) * 4ul;
}

uint64_t pair_addr(uint tile, bool inclusive) {
    uint64_t flags_bytes = (uint64_t(pc.max_tiles) * 4ul + 15ul) & ~15ul;
    uint64_t base = pc.scratch + RBK_SCRATCH_HEADER + flags_bytes;
    return base + (inclusive ? uint64_t(pc.max_tiles) * 16ul : 0ul) + uint64_t(tile) * 16ul;
}

// Publishes the pair of `tile` (invocation 0 only).
void publish(uint tile, uint flag, uint heads, VALUE_T value) {
    PairRef(pair_addr(tile, flag == RBK_FLAG_INCLUSIVE)).v[0] = pair_pack(heads, value);
    atomicStore(U32AtomicRef(flag_addr(tile)).v[0], flag, gl_ScopeDevice,
                gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}

#define WALK_PROGRESS 0u
#define WALK_STALLED 1u
#define WALK_DONE 2u
#define NO_STOP 0xFFFFFFFFu

// The flag of the window's stop, passed from its invocation to the workgroup.
shared uint s_walk_flag;

// Where each subgroup's part of a window stops (the invocation index, or NO_STOP).
shared uint s_window_stop[(WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE];

// One step of the look-back over a window of WG_SIZE predecessors: invocation i reads the flag
// (and pair) of tile `look - (WG_SIZE - 1 - i)` (an inclusive identity pair before tile 0), so
// tiles run in invocation order and `look` is the last. The window's pairs after its last
// tile that is not an aggregate (that one too if it is inclusive) combine in tile order into
// `heads`/`value`; returns the step (done, stalled on a silent `look`, or progress) with
// where the walk goes next in `look`. Workgroup-uniform control flow.
uint walk_window(inout int look, out uint heads, out VALUE_T value) {
    uint i = gl_LocalInvocationIndex;
    int idx = look - int(WG_SIZE - 1u - i);
    uint flag = RBK_FLAG_INCLUSIVE;
    heads = 0u;
    value = op_identity();
    if (idx >= 0) {
        flag = atomicLoad(U32AtomicRef(flag_addr(uint(idx))).v[0], gl_ScopeDevice,
                          gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        if (flag != RBK_FLAG_NONE) {
            uvec4 p = PairRef(pair_addr(uint(idx), flag == RBK_FLAG_INCLUSIVE)).v[0];
            heads = p.x;
            value = pair_value(p);
        }
    }
    uvec4 stops = subgroupBallot(flag != RBK_FLAG_AGGREGATE);
    if (subgroupElect()) {
        s_window_stop[gl_SubgroupID] = stops == uvec4(0u)
            ? NO_STOP : gl_SubgroupID * gl_SubgroupSize + subgroupBallotFindMSB(stops);
    }
    barrier();
    uint stop = NO_STOP;
    for (uint g = gl_NumSubgroups; g > 0u && stop == NO_STOP; --g) {
        stop = s_window_stop[g - 1u];
    }
    // The stop's flag, from its invocation through shared memory.
    if (i == stop) {
        s_walk_flag = flag;
    }
    bool take = stop == NO_STOP || i > stop || (i == stop && flag == RBK_FLAG_INCLUSIVE);
    if (!take) {
        heads = 0u;
        value = op_identity();
    }
    uint total_heads;
    VALUE_T total_value;
    workgroup_pair_scan(heads, value, total_heads, total_value);  // its barriers pass s_walk_flag on
    heads = total_heads;
    value = total_value;
    if (stop == NO_STOP) {
        look -= int(WG_SIZE);
        return WALK_PROGRESS;
    }
    uint stop_flag = s_walk_flag;
    look -= int(WG_SIZE - 1u - stop);
    return stop_flag == RBK_FLAG_INCLUSIVE ? WALK_DONE
         : stop == WG_SIZE - 1u ? WALK_STALLED : WALK_PROGRESS;
}

// The pair of every element before tile `tile` (> 0): the workgroup reads a window of WG_SIZE
// predecessors per step; a predecessor silent for SPIN_LIMIT steps has its pair computed from
// its input by the whole workgroup. Workgroup-uniform control flow throughout (lavapipe drops
// invocations that spin in divergent control flow).
void look_back(uint tile, uint n, out uint heads, out VALUE_T value) {
    heads = 0u;
    value = op_identity();
    int look = int(tile) - 1;
    uint spins = 0u;
    bool fallback = SPIN_LIMIT == 0u;  // the test mode: the nearest predecessor from its input
    while (true) {
        if (!fallback) {
            uint window_heads;
            VALUE_T window_value;
            uint step = walk_window(look, window_heads, window_value);
            // The window's tiles come before everything gathered so far.
            pair_combine(window_heads, window_value, heads, value);
            if (step == WALK_DONE) {
                return;
            }
            spins = step == WALK_STALLED ? spins + 1u : 0u;
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

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = tile_count(n);
    uint tile = lookback_tile(pc.scratch);
    if (tile >= tiles) {
        if (tile == 0u && gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.run_count).v[0] = 0u;  // no elements, no runs
        }
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
    write_runs(carry_heads, carry_value);
}
