#version 460
#if defined(CARD_SUMS64) && CARD_SUMS64
#extension GL_EXT_shader_atomic_int64 : require
#endif
// The chunks of the work list, one workgroup at a time (grid-stride over the list): the
// operand chunks are expanded into two 8 KiB bitmaps in shared memory, combined with `op`,
// and counted. Stage (aux) 0 records the result's cardinality and the blocks it needs; stage 1
// (after the check pass, only when it found enough free blocks) writes the result as an array
// or a bitmap over the destination chunk's old blocks where they suffice.
// mode 0: second operand the chunk of set b; mode 1: the chunk's run of sorted values
// (scratch start/end); mode 2: the range [range_lo, range_hi); mode 3: no second operand
// (run_optimize: the chunk of a written again, through the bitmap path).
//
// Run chunks: this is the one kernel that reads them as operands (expanded into the shared
// bitmaps) or meets them as the destination's old chunk (classify.comp and boundaries.comp route
// every such chunk here), and the one that writes them: a result of a range, of run_optimize
// or of an operand run chunk is stored in the form result_form (set_common.glsl) picks from its
// cardinality and run count.
//
// Before its chunks, in set operations, each invocation counts or writes pairs of run chunks
// with few runs (run_pairs.glsl).
//
// FUSED_COUNT 1 (the permutation set_chunk_count): a cardinality-only operation in one pass
// over the directory instead of a work list (see its main below).
//
// MANY_WAY 1 (the permutation set_chunk_update_many, mode 4, src/set/many_op.rs): a many-way
// operation sets[0] op sets[1] op ... op sets[n - 1]. The first operand is sets[0] (meta_a);
// the second, sb, combines every other set's chunk (`count` device views at `values`, read
// through the public include, flat and packed alike): their intersection for AND, their
// symmetric difference for XOR, their union for OR and ANDNOT. Always the bitmap path.
//
// Sparse path (array_pair.glsl): when both operands are arrays (or empty, or a run of at most
// 4096 sorted values) and the result must be an array (AND, ANDNOT, or at most 4096 values
// together), the operands stay sorted u16 lists in sa and sb. Classify and boundaries list
// the pairs of at most PAIR_MEDIUM_VALUES values together for small_pairs.comp and array_pairs.comp instead, so
// only the larger ones come here.
//
// Shared memory: the two operand arrays and small tables, about 18.5 KiB, so that two
// workgroups share a multiprocessor (NVIDIA's Vulkan driver gives a multiprocessor's workgroups
// about 48 KiB together). A pair's work holds a chain of dependent round trips to memory (work
// list, directory entries, block headers, values, block rings), which the other workgroup's
// pair overlaps (docs/tuning/set.md#chunk-kernel-workgroup). An array result goes into sb (`so`):
// in the bitmap path sb is free once the operands are combined into sa; in the sparse path
// every kept element is placed in registers first (find_places), and the lists are
// overwritten only after a barrier.
#define WORKGROUP_SCAN_COMPACT_SLOTS
#define SET_RUN_CHUNKS
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"
#include "run_pairs.glsl"
#ifndef MANY_WAY
#define MANY_WAY 0
#endif
#if MANY_WAY
#include "../public/vkalgo_set.glsl"
#include "view_words.glsl"
#endif

#define KEEP_WORDS 128u

#ifndef FUSED_COUNT
#define FUSED_COUNT 0
#endif
// CARD_SUMS64 1 (with FUSED_COUNT, the permutation set_chunk_count_sums64, for devices with
// 64-bit buffer atomics): the workgroups' sums go into two 64-bit words with one atomic each
// instead of scratch slots, a count and the last workgroup's reads of the slots.
#ifndef CARD_SUMS64
#define CARD_SUMS64 0
#endif

shared uint sa[BITMAP_WORDS];
shared uint sb[BITMAP_WORDS];
shared uint s_card;
// The array result (u16 pairs, array_store.glsl) shares sb, see the header.
#define so sb
// Sparse path: kept-element masks of a and b (4096 bits each) and their per-word exclusive
// prefix counts; entry KEEP_WORDS (mask 0, prefix the total) answers for index 4096.
shared uint s_keep_a[KEEP_WORDS + 1u];
shared uint s_keep_b[KEEP_WORDS + 1u];
shared uint s_pre_a[KEEP_WORDS + 1u];
shared uint s_pre_b[KEEP_WORDS + 1u];
// The runs of an operand run chunk being expanded (load_chunk).
shared uint s_runs[RUN_MAX];

uint elem_a(uint j) { return (sa[j >> 1] >> ((j & 1u) * 16u)) & 0xFFFFu; }
uint elem_b(uint j) { return (sb[j >> 1] >> ((j & 1u) * 16u)) & 0xFFFFu; }

void store_list_word(uint which, uint j, uint word) {
    if (which == 0u) { sa[j] = word; } else { sb[j] = word; }
}

void or_bitmap_word(uint which, uint w, uint bits) {
    if (which == 0u) { atomicOr(sa[w], bits); } else { atomicOr(sb[w], bits); }
}

#include "array_pair.glsl"

// Kept elements an invocation places at most in the sparse path: its share of list a (at most
// ceil(4096 / WG_SIZE) elements), and of list b (unions and symmetric differences, whose lists
// hold at most 4096 values together there).
const uint PLACE_SLOTS = (ARRAY_MAX + WG_SIZE - 1u) / WG_SIZE;
uint g_placed[2u * PLACE_SLOTS];

// place_kept (array_pair.glsl) in two steps, for a result that overwrites the lists: every
// kept element's placement is found first, into g_placed (slot k of list `which` for element
// k of the invocation's share), while the lists are read; the caller then zeroes the
// result's words after a barrier and ORs them in with place_buffered.
void find_places(uint na, uint nb) {
    bool both = pc.op == OP_OR || pc.op == OP_XOR;
    for (uint which = 0u; which < 2u; which++) {
        uvec2 share = list_share(which == 0u ? na : (both ? nb : 0u));
        uint lb = 0u;
        [[unroll]] for (uint k = 0u; k < PLACE_SLOTS; k++) {
            uint j = share.x + k;
            uint placed = NO_PLACE;
            if (j < share.y) {
                placed = kept_placement(which, j, share.x, which == 0u ? nb : na, both, lb);
            }
            g_placed[which * PLACE_SLOTS + k] = placed;
        }
    }
}

// ORs the elements find_places found into so (whose first (card + 1) / 2 words are zero).
void place_buffered() {
    [[unroll]] for (uint k = 0u; k < 2u * PLACE_SLOTS; k++) {
        place_packed(g_placed[k]);
    }
}

// Expands chunk c of the set at `meta` into sa (which == 0) or sb (which == 1).
void load_chunk(uint64_t meta, uint c, uint which) {
    uvec2 e = dir_entry(meta, c);
    uint t = gl_LocalInvocationIndex;
    uint r = chunk_runs(e.x);
    if (r != 0u) {
        // Each bitmap word ORs the masks of the (at most RUN_MAX) runs.
        for (uint i = t; i < r; i += WG_SIZE) {
            s_runs[i] = chunk_run_word(meta, e, i);
        }
        barrier();
        for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
            uint bits = 0u;
            for (uint i = 0u; i < r; i++) {
                uint run = s_runs[i];
                bits |= range_mask(w, run & 0xFFFFu, (run >> 16) + 1u);
            }
            if (which == 0u) { sa[w] = bits; } else { sb[w] = bits; }
        }
        barrier();  // s_runs is read before the next operand's runs replace it
        return;
    }
    if (e.x > ARRAY_MAX && e.x < FULL) {
        for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
            uint x = U32Ref(bitmap_word_addr(meta, e.y, w)).v[0];
            if (which == 0u) { sa[w] = x; } else { sb[w] = x; }
        }
        return;
    }
    uint fill = e.x == FULL ? 0xFFFFFFFFu : 0u;
    for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
        if (which == 0u) { sa[w] = fill; } else { sb[w] = fill; }
    }
    if (e.x == 0u || e.x == FULL) {
        return;
    }
    barrier();
    load_list(meta, e, which, true);
}

#if MANY_WAY

// The view of the (i + 1)-th set of a many-way operation.
VkalgoSetView rest_view(uint i) {
    return view_at(pc.values, i);
}

#define MANY_UNION_ACC sb
#define MANY_UNION_VIEW(i) rest_view(i)
#include "many_union.glsl"

// sb = chunk c of every set after the first, combined (see the header); sa is overwritten (an
// array chunk's bitmap under AND). Returns whether one of them is a run chunk. Unions take
// every set side by side (many_union.glsl), intersections one set at a time.
// Workgroup-uniform: each decision comes from a directory entry every invocation reads alike.
bool combine_rest(uint c) {
    uint t = gl_LocalInvocationIndex;
    if (pc.op != OP_AND) {
        return many_union(c, 0u, pc.count, pc.op == OP_XOR, 0u, BITMAP_WORDS);
    }
    for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
        sb[w] = 0xFFFFFFFFu;
    }
    barrier();
    bool any_run = false;
    for (uint i = 0u; i < pc.count; ++i) {
        VkalgoSetView s = rest_view(i);
        uvec2 e = vkalgo_set_entry(s, c);
        uint card = e.x & VKALGO_SET_CARD_MASK;
        uint runs = e.x >> VKALGO_SET_RUN_SHIFT;
        any_run = any_run || runs != 0u;
        if (runs == 0u && card != 0u && card <= VKALGO_SET_ARRAY_MAX) {
            // An array: its values into sa as a bitmap, then sb &= sa.
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                sa[w] = 0u;
            }
            barrier();
            for (uint j = t; j < card; j += WG_SIZE) {
                uint v = vkalgo_set_array_value(s, e.y, card, j);
                atomicOr(sa[v >> 5], 1u << (v & 31u));
            }
            barrier();
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                sb[w] &= sa[w];
            }
        } else {
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                uint x = card == 0u ? 0u
                       : (runs != 0u ? view_run_word(s, e, runs, w)
                       : (card == VKALGO_SET_FULL ? 0xFFFFFFFFu : vkalgo_set_bitmap_word(s, e, w)));
                sb[w] &= x;
            }
        }
        barrier();
    }
    return any_run;
}
#endif

// The first (set bits whose lower neighbour is clear) and last (whose upper neighbour is
// clear) values of the runs of the result bitmap sa in its word w.
uint run_starts_in(uint w) {
    uint x = sa[w];
    uint below = w == 0u ? 0u : sa[w - 1u] >> 31;
    return x & ~((x << 1) | below);
}

uint run_ends_in(uint w) {
    uint x = sa[w];
    uint above = w + 1u < BITMAP_WORDS ? sa[w + 1u] & 1u : 0u;
    return x & ~((x >> 1) | (above << 31));
}

// The runs of the result bitmap sa (workgroup-uniform).
uint count_runs() {
    uint mine = 0u;
    for (uint w = gl_LocalInvocationIndex; w < BITMAP_WORDS; w += WG_SIZE) {
        mine += bitCount(run_starts_in(w));
    }
    return workgroup_reduce_add(mine);
}

// Writes the r (<= RUN_MAX) runs of the result bitmap sa into so as run words (first | last <<
// 16), ascending. Invocation t owns bitmap words [t * per, (t + 1) * per): one scan of its
// first and last values (packed counts, each below 2^16) gives their places.
void runs_to_words(uint r) {
    uint t = gl_LocalInvocationIndex;
    for (uint i = t; i < r; i += WG_SIZE) {
        so[i] = 0u;
    }
    barrier();
    uint per = BITMAP_WORDS / WG_SIZE;
    uint base_w = t * per;
    uint mine = 0u;
    for (uint w = base_w; w < base_w + per; w++) {
        mine += bitCount(run_starts_in(w)) | (bitCount(run_ends_in(w)) << 16);
    }
    uint total;
    uint p = workgroup_exclusive_scan(mine, total);
    uint first = p & 0xFFFFu;
    uint last = p >> 16;
    for (uint w = base_w; w < base_w + per; w++) {
        uint starts = run_starts_in(w);
        uint ends = run_ends_in(w);
        while (starts != 0u) {
            atomicOr(so[first++], w * 32u + uint(findLSB(starts)));
            starts &= starts - 1u;
        }
        while (ends != 0u) {
            atomicOr(so[last++], (w * 32u + uint(findLSB(ends))) << 16);
            ends &= ends - 1u;
        }
    }
    barrier();
}

#if !FUSED_COUNT
void main() {
    set_begin();
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_WORK_COUNT];
    // Loaded with n, not after the check below: a round trip more would slow every launch with
    // nothing to do (docs/tuning/set.md#chunk-kernel-idle-launch).
    uint n_runs = pc.mode == 0u ? U32Ref(pc.scratch).v[S_RUN_PAIR_COUNT] : 0u;
    bool write = pc.aux == 1u;
    if (write ? U32Ref(pc.scratch).v[S_OK] == 0u : one_pass(pc.scratch, pc.meta_d)) {
        return;  // nothing to write, or nothing to count (the one-pass path)
    }
    PassSums sums = pass_sums_new();  // invocation 0's
    ArrayPool dest = write_pool(write);
    if (n_runs != 0u) {
        // The pairs of run chunks (run_pairs.glsl), one an invocation, before the workgroup's
        // chunks.
        PassSums run_sums = pass_sums_new();
        RunPairPools pools = run_pair_pools();
        for (uint i = linear_workgroup_id() * WG_SIZE + t; i < n_runs; i += pc.grid * WG_SIZE) {
            uint c = U32Ref(pc.scratch).v[S_RUN_PAIRS_ENTRY(i)];
            if (write) {
                run_pair_write(c, pools, dest);
            } else {
                run_pair_count(c, pools, run_sums);
            }
        }
        if (!write) {
            // Counting adds cardinalities and array blocks only (run pairs take no bitmap).
            run_sums.card_partial = subgroup_sum(run_sums.card_partial);
            run_sums.card_full = subgroup_sum(run_sums.card_full);
            run_sums.need_ar = subgroup_sum(run_sums.need_ar);
            if (subgroupElect()) {
                pass_sums_flush(run_sums);
            }
        }
    }
    for (uint item = linear_workgroup_id(); item < n; item += pc.grid) {
        uint c = U32Ref(pc.scratch).v[S_WORK + item];
        uvec2 old_d = write ? dir_entry(pc.meta_d, c) : uvec2(0u);
        uvec2 ea = dir_entry(pc.meta_a, c);
        uvec2 eb = uvec2(0u);
        uint start = 0u;
        uint end = 0u;
        bool b_sparse = false;
        if (pc.mode == 0u) {
            eb = dir_entry(pc.meta_b, c);
            b_sparse = eb.x <= ARRAY_MAX;
        } else if (pc.mode == 1u) {
            start = U32Ref(pc.scratch).v[S_START + c];
            end = U32Ref(pc.scratch).v[S_END + c];
            eb.x = end - start;
            b_sparse = eb.x <= ARRAY_MAX;
        }
        // (A run chunk's entry is above ARRAY_MAX: it takes the bitmap path.)
        bool sparse = MANY_WAY == 0 && ea.x <= ARRAY_MAX && b_sparse
                   && (pc.op == OP_AND || pc.op == OP_ANDNOT || ea.x + eb.x <= ARRAY_MAX);
        bool rest_runs = false;
        barrier();
        uint card;
        if (sparse) {
            load_list(pc.meta_a, ea, 0u, false);
            if (pc.mode == 0u) {
                load_list(pc.meta_b, eb, 1u, false);
            } else {
                load_run_list(start, eb.x);
            }
            barrier();
            card = mark_kept(ea.x, eb.x);
        } else {
#if MANY_WAY
            rest_runs = combine_rest(c);
            load_chunk(pc.meta_a, c, 0u);
#else
            load_chunk(pc.meta_a, c, 0u);
            if (pc.mode == 0u) {
                load_chunk(pc.meta_b, c, 1u);
            } else if (pc.mode == 1u || pc.mode == 3u) {
                for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                    sb[w] = 0u;
                }
                barrier();
                // Each invocation takes consecutive values of the sorted run (gather_bit);
                // mode 3 has none (end = start = 0).
                uvec2 share = list_share(end - start);
                uint bitmap_w = 0u;
                uint bits = 0u;
                for (uint i = start + share.x; i < start + share.y; i++) {
                    gather_bit(1u, U32Ref(u32_addr(pc.values, i)).v[0] & 0xFFFFu, bitmap_w, bits);
                }
                gathered_bits_flush(1u, bitmap_w, bits);
            } else {
                uint64_t c0 = uint64_t(c) << 16;
                uint lo = uint(clamp(pc.range_lo, c0, c0 + 65536ul) - c0);
                uint hi = uint(clamp(pc.range_hi, c0, c0 + 65536ul) - c0);
                for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                    sb[w] = range_mask(w, lo, hi);
                }
            }
#endif
            if (t == 0u) {
                s_card = 0u;
            }
            barrier();
            uint cnt = 0u;
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                uint r = apply_op(pc.op, sa[w], sb[w]);
                sa[w] = r;
                cnt += bitCount(r);
            }
            atomicAdd(s_card, cnt);
            barrier();
            card = s_card;
        }
        // The result's form: by result_form where runs may come (a range, run_optimize, or
        // an operand that is a run chunk, as CRoaring's run containers beget run containers),
        // else by its cardinality alone (the sparse path's results are arrays). A
        // cardinality-only operation needs no form.
        // (Modes 2 and 3 take a word of one run: results of ranges and run_optimize may run.)
        uint run_bits = pc.mode == 0u ? ea.x | eb.x : (pc.mode == 1u ? ea.x : 1u << RUN_SHIFT);
        if (MANY_WAY != 0) {
            run_bits = ea.x | (rest_runs ? 1u << RUN_SHIFT : 0u);
        }
        bool may_run = !sparse && chunk_runs(run_bits) != 0u;
        uint runs = 0u;
        if (may_run && card != 0u && card != FULL && pc.aux != 2u) {
            runs = count_runs();
        }
        uint form = result_form(card, runs);
        runs = chunk_runs(form);
        uvec2 need = entry_blocks(form);
        if (!write) {
            if (t == 0u) {
                pass_sums_count_form(sums, form);
            }
            continue;
        }
        // Write stage: the operands are in shared memory. The result goes over the old
        // chunk's blocks where they suffice: a bitmap over a bitmap, an array over the old
        // array blocks (set_common.glsl reuse_blocks_begin); the rest is taken or given back.
        bool bitmap_over_bitmap = need.x != 0u && entry_blocks(old_d.x).x != 0u;
        if (t == 0u) {
            if (bitmap_over_bitmap) {
                s_pos = old_d.y;
            } else if (need.x != 0u) {
                free_chunk_begin(old_d);
                s_pos = ring_id(POOL_BITMAP, take_blocks(POOL_BITMAP, 1u));
            } else {
                reuse_blocks_begin(old_d, need.y);
            }
        }
        barrier();
        uint id0 = 0u;
        if (need.x != 0u) {
            free_chunk_ids(old_d, dest);
            id0 = s_pos;
            for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
                U32Ref(bitmap_word_addr(pc.meta_d, id0, w)).v[0] = sa[w];
            }
        } else {
            for (uint b = t; b < reuse_blocks_end(old_d, need.y); b += WG_SIZE) {
                uint id = reuse_blocks_id(old_d, need.y, b, dest);
                if (b < need.y) {
                    s_ids[b] = id;
                }
            }
        }
        if (runs != 0u) {
            // Run words into so (sb, free in the bitmap path); one run lives in the entry.
            runs_to_words(runs);
            if (runs == 1u) {
                id0 = so[0];
            } else {
                store_array_result(2u * runs, need.y);
                id0 = s_ids[0];
            }
        } else if (need.y != 0u) {
            uint k = need.y;
            if (sparse) {
                find_places(ea.x, eb.x);
                barrier();  // every read of the lists is done: so (sb) may change
            }
            for (uint w = t; w < (card + 1u) / 2u; w += WG_SIZE) {
                so[w] = 0u;
            }
            barrier();
            if (sparse) {
                place_buffered();
            } else {
                // Compaction: invocation t owns bitmap words [t * per, (t + 1) * per).
                uint per = BITMAP_WORDS / WG_SIZE;
                uint base_w = t * per;
                uint mine = 0u;
                for (uint w = 0u; w < per; w++) {
                    mine += bitCount(sa[base_w + w]);
                }
                uint total;
                uint p = workgroup_exclusive_scan(mine, total);
                for (uint w = 0u; w < per; w++) {
                    uint bits = sa[base_w + w];
                    while (bits != 0u) {
                        uint b = uint(findLSB(bits));
                        bits &= bits - 1u;
                        uint v = (base_w + w) * 32u + b;
                        atomicOr(so[p >> 1], v << ((p & 1u) * 16u));
                        p++;
                    }
                }
            }
            barrier();
            store_array_result(card, k);
            id0 = s_ids[0];
        }
        if (t == 0u) {
            set_dir_entry(pc.meta_d, c, uvec2(form, id0));
            pass_sums_written(sums, old_d.x, card);
        }
    }
    if (t == 0u) {
        pass_sums_flush(sums);
    }
}
#else
// The cardinality of `op` of a and b in one pass over the directory, for operands with few
// bitmap and array blocks (src/set/record.rs picks it; clustered sets after run_optimize are
// mostly run chunks). The directory is taken in runs of ENTRY_RUN chunks: workgroup g takes
// runs g, g + grid, g + 2 grid, ... (pc.grid workgroups), each run by ENTRY_RUN neighbouring
// invocations, so that chunks which need the whole workgroup are spread over the workgroups
// even where they lie side by side, while a 32-byte sector of the directory is one load. The
// invocation of a chunk counts what the entries decide (set_common.glsl decided_cardinality,
// classify.comp's rules) and lists the others in shared memory: pairs of short lists (run
// chunks and arrays, at most COUNT_WALK_MAX intervals together) for a subgroup each, the rest
// (a bitmap, long arrays) for the whole workgroup, one after the other through the two shared
// bitmaps (count_collected). With CARD_SUMS64 each workgroup adds its sums into two 64-bit words of
// a's control block (see the tail below); otherwise its sums go to its own words of the
// scratch (S_WORK + 4 * workgroup: partial cardinality, full chunks, pairs read), and the
// workgroup that finishes last (a count in a's control block that is never
// reset, last_workgroup.glsl) adds them up into the status. So no counter is cleared first
// and nothing waits for another pass: one dispatch instead of the clear, classify and the four
// pair kernels, each of which costs its launch and barrier even with nothing to do. The 64-bit
// sums make the tail one round trip (docs/tuning/set.md#one-pass-sums64).
#include "../common/last_workgroup.glsl"

// pc.mode of the one pass: 0 (the sums through a's control block or the scratch, see the
// tail), or this: the status is zero before the dispatch and takes the sums directly.
#define CARD_INTO_ZEROED_STATUS 1u

// Neighbouring chunks one run of invocations takes (see above; WG_SIZE is 64 or more). With
// one chunk an invocation (runs of 1) a subgroup's loads of the entries touched 32 sectors each;
// with runs of 4, 8 sectors. Longer runs leave a contiguous range of bitmap chunks to few
// workgroups (docs/tuning/set.md#entry-runs).
const uint ENTRY_RUN = 4u;

shared uint s_listed[WG_SIZE];
shared uint s_listed_count;
// Pairs of short lists a round found (count_or_list), counted by count_collected: pair k's
// entries in sa[2k], sa[2k + 1] and sb[2k], sb[2k + 1] (free before the listed chunks).
shared uint s_walk_count;
shared uvec3 s_sums;

// A chunk as a sorted list of disjoint intervals (first | last << 16): a run chunk's runs, or
// an array's values (each an interval of one value). The pool's address is read once per
// set, so that an interval is one load (and an array's header id one more per block).
struct IntervalList {
    uint64_t pool;  // the set's array blocks
    uvec2 e;
    uint n;      // intervals
    uint h;      // an array's header words (0 for runs)
    bool array;  // values of an array chunk
    bool packed; // the set's directory is packed (its runs are words of the pool)
};

// Intervals of chunk entry e: its runs, or its values (an array), else ~0u (a bitmap, which
// has no short list).
uint interval_count(uvec2 e) {
    uint r = chunk_runs(e.x);
    uint card = chunk_card(e.x);
    return r != 0u ? r : card <= ARRAY_MAX ? card : 0xFFFFFFFFu;
}

IntervalList interval_list(uint64_t pool, uvec2 e, uint n, bool packed) {
    bool array = chunk_runs(e.x) == 0u;
    return IntervalList(pool, e, n, array ? header_words(chunk_card(e.x)) : 0u, array, packed);
}

uint interval_at(IntervalList l, uint i) {
    if (!l.array) {
        return l.n == 1u ? l.e.y : U32Ref(run_words_addr(l.pool, l.e.y, l.packed)).v[i];
    }
    uint w = l.h + i / 2u;
    uint blk = w / ARRAY_BLOCK_WORDS;
    uint id = blk == 0u ? l.e.y : U32Ref(pool_block(l.pool, l.e.y)).v[blk - 1u];
    uint word = U32Ref(pool_block(l.pool, id)).v[w % ARRAY_BLOCK_WORDS];
    uint v = (i & 1u) == 0u ? (word & 0xFFFFu) : (word >> 16);
    return v | (v << 16);
}

// Pairs of lists with at most this many intervals together are walked by a subgroup
// (count_collected); larger ones are counted through the shared bitmaps.
#define COUNT_WALK_MAX 512u

// Counts chunk c (entries ea, eb) where the entries decide it, else lists it: short lists for a
// subgroup, others for the whole workgroup (count_collected).
void count_or_list(uint op, uint c, uvec2 ea, uvec2 eb, inout PassSums sums, inout uint read_pairs) {
    uint card;
    if (decided_cardinality(op, ea, eb, card)) {
        pass_sums_count(sums, card);
        return;
    }
    read_pairs++;
    uint na = interval_count(ea);
    uint nb = interval_count(eb);
    if (na <= COUNT_WALK_MAX && nb <= COUNT_WALK_MAX - na) {
        uint k = atomicAdd(s_walk_count, 1u);
        sa[2u * k] = ea.x;
        sa[2u * k + 1u] = ea.y;
        sb[2u * k] = eb.x;
        sb[2u * k + 1u] = eb.y;
    } else {
        s_listed[atomicAdd(s_listed_count, 1u)] = c;
    }
}

// The values two interval lists share (a the one of more intervals), counted by the subgroup:
// each lane takes a contiguous share of a's intervals and walks b with two cursors (the one
// whose interval ends first moves on; both where they end together) from the first interval
// that ends at or after its share's first, found by binary search. The chain of dependent
// loads is a lane's share, not both lists whole.
uint subgroup_count_walk(IntervalList a, IntervalList b) {
    uint lanes = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint i = a.n * lane / lanes;
    uint end = a.n * (lane + 1u) / lanes;
    uint shared_values = 0u;
    if (i < end) {
        uint wa = interval_at(a, i);
        uint start_a = wa & 0xFFFFu;
        uint lo = 0u;
        uint hi = b.n;
        while (lo < hi) {
            uint mid = (lo + hi) >> 1;
            if ((interval_at(b, mid) >> 16) < start_a) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        uint j = lo;
        uint wb = j < b.n ? interval_at(b, j) : 0u;
        while (i < end && j < b.n) {
            uint first = max(wa & 0xFFFFu, wb & 0xFFFFu);
            uint last = min(wa >> 16, wb >> 16);
            shared_values += first <= last ? last - first + 1u : 0u;
            uint end_a = wa >> 16;
            uint end_b = wb >> 16;
            if (end_a <= end_b) {
                i++;
                wa = i < end ? interval_at(a, i) : 0u;
            }
            if (end_b <= end_a) {
                j++;
                wb = j < b.n ? interval_at(b, j) : 0u;
            }
        }
    }
    return subgroup_sum(shared_values);
}

// Counts what count_or_list listed this round, then empties both lists: the pairs of short
// lists (their entries in sa and sb) a subgroup a pair, then the other chunks one after the
// other through the two shared bitmaps. Workgroup-uniform control flow; begins and ends with a
// barrier.
void count_collected(uint op, RunPairPools pools, inout PassSums sums) {
    uint t = gl_LocalInvocationIndex;
    barrier();
    uint pairs = s_walk_count;
    uint listed = s_listed_count;
    for (uint k = gl_SubgroupID; k < pairs; k += gl_NumSubgroups) {
        uvec2 ea = uvec2(sa[2u * k], sa[2u * k + 1u]);
        uvec2 eb = uvec2(sb[2u * k], sb[2u * k + 1u]);
        IntervalList la = interval_list(pools.a, ea, interval_count(ea), dir_packed(pc.meta_a));
        IntervalList lb = interval_list(pools.b, eb, interval_count(eb), dir_packed(pc.meta_b));
        uint both = la.n >= lb.n ? subgroup_count_walk(la, lb) : subgroup_count_walk(lb, la);
        if (subgroupElect()) {
            pass_sums_count(sums, overlap_card(op, chunk_card(ea.x), chunk_card(eb.x), both));
        }
    }
    if (listed != 0u) {
        barrier();  // the walked pairs' entries are read: sa, sb are free
    }
    for (uint i = 0u; i < listed; i++) {
        uint lc = s_listed[i];
        load_chunk(pc.meta_a, lc, 0u);
        load_chunk(pc.meta_b, lc, 1u);
        barrier();
        uint bits = 0u;
        for (uint w = t; w < BITMAP_WORDS; w += WG_SIZE) {
            bits += bitCount(apply_op(op, sa[w], sb[w]));
        }
        uint pair_card = workgroup_reduce_add(bits);  // ends with a barrier: sa, sb are free
        if (t == 0u) {
            pass_sums_count(sums, pair_card);
        }
    }
    barrier();  // every invocation has read the counts and the walked entries
    if (t == 0u) {
        s_walk_count = 0u;
        s_listed_count = 0u;
    }
    barrier();
}

// Both operands packed (DIR_FORMS): the walk takes only the chunks the index groups' masks
// name (AND: both operands', ANDNOT: a's, OR and XOR: either's), not the 65536 entries,
// numbered in chunk order through each group's prefix in s_group_pre.
shared uint s_group_pre[DIR_GROUPS];

bool both_packed() {
    return (DIR_FORMS & (DIR_PACKED_A | DIR_PACKED_B)) == (DIR_PACKED_A | DIR_PACKED_B);
}

// Index group g of the packed set at `meta`: its mask (two words), the non-empty chunks before
// it, 0.
uvec4 index_group(uint64_t meta, uint g) {
    return VkalgoSetIndexRef(meta + META_DIR + uint64_t(g) * 16ul).v[0];
}

// The chunks of a group the walk counts, from the operands' masks.
uvec2 walk_mask(uint op, uvec4 ga, uvec4 gb) {
    if (op == OP_AND) {
        return ga.xy & gb.xy;
    }
    return op == OP_ANDNOT ? ga.xy : ga.xy | gb.xy;
}

// Entry of chunk 64g + i of a packed set whose group g is `gi` (uvec2(0): empty).
uvec2 packed_entry(uint64_t meta, uvec4 gi, uint i) {
    uint word = i < 32u ? gi.x : gi.y;
    uint bit = i & 31u;
    if (((word >> bit) & 1u) == 0u) {
        return uvec2(0u);
    }
    uint rank = gi.z + bitCount(word & ((1u << bit) - 1u)) + (i < 32u ? 0u : bitCount(gi.x));
    return UVec2Ref(meta + META_DIR + DIR_INDEX_BYTES + uint64_t(rank) * 8ul).v[0];
}

// Bit (0..63) of the k-th set bit of the 64-bit mask m (k below its count).
uint nth_set_bit(uvec2 m, uint k) {
    uint w = m.x;
    uint at = 0u;
    uint low_count = uint(bitCount(m.x));
    if (k >= low_count) {
        k -= low_count;
        w = m.y;
        at = 32u;
    }
    for (uint width = 16u; width > 0u; width >>= 1u) {
        uint low = uint(bitCount(w & ((1u << width) - 1u)));
        if (k >= low) {
            k -= low;
            w >>= width;
            at += width;
        }
    }
    return at;
}

// Fills s_group_pre with the exclusive prefix of each group's walked chunks; returns their
// total. Workgroup-uniform control flow; ends with a barrier.
uint walk_prefix(uint op) {
    uint t = gl_LocalInvocationIndex;
    uint per = max(DIR_GROUPS / WG_SIZE, 1u);
    uint first = t * per;
    uint mine = 0u;
    for (uint g = first; g < min(first + per, DIR_GROUPS); g++) {
        uvec2 m = walk_mask(op, index_group(pc.meta_a, g), index_group(pc.meta_b, g));
        mine += uint(bitCount(m.x) + bitCount(m.y));
    }
    uint total;
    uint before = workgroup_exclusive_scan(mine, total);
    for (uint g = first; g < min(first + per, DIR_GROUPS); g++) {
        s_group_pre[g] = before;
        uvec2 m = walk_mask(op, index_group(pc.meta_a, g), index_group(pc.meta_b, g));
        before += uint(bitCount(m.x) + bitCount(m.y));
    }
    barrier();
    return total;
}

// Counts or lists walked chunk j (below walk_prefix's total).
void walk_chunk(uint op, uint j, inout PassSums sums, inout uint read_pairs) {
    // The group: the last whose prefix is at most j (empty groups before it share its prefix).
    uint lo = 0u;
    uint hi = DIR_GROUPS;
    while (hi - lo > 1u) {
        uint mid = (lo + hi) >> 1;
        if (s_group_pre[mid] <= j) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    uvec4 ga = index_group(pc.meta_a, lo);
    uvec4 gb = index_group(pc.meta_b, lo);
    uint i = nth_set_bit(walk_mask(op, ga, gb), j - s_group_pre[lo]);
    uint c = lo * 64u + i;
    count_or_list(op, c, packed_entry(pc.meta_a, ga, i), packed_entry(pc.meta_b, gb, i), sums, read_pairs);
}

void main() {
    set_begin();
    uint t = gl_LocalInvocationIndex;
    uint op = pc.op;
    if (t == 0u) {
        s_listed_count = 0u;
        s_walk_count = 0u;
        s_sums = uvec3(0u);
    }
    PassSums sums = pass_sums_new();
    uint read_pairs = 0u;  // pairs of chunks whose values were read (the status's work chunks)
    RunPairPools pools = run_pair_pools();
    if (both_packed()) {
        uint chunks = walk_prefix(op);
        // Each round takes the next grid * WG_SIZE walked chunks: a batch deals them round-robin
        // among the job's workgroups, so that a small job's few listed chunks are counted side
        // by side; a single pair gives each workgroup WG_SIZE neighbouring ones.
        for (uint first = 0u; first < chunks; first += pc.grid * WG_SIZE) {
#ifdef SET_BATCH
            uint j = first + t * pc.grid + linear_workgroup_id();
#else
            uint j = first + linear_workgroup_id() * WG_SIZE + t;
#endif
            if (j < chunks) {
                walk_chunk(op, j, sums, read_pairs);
            }
            count_collected(op, pools, sums);
        }
    } else {
        // (grid and WG_SIZE are powers of two whose product divides CHUNKS, and ENTRY_RUN
        // divides WG_SIZE: c < CHUNKS, each chunk once.) Each round's entries are loaded a
        // round ahead, the first before the barrier.
        uint step = pc.grid * WG_SIZE;
        uint offset = ((t / ENTRY_RUN) * pc.grid + linear_workgroup_id()) * ENTRY_RUN + t % ENTRY_RUN;
        uvec2 next_a = dir_entry(pc.meta_a, offset);
        uvec2 next_b = dir_entry(pc.meta_b, offset);
        barrier();
        for (uint base = 0u; base < CHUNKS; base += step) {
            uint c = base + offset;
            uvec2 ea = next_a;
            uvec2 eb = next_b;
            if (base + step < CHUNKS) {
                next_a = dir_entry(pc.meta_a, c + step);
                next_b = dir_entry(pc.meta_b, c + step);
            }
            count_or_list(op, c, ea, eb, sums, read_pairs);
            count_collected(op, pools, sums);
        }
    }
    uvec3 mine = uvec3(subgroup_sum(sums.card_partial), subgroup_sum(sums.card_full), subgroup_sum(read_pairs));
    if (subgroupElect()) {
        atomicAdd(s_sums.x, mine.x);
        atomicAdd(s_sums.y, mine.y);
        atomicAdd(s_sums.z, mine.z);
    }
    barrier();
    if (pc.mode == CARD_INTO_ZEROED_STATUS) {
        // The status is zero before the dispatch (the host layer's batches zero theirs): each
        // workgroup adds its sums straight into it, and nothing in a's control block is used,
        // so that operations sharing a set run side by side.
        if (t == 0u) {
            U32AtomicRef o = U32AtomicRef(pc.out_addr);
            atomicAdd(o.v[5], s_sums.x);
            atomicAdd(o.v[6], s_sums.y);
            atomicAdd(o.v[7], s_sums.z);
            atomicExchange(o.v[0], 1u);
        }
        return;
    }
#if CARD_SUMS64
    // Each workgroup adds its sums and a count of one finished workgroup into two 64-bit words
    // of a's control block (META_CARD_SUMS, zero between operations) with one atomic each. The
    // workgroup whose count completes a word's grid has that word's totals in the value its
    // add returns: no other memory is read, so no fence or further round trip follows. The two
    // words may be completed by different workgroups; each writes its part of the status and
    // clears its word for the next operation (the dispatch's other adds are all before its own).
    if (t == 0u) {
        U64AtomicRef sums64 = U64AtomicRef(pc.meta_a + META_CARD_SUMS);
        uint64_t one_group = 1ul << CARD_SUMS_GROUP_SHIFT;
        uint64_t old_x = atomicAdd(sums64.v[0], uint64_t(s_sums.x) | one_group);
        uint64_t old_yz = atomicAdd(sums64.v[1], uint64_t(s_sums.y) | (uint64_t(s_sums.z) << 20) | one_group);
        U32Ref o = U32Ref(pc.out_addr);
        if (uint(old_x >> CARD_SUMS_GROUP_SHIFT) + 1u == pc.grid) {
            o.v[5] = uint(old_x) + s_sums.x;  // the partial cardinality is below 2^32
            atomicExchange(sums64.v[0], 0ul);
        }
        if (uint(old_yz >> CARD_SUMS_GROUP_SHIFT) + 1u == pc.grid) {
            o.v[0] = 1u;
            o.v[1] = 0u;
            o.v[2] = 0u;
            o.v[3] = 0u;
            o.v[4] = 0u;
            o.v[6] = (uint(old_yz) & 0xFFFFFu) + s_sums.y;
            o.v[7] = (uint(old_yz >> 20) & 0xFFFFFu) + s_sums.z;
            atomicExchange(sums64.v[1], 0ul);
        }
    }
#else
    // The slots are written and read with atomics: other workgroups' plain stores need not be
    // visible to the last one's loads.
    U32AtomicRef slot = U32AtomicRef(u32_addr(pc.scratch, S_WORK + 4u * linear_workgroup_id()));
    if (t == 0u) {
        atomicExchange(slot.v[0], s_sums.x);
        atomicExchange(slot.v[1], s_sums.y);
        atomicExchange(slot.v[2], s_sums.z);
    }
    if (!finished_last_of_round_in_first_subgroup(pc.meta_a + META_CARD_TICKET)) {
        return;
    }
    uvec3 total = uvec3(0u);
    for (uint g = gl_SubgroupInvocationID; g < pc.grid; g += gl_SubgroupSize) {
        U32AtomicRef other = U32AtomicRef(u32_addr(pc.scratch, S_WORK + 4u * g));
        total += uvec3(atomicAdd(other.v[0], 0u), atomicAdd(other.v[1], 0u), atomicAdd(other.v[2], 0u));
    }
    total = uvec3(subgroup_sum(total.x), subgroup_sum(total.y), subgroup_sum(total.z));
    if (subgroupElect()) {
        U32Ref o = U32Ref(pc.out_addr);
        o.v[0] = 1u;
        o.v[1] = 0u;
        o.v[2] = 0u;
        o.v[3] = 0u;
        o.v[4] = 0u;
        o.v[5] = total.x;
        o.v[6] = total.y;
        o.v[7] = total.z;
    }
#endif
}
#endif
