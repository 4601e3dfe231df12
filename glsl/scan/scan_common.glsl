// Tile loading and in-register tile scans shared by the scan passes.
//
// A tile is WG_SIZE * VECS_PER_THREAD uvec4 vectors (TILE_ELEMS u32). Subgroup s owns a
// contiguous run of gl_SubgroupSize * VECS_PER_THREAD vectors; lane l holds the vectors
// k * gl_SubgroupSize + l of that run (k < VECS_PER_THREAD), so every load and store
// instruction of a subgroup touches one contiguous span of memory.
//
// 64-bit addressing: every tile is reached through the 64-bit byte address of its first
// element (u32_addr) and indexed only by offsets within the tile, so elements at 2^31 and
// beyond are addressed right (SPIR-V access-chain indices are signed). Maximum count
// (src/scan/mod.rs SCAN_MAX_COUNT): 2^32 - 1. No index arithmetic wraps below it: a tile is
// only visited when it starts below the count (t < tile_count(n), so t * TILE_ELEMS < n), the
// tile count, partition bounds and look-back tile indices stay below 2^25 (tiles hold at least
// 128 elements), and sums are taken modulo 2^32 by definition.
//
// Permutation: VEC_IO = 1 when input and output addresses are 16-byte aligned (full tiles move
// as uvec4), 0 for 4-byte aligned ranges (scalar loads and stores).
#ifndef VKALGO_SCAN_COMMON_GLSL
#define VKALGO_SCAN_COMMON_GLSL

#include "../common/workgroup_scan.glsl"
// SCAN_FLAG_* (generated from src/scan/shared_constants.rs).
#include "../generated/scan.glsl"

#ifndef VEC_IO
#error "VEC_IO must be defined by the permutation table"
#endif

// Must match src/scan/mod.rs (ScanPush).
layout(push_constant) uniform ScanPush {
    uint64_t input_addr;     // u32[count]
    uint64_t output_addr;    // u32[count] (may equal input_addr)
    uint64_t aux_addr;       // pass-specific: partials (reduce-then-scan) or look-back state
    uint64_t count_addr;     // 0: use `count`; else the address of a u32 count
    uint count;              // direct element count
    uint max_count;          // the plan's maximum (clamps an indirect count)
    uint inclusive;          // 1: inclusive scan, 0: exclusive
    uint tiles_per_partition;// reduce-then-scan: tiles handled by one workgroup
    uint num_partitions;     // reduce-then-scan: partials written by the reduce pass
    uint flags;              // look-back: SCAN_FLAG_* bits
} pc;

// Look-back flags (generated): SCAN_FLAG_WORKGROUP_LOOKBACK, every invocation reads a status word per step
// (common/lookback.glsl).

#define TILE_VECS (WG_SIZE * VECS_PER_THREAD)
#define TILE_ELEMS (TILE_VECS * 4u)

uvec4 g_vals[VECS_PER_THREAD];

uint vec_index_in_tile(uint k) {
    return (gl_SubgroupID * VECS_PER_THREAD + k) * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// Loads the `valid` first elements of the tile starting at element `tile_start`; the rest of
// the tile reads as 0 (the identity of the sum).
void load_tile(uint64_t base, uint tile_start, uint valid) {
    uint64_t tile_addr = u32_addr(base, tile_start);
#if VEC_IO
    if (valid >= TILE_ELEMS) {
        for (uint k = 0; k < VECS_PER_THREAD; ++k) {
            g_vals[k] = U32x4Ref(tile_addr).v[vec_index_in_tile(k)];
        }
        return;
    }
#endif
    for (uint k = 0; k < VECS_PER_THREAD; ++k) {
        uint e = vec_index_in_tile(k) * 4u;
        for (uint c = 0; c < 4u; ++c) {
            g_vals[k][c] = e + c < valid ? U32Ref(tile_addr).v[e + c] : 0u;
        }
    }
}

void store_tile(uint64_t base, uint tile_start, uint valid) {
    uint64_t tile_addr = u32_addr(base, tile_start);
#if VEC_IO
    if (valid >= TILE_ELEMS) {
        for (uint k = 0; k < VECS_PER_THREAD; ++k) {
            U32x4Ref(tile_addr).v[vec_index_in_tile(k)] = g_vals[k];
        }
        return;
    }
#endif
    for (uint k = 0; k < VECS_PER_THREAD; ++k) {
        uint e = vec_index_in_tile(k) * 4u;
        for (uint c = 0; c < 4u; ++c) {
            if (e + c < valid) {
                U32Ref(tile_addr).v[e + c] = g_vals[k][c];
            }
        }
    }
}

// This invocation's sum over a tile read straight from memory (g_vals untouched).
// The sum of a vector's four elements.
uint vec_sum(uvec4 x) {
    return (x.x + x.y) + (x.z + x.w);
}

uint thread_sum_of_tile(uint64_t base, uint tile_start, uint valid) {
    uint64_t tile_addr = u32_addr(base, tile_start);
    uint sum = 0;
#if VEC_IO
    if (valid >= TILE_ELEMS) {
        for (uint k = 0; k < VECS_PER_THREAD; ++k) {
            sum += vec_sum(U32x4Ref(tile_addr).v[vec_index_in_tile(k)]);
        }
        return sum;
    }
#endif
    for (uint k = 0; k < VECS_PER_THREAD; ++k) {
        uint e = vec_index_in_tile(k) * 4u;
        for (uint c = 0; c < 4u; ++c) {
            sum += e + c < valid ? U32Ref(tile_addr).v[e + c] : 0u;
        }
    }
    return sum;
}

// Adds `value` to every element of the tile held in g_vals.
void add_to_tile(uint value) {
    for (uint k = 0; k < VECS_PER_THREAD; ++k) {
        g_vals[k] += value;
    }
}

// Scans this invocation's vectors within its subgroup's run (vec_index_in_tile), starting from
// `carry`: the sum of everything before the run. Returns carry plus the run's total
// (subgroup-uniform).
uint scan_subgroup_run(bool inclusive, uint carry) {
    for (uint k = 0; k < VECS_PER_THREAD; ++k) {
        uvec4 x = g_vals[k];
        x.y += x.x;
        x.z += x.y;
        x.w += x.z;
        uint lane_inclusive = subgroupInclusiveAdd(x.w);
        uint before = carry + lane_inclusive - x.w;
        g_vals[k] = (inclusive ? x : uvec4(0u, x.xyz)) + before;
        carry += subgroupShuffle(lane_inclusive, gl_SubgroupSize - 1u);
    }
    return carry;
}

// Scans the tile held in g_vals (inclusive or exclusive, relative to the tile start) and
// returns the tile's total. Workgroup-uniform control flow.
uint scan_tile_local(bool inclusive) {
    uint total;
    uint subgroup_prefix = workgroup_exclusive_scan_subgroup_values(scan_subgroup_run(inclusive, 0u), total);
    add_to_tile(subgroup_prefix);
    return total;
}

// The tile's total by a reduction, before any element is scanned, and in `subgroup_prefix` the
// sum of the subgroup runs before this invocation's (to seed scan_subgroup_run): what the
// look-back publishes first (Merrill & Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016: reduce, publish the aggregate, then scan). Workgroup-uniform
// control flow.
uint tile_total(out uint subgroup_prefix) {
    uint sum = 0u;
    for (uint k = 0; k < VECS_PER_THREAD; ++k) {
        sum += vec_sum(g_vals[k]);
    }
    uint total;
    subgroup_prefix = workgroup_exclusive_scan_subgroup_values(subgroup_sum(sum), total);
    return total;
}

uint tile_count(uint n) {
    return n / TILE_ELEMS + (n % TILE_ELEMS != 0u ? 1u : 0u);
}

#endif
