#version 460
// Small-N path, resident in shared memory: ONE workgroup sorts up to TILE_KEYS (= WG_SIZE x
// KEYS_PER_THREAD) elements in a single dispatch. The keys (and values) are read from global
// memory once, stay in registers through every digit pass, move between passes through shared
// memory only, and are written to global memory once, after the last pass, to the buffer the
// plan's result location names (pass_count even: keys_in / values_in, the caller's buffers;
// odd: keys_out / values_out, the alternates).
//
// The shape is that of CUB's single-tile sort (DeviceRadixSortSingleTileKernel: a BlockRadixSort
// over the whole input in registers, with a shared-memory exchange after each digit, and the
// result stored in a striped arrangement for coalesced writes), with the ranking of the tile
// kernels here (sort_common.glsl rank_in_subgroup: match ranking after Adinets & Merrill,
// "Onesweep", 2022, and Ashkiani et al., 2016) and 8-bit digits.
//
// Layout: the n elements spread over every subgroup: each subgroup owns a contiguous run of
// g_steps * subgroup size elements (g_steps = ceil(n / WG_SIZE) <= KEYS_PER_THREAD), lane l
// holding the run's elements i * subgroup size + l for i < g_steps. Ranking visits them in
// element order (subgroup, step, lane), so each pass is stable, and the critical path is
// ceil(n / WG_SIZE) ranking steps whatever the plan's maximum.
//
// Shared memory (one pool): the per-subgroup digit counters sit at the END of the pool, the
// stage (keys, then values where both fit at once) at its start. The pool holds either both
// (COUNTERS_APART: constant 5 = 2, where the plan finds room) or the larger of the two, the
// whole tile at max(key, value) words per element or the counters; a count whose stage leaves
// the counters alone skips the barriers that otherwise keep the two apart, and keeps its
// counters from pass to pass instead of clearing them (rank_held_keys).
//
// Every loop is bounded by a constant (KEYS_PER_THREAD, the counter rows) or by the pass count:
// no loop comes near lavapipe's cap on loop iterations per invocation.
#define RESIDENT_COUNTERS_APART
#include "sort_common.glsl"

// First word of the digit counters (HIST_ROWS rows of RADIX) in the pool.
const uint HIST_BASE = POOL_WORDS - HIST_WORDS;

// ALL_STEPS 1 (the `resident_all` permutation): the count uses every step of the geometry
// (g_steps = KEYS_PER_THREAD; the host checks: SortPlan::resident_all_steps), so ranking runs
// each step without testing it. The test's branch costs a MATCH instruction per step in
// NVIDIA's machine code, even on a value from the push constants
// (docs/tuning/sort.md#resident-all-steps).
#ifndef ALL_STEPS
#define ALL_STEPS 0
#endif

uint g_steps; // steps of each subgroup's run: ceil(count / WG_SIZE)

// Every slot of the steps used holds a key: the slots past the count hold PAD_KEY, the largest
// ordered key, which every pass ranks last in its digit's run (they follow every element in
// element order, and ranking is stable), so they stay at positions count and above and are
// never written out. Ranking, staging and reading back then test nothing per key (as CUB's
// single-tile sort pads its tile with the largest key).
const KEY_T PAD_KEY = ~KEY_T(0);

// The counters of this invocation's digits (owned_digit(j), row r at j * HIST_ROWS + r) when the
// pass's ranking starts: zero after a clear, else what the previous pass left (rank_held_keys).
uint g_counter_base[DIGITS_PER_THREAD * HIST_ROWS];

// Element index of this invocation's element i (i < g_steps).
uint resident_index(uint i) {
    return (gl_SubgroupID * g_steps + i) * tile_stride() + gl_SubgroupInvocationID;
}

// Whether step i is used: its slots hold the elements (or PAD_KEY). Workgroup-uniform.
bool step_used(uint i) {
#if ALL_STEPS
    return true;
#else
    return i < g_steps;
#endif
}

void stage_key(uint slot, KEY_T k) {
#if KEY_BITS == 64
    s_pool[2u * slot] = uint(k);
    s_pool[2u * slot + 1u] = uint(k >> 32);
#else
    s_pool[slot] = k;
#endif
}

KEY_T staged_key(uint slot) {
#if KEY_BITS == 64
    return uint64_t(s_pool[2u * slot]) | (uint64_t(s_pool[2u * slot + 1u]) << 32);
#else
    return s_pool[slot];
#endif
}

#if VALUE_WORDS > 0
void stage_value(uint base, uint slot, VALUE_T v) {
#if VALUE_WORDS == 2
    s_pool[base + 2u * slot] = uint(v);
    s_pool[base + 2u * slot + 1u] = uint(v >> 32);
#else
    s_pool[base + slot] = v;
#endif
}

VALUE_T staged_value(uint base, uint slot) {
#if VALUE_WORDS == 2
    return uint64_t(s_pool[base + 2u * slot]) | (uint64_t(s_pool[base + 2u * slot + 1u]) << 32);
#else
    return s_pool[base + slot];
#endif
}
#endif

// Zeroes the digit counters of every subgroup (the caller passes a barrier before ranking).
void clear_counters() {
    for (uint i = gl_LocalInvocationIndex; i < gl_NumSubgroups * RADIX; i += WG_SIZE) {
        s_pool[HIST_BASE + i] = 0u;
    }
    [[unroll]] for (uint i = 0u; i < DIGITS_PER_THREAD * HIST_ROWS; ++i) {
        g_counter_base[i] = 0u;
    }
}

// Ranks the held keys for the pass being run: afterwards get_rank(i) is each held key's
// position in the elements ordered by digit (stable). The counters must hold g_counter_base
// and be visible. Uniform control flow; three barriers (the last one before the ranks are
// complete).
//
// The counters need no clear between passes: each starts the pass at a base B its digit's
// owner knows, so the row's count is its end value - B, and its key ranks hold B + their place
// in the row. The owner then stores S - B, S the row's first position of the digit, which
// turns those ranks into S + place (16-bit ranks, modulo 2^16: positions stay below 2^16) and
// is the base the next pass starts from.
void rank_held_keys() {
    uint row = HIST_BASE + gl_SubgroupID * RADIX;
    uvec4 lanes = subgroupBallot(true);
    // Within the subgroup: each step's peers by digit (sort_common.glsl rank_in_subgroup).
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
        if (step_used(i)) {
            set_rank(i, rank_in_subgroup(pass_digit(g_keys[i]), true, lanes, row));
        }
    }
    barrier();
    // Per digit: the count over the subgroups' rows (each counter's end value - its base),
    // scanned over the digits; each row's counter becomes the row's first position of the
    // digit, less its base.
    uint counts[DIGITS_PER_THREAD];
    uint thread_total = 0u;
    [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        uint count = 0u;
        if (d < RADIX) {
            [[unroll]] for (uint r = 0u; r < HIST_ROWS; ++r) {
                count += r < gl_NumSubgroups
                    ? s_pool[HIST_BASE + r * RADIX + d] - g_counter_base[j * HIST_ROWS + r]
                    : 0u;
            }
        }
        counts[j] = count;
        thread_total += count;
    }
    uint start = digit_scan(thread_total);
    [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        if (d < RADIX) {
            uint running = start;
            [[unroll]] for (uint r = 0u; r < HIST_ROWS; ++r) {
                if (r < gl_NumSubgroups) {
                    uint base = g_counter_base[j * HIST_ROWS + r];
                    uint c = s_pool[HIST_BASE + r * RADIX + d] - base;
                    s_pool[HIST_BASE + r * RADIX + d] = running - base;
                    g_counter_base[j * HIST_ROWS + r] = running - base;
                    running += c;
                }
            }
        }
        start += counts[j];
    }
    barrier();
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
        if (step_used(i)) {
            set_rank(i, get_rank(i) + s_pool[row + pass_digit(g_keys[i])]); // modulo 2^16
        }
    }
}

void main() {
    uint n = element_count();
    if (n == 0u) {
        return; // an indirect count of 0 (workgroup-uniform)
    }
    // (n <= max_count <= TILE_KEYS: the plan takes this kernel only where its maximum fits.)
    g_steps = min((n + WG_SIZE - 1u) / WG_SIZE, KEYS_PER_THREAD);
    uint slots = g_steps * WG_SIZE; // the elements and their pads

    // The match table is zero between uses (rank_in_subgroup clears what it sets): once here.
    for (uint i = gl_LocalInvocationIndex; i < HIST_ROWS * MATCH_SLOTS; i += WG_SIZE) {
        s_match[i] = 0u;
    }
    clear_counters();
    [[unroll]] for (uint k = 0u; k < RANK_WORDS; ++k) {
        g_ranks[k] = 0u;
    }

    // The one read: one 64-bit address per invocation (its run's first element), element i a
    // constant distance i * subgroup size away (64-bit addressing: sort_common.glsl).
    uint first = resident_index(0u);
    KeyRef key_run = KeyRef(pc.keys_in + uint64_t(first) * uint64_t(KEY_BYTES));
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
        bool real = step_used(i) && resident_index(i) < n;
        g_keys[i] = real ? ordered_bits(key_run.v[i * tile_stride()]) : PAD_KEY;
    }
#if VALUE_WORDS > 0
    ValueRef value_run = ValueRef(pc.values_in + uint64_t(first) * uint64_t(VALUE_BYTES));
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
        bool real = step_used(i) && resident_index(i) < n;
        g_values[i] = real ? value_run.v[i * tile_stride()] : VALUE_T(0);
    }
#endif

    // Where the result goes (SortPlan::result_location): after an even number of passes the
    // caller's buffers, after an odd number the alternates.
    bool in_place = (pc.pass_count & 1u) == 0u;
    uint64_t keys_dst = in_place ? pc.keys_in : pc.keys_out;
    // Striped output: invocation lid writes elements j * WG_SIZE + lid (coalesced).
    KeyRef key_out = KeyRef(keys_dst + uint64_t(gl_LocalInvocationIndex) * uint64_t(KEY_BYTES));
#if VALUE_WORDS > 0
    uint64_t values_dst = in_place ? pc.values_in : pc.values_out;
    ValueRef value_out = ValueRef(values_dst + uint64_t(gl_LocalInvocationIndex) * uint64_t(VALUE_BYTES));
    // Keys and values through the stage at once where both fit the pool (with the counters
    // apart, where both leave the counters alone: staging in turns costs fewer barriers than a
    // stage over the counters, which then need a clear each pass), else in two turns.
    bool together = slots * (KEY_WORDS + VALUE_WORDS) <= (COUNTERS_APART ? HIST_BASE : POOL_WORDS);
    uint value_base = together ? slots * KEY_WORDS : 0u;
    uint stage_end = together ? slots * (KEY_WORDS + VALUE_WORDS) : slots * STAGE_WORDS;
#else
    uint stage_end = slots * KEY_WORDS;
#endif
    // Whether the stage reaches the digit counters: then barriers keep the two phases apart.
    bool overlap = stage_end > HIST_BASE;
    barrier(); // the cleared counters and the match table are visible

    for (uint pass = 0u; pass < pc.pass_count; ++pass) {
        select_pass(pass);
        bool last = pass + 1u == pc.pass_count;
        rank_held_keys();
        if (overlap) {
            barrier(); // every rank has read its counter before the stage overwrites them
        }
        [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
            if (step_used(i)) {
                stage_key(get_rank(i), g_keys[i]);
#if VALUE_WORDS > 0
                if (together) {
                    stage_value(value_base, get_rank(i), g_values[i]);
                }
#endif
            }
        }
        barrier();
        if (last) {
            [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
                uint p = j * WG_SIZE + gl_LocalInvocationIndex;
                if (j < g_steps && p < n) {
                    key_out.v[j * WG_SIZE] = raw_bits(staged_key(p));
#if VALUE_WORDS > 0
                    if (together) {
                        value_out.v[j * WG_SIZE] = staged_value(value_base, p);
                    }
#endif
                }
            }
        } else {
            [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
                if (step_used(i)) {
                    uint p = resident_index(i);
                    g_keys[i] = staged_key(p);
#if VALUE_WORDS > 0
                    if (together) {
                        g_values[i] = staged_value(value_base, p);
                    }
#endif
                }
            }
        }
#if VALUE_WORDS > 0
        if (!together) {
            barrier(); // every staged key has been read
            [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
                if (step_used(i)) {
                    stage_value(0u, get_rank(i), g_values[i]);
                }
            }
            barrier();
            if (last) {
                [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
                    uint p = j * WG_SIZE + gl_LocalInvocationIndex;
                    if (j < g_steps && p < n) {
                        value_out.v[j * WG_SIZE] = staged_value(0u, p);
                    }
                }
            } else {
                [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD; ++i) {
                    if (step_used(i)) {
                        g_values[i] = staged_value(0u, resident_index(i));
                    }
                }
            }
        }
#endif
        // Without overlap the counters go on to the next pass as they are (rank_held_keys).
        if (!last && overlap) {
            barrier(); // the stage has been read before the counters there are cleared
            clear_counters();
            barrier();
        }
    }
}
