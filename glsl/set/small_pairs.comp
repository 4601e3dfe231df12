#version 460
#if LIST16
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
// The small array pairs of an operation (scratch list S_PAIRS from the front, set_common.glsl
// pair_class): pairs of array (or empty) chunks, or a chunk and its run of sorted values, of
// at most PAIR_SMALL_VALUES values together, whose result is an array. Sparse sets are almost
// all such pairs (about 256 values each in 2^24 random values over [0, 2^32)). Each pair gets
// a small workgroup (one subgroup of 32 on GPUs) holding nothing but the two lists in shared
// memory (1.4 KiB), so that many pairs share a multiprocessor.
//
// Loads (mode 0, two chunks) are software-pipelined across a workgroup's pairs: while pair k
// is walked and written, pair k + 1's value words (16-byte vectors, in registers), pair
// k + 2's header words (the ids of its blocks 1..) and directory entries, and pair k + 3's
// list entry are in flight (chunk_pairs; docs/tuning/set.md#small-pairs-pipelined). Mode 1 (a
// chunk and a run of sorted
// values) loads the next pair's directory entries ahead, then each pair's words in one round.
//
// Each invocation takes one stretch of the merge of the two lists (ties: a first) and finds
// where it starts by one co-rank search (merge path: Green, McColl & Bader, "GPU merge path",
// ICS 2012). It walks its stretch once, branch-free with one shared load per step, keeping the
// elements in registers and deciding each from the lists' current heads and the element before
// it (see walk). An exclusive scan of the kept counts gives each invocation its first output
// position; the outputs are paired into words in shared memory (the lists' place) and stored
// to the destination's blocks with coalesced stores.
//
// Per-pair sums (cardinalities, blocks needed, chunks becoming (non-)empty) are added once per
// workgroup (set_common.glsl PassSums).
//
// The same workgroups then copy the chunks of the copy list (copy_chunk.glsl).
//
// Stage (aux) 0 adds the result's cardinality and the array blocks it needs to the scratch
// counters (aux 2: the cardinality into the status, see card_sums_addr); stage 1 (after the
// check pass found enough free blocks) gives the destination chunk's old blocks back, takes
// new ones and writes the result. mode 0: second operand the chunk of set b; else the
// chunk's run of sorted values.
//
// Small changes cost it much: its registers are at the driver's limit for its occupancy, and
// one more, or changes outside its walk (the grid stride read from gl_NumWorkGroups, a
// finished-workgroup count), made sparse operations and builds much slower
// (docs/tuning/set.md#small-pairs-registers).
// Time sparse sets (`vkalgo-bench set --cases sparse`, registers with
// VKALGO_PIPELINE_STATS=1) after any change.
#define WORKGROUP_SCAN_COMPACT_SLOTS
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"

// The workgroup has at least this many invocations (src/set/passes.rs small_pairs_spec).
#define SMALL_WG_MIN 32u

// The two lists: list a in words [0, g_b_base), list b after it (two u16 values a word, the
// lower first), and later the result's words or copy_chunk.glsl's block ids.
#define LIST_WORDS (PAIR_SMALL_VALUES / 2u + 1u)
#if LIST16
// LIST16 1 (devices with shaderInt16, src/set/passes.rs): the words as their u16 halves, so that
// the walk reads a value with one 16-bit load instead of a word load, a shift and a mask (the
// walk is much of a counting pass's time: docs/tuning/set.md#small-pairs-u16).
shared uint16_t s_halves[2u * LIST_WORDS];

uint list_elem(uint idx) { return uint(s_halves[idx]); }
uint list_word(uint w) { return uint(s_halves[2u * w]) | (uint(s_halves[2u * w + 1u]) << 16); }
void set_list_word(uint w, uint word) {
    s_halves[2u * w] = uint16_t(word);
    s_halves[2u * w + 1u] = uint16_t(word >> 16);
}
#else
shared uint s_lists[LIST_WORDS];

uint list_elem(uint idx) { return (s_lists[idx >> 1] >> ((idx & 1u) * 16u)) & 0xFFFFu; }
uint list_word(uint w) { return s_lists[w]; }
void set_list_word(uint w, uint word) { s_lists[w] = word; }
#endif
// The result's block ids (a result of PAIR_SMALL_VALUES values takes 7 blocks).
#define SMALL_RESULT_BLOCKS 8u
shared uint s_ids[SMALL_RESULT_BLOCKS];
shared uint s_pos;
shared uint s_subgroup_max[(WG_SIZE + MIN_SUBGROUP_SIZE - 1u) / MIN_SUBGROUP_SIZE];

uint g_b_base;
// The array pools of sets a and b (their blocks) and of the destination, read once.
uint64_t g_pool_a;
uint64_t g_pool_b;
ArrayPool g_dest;

uint elem_a(uint j) { return list_elem(j); }
uint elem_b(uint j) { return list_elem(2u * g_b_base + j); }

#include "list_co_rank.glsl"
// copy_chunk.glsl's ids in the lists' place (copies come after every pair), its cursor in s_pos.
#define COPY_IDS(i) list_word(i)
#define COPY_SRC_IDS(i) list_word(ARRAY_BLOCK_WORDS + (i))
#define COPY_SET_IDS(i, id) set_list_word(i, id)
#define COPY_SET_SRC_IDS(i, id) set_list_word(ARRAY_BLOCK_WORDS + (i), id)
#define COPY_POS s_pos
#include "copy_chunk.glsl"

// The most merge elements an invocation walks (workgroups of SMALL_WG_MIN or more).
#define WALK_MAX ((PAIR_SMALL_VALUES + SMALL_WG_MIN - 1u) / SMALL_WG_MIN)
// Above every u16 value: an exhausted list's next element.
#define LIST_END 0x10000u
// Not a value: the element before the first of the merge.
#define NO_ELEMENT 0xFFFFFFFFu

// The steps of walk(), with KEEP the operation's rule (an expression of take_a, av, bv, the
// element x and the element before it). Every invocation takes `per` steps (the same for the
// whole workgroup, so the loop ends uniformly and the steps need no branch); steps past the
// invocation's stretch (`valid`, the last invocations') walk on harmlessly and are not kept.
// ia and jb index the two lists as one u16 array. (Faster than steps each guarded by a branch
// and choosing the operation's rule: docs/tuning/set.md#small-pairs-walk.)
#define WALK_STEPS(KEEP)                                                       \
    [[unroll]] for (uint s = 0u; s < WALK_MAX; s++) {                         \
        if (s == per) {                                                        \
            break;                                                             \
        }                                                                      \
        bool take_a = av <= bv;                                                \
        uint x = min(av, bv);                                                  \
        bool keep = (KEEP) && s < valid;                                       \
        walked[s] = x;                                                         \
        kept_bits |= keep ? (1u << s) : 0u;                                    \
        last = keep ? x + 1u : last;                                           \
        before = x;                                                            \
        ia += take_a ? 1u : 0u;                                                \
        jb += take_a ? 0u : 1u;                                                \
        uint idx = take_a ? ia : jb;                                           \
        uint next = idx < (take_a ? na : b_end) ? list_elem(idx) : LIST_END;   \
        av = take_a ? next : av;                                               \
        bv = take_a ? bv : next;                                               \
    }

// This invocation's stretch of the merge: its elements in `walked` (slot s: the s-th element
// of the stretch), a bit per kept one in the result; the number kept. `last` gets the last
// kept element plus one (0: none). Branch-free steps, one shared load each: the element just
// taken decides from the two lists' current heads (av, bv) and the element before it (ties:
// a first, so a value in both lists comes as its a copy, then its b copy).
//   AND: an a element equal to b's head. ANDNOT: an a element not equal to it.
//   OR: every element not equal to the one before (b's copies of a's values and repeats in
//       a run of values drop out). XOR: a elements not equal to b's head, b elements not
//       equal to the one before.
uint walk(uint na, uint nb, out uint walked[WALK_MAX], out uint kept_bits, out uint last) {
    uint total = na + nb;
    uint per = (total + WG_SIZE - 1u) / WG_SIZE;
    uint d = min(gl_LocalInvocationIndex * per, total);
    uint valid = min(d + per, total) - d;
    uint i = co_rank_lists(na, nb, d);
    uint j = d - i;
    uint b0 = 2u * g_b_base;
    uint ia = i;
    uint jb = b0 + j;
    uint b_end = b0 + nb;
    uint av = i < na ? elem_a(i) : LIST_END;
    uint bv = j < nb ? elem_b(j) : LIST_END;
    uint before = NO_ELEMENT;
    if (d > 0u) {
        before = max(i > 0u ? elem_a(i - 1u) : 0u, j > 0u ? elem_b(j - 1u) : 0u);
    }
    kept_bits = 0u;
    last = 0u;
    [[unroll]] for (uint s = 0u; s < WALK_MAX; s++) {
        walked[s] = 0u;
    }
    // One loop per operation, so that each step holds only its operation's rule.
    if (pc.op == OP_AND) {
        WALK_STEPS(take_a && av == bv)
    } else if (pc.op == OP_ANDNOT) {
        WALK_STEPS(take_a && av != bv)
    } else if (pc.op == OP_OR) {
        WALK_STEPS(x != before)
    } else {
        WALK_STEPS(take_a ? av != bv : x != before)
    }
    return bitCount(kept_bits);
}

// Puts this invocation's kept elements, from output position `first` on, into the lists'
// place as the result's words (two u16 each; the lists are read no more). Staged so that the
// stores to the blocks are coalesced. With LIST16 each output writes its half (and the last,
// when card is odd, the zero after it); else an output at an odd position writes its word with
// the output before it (this invocation's previous one, or `before` - 1: the last output of
// the invocations before it), and the last output writes its word alone when card is odd.
void place(uint walked[WALK_MAX], uint kept_bits, uint first, uint before, uint card) {
    uint q = first;
#if LIST16
    [[unroll]] for (uint s = 0u; s < WALK_MAX; s++) {
        if ((kept_bits & (1u << s)) != 0u) {
            s_halves[q] = uint16_t(walked[s]);
            if (q + 1u == card && (card & 1u) == 1u) {
                s_halves[q + 1u] = uint16_t(0u);
            }
            q++;
        }
    }
#else
    uint previous = before;
    [[unroll]] for (uint s = 0u; s < WALK_MAX; s++) {
        if ((kept_bits & (1u << s)) != 0u) {
            uint x = walked[s];
            if ((q & 1u) == 1u) {
                s_lists[q >> 1] = (previous - 1u) | (x << 16);
            } else if (q + 1u == card) {
                s_lists[q >> 1] = x;
            }
            previous = x + 1u;
            q++;
        }
    }
#endif
}

// The largest `x` over the invocations before this one (uniform control flow).
uint workgroup_exclusive_max(uint x) {
    uint inner = subgroupExclusiveMax(x);
    if (gl_NumSubgroups == 1u) {
        return inner;
    }
    uint whole = subgroupMax(x);
    barrier();
    if (subgroupElect()) {
        s_subgroup_max[gl_SubgroupID] = whole;
    }
    barrier();
    for (uint s = 0u; s < gl_SubgroupID; s++) {
        inner = max(inner, s_subgroup_max[s]);
    }
    return inner;
}

// Rounds of loads that bring a pair's value words (at most PAIR_SMALL_VALUES / 2 + 1) into
// shared memory.
#define LOAD_ROUNDS ((PAIR_SMALL_VALUES / 2u + 1u + SMALL_WG_MIN - 1u) / SMALL_WG_MIN)
// The ids of blocks 1.. of list a (from 0) and b (from 8).
shared uint s_header[16];

// Rounds of vector loads for both lists (each list's value words start after its header, so
// its vectors may reach up to 3 words before and after them: at most (wa + wb) / 4 + 4).
#define VEC_ROUNDS ((PAIR_SMALL_VALUES / 2u / VEC_WORDS + 4u + SMALL_WG_MIN - 1u) / SMALL_WG_MIN)

// This invocation's word of a pair's two chunk headers, as s_header holds them: word t of list
// a's (t < 8) or word t - 8 of list b's (mode 0), else 0.
uint header_word(uvec2 ea, uvec2 eb) {
    uint t = gl_LocalInvocationIndex;
    uint ha = header_words(ea.x);
    uint hb = pc.mode != 0u ? 0u : header_words(eb.x);
    if (t < ha) {
        return U32Ref(pool_block(g_pool_a, ea.y)).v[t];
    }
    if (t >= 8u && t - 8u < hb) {
        return U32Ref(pool_block(g_pool_b, eb.y)).v[t - 8u];
    }
    return 0u;
}

// Where both chunks' value words lie in their word streams (list a's after its ha header
// words, list b's after hb): the first 16-byte vector of each (qa, qb) and how many (na4, nb4).
struct VectorSpans {
    uint ha;
    uint hb;
    uint wa;
    uint qa;
    uint na4;
    uint qb;
    uint nb4;
};

VectorSpans vector_spans(uvec2 ea, uvec2 eb) {
    VectorSpans v;
    v.ha = header_words(ea.x);
    v.hb = header_words(eb.x);
    v.wa = (ea.x + 1u) / 2u;
    uint wb = (eb.x + 1u) / 2u;
    v.qa = v.ha / VEC_WORDS;
    v.na4 = v.wa == 0u ? 0u : (v.ha + v.wa + VEC_WORDS - 1u) / VEC_WORDS - v.qa;
    v.qb = v.hb / VEC_WORDS;
    v.nb4 = wb == 0u ? 0u : (v.hb + wb + VEC_WORDS - 1u) / VEC_WORDS - v.qb;
    return v;
}

// Issues the loads of both chunks' value words (list a's after its ha header words, list b's
// after hb) in 16-byte vectors, a quarter of the word loads' instructions (mode 0; the header
// ids are in s_header, a barrier since they were stored). Uniform control flow.
void load_vectors(uvec2 ea, uvec2 eb, out uvec4 vecs[VEC_ROUNDS]) {
    uint t = gl_LocalInvocationIndex;
    VectorSpans v = vector_spans(ea, eb);
    [[unroll]] for (uint r = 0u; r < VEC_ROUNDS; r++) {
        uint g = r * WG_SIZE + t;
        vecs[r] = uvec4(0u);
        if (g < v.na4) {
            uint q = v.qa + g;
            uint blk = q / BLOCK_VECS;
            uint id = blk == 0u ? ea.y : s_header[blk - 1u];
            vecs[r] = stream_vector(g_pool_a, id, q);
        } else if (g < v.na4 + v.nb4) {
            uint q = v.qb + (g - v.na4);
            uint blk = q / BLOCK_VECS;
            uint id = blk == 0u ? eb.y : s_header[8u + blk - 1u];
            vecs[r] = stream_vector(g_pool_b, id, q);
        }
    }
}

// Stores the value words of the vectors load_vectors loaded into the lists (list a from word 0,
// b after it).
void store_vectors(uvec2 ea, uvec2 eb, uvec4 vecs[VEC_ROUNDS]) {
    uint t = gl_LocalInvocationIndex;
    VectorSpans v = vector_spans(ea, eb);
    [[unroll]] for (uint r = 0u; r < VEC_ROUNDS; r++) {
        uint g = r * WG_SIZE + t;
        if (g < v.na4 + v.nb4) {
            bool in_a = g < v.na4;
            uint q = in_a ? v.qa + g : v.qb + (g - v.na4);
            uint h = in_a ? v.ha : v.hb;
            uint n = in_a ? ea.x : eb.x;
            uint base = in_a ? 0u : v.wa;
            [[unroll]] for (uint i = 0u; i < VEC_WORDS; i++) {
                uint j;
                uint word;
                if (vector_value_word(vecs[r], q, i, h, n, j, word)) {
                    set_list_word(base + j, word);
                }
            }
        }
    }
}

// Mode 1: loads list a (words [0, wa)) and the run of values as list b (after it) into
// the lists, given this invocation's header word of list a (header_word). The value words go
// out in one round of loads that do not wait on each other. Uniform control flow; a barrier
// follows before the lists are read.
void load_run_pair(uvec2 ea, uvec2 eb, uint start, uint header) {
    uint t = gl_LocalInvocationIndex;
    if (t < 16u) {
        s_header[t] = header;
    }
    barrier();
    uint ha = header_words(ea.x);
    uint wa = (ea.x + 1u) / 2u;
    uint wb = (eb.x + 1u) / 2u;
    uint words[LOAD_ROUNDS];
    [[unroll]] for (uint r = 0u; r < LOAD_ROUNDS; r++) {
        uint g = r * WG_SIZE + t;
        uint word = 0u;
        if (g < wa) {
            uint w = ha + g;
            uint blk = w / ARRAY_BLOCK_WORDS;
            uint id = blk == 0u ? ea.y : s_header[blk - 1u];
            word = U32Ref(pool_block(g_pool_a, id)).v[w % ARRAY_BLOCK_WORDS];
            word = 2u * g + 1u < ea.x ? word : (word & 0xFFFFu);
        } else if (g < wa + wb) {
            word = run_word(eb.x, start, g - wa);
        }
        words[r] = word;
    }
    [[unroll]] for (uint r = 0u; r < LOAD_ROUNDS; r++) {
        uint g = r * WG_SIZE + t;
        if (g < wa + wb) {
            set_list_word(g, words[r]);
        }
    }
}

// Not a chunk: a work item past the list's end, whose entries are empty.
#define NO_PAIR 0xFFFFFFFFu

// A pair's directory entries (and its run of values, mode 1).
struct PairEntries {
    uvec2 old_d;
    uvec2 ea;
    uvec2 eb;
    uint start;
};

PairEntries pair_entries(uint c, bool write) {
    PairEntries p;
    if (c == NO_PAIR) {
        p.old_d = uvec2(0u);
        p.ea = uvec2(0u);
        p.eb = uvec2(0u);
        p.start = 0u;
        return p;
    }
    p.old_d = write ? dir_entry(pc.meta_d, c) : uvec2(0u);
    p.ea = dir_entry(pc.meta_a, c);
    p.eb = uvec2(0u);
    p.start = 0u;
    if (pc.mode == 0u) {
        p.eb = dir_entry(pc.meta_b, c);
    } else {
        p.start = U32Ref(pc.scratch).v[S_START + c];
        p.eb.x = U32Ref(pc.scratch).v[S_END + c] - p.start;
    }
    return p;
}

// The chunk of work item `item`, or NO_PAIR.
uint pair_chunk(uint item, uint n) {
    return item < n ? U32Ref(pc.scratch).v[S_PAIRS + item] : NO_PAIR;
}

// With both lists in shared memory (a barrier since): the pair's walk and the exclusive scan of its
// kept counts. `card` gets the result's cardinality.
struct Walked {
    uint walked[WALK_MAX];
    uint kept_bits;
    uint last;
    uint first;
    uint card;
};

Walked walk_pair(uvec2 ea, uvec2 eb) {
    Walked w;
    uint mine = walk(ea.x, eb.x, w.walked, w.kept_bits, w.last);
    w.first = workgroup_exclusive_scan(mine, w.card);
    return w;
}

// set_common.glsl's reuse_blocks_begin and reuse_blocks_id in one function, with the old
// chunk's block count found once: the same work, which the driver lays out faster than the two
// calls (docs/tuning/set.md#reused-blocks). s_ids[0, k) gets the
// result's k blocks (a barrier must follow before they are read). Uniform control flow.
void result_blocks(uvec2 old_d, uint k) {
    uint t = gl_LocalInvocationIndex;
    uvec2 old_blocks = chunk_blocks(old_d.x);
    uint k_old = old_blocks.y;
    uint keep = min(k_old, k);
    if (t == 0u) {
        if (old_blocks.x != 0u) {
            free_chunk_slots(old_d);  // a bitmap block goes back to its ring
        }
        if (k_old > keep) {
            s_free_pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 3u)).v[0], k_old - keep);
        }
        if (k > keep) {
            s_pos = take_blocks(POOL_ARRAY, k - keep);
        }
    }
    barrier();
    // Block b < keep: the old block b; keep <= b < k: a taken one; k <= b < k_old: given back.
    for (uint b = t; b < max(k, k_old); b += WG_SIZE) {
        uint old_id = b == 0u ? old_d.y : (b < k_old ? U32Ref(pool_block(g_dest.blocks, old_d.y)).v[b - 1u] : 0u);
        if (b < keep) {
            s_ids[b] = old_id;
        } else if (b < k) {
            s_ids[b] = pool_ring_id(g_dest, s_pos + (b - keep));
        } else {
            U32Ref(g_dest.ring).v[(s_free_pos + (b - keep)) & g_dest.mask] = old_id;
        }
    }
}

// Counts (stage 0 or 2) or writes (stage 1) the result of the walked pair of chunk c.
void finish_pair(uint c, uvec2 old_d, Walked w, bool write, inout PassSums sums) {
    uint t = gl_LocalInvocationIndex;
    uint card = w.card;
    uint k = card == 0u ? 0u : array_blocks(card);
    if (!write) {
        if (t == 0u) {
            pass_sums_count(sums, card);
        }
        return;
    }
#if LIST16
    uint before = 0u;  // place() writes each output's half alone
#else
    uint before = workgroup_exclusive_max(w.last);
#endif
    uint id0 = 0u;
    result_blocks(old_d, k);
    if (k != 0u) {
        barrier();
        id0 = s_ids[0];
        for (uint b = t + 1u; b < k; b += WG_SIZE) {
            U32Ref(pool_block(g_dest.blocks, id0)).v[b - 1u] = s_ids[b];
        }
        place(w.walked, w.kept_bits, w.first, before, card);
        barrier();
        uint h = k - 1u;
        for (uint j = t; j < (card + 1u) / 2u; j += WG_SIZE) {
            uint x = h + j;
            uint64_t block = pool_block(g_dest.blocks, s_ids[x / ARRAY_BLOCK_WORDS]);
            U32Ref(block).v[x % ARRAY_BLOCK_WORDS] = list_word(j);
        }
    }
    if (t == 0u) {
        set_dir_entry(pc.meta_d, c, uvec2(card, id0));
        pass_sums_written(sums, old_d.x, card);
    }
}

// Mode 0, pairs of two chunks, software-pipelined across a workgroup's pairs: while pair k is
// walked and written, the vectors of pair k + 1, the header words of pair k + 2 and the
// directory entries of pair k + 2 are in flight (a pair's loads are otherwise a chain of four
// round trips: list entry, directory entries, header words, value words).
void chunk_pairs(uint n, bool write, inout PassSums sums) {
    uint t = gl_LocalInvocationIndex;
    uint item = linear_workgroup_id();
    if (item >= n) {
        return;
    }
    uint c0 = pair_chunk(item, n);
    PairEntries e0 = pair_entries(c0, write);
    uint c1 = pair_chunk(item + pc.grid, n);
    uint h0 = header_word(e0.ea, e0.eb);
    if (t < 16u) {
        s_header[t] = h0;
    }
    barrier();
    uvec4 v0[VEC_ROUNDS];
    load_vectors(e0.ea, e0.eb, v0);
    PairEntries e1 = pair_entries(c1, write);
    uint c2 = pair_chunk(item + 2u * pc.grid, n);
    uint h1 = header_word(e1.ea, e1.eb);
    for (; item < n; item += pc.grid) {
        barrier();  // the previous pair's lists and headers are read no more
        g_b_base = (e0.ea.x + 1u) / 2u;
        store_vectors(e0.ea, e0.eb, v0);
        if (t < 16u) {
            s_header[t] = h1;
        }
        barrier();
        uvec4 v1[VEC_ROUNDS];
        load_vectors(e1.ea, e1.eb, v1);
        PairEntries e2 = pair_entries(c2, write);
        uint c3 = pair_chunk(item + 3u * pc.grid, n);
        Walked w = walk_pair(e0.ea, e0.eb);
        uint h2 = header_word(e2.ea, e2.eb);
        finish_pair(c0, e0.old_d, w, write, sums);
        c0 = c1;
        e0 = e1;
        v0 = v1;
        c1 = c2;
        e1 = e2;
        h1 = h2;
        c2 = c3;
    }
}

// Mode 1, pairs of a chunk and its run of sorted values: the next pair's list entry and
// directory entries are loaded while this pair is processed.
void run_pairs(uint n, bool write, inout PassSums sums) {
    uint item = linear_workgroup_id();
    uint c_next = pair_chunk(item, n);
    uint c_after = pair_chunk(item + pc.grid, n);
    PairEntries next = pair_entries(c_next, write);
    for (; item < n; item += pc.grid) {
        uint c = c_next;
        PairEntries cur = next;
        if (item + pc.grid < n) {
            c_next = c_after;
            next = pair_entries(c_next, write);
            c_after = pair_chunk(item + 2u * pc.grid, n);
        }
        g_b_base = (cur.ea.x + 1u) / 2u;
        uint header = header_word(cur.ea, cur.eb);
        barrier();  // the previous pair's lists and headers are read no more
        load_run_pair(cur.ea, cur.eb, cur.start, header);
        barrier();
        Walked w = walk_pair(cur.ea, cur.eb);
        finish_pair(c, cur.old_d, w, write, sums);
    }
}

void main() {
    set_begin();
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_PAIR_COUNT];
    bool write = pc.aux == 1u;
    if (write ? U32Ref(pc.scratch).v[S_OK] == 0u : one_pass(pc.scratch, pc.meta_d)) {
        return;  // nothing to write, or nothing to count (the one-pass path)
    }
    PassSums sums = pass_sums_new();  // invocation 0's
    g_pool_a = SetMetaRef(pc.meta_a).ar_pool;
    g_pool_b = pc.mode == 0u ? SetMetaRef(pc.meta_b).ar_pool : 0ul;
    g_dest = write_pool(write);
    if (pc.mode == 0u) {
        chunk_pairs(n, write, sums);
    } else {
        run_pairs(n, write, sums);
    }
    copy_listed_chunks(write, g_dest, sums);
    if (t == 0u) {
        pass_sums_flush(sums);
    }
}
