#version 460
// Reduce-by-key in one pass with decoupled look-back (tile t is workgroup t). Each tile
// publishes its pair (rbk_common.glsl) as an aggregate, walks back over its predecessors'
// published pairs to the first inclusive one, publishes its own inclusive pair and writes the
// runs that end in it. A predecessor that stays silent for SPIN_LIMIT steps has its pair
// computed from the input by the waiter itself (the fallback of glsl/common/lookback.glsl),
// so no schedule can hang it; SPIN_LIMIT 0 is a test mode that takes the fallback for every
// tile's nearest predecessor.
//
// Scratch (zero before, as far as the flags): 16 bytes of header (the u32 at byte 4 counts
// fallbacks), one u32 flag per tile (RBK_FLAG_*), then one 16-byte aggregate pair per tile and
// one 16-byte inclusive pair per tile. A pair is written before its flag, the flag with a
// device-scope release; a reader acquires the flag before it reads the pair. The last tile
// writes the number of runs.
#include "rbk_common.glsl"

uint64_t flag_addr(uint tile) {
    return pc.scratch + RBK_SCRATCH_HEADER + uint64_t(tile) * 4ul;
}

uint64_t pair_addr(uint tile, bool inclusive) {
    uint64_t flags_bytes = (uint64_t(pc.max_tiles) * 4ul + 15ul) & ~15ul;
    uint64_t base = pc.scratch + RBK_SCRATCH_HEADER + flags_bytes;
    return base + (inclusive ? uint64_t(pc.max_tiles) * 16ul : 0ul) + uint64_t(tile) * 16ul;
}

// Publishes the pair of `tile` (invocation 0 only).
void publish(uint tile, uint flag, uint heads, uint64_t value) {
    PairRef(pair_addr(tile, flag == RBK_FLAG_INCLUSIVE)).v[0] = pair_pack(heads, value);
    atomicStore(U32AtomicRef(flag_addr(tile)).v[0], flag, gl_ScopeDevice,
                gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}

shared uint s_flag;
shared uvec4 s_pair;

// The pair of every element before tile `tile` (> 0). Workgroup-uniform control flow: one
// invocation reads each predecessor's flag and pair, the workgroup takes the step together.
void look_back(uint tile, uint n, out uint heads, out uint64_t value) {
    heads = 0u;
    value = op_identity();
    int look = int(tile) - 1;
    uint spins = 0u;
    while (look >= 0) {
        bool fallback = SPIN_LIMIT == 0u && look == int(tile) - 1;
        if (!fallback) {
            if (gl_LocalInvocationIndex == 0u) {
                uint flag = atomicLoad(U32AtomicRef(flag_addr(uint(look))).v[0], gl_ScopeDevice,
                                       gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
                s_flag = flag;
                if (flag != RBK_FLAG_NONE) {
                    s_pair = PairRef(pair_addr(uint(look), flag == RBK_FLAG_INCLUSIVE)).v[0];
                }
            }
            barrier();
            uint flag = s_flag;
            uvec4 p = s_pair;
            barrier();
            if (flag != RBK_FLAG_NONE) {
                pair_combine(p.x, pair_value(p), heads, value);
                if (flag == RBK_FLAG_INCLUSIVE) {
                    return;
                }
                look -= 1;
                spins = 0u;
                continue;
            }
            spins += 1u;
            fallback = spins >= SPIN_LIMIT;
        }
        if (fallback) {
            // The silent predecessor's pair from its input; before tile 0 there is nothing.
            uint h;
            uint64_t v;
            tile_pair(uint(look), n, h, v);
            pair_combine(h, v, heads, value);
            if (gl_LocalInvocationIndex == 0u) {
                atomicAdd(U32AtomicRef(pc.scratch + 4ul).v[0], 1u);
            }
            look -= 1;
            spins = 0u;
        }
    }
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint tiles = tile_count(n);
    uint tile = linear_workgroup_id();
    if (tile >= tiles) {
        if (tile == 0u && gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.run_count).v[0] = 0u;  // no elements, no runs
        }
        return;
    }
    uint start = tile * TILE;
    uint valid = min(n - start, TILE);
    stage_tile(start, valid, n);
    uint heads;
    uint64_t value;
    uint tile_heads;
    uint64_t tile_value;
    staged_tile_pair(start, valid, heads, value, tile_heads, tile_value);
    if (gl_LocalInvocationIndex == 0u) {
        publish(tile, tile == 0u ? RBK_FLAG_INCLUSIVE : RBK_FLAG_AGGREGATE, tile_heads, tile_value);
    }
    uint carry_heads = 0u;
    uint64_t carry_value = op_identity();
    if (tile > 0u) {
        look_back(tile, n, carry_heads, carry_value);
        uint inc_heads = tile_heads;
        uint64_t inc_value = tile_value;
        pair_combine(carry_heads, carry_value, inc_heads, inc_value);
        if (gl_LocalInvocationIndex == 0u) {
            publish(tile, RBK_FLAG_INCLUSIVE, inc_heads, inc_value);
        }
    }
    if (tile + 1u == tiles && gl_LocalInvocationIndex == 0u) {
        U32Ref(pc.run_count).v[0] = carry_heads + tile_heads;
    }
    pair_combine(carry_heads, carry_value, heads, value);
    staged_write_runs(start, valid, n, carry_heads, heads, value, tile_heads);
}
