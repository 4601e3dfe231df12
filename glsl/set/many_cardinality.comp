#version 460
// |sets[0] op sets[1] op ... op sets[n - 1]| (left to right; ANDNOT: sets[0] minus the union of
// the others) without materializing it: two dispatches whatever n.
// - mode MODE_LIST, per_workgroup index groups of 64 chunks a workgroup, a subgroup a group:
//   the chunks the result may hold (those every set holds for AND, those of sets[0] for ANDNOT,
//   of any set for OR and XOR), from the sets' 64-chunk masks read side by side, appended to a
//   list (a count, then up to 65536 chunk ids, in no order). The materializing many-way
//   operation (chunk_update.comp MANY_WAY) lists the destination's chunks too, and combines
//   them there.
// - mode MODE_COMBINE: a workgroup takes a listed chunk at a time (grid-stride), combines that
//   chunk of every set into a shared bitmap of its 2^16 values (unions with every set side by
//   side, many_union.glsl; intersections a set at a time), and counts it. Where few chunks are
//   listed, a union splits each into word ranges (slices) and each slice's sets into parts,
//   every part a workgroup; the parts OR their words into a bitmap in scratch and the last to
//   arrive counts it (docs/tuning/set.md#many-way-union).
// Each set is read through the public include's lookups (glsl/public/vkalgo_set.glsl), so flat
// and packed sets mix. The counts go to a SetOpStatus (src/set/gpu.rs): ok = 1, the values of
// chunks that are not full, the full chunks, the chunks that needed work; the caller zeroes
// it and the list's count first.
//
// Every decision of a chunk is made from directory entries that every invocation reads alike,
// so control flow stays uniform across the workgroup around its barriers.
#include "../common/vkalgo.glsl"
#include "../public/vkalgo_set.glsl"
#include "view_words.glsl"
#include "../common/last_workgroup.glsl"

// Must match src/set/many_cardinality.rs (ManyCardinalityPush).
layout(push_constant) uniform ManyCardinalityPush {
    uint64_t views;   // `count` VkalgoSetView of 16 bytes (and the destination's after them)
    uint64_t list;    // the list's length (a u32)
    uint64_t ids;     // the list's chunk ids (u32 each)
    uint64_t status;  // the SetOpStatus (8 u32)
    uint64_t counters;  // MODE_COMBINE's counter a listed chunk (u32), zeroed by MODE_LIST; or 0
    uint count;       // sets, at least 1
    uint op;          // SetOp: 0 AND, 1 OR, 2 ANDNOT, 3 XOR
    uint mode;        // MODE_LIST, MODE_COMBINE or MODE_LIST_WITH_DESTINATION
    uint per_workgroup;  // MODE_LIST*: index groups (64 chunks each) a workgroup lists
} pc;

const uint MODE_LIST = 0u;
const uint MODE_COMBINE = 1u;
// MODE_LIST, and the chunks the view after the sets (the destination) holds.
const uint MODE_LIST_WITH_DESTINATION = 2u;

// Word ranges a listed chunk is split into at most (unions), and the packing of a chunk's
// counter (`counters`): the slices arrived above SLICE_ARRIVAL_SHIFT, their values below.
const uint MAX_SLICES = 8u;
const uint INDEX_GROUPS = 1024u;  // groups of 64 chunks in the universe
const uint SLICE_ARRIVAL_SHIFT = 24u;
const uint SLICE_COUNT_MASK = (1u << SLICE_ARRIVAL_SHIFT) - 1u;
const uint NOT_LAST = 0xFFFFFFFFu;
// The first PART_CHUNKS listed chunks have a bitmap in scratch (after the counters) and a part
// counter a slice (after the bitmaps), zeroed by MODE_LIST, so that a union may split their
// sets into up to MAX_PARTS parts (docs/tuning/set.md#many-way-union).
const uint PART_CHUNKS = 32u;
const uint MAX_PARTS = 8u;
const uint64_t COUNTER_BYTES = 65536ul * 4ul;
const uint64_t PART_BITMAP_BYTES = uint64_t(VKALGO_SET_BITMAP_WORDS) * 4ul;

const uint OP_AND = 0u;
const uint OP_OR = 1u;
const uint OP_ANDNOT = 2u;
const uint OP_XOR = 3u;

// Words of the chunk bitmap each invocation owns (2048 / WG_SIZE: the workgroup size is 64
// to 1024, a power of two).
#define WORDS_PER_INVOCATION (VKALGO_SET_BITMAP_WORDS / WG_SIZE)


// 1: the permutation set_many_union (src/set/many_cardinality.rs) for the listing and for
// unions (OR, XOR), without the intersections' second bitmap, so that more workgroups fit on a
// multiprocessor; it ignores an AND or ANDNOT (its status stays not ok).
#ifndef UNIONS_ONLY
#define UNIONS_ONLY 0
#endif

shared uint s_acc[VKALGO_SET_BITMAP_WORDS];  // the result's chunk so far
shared uint s_tmp[UNIONS_ONLY != 0 ? 1 : VKALGO_SET_BITMAP_WORDS];  // an array or run chunk as a bitmap
shared uint s_chunk_count;

VkalgoSetView set_view(uint i) {
    return view_at(pc.views, i);
}

uint word_index(uint k) {
    return k * WG_SIZE + gl_LocalInvocationIndex;
}

// s_tmp = the values of an array or run chunk (entry e of set s) as a bitmap: each
// invocation's words of a run chunk, an array's values spread over the workgroup.
// Workgroup-uniform.
void chunk_to_tmp(VkalgoSetView s, uvec2 e) {
    uint card = e.x & VKALGO_SET_CARD_MASK;
    uint runs = e.x >> VKALGO_SET_RUN_SHIFT;
    [[unroll]] for (uint k = 0u; k < WORDS_PER_INVOCATION; ++k) {
        uint w = word_index(k);
        s_tmp[w] = runs != 0u ? view_run_word(s, e, runs, w) : 0u;
    }
    barrier();
    if (runs == 0u) {
        for (uint j = gl_LocalInvocationIndex; j < card; j += WG_SIZE) {
            uint v = vkalgo_set_array_value(s, e.y, card, j);
            atomicOr(s_tmp[v >> 5], 1u << (v & 31u));
        }
        barrier();
    }
}

#define MANY_UNION_ACC s_acc
#define MANY_UNION_VIEW(i) set_view(i)
#include "many_union.glsl"

// Word w of chunk e of set s (entry e, not empty): from s_tmp for array and run chunks, which
// chunk_to_tmp filled.
uint chunk_word(VkalgoSetView s, uvec2 e, uint w) {
    uint card = e.x & VKALGO_SET_CARD_MASK;
    if (card == VKALGO_SET_FULL) {
        return 0xFFFFFFFFu;
    }
    if ((e.x >> VKALGO_SET_RUN_SHIFT) == 0u && card > VKALGO_SET_ARRAY_MAX) {
        return vkalgo_set_bitmap_word(s, e, w);
    }
    return s_tmp[w];
}

// Whether chunk e needs s_tmp (an array or run chunk).
bool needs_tmp(uvec2 e) {
    uint card = e.x & VKALGO_SET_CARD_MASK;
    return card != 0u && card != VKALGO_SET_FULL
        && ((e.x >> VKALGO_SET_RUN_SHIFT) != 0u || card <= VKALGO_SET_ARRAY_MAX);
}

// Intersects s_acc with chunk c of set i (`first`: s_acc is not set yet, it becomes the chunk).
// The unions go through many_union.glsl, every set side by side; an intersection takes one set
// at a time.
void intersect(uint i, uint c, bool first) {
    VkalgoSetView s = set_view(i);
    uvec2 e = vkalgo_set_entry(s, c);
    if (needs_tmp(e)) {
        chunk_to_tmp(s, e);
    }
    bool empty = (e.x & VKALGO_SET_CARD_MASK) == 0u;
    [[unroll]] for (uint k = 0u; k < WORDS_PER_INVOCATION; ++k) {
        uint w = word_index(k);
        uint x = empty ? 0u : chunk_word(s, e, w);
        s_acc[w] = first ? x : s_acc[w] & x;
    }
    barrier();
}

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer GroupEntryRef { uvec2 v[]; };

// Listed chunk `slot`'s bitmap in scratch (slot < PART_CHUNKS).
uint64_t part_bitmap(uint slot) {
    return pc.counters + COUNTER_BYTES + uint64_t(slot) * PART_BITMAP_BYTES;
}

// The counter of the parts of listed chunk `slot`'s slice `slice` that have arrived.
uint64_t part_counter(uint slot, uint slice) {
    return pc.counters + COUNTER_BYTES + uint64_t(PART_CHUNKS) * PART_BITMAP_BYTES
         + uint64_t(slot * MAX_SLICES + slice) * 4ul;
}

// The non-empty chunks of set s among chunks 64 g .. 64 g + 63 as a 64-bit mask (x: the first
// 32): a packed directory's index word, or a flat directory's 64 entries.
uvec2 group_mask(VkalgoSetView s, uint g) {
    uint64_t dir = s.control + VKALGO_SET_DIR_OFFSET;
    if (s.packed != 0u) {
        return VkalgoSetIndexRef(dir + uint64_t(g) * 16ul).v[0].xy;
    }
    GroupEntryRef entries = GroupEntryRef(dir + uint64_t(g) * 512ul);
    uvec2 m = uvec2(0u);
    [[unroll]] for (uint i = 0u; i < 32u; ++i) {
        m.x |= (entries.v[i].x & VKALGO_SET_CARD_MASK) != 0u ? 1u << i : 0u;
        m.y |= (entries.v[32u + i].x & VKALGO_SET_CARD_MASK) != 0u ? 1u << i : 0u;
    }
    return m;
}

// Appends the chunks of index group g (64 chunks) where the result may hold values (or, with
// MODE_LIST_WITH_DESTINATION, where the destination holds values that the result replaces):
// for AND where every set holds values, for ANDNOT where the first does, else where any does.
// One subgroup a group, its lanes reading the sets' masks side by side. Subgroup-uniform.
void list_group(uint g) {
    uint lane = gl_SubgroupInvocationID;
    uint width = gl_SubgroupSize;
    bool all = pc.op == OP_AND;
    uint scan = pc.op == OP_ANDNOT ? 1u : pc.count;
    uint start = 0u;
    uvec2 m = uvec2(0u);
    if (all) {
        // An intersection holds nothing where the first set holds nothing.
        m = group_mask(set_view(0u), g);
        start = 1u;
        scan = m == uvec2(0u) ? 0u : scan;
    }
    for (uint i = start + lane; i < scan; i += width) {
        uvec2 x = group_mask(set_view(i), g);
        m = all ? m & x : m | x;
    }
    // Combined across the lanes by shuffles (a butterfly).
    for (uint d = 1u; d < width; d <<= 1u) {
        uvec2 o = subgroupShuffleXor(m, d);
        m = all ? m & o : m | o;
    }
    if (pc.mode == MODE_LIST_WITH_DESTINATION) {
        m |= group_mask(set_view(pc.count), g);
    }
    uint n = bitCount(m.x) + bitCount(m.y);
    if (n == 0u) {
        return;
    }
    uint at = 0u;
    if (subgroupElect()) {
        at = atomicAdd(U32AtomicRef(pc.list).v[0], n);
    }
    at = subgroupBroadcastFirst(at);
    for (uint b = lane; b < 64u; b += width) {
        uint word = b < 32u ? m.x : m.y;
        uint bit = b & 31u;
        if (((word >> bit) & 1u) != 0u) {
            uint slot = at + bitCount(word & ((1u << bit) - 1u)) + (b < 32u ? 0u : bitCount(m.x));
            U32Ref(pc.ids + uint64_t(slot) * 4ul).v[0] = 64u * g + b;
            if (pc.counters != 0ul) {
                U32Ref(pc.counters + uint64_t(slot) * 4ul).v[0] = 0u;
            }
        }
    }
}

// Zeroes the parts' bitmaps and counters (MODE_LIST with counters), a share each workgroup of
// the listing dispatch: a few stores an invocation, whatever the list turns out to be.
void zero_parts() {
    const uint quads = (PART_CHUNKS * VKALGO_SET_BITMAP_WORDS + PART_CHUNKS * MAX_SLICES) / 4u;
    U32x4Ref parts = U32x4Ref(part_bitmap(0u));
    uint invocations = gl_NumWorkGroups.x * gl_NumWorkGroups.y * WG_SIZE;
    for (uint q = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex; q < quads; q += invocations) {
        parts.v[q] = uvec4(0u);
    }
}

// Adds the part's union in s_acc's words [w0, w1) to listed chunk k's bitmap in scratch and
// counts the part arrived; returns true to the whole workgroup where it arrived last, s_acc's
// words [w0, w1) then the union of every part. Workgroup-uniform control flow.
bool union_of_parts(uint k, uint slice, uint parts, bool use_xor, uint w0, uint w1) {
    U32AtomicRef bits = U32AtomicRef(part_bitmap(k));
    for (uint w = w0 + gl_LocalInvocationIndex; w < w1; w += WG_SIZE) {
        uint x = s_acc[w];
        if (x != 0u) {
            if (use_xor) {
                atomicXor(bits.v[w], x);
            } else {
                atomicOr(bits.v[w], x);
            }
        }
    }
    if (!arrived_last(part_counter(k, slice), parts)) {
        return false;
    }
    for (uint w = w0 + gl_LocalInvocationIndex; w < w1; w += WG_SIZE) {
        s_acc[w] = bits.v[w];
    }
    barrier();
    return true;
}

void main() {
    if (pc.mode != MODE_COMBINE) {
        if (pc.counters != 0ul && pc.op != OP_AND) {
            zero_parts();  // intersections take no parts
        }
        uint first = linear_workgroup_id() * pc.per_workgroup;
        uint last = min(first + pc.per_workgroup, INDEX_GROUPS);
        for (uint g = first + gl_SubgroupID; g < last; g += gl_NumSubgroups) {
            list_group(g);
        }
        return;
    }
    if (UNIONS_ONLY != 0 && (pc.op == OP_AND || pc.op == OP_ANDNOT)) {
        return;
    }
    if (linear_workgroup_id() == 0u && gl_LocalInvocationIndex == 0u) {
        U32AtomicRef(pc.status).v[0] = 1u;
    }
    uint listed = U32Ref(pc.list).v[0];
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    // Unions split each listed chunk into `slices` word ranges, as many as keep the grid busy
    // (few listed chunks: many workgroups a chunk); intersections take whole chunks.
    uint slices = 1u;
    while (pc.op != OP_AND && slices < MAX_SLICES && listed * slices * 2u <= groups) {
        slices *= 2u;
    }
    // Then each slice's sets into parts (at least a set a subgroup), as many as the grid holds.
    uint first_set = pc.op == OP_ANDNOT ? 1u : 0u;
    uint union_sets = pc.count - first_set;
    uint parts = 1u;
    if (pc.op != OP_AND && listed <= PART_CHUNKS) {
        while (parts < MAX_PARTS && listed * slices * parts * 2u <= groups
               && parts * 2u * gl_NumSubgroups <= union_sets) {
            parts *= 2u;
        }
    }
    uint slice_words = VKALGO_SET_BITMAP_WORDS / slices;
    uint items = listed * slices * parts;
    if (linear_workgroup_id() >= items) {
        return;  // workgroup-uniform
    }
    uint partial = 0u;
    uint full = 0u;
    uint work = 0u;
    if (gl_LocalInvocationIndex == 0u) {
        s_chunk_count = 0u;
    }
    for (uint item = linear_workgroup_id(); item < items; item += groups) {
        uint part = item % parts;
        uint slice = (item / parts) % slices;
        uint k = item / (parts * slices);
        uint w0 = slice * slice_words;
        uint w1 = w0 + slice_words;
        uint c = U32Ref(pc.ids + uint64_t(k) * 4ul).v[0];
        if (pc.op != OP_AND) {
            // The union of the part's sets (ANDNOT: of sets[1..]) over the slice's words.
            uint from = first_set + part * union_sets / parts;
            uint to = first_set + (part + 1u) * union_sets / parts;
            many_union(c, from, to, pc.op == OP_XOR, w0, w1);
            if (parts > 1u && !union_of_parts(k, slice, parts, pc.op == OP_XOR, w0, w1)) {
                continue;  // workgroup-uniform: another part counts the slice
            }
        }
        if (pc.op == OP_ANDNOT) {
            // sets[0] minus the union of the others: its complement intersected with sets[0].
            [[unroll]] for (uint q = 0u; q < WORDS_PER_INVOCATION; ++q) {
                s_acc[word_index(q)] = ~s_acc[word_index(q)];
            }
            barrier();
            intersect(0u, c, false);
        } else if (pc.op == OP_AND) {
            for (uint i = 0u; i < pc.count; ++i) {
                intersect(i, c, i == 0u);
            }
        }
        uint mine = 0u;
        [[unroll]] for (uint q = 0u; q < WORDS_PER_INVOCATION; ++q) {
            uint w = word_index(q);
            mine += w >= w0 && w < w1 ? bitCount(s_acc[w]) : 0u;
        }
        uint sum = subgroup_sum(mine);
        if (subgroupElect()) {
            atomicAdd(s_chunk_count, sum);
        }
        barrier();
        if (gl_LocalInvocationIndex == 0u) {
            // The chunk's slices add their counts and arrivals in one word; the last to
            // arrive has the chunk's count.
            uint chunk = s_chunk_count;
            if (slices > 1u) {
                uint add = (1u << SLICE_ARRIVAL_SHIFT) | chunk;
                uint sofar = atomicAdd(U32AtomicRef(pc.counters + uint64_t(k) * 4ul).v[0], add) + add;
                chunk = (sofar >> SLICE_ARRIVAL_SHIFT) == slices ? sofar & SLICE_COUNT_MASK : NOT_LAST;
            }
            if (chunk != NOT_LAST) {
                work++;
                if (chunk == VKALGO_SET_FULL) {
                    full++;
                } else {
                    partial += chunk;
                }
            }
            s_chunk_count = 0u;
        }
        barrier();
    }
    if (gl_LocalInvocationIndex == 0u) {
        U32AtomicRef status = U32AtomicRef(pc.status);
        if (partial != 0u) atomicAdd(status.v[5], partial);
        if (full != 0u) atomicAdd(status.v[6], full);
        if (work != 0u) atomicAdd(status.v[7], work);
    }
}
