#version 460
// |sets[0] op sets[1] op ... op sets[n - 1]| (left to right; ANDNOT: sets[0] minus the union of
// the others) without materializing it: two dispatches whatever n.
// - mode MODE_LIST, per_invocation chunks an invocation: the chunks the result may hold (those
//   every set holds for AND, those of sets[0] for ANDNOT, of any set for OR and XOR) appended
//   to a list (a count, then up to 65536 chunk ids, in no order). The materializing many-way operation
//   (chunk_update.comp MANY_WAY) lists the destination's chunks too, and combines them there.
// - mode MODE_COMBINE: a workgroup takes a listed chunk at a time (grid-stride), combines that
//   chunk of every set into a shared bitmap of its 2^16 values, and counts it.
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

// Must match src/set/many_cardinality.rs (ManyCardinalityPush).
layout(push_constant) uniform ManyCardinalityPush {
    uint64_t views;   // `count` VkalgoSetView of 16 bytes (and the destination's after them)
    uint64_t list;    // the list's length (a u32)
    uint64_t ids;     // the list's chunk ids (u32 each)
    uint64_t status;  // the SetOpStatus (8 u32)
    uint count;       // sets, at least 1
    uint op;          // SetOp: 0 AND, 1 OR, 2 ANDNOT, 3 XOR
    uint mode;        // MODE_LIST, MODE_COMBINE or MODE_LIST_WITH_DESTINATION
    uint per_invocation;  // MODE_LIST*: chunks an invocation lists
} pc;

const uint MODE_LIST = 0u;
const uint MODE_COMBINE = 1u;
// MODE_LIST, and the chunks the view after the sets (the destination) holds.
const uint MODE_LIST_WITH_DESTINATION = 2u;

const uint OP_AND = 0u;
const uint OP_OR = 1u;
const uint OP_ANDNOT = 2u;
const uint OP_XOR = 3u;

// Words of the chunk bitmap each invocation owns (2048 / WG_SIZE: the workgroup size is 64
// to 1024, a power of two).
#define WORDS_PER_INVOCATION (VKALGO_SET_BITMAP_WORDS / WG_SIZE)

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ViewRef { uvec4 v; };

shared uint s_acc[VKALGO_SET_BITMAP_WORDS];  // the result's chunk so far
shared uint s_tmp[VKALGO_SET_BITMAP_WORDS];  // an array or run chunk as a bitmap
shared uint s_chunk_count;

VkalgoSetView set_view(uint i) {
    uvec4 v = ViewRef(pc.views + uint64_t(i) * 16ul).v;
    return VkalgoSetView(packUint2x32(v.xy), v.z, v.w);
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

// Combines chunk c of set i into s_acc (`first`: s_acc is not set yet, it becomes the chunk).
// `op` is OR, XOR or AND here (ANDNOT's tail is an OR into s_tmp's complement below).
void combine(uint i, uint c, uint op, bool first) {
    VkalgoSetView s = set_view(i);
    uvec2 e = vkalgo_set_entry(s, c);
    if ((e.x & VKALGO_SET_CARD_MASK) == 0u && !first && op != OP_AND) {
        return;  // an empty chunk changes nothing but an intersection
    }
    if (needs_tmp(e)) {
        chunk_to_tmp(s, e);
    }
    bool empty = (e.x & VKALGO_SET_CARD_MASK) == 0u;
    [[unroll]] for (uint k = 0u; k < WORDS_PER_INVOCATION; ++k) {
        uint w = word_index(k);
        uint x = empty ? 0u : chunk_word(s, e, w);
        uint a = first ? x : (op == OP_OR ? s_acc[w] | x : op == OP_XOR ? s_acc[w] ^ x : s_acc[w] & x);
        s_acc[w] = a;
    }
    barrier();
}

// Whether set i holds values in chunk c.
bool holds(uint i, uint c) {
    return (vkalgo_set_entry(set_view(i), c).x & VKALGO_SET_CARD_MASK) != 0u;
}

// Appends chunk c to the list where the result may hold values there (or, with
// MODE_LIST_WITH_DESTINATION, where the destination holds values that the result replaces):
// for AND where every set holds values, for ANDNOT where the first does, else where any does.
void list_chunk(uint c) {
    bool any = pc.mode == MODE_LIST_WITH_DESTINATION && holds(pc.count, c);
    if (!any && pc.op == OP_AND) {
        // Stops at the first set without values there (most chunks: the first set).
        bool all = true;
        for (uint i = 0u; i < pc.count && all; ++i) {
            all = holds(i, c);
        }
        any = all;
    }
    uint scan = pc.op == OP_AND ? 0u : pc.op == OP_ANDNOT ? 1u : pc.count;
    for (uint i = 0u; i < scan && !any; ++i) {
        any = holds(i, c);
    }
    if (any) {
        uint at = atomicAdd(U32AtomicRef(pc.list).v[0], 1u);
        U32Ref(pc.ids + uint64_t(at) * 4ul).v[0] = c;
    }
}

void main() {
    if (pc.mode != MODE_COMBINE) {
        uint first = (linear_workgroup_id() * WG_SIZE + gl_LocalInvocationIndex) * pc.per_invocation;
        for (uint c = first; c < min(first + pc.per_invocation, 65536u); ++c) {
            list_chunk(c);
        }
        return;
    }
    if (linear_workgroup_id() == 0u && gl_LocalInvocationIndex == 0u) {
        U32AtomicRef(pc.status).v[0] = 1u;
    }
    uint listed = U32Ref(pc.list).v[0];
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    if (linear_workgroup_id() >= listed) {
        return;  // workgroup-uniform
    }
    uint partial = 0u;
    uint full = 0u;
    uint work = 0u;
    if (gl_LocalInvocationIndex == 0u) {
        s_chunk_count = 0u;
    }
    for (uint k = linear_workgroup_id(); k < listed; k += groups) {
        uint c = U32Ref(pc.ids + uint64_t(k) * 4ul).v[0];
        work++;
        if (pc.op == OP_ANDNOT) {
            // sets[0] minus the union of the others: the union into s_acc, then its complement
            // intersected with sets[0].
            for (uint i = 1u; i < pc.count; ++i) {
                combine(i, c, OP_OR, i == 1u);
            }
            if (pc.count > 1u) {
                [[unroll]] for (uint q = 0u; q < WORDS_PER_INVOCATION; ++q) {
                    s_acc[word_index(q)] = ~s_acc[word_index(q)];
                }
                barrier();
            }
            combine(0u, c, OP_AND, pc.count == 1u);
        } else {
            for (uint i = 0u; i < pc.count; ++i) {
                combine(i, c, pc.op, i == 0u);
            }
        }
        uint mine = 0u;
        [[unroll]] for (uint q = 0u; q < WORDS_PER_INVOCATION; ++q) {
            mine += bitCount(s_acc[word_index(q)]);
        }
        uint sum = subgroup_sum(mine);
        if (subgroupElect()) {
            atomicAdd(s_chunk_count, sum);
        }
        barrier();
        if (gl_LocalInvocationIndex == 0u) {
            uint chunk = s_chunk_count;
            if (chunk == VKALGO_SET_FULL) {
                full++;
            } else {
                partial += chunk;
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
