// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", NVIDIA 2016) made safe without a forward-progress guarantee by the fallback of
// Smith, Levien & Owens ("Decoupled Fallback: A Portable Single-Pass GPU Scan", SPAA 2025):
// a waiter that has spun SPIN_LIMIT times on a tile that published nothing computes that tile's
// aggregate itself from the input, so every wait is bounded and no schedule can hang it.
//
// Status words are 64-bit: flag in bits 32..33, the u32 value in bits 0..31; flag and value
// travel in one atomic word, so no further ordering is needed to read them consistently.
// 64-bit values (LOOKBACK_STATUS_WORDS 2) take two such words per tile, the value's low and
// high halves each beside the flag: a reader takes the pair when both words carry the same
// flag (a tile publishes one aggregate and one inclusive prefix, and a fallback's aggregate
// equals the tile's own, so equal flags mean halves of one value) and sees it as not ready
// otherwise (a publication half seen).
//
// The includer defines, before including this file:
//   uint lookback_fallback_thread_value(uint tile);
// returning this invocation's share of tile `tile`'s aggregate (summed over the workgroup here).
// Everything here runs in workgroup-uniform control flow (lavapipe drops invocations that spin
// in divergent control flow).
//
// Values are u32 bits (LOOKBACK_VALUE_T, or uint64_t with LOOKBACK_STATUS_WORDS 2) combined by
// an associative, commutative operation, the sum by default. An includer with another
// operation defines, before including this file:
//   LOOKBACK_IDENTITY                 its identity;
//   LOOKBACK_ACCUMULATE(acc, x)       acc = acc combined with x;
//   LOOKBACK_SUBGROUP_REDUCE(x)       x combined over the subgroup (every lane active);
//   LOOKBACK_WORKGROUP_REDUCE(x)      x combined over the workgroup (workgroup-uniform).
//
// Includers reserve 16 bytes before the status words; the u32 at byte 4 of them counts the
// fallbacks (diagnostics and tests), the one at byte 0 is the tile ticket (tile_ticket.glsl)
// and the one at byte 8 the finished workgroups of a kept-zeroed state
// (last_workgroup.glsl lookback_state_finish). SPIN_LIMIT 0 is a test mode: every tile computes its
// nearest predecessor's aggregate itself, whatever that predecessor published, so the fallback
// runs for every tile after the first whatever the schedule.
#ifndef VKALGO_LOOKBACK_GLSL
#define VKALGO_LOOKBACK_GLSL

#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_memory_scope_semantics : require

#include "workgroup_scan.glsl"
#include "tile_ticket.glsl"

#ifndef LOOKBACK_VALUE_T
#define LOOKBACK_VALUE_T uint
#endif
#ifndef LOOKBACK_STATUS_WORDS
#define LOOKBACK_STATUS_WORDS 1
#endif

#ifndef LOOKBACK_ACCUMULATE
#define LOOKBACK_IDENTITY 0u
#define LOOKBACK_ACCUMULATE(acc, x) acc += x
#define LOOKBACK_SUBGROUP_REDUCE(x) subgroup_sum(x)
#define LOOKBACK_WORKGROUP_REDUCE(x) workgroup_reduce_add(x)
#endif

#define LOOKBACK_NOT_READY 0u
#define LOOKBACK_AGGREGATE 1u
#define LOOKBACK_INCLUSIVE 2u

#define LOOKBACK_STEP_PROGRESS 0u
#define LOOKBACK_STEP_STALLED 1u
#define LOOKBACK_STEP_DONE 2u

uint64_t lookback_pack(uint flag, uint value) {
    return (uint64_t(flag) << 32) | uint64_t(value);
}

#if LOOKBACK_STATUS_WORDS == 2
void lookback_publish(uint64_t status_addr, uint tile, uint flag, LOOKBACK_VALUE_T value) {
    uvec2 halves = unpackUint2x32(value);
    atomicStore(U64AtomicRef(status_addr).v[2u * tile], lookback_pack(flag, halves.x),
                gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    atomicStore(U64AtomicRef(status_addr).v[2u * tile + 1u], lookback_pack(flag, halves.y),
                gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

// The status of tile `idx` (an inclusive prefix of the identity before tile 0): its flag, or
// LOOKBACK_NOT_READY where its two words disagree, and its value.
uint lookback_read(uint64_t status_addr, int idx, out LOOKBACK_VALUE_T value) {
    if (idx < 0) {
        value = LOOKBACK_IDENTITY;
        return LOOKBACK_INCLUSIVE;
    }
    uint64_t low = atomicLoad(U64AtomicRef(status_addr).v[2 * idx], gl_ScopeDevice,
                              gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    uint64_t high = atomicLoad(U64AtomicRef(status_addr).v[2 * idx + 1], gl_ScopeDevice,
                               gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    value = packUint2x32(uvec2(uint(low), uint(high)));
    uint flag = uint(low >> 32);
    return flag == uint(high >> 32) ? flag : LOOKBACK_NOT_READY;
}
#else
void lookback_publish(uint64_t status_addr, uint tile, uint flag, uint value) {
    atomicStore(U64AtomicRef(status_addr).v[tile], lookback_pack(flag, value), gl_ScopeDevice,
                gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}
#endif

// Counts one fallback in the u32 12 bytes before the status words.
void lookback_count_fallback(uint64_t status_addr) {
    if (gl_LocalInvocationIndex == 0) {
        atomicAdd(U32AtomicRef(status_addr - 12ul).v[0], 1u);
    }
}

// Fallback: computes the aggregate of tile `look`, which published nothing, from its input,
// shares it where the tile has still published nothing, and counts the fallback.
LOOKBACK_VALUE_T lookback_fallback(uint64_t status_addr, int look) {
    LOOKBACK_VALUE_T aggregate = LOOKBACK_WORKGROUP_REDUCE(lookback_fallback_thread_value(uint(look)));
#if LOOKBACK_STATUS_WORDS == 2
    if (gl_LocalInvocationIndex == 0) {
        uvec2 halves = unpackUint2x32(aggregate);
        atomicCompSwap(U64AtomicRef(status_addr).v[2 * look], 0ul,
                       lookback_pack(LOOKBACK_AGGREGATE, halves.x));
        atomicCompSwap(U64AtomicRef(status_addr).v[2 * look + 1], 0ul,
                       lookback_pack(LOOKBACK_AGGREGATE, halves.y));
    }
#else
    if (gl_LocalInvocationIndex == 0) {
        atomicCompSwap(U64AtomicRef(status_addr).v[look], 0ul,
                       lookback_pack(LOOKBACK_AGGREGATE, aggregate));
    }
#endif
    lookback_count_fallback(status_addr);
    return aggregate;
}

#define LOOKBACK_NO_STOP 0xFFFFFFFFu

// One subgroup's part of a look-back window: lane l reads the status word of tile
// `nearest - l` (an inclusive prefix of the identity before tile 0). Returns the combination
// of the values up to
// the first word that is not an aggregate (that word included when it is an inclusive
// prefix); `stop` gets where that word is and its flag (lane << 2 | flag), or LOOKBACK_NO_STOP
// where every word is an aggregate. Subgroup-uniform control flow.
LOOKBACK_VALUE_T lookback_window_part(uint64_t status_addr, int nearest, out uint stop) {
    uint lane = gl_SubgroupInvocationID;
    int idx = nearest - int(lane);
#if LOOKBACK_STATUS_WORDS == 2
    LOOKBACK_VALUE_T value;
    uint flag = lookback_read(status_addr, idx, value);
#else
    uint64_t status = idx >= 0
        ? atomicLoad(U64AtomicRef(status_addr).v[idx], gl_ScopeDevice, gl_StorageSemanticsNone,
                     gl_SemanticsRelaxed)
        : lookback_pack(LOOKBACK_INCLUSIVE, LOOKBACK_IDENTITY);
    uint flag = uint(status >> 32);
    uint value = uint(status);
#endif
    uvec4 stops = subgroupBallot(flag != LOOKBACK_AGGREGATE);
    if (stops == uvec4(0u)) {
        stop = LOOKBACK_NO_STOP;
        return LOOKBACK_SUBGROUP_REDUCE(value);
    }
    uint first = subgroupBallotFindLSB(stops);
    bool take = lane < first || (lane == first && flag == LOOKBACK_INCLUSIVE);
    stop = (first << 2) | subgroupShuffle(flag, first);
    return LOOKBACK_SUBGROUP_REDUCE(take ? value : LOOKBACK_IDENTITY);
}

// Test mode (SPIN_LIMIT 0): tile `look`, the nearest predecessor, is always counted by the
// fallback, whatever it published. Returns whether that was tile 0 (the prefix is complete).
bool lookback_test_mode_start(uint64_t status_addr, inout int look, inout LOOKBACK_VALUE_T prefix) {
    if (SPIN_LIMIT != 0u) {
        return false;
    }
    LOOKBACK_ACCUMULATE(prefix, lookback_fallback(status_addr, look));
    look -= 1;
    return look < 0;
}

// A step found tile `look` silent: counts the spin and, at SPIN_LIMIT, computes the tile's
// aggregate itself (returned; the look-back then goes on before it). Else returns the identity.
LOOKBACK_VALUE_T lookback_stalled(uint64_t status_addr, inout int look, inout uint spins) {
    spins += 1u;
    if (spins < SPIN_LIMIT) {
        return LOOKBACK_IDENTITY;
    }
    spins = 0u;
    look -= 1;
    return lookback_fallback(status_addr, look + 1);
}

shared LOOKBACK_VALUE_T s_lookback_add;
shared int s_lookback_next;
shared uint s_lookback_step;

// Returns the exclusive prefix of `tile` (> 0), summing the published aggregates and the first
// inclusive prefix found walking backwards; the first subgroup reads gl_SubgroupSize status
// words per step.
LOOKBACK_VALUE_T lookback_exclusive_prefix(uint64_t status_addr, uint tile) {
    LOOKBACK_VALUE_T prefix = LOOKBACK_IDENTITY;
    int look = int(tile) - 1;
    uint spins = 0;
    if (lookback_test_mode_start(status_addr, look, prefix)) {
        return prefix;
    }
    while (true) {
        if (gl_SubgroupID == 0) {
            uint stop;
            LOOKBACK_VALUE_T add = lookback_window_part(status_addr, look, stop);
            int next = look - int(gl_SubgroupSize);
            uint step = LOOKBACK_STEP_PROGRESS;
            if (stop != LOOKBACK_NO_STOP) {
                uint first = stop >> 2;
                next = look - int(first);
                step = (stop & 3u) == LOOKBACK_INCLUSIVE ? LOOKBACK_STEP_DONE
                     : (first == 0u ? LOOKBACK_STEP_STALLED : LOOKBACK_STEP_PROGRESS);
            }
            if (subgroupElect()) {
                s_lookback_add = add;
                s_lookback_next = next;
                s_lookback_step = step;
            }
        }
        barrier();
        LOOKBACK_ACCUMULATE(prefix, s_lookback_add);
        look = s_lookback_next;
        uint step = s_lookback_step;
        barrier();
        if (step == LOOKBACK_STEP_DONE) {
            break;
        }
        if (step == LOOKBACK_STEP_STALLED) {
            LOOKBACK_ACCUMULATE(prefix, lookback_stalled(status_addr, look, spins));
        } else {
            spins = 0;
        }
    }
    return prefix;
}

#ifdef LOOKBACK_WORKGROUP_WINDOW
// The same look-back with every invocation reading one status word per step, so one step
// covers WG_SIZE predecessors instead of a subgroup's: fewer round trips to the status words
// where tiles are many but few enough to run at once. Each subgroup reduces its part of the
// window; every subgroup then walks the subgroups' results in order (the same result
// everywhere). Steps alternate between two halves of the slots, so one barrier per step
// suffices: a step's slots are written again two steps later, after every invocation has
// passed the barrier of the step between, which follows its reads. Faster than the subgroup's
// window for a few dozen to a few hundred tiles (docs/tuning/scan.md#workgroup-window).
#define LOOKBACK_WINDOW_SLOTS ((WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE)
shared LOOKBACK_VALUE_T s_window_sum[2u * LOOKBACK_WINDOW_SLOTS];
shared uint s_window_stop[2u * LOOKBACK_WINDOW_SLOTS];

LOOKBACK_VALUE_T lookback_exclusive_prefix_workgroup(uint64_t status_addr, uint tile) {
    LOOKBACK_VALUE_T prefix = LOOKBACK_IDENTITY;
    int look = int(tile) - 1;
    uint spins = 0;
    uint step = 0;
    uint lane = gl_SubgroupInvocationID;
    if (lookback_test_mode_start(status_addr, look, prefix)) {
        return prefix;
    }
    while (true) {
        uint part_stop;
        LOOKBACK_VALUE_T part_sum = lookback_window_part(
            status_addr, look - int(gl_SubgroupID * gl_SubgroupSize), part_stop);
        uint half_base = (step & 1u) * LOOKBACK_WINDOW_SLOTS;
        if (subgroupElect()) {
            s_window_sum[half_base + gl_SubgroupID] = part_sum;
            s_window_stop[half_base + gl_SubgroupID] = part_stop;
        }
        barrier();
        LOOKBACK_VALUE_T add = LOOKBACK_IDENTITY;
        uint stop = LOOKBACK_NO_STOP;
        uint stop_subgroup = 0u;
        for (uint base = 0u; base < gl_NumSubgroups; base += gl_SubgroupSize) {
            uint k = base + lane;
            uint part_stop_k = k < gl_NumSubgroups ? s_window_stop[half_base + k] : LOOKBACK_NO_STOP;
            LOOKBACK_VALUE_T part_sum_k = k < gl_NumSubgroups ? s_window_sum[half_base + k] : LOOKBACK_IDENTITY;
            uvec4 stopped = subgroupBallot(part_stop_k != LOOKBACK_NO_STOP);
            if (stopped == uvec4(0u)) {
                LOOKBACK_ACCUMULATE(add, LOOKBACK_SUBGROUP_REDUCE(part_sum_k));
            } else {
                uint first = subgroupBallotFindLSB(stopped);
                LOOKBACK_ACCUMULATE(add, LOOKBACK_SUBGROUP_REDUCE(lane <= first ? part_sum_k : LOOKBACK_IDENTITY));
                stop = subgroupShuffle(part_stop_k, first);
                stop_subgroup = base + first;
                break;
            }
        }
        step += 1u;
        LOOKBACK_ACCUMULATE(prefix, add);
        if (stop == LOOKBACK_NO_STOP) {
            look -= int(gl_NumSubgroups * gl_SubgroupSize); // a window of aggregates
            spins = 0;
            continue;
        }
        if ((stop & 3u) == LOOKBACK_INCLUSIVE) {
            break;
        }
        uint nearest_silent = stop_subgroup * gl_SubgroupSize + (stop >> 2);
        look -= int(nearest_silent);
        if (nearest_silent != 0u) {
            spins = 0;
        } else {
            LOOKBACK_ACCUMULATE(prefix, lookback_stalled(status_addr, look, spins));
        }
    }
    return prefix;
}
#endif

#endif
