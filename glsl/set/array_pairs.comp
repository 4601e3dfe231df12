#version 460
// The medium array pairs of an operation (scratch list S_PAIRS from the back, from classify
// or boundaries): chunk pairs whose operands are both arrays or empty (or a chunk and a run of
// sorted values) with more than PAIR_SMALL_VALUES (small_pairs.comp takes those) and at most
// PAIR_VALUES values together, so that the result is an array too. One workgroup per pair,
// grid-stride over the list, computes the result element by element (array_pair.glsl) with
// both lists, the masks and the result in shared memory sized for PAIR_VALUES (9 KiB), where
// chunk_update.comp's two 8 KiB bitmaps (18.5 KiB per workgroup) let two workgroups share a
// multiprocessor.
// Stage (aux) 0 adds the result's cardinality and the array blocks it needs to the scratch
// counters; stage 1 (after the check pass found enough free blocks) writes the result over the
// destination chunk's old blocks where they suffice (set_common.glsl reuse_blocks_begin).
// mode 0: second operand the chunk of set b; mode 1: the chunk's run of sorted values.
#define WORKGROUP_SCAN_COMPACT_SLOTS
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"

#define PAIR_VALUES PAIR_MEDIUM_VALUES
#define PAIR_LIST_COUNT S_PAIR_MEDIUM_COUNT
#define PAIR_LIST_ENTRY(i) (S_PAIRS + LIST_CAP - 1u - (i))
#define KEEP_WORDS (PAIR_VALUES / 32u)

// List a in words [0, g_b_base), list b after it.
shared uint s_lists[PAIR_VALUES / 2u + 1u];
shared uint s_keep_a[KEEP_WORDS + 1u];
shared uint s_keep_b[KEEP_WORDS + 1u];
shared uint s_pre_a[KEEP_WORDS + 1u];
shared uint s_pre_b[KEEP_WORDS + 1u];
shared uint so[PAIR_VALUES / 2u];

uint g_b_base;

uint elem_a(uint j) { return (s_lists[j >> 1] >> ((j & 1u) * 16u)) & 0xFFFFu; }
uint elem_b(uint j) { return (s_lists[g_b_base + (j >> 1)] >> ((j & 1u) * 16u)) & 0xFFFFu; }

void store_list_word(uint which, uint j, uint word) {
    s_lists[(which == 0u ? 0u : g_b_base) + j] = word;
}

// (This kernel has no bitmaps: load_list never expands here.)
void or_bitmap_word(uint which, uint w, uint bits) {}

#include "array_pair.glsl"

// Unions and symmetric differences of two sets' chunks (mode 0: both lists unique): a
// merge-path walk instead of binary searches of every element in the other list (Green, McColl & Bader, "GPU merge path", 2012). Each
// invocation takes one stretch of the merged order (ties: a first, so a value in both lists is
// its a copy then its b copy), finds where the stretch starts by one co-rank search, and steps
// through it deciding each element from its neighbours: an element of a is in b when b's next
// element equals it; an element of b is in a when a's previous element equals it.

#include "list_co_rank.glsl"

// Walks this invocation's stretch: returns the number of kept elements, and with `place`
// ORs each into so from position p on (so zeroed, a barrier since).
uint walk_kept(uint na, uint nb, bool place, uint p) {
    uint total = na + nb;
    uint per = (total + WG_SIZE - 1u) / WG_SIZE;
    uint d = min(gl_LocalInvocationIndex * per, total);
    uint end = min(d + per, total);
    uint i = co_rank_lists(na, nb, d);
    uint j = d - i;
    uint kept = 0u;
    for (; d < end; d++) {
        bool take_a = i < na && (j >= nb || elem_a(i) <= elem_b(j));
        uint x;
        bool keep;
        if (take_a) {
            x = elem_a(i);
            bool in_b = j < nb && elem_b(j) == x;
            keep = pc.op == OP_AND ? in_b : (pc.op == OP_OR || !in_b);
            i++;
        } else {
            x = elem_b(j);
            bool in_a = i > 0u && elem_a(i - 1u) == x;
            keep = (pc.op == OP_OR || pc.op == OP_XOR) && !in_a;
            j++;
        }
        if (keep) {
            if (place) {
                uint q = p + kept;
                atomicOr(so[q >> 1], x << ((q & 1u) * 16u));
            }
            kept++;
        }
    }
    return kept;
}

void main() {
    set_begin();
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[PAIR_LIST_COUNT];
    bool write = pc.aux == 1u;
    if (write ? U32Ref(pc.scratch).v[S_OK] == 0u : one_pass(pc.scratch, pc.meta_d)) {
        return;  // nothing to write, or nothing to count (the one-pass path)
    }
    PassSums sums = pass_sums_new();  // invocation 0's
    ArrayPool dest = write_pool(write);
    for (uint item = linear_workgroup_id(); item < n; item += pc.grid) {
        uint c = U32Ref(pc.scratch).v[PAIR_LIST_ENTRY(item)];
        uvec2 old_d = write ? dir_entry(pc.meta_d, c) : uvec2(0u);
        uvec2 ea = dir_entry(pc.meta_a, c);
        uvec2 eb = uvec2(0u);
        uint start = 0u;
        if (pc.mode == 0u) {
            eb = dir_entry(pc.meta_b, c);
        } else {
            start = U32Ref(pc.scratch).v[S_START + c];
            eb.x = U32Ref(pc.scratch).v[S_END + c] - start;
        }
        g_b_base = (ea.x + 1u) / 2u;
        barrier(); // the previous pair's shared data is read no more
        load_list(pc.meta_a, ea, 0u, false);
        if (pc.mode == 0u) {
            load_list(pc.meta_b, eb, 1u, false);
        } else {
            load_run_list(start, eb.x);
        }
        barrier();
        // The walk for unions and symmetric differences (every element of both lists is
        // decided; the searches would take each list's elements through two binary searches
        // each); intersections and differences decide only a's elements, where one search
        // each is cheaper than the walk (docs/tuning/set.md#array-pairs-walk).
        bool walk = pc.mode == 0u && (pc.op == OP_OR || pc.op == OP_XOR);
        uint card;
        uint first = 0u;  // the walk: kept elements before this invocation's stretch
        if (walk) {
            card = 0u;
            first = workgroup_exclusive_scan(walk_kept(ea.x, eb.x, false, 0u), card);
        } else {
            card = mark_kept(ea.x, eb.x);
        }
        uint k = card == 0u ? 0u : array_blocks(card);
        if (!write) {
            if (t == 0u) {
                pass_sums_count(sums, card);
            }
            continue;
        }
        if (t == 0u) {
            reuse_blocks_begin(old_d, k);
        }
        barrier();
        for (uint b = t; b < reuse_blocks_end(old_d, k); b += WG_SIZE) {
            uint id = reuse_blocks_id(old_d, k, b, dest);
            if (b < k) {
                s_ids[b] = id;
            }
        }
        uint id0 = 0u;
        if (k != 0u) {
            for (uint w = t; w < (card + 1u) / 2u; w += WG_SIZE) {
                so[w] = 0u;
            }
            barrier();
            if (walk) {
                walk_kept(ea.x, eb.x, true, first);
            } else {
                place_kept(ea.x, eb.x);
            }
            barrier();
            store_array_result(card, k);
            id0 = s_ids[0];
        }
        if (t == 0u) {
            set_dir_entry(pc.meta_d, c, uvec2(card, id0));
            pass_sums_written(sums, old_d.x, card);
        }
    }
    if (t == 0u) {
        pass_sums_flush(sums);
    }
}
