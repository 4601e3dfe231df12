#version 460
// Filter values by the set, keeping input order.
// mode 0 and 1 (no inter-workgroup waiting), tiles of WG_SIZE values (one per invocation):
// mode 0 writes the tile's count of kept values to scratch (S_START + tile); mode 1 (after
// info.comp mode 2 turned the counts into offsets) writes the kept values to out_addr.
// mode 2, one pass where the device allows inter-workgroup waiting, tiles of WG_SIZE *
// FILTER_ITEMS values: each tile publishes its count and finds its output offset by decoupled
// look-back (glsl/common/lookback.glsl; status words 16 bytes after word S_START, zeroed
// before the dispatch), writes its kept values, and the last tile writes the total to the u32
// at range_lo (tile 0 writes 0 for no values). A waiter that spins SPIN_LIMIT times on a
// silent tile looks that tile's values up itself, so no schedule can hang it. Each value is
// looked up once (modes 0 and 1 look it up twice).
#include "set_common.glsl"

// Values per invocation of mode 2 (src/set/tuning.rs FILTER_ITEMS): value j * WG_SIZE + lid of
// the tile, so each round of loads is coalesced. Fewer, larger tiles than modes 0 and 1: with
// one value an invocation the look-back's cost per tile was most of the time where lookups are
// cheap; more values an invocation serialize its lookups (docs/tuning/set.md#filter-items).
// (generated/set.glsl)

// Each subgroup's count of each row (mode 2: FILTER_ITEMS rows; modes 0 and 1: one).
shared uint s_scan[FILTER_ITEMS * (WG_SIZE / MIN_SUBGROUP_SIZE)];

// The status words of mode 2 (16 bytes before them: the tile ticket, lookback.glsl's counter).
uint64_t filter_status_addr() {
    return pc.scratch + uint64_t(S_START) * 4ul + 16ul;
}

// Whether value `i` is in the set (0 past the count); the value in `v`.
uint keep_at(uint i, uint n, out uint v) {
    v = 0u;
    if (i >= n) {
        return 0u;
    }
    v = U32Ref(u32_addr(pc.values, i)).v[0];
    return set_contains(pc.meta_d, v) ? 1u : 0u;
}

// lookback.glsl's fallback: this invocation's share of a silent mode-2 tile's count.
uint lookback_fallback_thread_value(uint tile) {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    uint kept = 0u;
    for (uint j = 0u; j < FILTER_ITEMS; ++j) {
        uint v;
        kept += keep_at((tile * FILTER_ITEMS + j) * WG_SIZE + gl_LocalInvocationIndex, n, v);
    }
    return kept;
}

#include "../common/lookback.glsl"

// Each subgroup's count of kept values (one barrier): this invocation's kept values before
// it in `before` (subgroups in order), the workgroup's in the result. The ballot of `keep`
// is the caller's.
uint subgroup_counts_scan(uvec4 kept, out uint before) {
    if (subgroupElect()) {
        s_scan[gl_SubgroupID] = subgroupBallotBitCount(kept);
    }
    barrier();
    before = 0u;
    uint total = 0u;
    for (uint g = 0u; g < gl_NumSubgroups; ++g) {
        before += g < gl_SubgroupID ? s_scan[g] : 0u;
        total += s_scan[g];
    }
    return total;
}

// Mode 2: one tile of WG_SIZE * FILTER_ITEMS values.
void one_pass(uint n) {
    uint tile_values = WG_SIZE * FILTER_ITEMS;
    uint tiles = (n + tile_values - 1u) / tile_values;
    // By ticket on CPU drivers: the u32 before the fallback counter (common/tile_ticket.glsl).
    uint tile = lookback_tile(pc.scratch + uint64_t(S_START) * 4ul);
    uint t = gl_LocalInvocationIndex;
    if (tiles == 0u && tile == 0u && t == 0u) {
        U32Ref(pc.range_lo).v[0] = 0u;
    }
    if (tile >= tiles) {
        return;
    }
    uint first = tile * tile_values + t;
    uint values[FILTER_ITEMS];
    uint keep = 0u;
    [[unroll]] for (uint j = 0u; j < FILTER_ITEMS; ++j) {
        uint i = first + j * WG_SIZE;
        values[j] = i < n ? U32Ref(u32_addr(pc.values, i)).v[0] : 0u;
    }
    [[unroll]] for (uint j = 0u; j < FILTER_ITEMS; ++j) {
        if (first + j * WG_SIZE < n && set_contains(pc.meta_d, values[j])) {
            keep |= 1u << j;
        }
    }
    // Row j (the tile's values j * WG_SIZE ..) comes before row j + 1: each subgroup's count
    // of each row, then one barrier. One ballot per row: its count goes to shared memory and
    // this invocation's kept values before it in its subgroup stay in a register.
    uint rows = gl_NumSubgroups;
    uint in_subgroup[FILTER_ITEMS];
    [[unroll]] for (uint j = 0u; j < FILTER_ITEMS; ++j) {
        uvec4 kept = subgroupBallot(((keep >> j) & 1u) != 0u);
        in_subgroup[j] = subgroupBallotExclusiveBitCount(kept);
        uint count = subgroupBallotBitCount(kept);
        if (subgroupElect()) {
            s_scan[j * rows + gl_SubgroupID] = count;
        }
    }
    barrier();
    uint before[FILTER_ITEMS];
    uint total = 0u;
    [[unroll]] for (uint j = 0u; j < FILTER_ITEMS; ++j) {
        uint row_before = 0u;
        uint row_total = 0u;
        for (uint g = 0u; g < rows; ++g) {
            uint c = s_scan[j * rows + g];
            row_before += g < gl_SubgroupID ? c : 0u;
            row_total += c;
        }
        before[j] = total + row_before + in_subgroup[j];
        total += row_total;
    }
    uint64_t status = filter_status_addr();
    if (t == 0u) {
        lookback_publish(status, tile, tile == 0u ? LOOKBACK_INCLUSIVE : LOOKBACK_AGGREGATE, total);
    }
    uint base = tile == 0u ? 0u : lookback_exclusive_prefix(status, tile);
    if (t == 0u && tile != 0u) {
        lookback_publish(status, tile, LOOKBACK_INCLUSIVE, base + total);
    }
    if (t == 0u && tile + 1u == tiles) {
        U32Ref(pc.range_lo).v[0] = base + total;
    }
    [[unroll]] for (uint j = 0u; j < FILTER_ITEMS; ++j) {
        if (((keep >> j) & 1u) != 0u) {
            U32Ref(u32_addr(pc.out_addr, base + before[j])).v[0] = values[j];
        }
    }
}

void main() {
    uint n = load_count(pc.count_addr, pc.count, pc.max_count);
    if (pc.mode == 2u) {
        one_pass(n);
        return;
    }
    uint tile = linear_workgroup_id();
    uint tiles = (n + WG_SIZE - 1u) / WG_SIZE;
    if (tile >= tiles) {
        // (mode 0: the info pass sums every dispatched tile's entry; an indirect count may
        // leave tiles empty.)
        if (pc.mode == 0u && gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.scratch).v[S_START + tile] = 0u;
        }
        return;
    }
    uint v;
    uint keep = keep_at(tile * WG_SIZE + gl_LocalInvocationIndex, n, v);
    // The tile's scan by subgroup ballots and one barrier (a workgroup scan of one flag per
    // invocation in shared memory took 16 barriers; workgroup_scan.glsl's scan, three
    // barriers, was slower: docs/tuning/set.md#filter-ballots).
    uvec4 kept = subgroupBallot(keep != 0u);
    uint before;
    uint total = subgroup_counts_scan(kept, before);
    if (pc.mode == 0u) {
        if (gl_LocalInvocationIndex == 0u) {
            U32Ref(pc.scratch).v[S_START + tile] = total;
        }
    } else if (keep != 0u) {
        uint base = U32Ref(pc.scratch).v[S_START + tile];
        U32Ref(u32_addr(pc.out_addr, base + before + subgroupBallotExclusiveBitCount(kept))).v[0] = v;
    }
}
