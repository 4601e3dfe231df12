#version 460
// One Onesweep digit pass (Adinets & Merrill 2022): rank a tile, find the tile's global offset
// per digit by decoupled look-back (Merrill & Garland 2016), scatter. One tile per workgroup;
// tiles are numbered by an atomic counter, so a tile only waits on tiles whose workgroups have
// already started.
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
// No wait can hang: every wait is bounded, and its loop is uniform over the subgroup that runs
// it (no invocation waits on another invocation of its own workgroup). A digit whose
// predecessor stays silent for SPIN_LIMIT polls (or whose entry was already overwritten) gets
// that predecessor's count by counting the predecessor's keys itself (the "Decoupled Fallback"
// of Smith, Levien & Owens, SPAA 2025); the tail and ring waits simply give up after their
// bound, which costs speed, never correctness, because entries are tagged.
//
// Per tile: six barriers (ticket, counts, digit scan, ranks, stage, look-back); the tile is
// staged in shared memory before the look-back. Where the values (pairs) are loaded, for each
// key width at its large-sort tuning (docs/tuning/sort.md#values-load-point):
// - 4-byte keys: after the look-back, so no register holds them while it waits, and once the
//   last round of keys is staged (write_staged_keys), so keys and values never hold registers
//   at once.
// - 8-byte keys (the same workgroups per SM either way): before the look-back.
#if KEY_BITS == 64
#define VALUES_LOADED_EARLY
#endif
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_shader_subgroup_vote : require
#ifdef SORT_CLOCK
// Diagnostics permutation: invocation 0 adds the cycles (/16) each phase of a tile took to
// event counters 8..13 (phases: ticket, key loads + ballots, counter updates, digit scan +
// ranks + staging, look-back, scatter).
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
#define BEFORE_COUNTS_BARRIER_HOOK
void before_counts_barrier();
// The tile's global writes call before_last_write_round() once, before their last round.
#define LAST_WRITE_ROUND_HOOK
void before_last_write_round();
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

// Workgroups in flight: counter 14 counts the running ones, counter 15 keeps the most seen.
void count_in_flight(int change) {
    if (gl_LocalInvocationIndex == 0u) {
        U32AtomicRef stats = U32AtomicRef(pc.scratch + SCRATCH_STATS);
        uint before = atomicAdd(stats.v[14], uint(change));
        if (change > 0) {
            atomicMax(stats.v[15], before + 1u);
        }
    }
}
#else
#define count_in_flight(change)
#endif

// The ring holds RING_TILES tiles (generated/sort.glsl). A look-back walks at most RING_LOOKBACK tiles back before an
// overwritten entry can meet it (it then counts the predecessor itself); in practice it walks
// far fewer. The tail's low TAIL_BITS bits advance out of order: a tile increments it at once
// when every tile of the earlier groups of 2^TAIL_BITS tiles is done. Groups of 256 tiles,
// about as many as a large GPU runs at once, so the tail rarely holds a tile back
// (docs/tuning/sort.md#ring-tail).
#define RING_LOOKBACK 256u
#define TAIL_BITS 8u
#define TAIL_MASK (0xFFFFFFFFu << TAIL_BITS)
#define FLAG_AGGREGATE 1u
#define FLAG_INCLUSIVE 2u
// (Test mode SPIN_LIMIT 0 waits as 1 does; a specialization-constant expression.)
#define WAIT_LIMIT (SPIN_LIMIT == 0u ? 16u : SPIN_LIMIT * 16u)
// Predecessor entries one invocation reads at once per look-back step
// (docs/tuning/sort.md#lookback-window).
#define LOOKBACK_WINDOW 4u

shared uint s_ticket;
shared uint s_early_tail;
shared int s_fallback;
// A silent predecessor's digit counts (look-back fallback). Shares s_digit_offset's memory:
// that is written only once the look-back is over.
#define s_fallback_hist s_digit_offset

// Event counters in scratch (one atomic per tile and event kind), read by the benchmark to
// explain timings: 0 fallbacks, 1 ring-wait timeouts, 2 tail-wait timeouts, 3 ring-wait polls,
// 4 tail-wait polls, 5 look-back steps (of invocation 0); SORT_CLOCK builds: 6 steps of
// invocation 0 without progress, 7 predecessors invocation 0 added.
void count_event(uint which, uint amount) {
    if (gl_LocalInvocationIndex == 0u && amount != 0u) {
        atomicAdd(U32AtomicRef(pc.scratch + SCRATCH_STATS).v[which], amount);
    }
}

uint64_t ring_entry(uint seq, uint flag, uint value) {
    return (uint64_t(seq) << 34) | (uint64_t(flag) << 32) | uint64_t(value);
}

uint read_tail(uint index) {
    return atomicLoad(U32AtomicRef(pc.scratch).v[index], gl_ScopeDevice, gl_StorageSemanticsNone,
                      gl_SemanticsRelaxed);
}

// Subgroup 0 polls the tail (bounded) until `done(tail)`; returns the polls. Call from control
// flow uniform over subgroup 0.
#define WAIT_FOR_TAIL(index, condition, polls)                                    \
    {                                                                             \
        polls = 0u;                                                               \
        for (; polls < WAIT_LIMIT; ++polls) {                                     \
            uint tail = subgroupBroadcastFirst(subgroupElect() ? read_tail(index) : 0u); \
            if (condition) {                                                      \
                break;                                                            \
            }                                                                     \
        }                                                                         \
    }

uint g_tile;
uint g_seq;
uint g_tail_index;
uint g_tail_loaded; // invocation 0: the tail read at the start, in flight while the tile ranks

// Invocation 0 shares the tail read at the start (its load had the ranking to arrive).
void before_counts_barrier() {
    if (gl_LocalInvocationIndex == 0u) {
        s_early_tail = g_tail_loaded;
    }
}

// Subgroup 0 reads the tail again before the tile's last round of writes, so the read is in
// flight during that round and the tail test at the end of the tile rarely waits for a load.
// The workgroup holds its SM slot until that test passes. Read right after the look-back, the
// value would hold a register through the whole scatter (docs/tuning/sort.md#late-tail-read).
uint g_late_tail;
void before_last_write_round() {
    if (gl_SubgroupID == 0u) {
        g_late_tail = subgroupElect() ? read_tail(g_tail_index) : 0u;
    }
}

// Waits (bounded, rarely) for ring space, then publishes the tile's digit counts as aggregates
// (inclusive prefixes for tile 0). Called by rank_tile in uniform control flow.
void tile_counts_ready() {
    // Ring space: the slot's previous entry may still be read by tiles up to RING_LOOKBACK
    // after it; wait until the tail has passed them. The tail read at the start usually
    // says so already.
    if ((s_early_tail & TAIL_MASK) + (RING_TILES - RING_LOOKBACK) <= g_tile) {
        if (gl_SubgroupID == 0u) {
            uint polls;
            WAIT_FOR_TAIL(g_tail_index, (tail & TAIL_MASK) + (RING_TILES - RING_LOOKBACK) > g_tile, polls);
            count_event(1u, polls == WAIT_LIMIT ? 1u : 0u);
            count_event(3u, polls);
        }
        barrier();
    }
    U64AtomicRef ring = U64AtomicRef(pc.scratch + SCRATCH_RING);
    uint slot = (g_seq % RING_TILES) * RADIX;
    uint flag = g_tile == 0u ? FLAG_INCLUSIVE : FLAG_AGGREGATE;
    for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        if (d < RADIX) {
#ifdef SPLIT_BUCKETS
            // A successor that counted this tile's keys itself (look_back's fallback) may have
            // published its count here first (split_claim_count): it must be this tile's.
            uint64_t was = atomicExchange(ring.v[slot + d], ring_entry(g_seq, flag, g_tile_count[j]),
                                          gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
            if (uint(was >> 34) == g_seq && (uint(was >> 32) & 3u) == FLAG_AGGREGATE
                && uint(was) != g_tile_count[j]) {
                split_report_inconsistent();
            }
#else
            atomicStore(ring.v[slot + d], ring_entry(g_seq, flag, g_tile_count[j]), gl_ScopeDevice,
                        gl_StorageSemanticsNone, gl_SemanticsRelaxed);
#endif
        }
    }
}

#ifdef SPLIT_BUCKETS
// The Onesweep split's fallback: `counted` of a digit, counted from the keys of the predecessor
// whose sequence number is `seq` (its ring entry at `at`), is used only once it is that tile's
// published aggregate: installed here unless an entry of the tile is there already. Then the
// tile itself compares it with its own count when it publishes (tile_counts_ready), so a
// bucket function that answers differently in the two counts is reported whichever comes
// first. Returns whether the caller adds `counted`; else the tile's entry (or another
// successor's count) is there to be read by the look-back, compared here if an aggregate. An
// entry already overwritten by a later tile (only after a ring wait gave up) leaves the count
// unchecked.
bool split_claim_count(uint at, uint seq, uint counted) {
    U64AtomicRef ring = U64AtomicRef(pc.scratch + SCRATCH_RING);
    uint64_t e = atomicLoad(ring.v[at], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    for (uint attempt = 0u; attempt < 4u; ++attempt) {
        uint tag = uint(e >> 34);
        uint flag = uint(e >> 32) & 3u;
        if (tag == seq && flag != 0u) {
            if (flag == FLAG_AGGREGATE && uint(e) != counted) {
                split_report_inconsistent();
            }
            return false;
        }
        if (tag > seq) {
            return true;
        }
        uint64_t seen = atomicCompSwap(ring.v[at], e, ring_entry(seq, FLAG_AGGREGATE, counted),
                                       gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed,
                                       gl_StorageSemanticsNone, gl_SemanticsRelaxed);
        if (seen == e) {
            return true;
        }
        e = seen;
    }
    return true;
}
#endif

// Decoupled look-back over the ring: the exclusive prefix of each owned digit over the tiles
// before this one. Each digit walks back from the nearest predecessor, adding aggregates, until
// an inclusive prefix; a digit done publishes its own inclusive prefix at once. The steps run in
// a loop uniform over the subgroup; a digit stuck on a silent or overwritten predecessor leaves
// it, and the workgroup counts that predecessor's keys itself (uniform outer loop).
uint g_prefix[DIGITS_PER_THREAD];

// Publishes owned digit j's inclusive prefix (its exclusive prefix is complete).
void publish_inclusive(uint j) {
    atomicStore(U64AtomicRef(pc.scratch + SCRATCH_RING).v[(g_seq % RING_TILES) * RADIX + owned_digit(j)],
                ring_entry(g_seq, FLAG_INCLUSIVE, g_prefix[j] + g_tile_count[j]), gl_ScopeDevice,
                gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

void look_back() {
    U64AtomicRef ring = U64AtomicRef(pc.scratch + SCRATCH_RING);
    uint base_seq = g_seq - g_tile;
    int look[DIGITS_PER_THREAD];
    uint spins[DIGITS_PER_THREAD];
    bool pending[DIGITS_PER_THREAD];  // polling its predecessors
    bool finished[DIGITS_PER_THREAD]; // exclusive prefix known (neither: stalled)
    [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        g_prefix[j] = 0u;
        look[j] = int(g_tile) - 1;
        spins[j] = 0u;
        finished[j] = g_tile == 0u || owned_digit(j) >= RADIX;
        // Test mode (SPIN_LIMIT 0, SortTuning::lookback_spins = u32::MAX): no digit polls at
        // first; the nearest predecessor is counted by the workgroup itself (below), so the
        // fallback runs for every tile after the first, whatever the schedule.
        pending[j] = !finished[j] && SPIN_LIMIT != 0u;
    }
    bool force_first = SPIN_LIMIT == 0u && g_tile > 0u;
    uint steps = 0u;
    uint fallbacks = 0u;
    uint idle_steps = 0u;  // SORT_CLOCK: steps of invocation 0's digit without progress
    uint consumed = 0u;    // ... and predecessors it added
    while (true) {
        int stalled = force_first ? int(g_tile) - 1 : -1;
        force_first = false;
        bool any = false;
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            any = any || pending[j];
        }
        while (subgroupAny(any)) {
            steps += 1u;
            any = false;
            [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
                if (!pending[j]) {
                    continue;
                }
                uint d = owned_digit(j);
                // A window of predecessors at once (independent loads, one latency), consumed
                // from the nearest: add published counts, stop at an inclusive prefix or at a
                // predecessor that has not published yet.
                uint64_t window[LOOKBACK_WINDOW];
                [[unroll]] for (uint w = 0u; w < LOOKBACK_WINDOW; ++w) {
                    int idx = look[j] - int(w);
                    window[w] = idx < 0 ? 0ul
                        : atomicLoad(ring.v[((base_seq + uint(idx)) % RING_TILES) * RADIX + d],
                                     gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
                }
                bool done = false;
                bool progress = false;
                bool overwritten = false;
                [[unroll]] for (uint w = 0u; w < LOOKBACK_WINDOW && !done; ++w) {
                    uint want = base_seq + uint(look[j]);
                    uint64_t e = window[w];
                    uint tag = uint(e >> 34);
                    uint flag = uint(e >> 32) & 3u;
                    if (tag == want && flag != 0u) {
                        g_prefix[j] += uint(e);
                        look[j] -= 1;
                        consumed += 1u;
                        progress = true;
                        done = flag == FLAG_INCLUSIVE || look[j] < 0;
                    } else {
                        overwritten = tag > want;
                        break;
                    }
                }
                spins[j] = progress ? 0u : spins[j] + 1u;
                idle_steps += progress ? 0u : 1u;
                if (done) {
                    pending[j] = false;
                    finished[j] = true;
                    publish_inclusive(j);
                } else if (overwritten || spins[j] >= SPIN_LIMIT) {
                    pending[j] = false; // until the workgroup has counted the predecessor
                    stalled = max(stalled, look[j]);
                } else {
                    any = true;
                }
            }
        }
        if (stalled >= 0) {
            atomicMax(s_fallback, stalled);
        }
        barrier();
        int fallback = s_fallback;
        if (fallback < 0) {
            break; // every digit is done (uniform: nobody writes s_fallback until here)
        }
        // Count the silent predecessor's digits ourselves (a full tile: only the last tile is
        // partial), then resume every stalled digit.
        fallbacks += 1u;
        KeyRef keys = tile_keys_at(g_keys_in, uint(fallback) * TILE_KEYS);
        [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            atomicAdd(s_fallback_hist[stored_key_digit(keys.v[i * WG_SIZE + gl_LocalInvocationIndex])], 1u);
        }
        barrier();
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            if (finished[j]) {
                continue;
            }
            // Stalled: resume polling (a digit stalled on another silent tile stalls again
            // at once and is counted in a later round).
            pending[j] = true;
#ifdef SPLIT_BUCKETS
            if (look[j] == fallback
                && !split_claim_count((base_seq + uint(fallback)) % RING_TILES * RADIX + owned_digit(j),
                                      base_seq + uint(fallback), s_fallback_hist[owned_digit(j)])) {
                spins[j] = 0u; // the predecessor's entry is there: the look-back reads it
                continue;
            }
#endif
            if (look[j] == fallback) {
                g_prefix[j] += s_fallback_hist[owned_digit(j)];
                look[j] -= 1;
                spins[j] = 0u;
                if (look[j] < 0) {
                    pending[j] = false;
                    finished[j] = true;
                    publish_inclusive(j);
                }
            }
        }
        barrier();
        for (uint i = gl_LocalInvocationIndex; i < RADIX; i += WG_SIZE) {
            s_fallback_hist[i] = 0u;
        }
        if (gl_LocalInvocationIndex == 0u) {
            s_fallback = -1;
        }
        barrier();
    }
    count_event(0u, fallbacks);
    count_event(5u, steps);
#ifdef SORT_CLOCK
    count_event(6u, idle_steps);
    count_event(7u, consumed);
#endif
}

// A pass whose digit is the same in every key (CONSTANT_DIGIT_PASS) keeps every element where
// it is: the tile is copied to the same positions, keys in the form the next pass reads. Real
// keys often leave whole digits unused (small integers in 64-bit keys, Morton codes of fewer
// bits than the key); such a pass then costs a copy instead of a ranking and a look-back.
// The copy moves one element per invocation per iteration, the next one's load in flight, in a
// loop that is not unrolled, so it adds no registers to the kernel: its register count bounds
// how many workgroups the ranking path runs per SM (docs/tuning/sort.md#constant-digit-copy).
void copy_tile(uint tile_start, uint valid) {
    // Per-tile base addresses, indexed by the offset in the tile (64-bit addressing).
    KeyRef in_keys = tile_keys_at(g_keys_in, tile_start);
    KeyRef out_keys = tile_keys_at(g_keys_out, tile_start);
#if VALUE_WORDS > 0
    ValueRef in_values = value_at(g_values_in, tile_start);
    ValueRef out_values = value_at(g_values_out, tile_start);
#endif
    // Two elements in flight: the next one is loaded before the current one is stored.
    uint i = gl_LocalInvocationIndex;
    KEY_T next = i < valid ? in_keys.v[i] : KEY_T(0);
    [[dont_unroll]] for (; i < valid; i += WG_SIZE) {
        KEY_T key = next;
        next = i + WG_SIZE < valid ? in_keys.v[i + WG_SIZE] : KEY_T(0);
        out_keys.v[i] = output_key(ordered_input_key(key));
#if VALUE_WORDS > 0
        out_values.v[i] = in_values.v[i];
#endif
    }
}

void main() {
#ifdef SPLIT_BUCKETS
    // The Onesweep multisplit writes nothing once the histogram saw a bucket >= m (every
    // workgroup returns here, before taking a tile, so none waits on another).
    if (U32Ref(pc.split_status).v[0] != 0u) {
        return;
    }
    vkalgo_params = pc.params;
#endif
    use_push_constant_pass();
    clock_mark(0u);
    uint n = element_count();
    uint tiles = tiles_of(n);
    uint tail_index = 8u + pc.pass_index;
    g_tail_index = tail_index;
    if (gl_LocalInvocationIndex == 0u) {
        s_ticket = atomicAdd(U32AtomicRef(pc.scratch).v[pc.pass_index], 1u);
        g_tail_loaded = read_tail(tail_index);
        s_fallback = -1;
    }
    clear_digit_counters();
    for (uint i = gl_LocalInvocationIndex; i < RADIX; i += WG_SIZE) {
        s_fallback_hist[i] = 0u;
    }
    // Global digit starts of this pass (exclusive scan of the upfront histogram).
    U32Ref digit_starts = U32Ref(pc.scratch + SCRATCH_HISTOGRAMS + uint64_t(g_pass) * uint64_t(RADIX * 4u));
    uint digit_start[DIGITS_PER_THREAD];
#ifdef SPLIT_BUCKETS
    uint digit_end[DIGITS_PER_THREAD]; // the next digit's start (the last: the count)
#endif
    for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        digit_start[j] = d < RADIX ? digit_starts.v[d] : 0u;
#ifdef SPLIT_BUCKETS
        digit_end[j] = d + 1u < RADIX ? digit_starts.v[d + 1u] : n;
#endif
    }
    barrier();
    uint tile = s_ticket & ~CONSTANT_DIGIT_PASS;
    if (tile >= tiles) {
        return; // uniform: an indirect count below the plan's maximum
    }
    if ((s_ticket & CONSTANT_DIGIT_PASS) != 0u) {
        copy_tile(tile * TILE_KEYS, min(TILE_KEYS, n - tile * TILE_KEYS));
        return; // uniform: no look-back, so no tail to advance
    }
    g_tile = tile;
    g_seq = pc.pass_index * pc.max_tiles + tile;
    clock_mark(1u);
    count_in_flight(1);
    uint start = tile * TILE_KEYS;
    uint valid = min(TILE_KEYS, n - start);
    rank_tile(start, valid);
    stage_keys();
    clock_mark(4u);
#if VALUE_WORDS > 0 && defined(VALUES_LOADED_EARLY)
    load_tile_values(start, valid); // 8-byte keys: in flight during the look-back (header)
#endif
    look_back();
    [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        if (d < RADIX) {
            s_digit_offset[d] = digit_start[j] + g_prefix[j] - g_local_start[j];
#ifdef SPLIT_BUCKETS
            // The tile's part of the digit's range must lie in the range the histogram counted
            // (every tile's part ends inside it, the last at its end, unless some tile's
            // ranking gave the digit more keys than the count: then they are not written).
            bool fits = g_prefix[j] + g_tile_count[j] <= digit_end[j] - digit_start[j];
            set_split_run(d, fits ? g_local_start[j] | ((g_local_start[j] + g_tile_count[j]) << 16) : 0u);
            if (!fits) {
                split_report_inconsistent();
            }
#endif
        }
    }
    barrier();
    clock_mark(5u);
    write_staged_keys(start, valid); // 4-byte keys: loads the values (header)
#if VALUE_WORDS > 0
    scatter_values(valid);
#endif
    clock_mark(6u);
    count_in_flight(-1);
    // Tail iterator: the high bits advance in tile order, the low TAIL_BITS out of order.
    if (gl_SubgroupID == 0u) {
        uint polls = 0u;
        if ((subgroupBroadcastFirst(g_late_tail) & TAIL_MASK) != (tile & TAIL_MASK)) {
            WAIT_FOR_TAIL(tail_index, (tail & TAIL_MASK) == (tile & TAIL_MASK), polls);
        }
        count_event(2u, polls == WAIT_LIMIT ? 1u : 0u);
        count_event(4u, polls);
        if (subgroupElect()) {
            atomicAdd(U32AtomicRef(pc.scratch).v[tail_index], 1u);
        }
    }
}
