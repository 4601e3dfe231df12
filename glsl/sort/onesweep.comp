#version 460
// One Onesweep digit pass (Adinets & Merrill 2022): rank a tile, find the tile's global offset
// per digit by decoupled look-back (Merrill & Garland 2016), scatter. Tiles are numbered by an
// atomic counter, so a tile only waits on tiles whose workgroups have already started.
//
// The look-back status lives in a FIXED-SIZE circular buffer of RING_TILES tiles x 256 digits
// (the circular-buffer Onesweep of the AMD Capsaicin/ORO radix sort, seeds/000): slot =
// sequence number mod RING_TILES, where the sequence number runs on across the passes of one
// sort. Each 64-bit entry carries the sequence number (bits 34..63) beside the flag (32..33) and
// the count (0..31), so a reader tells a stale or overwritten entry from the one it wants.
// A tail iterator per pass counts tiles that finished their look-back; its low TAIL_BITS bits
// advance out of order. A tile writes its slot only when the tail says the tiles that could
// still read the slot's previous entry are done (at most RING_LOOKBACK tiles back).
//
// No wait can hang: every wait is bounded, in workgroup-uniform control flow. A digit whose
// predecessor stays silent for SPIN_LIMIT polls (or whose entry was already overwritten) gets
// that predecessor's count by counting the predecessor's keys itself (the "Decoupled Fallback"
// of Smith, Levien & Owens, SPAA 2025); the tail and ring waits simply give up after their
// bound, which costs speed, never correctness, because entries are tagged.
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_memory_scope_semantics : require
#ifdef SORT_CLOCK
// Diagnostics permutation: invocation 0 adds the cycles (/16) each phase of a tile took to
// event counters 8..14 (phases: ticket, key loads, digit matching, rest of the ranking,
// publish + look-back, tail, offsets + scatter).
#extension GL_ARB_shader_clock : require
void clock_mark(uint phase);
#define RANK_MARK(phase) clock_mark(phase)
#else
#define clock_mark(phase)
#endif
// rank_tile calls tile_counts_ready() as soon as the tile's digit counts are known: the
// aggregate is published before the rest of the ranking, so successors wait less.
#define TILE_COUNTS_HOOK
void tile_counts_ready();
#include "sort_common.glsl"

#ifdef SORT_CLOCK
uint64_t g_clock_last;
void clock_mark(uint phase) {
    if (gl_LocalInvocationIndex == 0u) {
        uint64_t now = packUint2x32(clock2x32ARB());
        if (phase > 0u) {
            atomicAdd(U32AtomicRef(pc.scratch + SCRATCH_STATS).v[7u + phase],
                      uint((now - g_clock_last) >> 4));
        }
        g_clock_last = now;
    }
}
#endif

#define RING_TILES 1016u
#define RING_LOOKBACK (RING_TILES / 2u)
#define TAIL_BITS 5u
#define TAIL_MASK (0xFFFFFFFFu << TAIL_BITS)
#define FLAG_AGGREGATE 1u
#define FLAG_INCLUSIVE 2u
#define WAIT_LIMIT (SPIN_LIMIT * 16u)
// Predecessor entries one invocation reads at once per look-back round.
#define LOOKBACK_WINDOW 8u

shared uint s_pending[2];
shared uint s_tail_seen;
shared int s_fallback[2];
shared uint s_fallback_hist[RADIX];

// Event counters in scratch (cheap: one atomic per tile and event kind), read by the
// benchmark to explain timings: 0 fallbacks, 1 ring-wait timeouts, 2 tail-wait timeouts,
// 3 ring-wait polls, 4 tail-wait polls, 5 look-back rounds.
void count_event(uint which, uint amount) {
    if (gl_LocalInvocationIndex == 0u && amount != 0u) {
        atomicAdd(U32AtomicRef(pc.scratch + SCRATCH_STATS).v[which], amount);
    }
}


uint64_t ring_entry(uint seq, uint flag, uint value) {
    return (uint64_t(seq) << 34) | (uint64_t(flag) << 32) | uint64_t(value);
}

// The tail iterator of this pass, read by one invocation and shared (uniform control flow).
uint read_tail(uint index) {
    uint t = 0u;
    if (gl_LocalInvocationIndex == 0u) {
        t = atomicLoad(U32AtomicRef(pc.scratch).v[index], gl_ScopeDevice, gl_StorageSemanticsNone,
                       gl_SemanticsRelaxed);
    }
    return workgroup_broadcast_first(t);
}


// The current tile and what tile_counts_ready needs of it.
uint g_tile;
uint g_early_tail;
uint g_tail_index;

// Waits (bounded) for ring space, then publishes the tile's digit counts as aggregates
// (inclusive prefixes for tile 0). Called by rank_tile in uniform control flow.
void tile_counts_ready() {
    uint tile = g_tile;
    U64AtomicRef ring = U64AtomicRef(pc.scratch + SCRATCH_RING);
    uint seq = pc.pass_index * pc.max_tiles + tile;
    uint slot = (seq % RING_TILES) * RADIX;
    // Ring space: the slot's previous entry may still be read by tiles up to RING_LOOKBACK
    // after it; wait (bounded) until the tail has passed them.
    if ((g_early_tail & TAIL_MASK) + (RING_TILES - RING_LOOKBACK) <= tile) {
        uint spin = 0u;
        for (; spin < WAIT_LIMIT; ++spin) {
            if ((read_tail(g_tail_index) & TAIL_MASK) + (RING_TILES - RING_LOOKBACK) > tile) {
                break;
            }
        }
        count_event(1u, spin == WAIT_LIMIT ? 1u : 0u);
        count_event(3u, spin);
    }
    for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        if (d < RADIX) {
            uint flag = tile == 0u ? FLAG_INCLUSIVE : FLAG_AGGREGATE;
            atomicStore(ring.v[slot + d], ring_entry(seq, flag, g_tile_count[j]), gl_ScopeDevice,
                        gl_StorageSemanticsNone, gl_SemanticsRelaxed);
        }
    }

}

shared uint s_ticket;      // the workgroup's first tile
shared uint s_next_ticket; // the tile after the current one
shared uint s_early_tail;

void onesweep_tile(uint tile, uint n, uint tail_index, uint early_tail, bool prefetched, bool take_next,
                   uint tiles);

void main() {
    use_push_constant_pass();
    clock_mark(0u);
    uint n = element_count();
    uint tiles = tiles_of(n);
    uint tail_index = 8u + pc.pass_index;
    // The tile id and a first reading of the tail in one round trip.
    if (gl_LocalInvocationIndex == 0u) {
        s_ticket = atomicAdd(U32AtomicRef(pc.scratch).v[pc.pass_index], 1u);
        s_early_tail = atomicLoad(U32AtomicRef(pc.scratch).v[tail_index], gl_ScopeDevice,
                                  gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    }
    barrier();
    uint tile = s_ticket;
    uint early_tail = s_early_tail;
    clock_mark(1u);
    // Digit starts of this pass (exclusive scan of the upfront histogram).
    U32Ref digit_starts = U32Ref(pc.scratch + SCRATCH_HISTOGRAMS + uint64_t(g_pass) * uint64_t(RADIX * 4u));
    for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        g_digit_prefix[j] = d < RADIX ? digit_starts.v[d] : 0u;
    }
    // Up to pc.tiles_per_block tiles per workgroup: after its look-back a tile takes the next
    // ticket and (32-bit keys) loads that tile's keys while it scatters. The ticket is taken
    // only once this tile's inclusive prefixes are published, so the tile holding the next
    // ticket is never left waiting on this workgroup's scatter for long; every tile waits only
    // on smaller tickets, all held by running workgroups: no deadlock.
    bool prefetched = false;
    for (uint round = 0u; round < pc.tiles_per_block && tile < tiles; ++round) {
        bool take_next = round + 1u < pc.tiles_per_block;
        onesweep_tile(tile, n, tail_index, early_tail, prefetched, take_next, tiles);
        tile = take_next ? s_next_ticket : tiles;
        barrier(); // everyone has read s_next_ticket before the next round overwrites it
        prefetched = true;
    }
}

// One tile of the pass (see main).
void onesweep_tile(uint tile, uint n, uint tail_index, uint early_tail, bool prefetched, bool take_next,
                   uint tiles) {
    uint start = tile * TILE_KEYS;
    uint valid = min(TILE_KEYS, n - start);
    g_tile = tile;
    g_early_tail = early_tail;
    g_tail_index = tail_index;
    rank_tile(start, valid, g_pass, prefetched);
    clock_mark(4u);


    U64AtomicRef ring = U64AtomicRef(pc.scratch + SCRATCH_RING);
    uint seq = pc.pass_index * pc.max_tiles + tile;
    uint slot = (seq % RING_TILES) * RADIX;

    // Decoupled look-back, one digit per invocation (several when WG_SIZE < RADIX), inside a
    // workgroup-uniform loop that ends when no digit is pending.
    uint prefix[DIGITS_PER_THREAD];
    int look[DIGITS_PER_THREAD];
    uint spins[DIGITS_PER_THREAD];
    bool done[DIGITS_PER_THREAD];
    for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        prefix[j] = 0u;
        look[j] = int(tile) - 1;
        spins[j] = 0u;
        done[j] = tile == 0u || owned_digit(j) >= RADIX;
    }
    if (gl_LocalInvocationIndex == 0u) {
        s_pending[0] = 0u;
        s_pending[1] = 0u;
        s_fallback[0] = -1;
        s_fallback[1] = -1;
    }
    barrier();
    uint parity = 0u;
    uint rounds = 0u;
    uint fallbacks = 0u;
    while (true) {
        rounds += 1u;
        bool pending = false;
        int stalled = -1;
        for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            // Read a window of predecessors at once (independent loads, one latency), then
            // consume it from the nearest: add published counts, stop at an inclusive prefix or
            // at a predecessor that has not published yet.
            if (done[j]) {
                continue;
            }
            uint base_seq = pc.pass_index * pc.max_tiles;
            uint64_t window[LOOKBACK_WINDOW];
            for (uint w = 0u; w < LOOKBACK_WINDOW; ++w) {
                int idx = look[j] - int(w);
                window[w] = idx < 0 ? 0ul
                    : atomicLoad(ring.v[((base_seq + uint(idx)) % RING_TILES) * RADIX + owned_digit(j)],
                                 gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
            }
            for (uint w = 0u; w < LOOKBACK_WINDOW && !done[j]; ++w) {
                uint want = base_seq + uint(look[j]);
                uint64_t e = window[w];
                uint tag = uint(e >> 34);
                uint flag = uint(e >> 32) & 3u;
                if (tag == want && flag != 0u) {
                    prefix[j] += uint(e);
                    spins[j] = 0u;
                    look[j] -= 1;
                    done[j] = flag == FLAG_INCLUSIVE || look[j] < 0;
                } else {
                    // Not yet published, or already overwritten (only the fallback helps).
                    spins[j] = tag > want ? SPIN_LIMIT : spins[j] + 1u;
                    break;
                }
            }
            if (!done[j]) {
                pending = true;
                if (spins[j] >= SPIN_LIMIT) {
                    stalled = max(stalled, look[j]);
                }
            }
        }
        if (pending) {
            atomicOr(s_pending[parity], 1u);
        }
        if (gl_LocalInvocationIndex == 0u) {
            // The tail, read along with the look-back: usually the last reading already lets
            // this tile count itself in below without another round trip.
            s_tail_seen = atomicLoad(U32AtomicRef(pc.scratch).v[tail_index], gl_ScopeDevice,
                                     gl_StorageSemanticsNone, gl_SemanticsRelaxed);
        }
        if (stalled >= 0) {
            atomicMax(s_fallback[parity], stalled);
        }
        barrier();
        bool any_pending = s_pending[parity] != 0u;
        int fallback = s_fallback[parity];
        if (gl_LocalInvocationIndex == 0u) {
            s_pending[parity ^ 1u] = 0u;
            s_fallback[parity ^ 1u] = -1;
        }
        barrier();
        parity ^= 1u;
        if (!any_pending) {
            break;
        }
        if (fallback >= 0) {
            fallbacks += 1u;
            // Count the silent predecessor's digits ourselves (it is a full tile: only the last
            // tile is partial).
            for (uint i = gl_LocalInvocationIndex; i < RADIX; i += WG_SIZE) {
                s_fallback_hist[i] = 0u;
            }
            barrier();
            KeyRef keys = KeyRef(g_keys_in);
            for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
                uint idx = uint(fallback) * TILE_KEYS + i * WG_SIZE + gl_LocalInvocationIndex;
                atomicAdd(s_fallback_hist[key_digit(keys.v[idx], g_pass)], 1u);
            }
            barrier();
            for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
                if (!done[j] && look[j] == fallback) {
                    prefix[j] += s_fallback_hist[owned_digit(j)];
                    look[j] -= 1;
                    spins[j] = 0u;
                    done[j] = look[j] < 0;
                }
            }
            barrier();
        }
    }
    if (tile > 0u) {
        for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            uint d = owned_digit(j);
            if (d < RADIX) {
                atomicStore(ring.v[slot + d], ring_entry(seq, FLAG_INCLUSIVE, prefix[j] + g_tile_count[j]),
                            gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
            }
        }
    }
    clock_mark(5u);
    count_event(0u, fallbacks);
    count_event(5u, rounds);
    // Tail iterator: the high bits advance in tile order, the low TAIL_BITS out of order.
    uint tail_spin = 0u;
    if ((s_tail_seen & TAIL_MASK) != (tile & TAIL_MASK)) {
        for (; tail_spin < WAIT_LIMIT; ++tail_spin) {
            if ((read_tail(tail_index) & TAIL_MASK) == (tile & TAIL_MASK)) {
                break;
            }
        }
    }
    count_event(2u, tail_spin == WAIT_LIMIT ? 1u : 0u);
    count_event(4u, tail_spin);
    clock_mark(6u);
    if (gl_LocalInvocationIndex == 0u) {
        atomicAdd(U32AtomicRef(pc.scratch).v[tail_index], 1u);
        if (take_next) {
            s_next_ticket = atomicAdd(U32AtomicRef(pc.scratch).v[pc.pass_index], 1u);
        }
    }

    for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        if (d < RADIX) {
            s_digit_offset[d] = g_digit_prefix[j] + prefix[j] - s_local_start[d];
        }
    }
    barrier();
#ifdef PREFETCH_KEYS
    // The next tile's keys travel while this tile scatters.
    uint next = take_next ? s_next_ticket : tiles;
    KEY_T next_keys[KEYS_PER_THREAD];
    if (next < tiles) {
        uint next_start = next * TILE_KEYS;
        uint next_valid = min(TILE_KEYS, n - next_start);
        KeyRef keys = KeyRef(g_keys_in);
        for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            uint idx = key_index_in_tile(i);
            next_keys[i] = idx < next_valid ? keys.v[next_start + idx] : KEY_T(0);
        }
    }
#endif
    scatter_tile(start, valid);
#ifdef PREFETCH_KEYS
    if (next < tiles) {
        for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            s_prefetch[key_index_in_tile(i)] = next_keys[i];
        }
    }
#endif
    clock_mark(7u);
}
