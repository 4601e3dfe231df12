#version 460
// The values of many sets in ascending order, each set's at its own place of one output
// (src/set/many.rs, GpuSet::to_array_many), in three dispatches whatever the number of sets:
// - MODE_LIST, a workgroup a set: the set's non-empty chunks in order into its list range, each
//   with its cardinality.
// - MODE_OFFSETS, a workgroup a set: each listed chunk's first value's position in the set's
//   values (a scan of the cardinalities), and the set's count.
// - MODE_WRITE, a workgroup a list slot: the chunk's values stored from that position on.
// Each set is read through the public include's lookups, so flat and packed sets mix. A set
// whose chunks or values pass its capacities (the host's bounds) is flagged and not written.
#include "../common/vkalgo.glsl"
#include "../public/vkalgo_set.glsl"
#include "view_words.glsl"
#include "../common/workgroup_scan.glsl"

// Must match src/set/serialize.rs (ChunkListPush).
layout(push_constant) uniform ToArrayManyPush {
    uint64_t views;    // `count` VkalgoSetView of 16 bytes
    uint64_t table;    // `count` pairs of uvec4: (list base, list capacity, 0, 0),
                       // (first value's index in `values` as u64, value capacity as u64)
    uint64_t results;  // `count` uvec4: chunks listed, 0, overflow, 0 (zeroed first)
    uint64_t list;     // a uvec2 a slot: chunk, cardinality (1 to 65536)
    uint64_t offsets;  // a u32 a slot: the chunk's first value's position in its set's values
    uint64_t dest;     // the output values (u32)
    uint count;        // sets
    uint mode;
    uint slots;        // list slots of all sets
    uint grid;         // workgroups of the dispatch
} pc;

const uint MODE_LIST = 0u;
const uint MODE_OFFSETS = 1u;
const uint MODE_WRITE = 2u;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Vec2Ref { uvec2 v; };

VkalgoSetView set_view(uint s) {
    return view_at(pc.views, s);
}

uvec4 list_range_of(uint s) {
    return Vec4Ref(pc.table + uint64_t(s) * 32ul).v;
}

// The set's first value's index in `values` (xy) and its value capacity (zw), as u64.
uvec4 out_range_of(uint s) {
    return Vec4Ref(pc.table + uint64_t(s) * 32ul + 16ul).v;
}

uint64_t result_addr(uint s) {
    return pc.results + uint64_t(s) * 16ul;
}

uint64_t slot_addr(uint slot) {
    return pc.list + uint64_t(slot) * 8ul;
}

#define LIST_RANGE(s) list_range_of(s).xy
#define LIST_SLOT(slot) slot_addr(slot)
#define LIST_SETS pc.count
#include "set_lists.glsl"

// MODE_LIST: set s's non-empty chunks and their cardinalities, in order, into its list range
// (at most its capacity; more flag an overflow).
void list_set(uint s) {
    uvec4 t = list_range_of(s);
    uint n = list_chunks(set_view(s), t.xy);
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(result_addr(s)).v[0] = min(n, t.y);
        if (n > t.y) {
            U32Ref(result_addr(s)).v[2] = 1u;
        }
    }
}

// MODE_OFFSETS: each listed chunk's first value's position in set s's values, and the count
// (a set's values number at most 2^32, so a chunk's first position fits in a u32).
void offsets_of_set(uint s) {
    uvec4 t = list_range_of(s);
    uint n = U32Ref(result_addr(s)).v[0];
    uint64_t carry = 0ul;
    for (uint j0 = 0u; j0 < n; j0 += WG_SIZE) {
        uint j = j0 + gl_LocalInvocationIndex;
        uint card = j < n ? Vec2Ref(slot_addr(t.x + j)).v.y : 0u;
        // A tile's values (at most 1024 chunks of 65536) fit in a u32.
        uint total;
        uint at = workgroup_exclusive_scan(card, total);
        if (j < n) {
            U32Ref(pc.offsets + uint64_t(t.x + j) * 4ul).v[0] = uint(carry) + at;
        }
        carry += uint64_t(total);
    }
    if (gl_LocalInvocationIndex == 0u) {
        uvec4 o = out_range_of(s);
        if (carry > packUint2x32(o.zw)) {
            U32Ref(result_addr(s)).v[2] = 1u;
        }
    }
}

void emit(uint64_t at, uint value) {
    U32Ref(pc.dest + at * 4ul).v[0] = value;
}

// The values of a bitmap chunk (entry e of set v) from output index `at` on. Each subgroup
// takes an equal share of the words, counts their values for a workgroup scan of the
// positions, then walks them S at a time (lane l loads word l, the next S loaded ahead), lane
// l testing bits l, l + S, ... of each word: the values of one word go to consecutive
// positions in one store (as glsl/set/to_array.comp).
void emit_bitmap(VkalgoSetView v, uvec2 e, uint64_t at, uint hi) {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint share = VKALGO_SET_BITMAP_WORDS / gl_NumSubgroups;  // both powers of two, share >= S
    uint w0 = gl_SubgroupID * share;
    uint mine = 0u;
    for (uint w = w0 + lane; w < w0 + share; w += S) {
        mine += bitCount(vkalgo_set_bitmap_word(v, e, w));
    }
    uint chunk_total;
    uint64_t p = at + workgroup_exclusive_scan_subgroup_values(subgroup_sum(mine), chunk_total);
    uint lanes = min(S, 32u);  // lanes past 32 (subgroups of 64) test no bit
    uint next = vkalgo_set_bitmap_word(v, e, w0 + lane);
    for (uint base = w0; base < w0 + share; base += S) {
        uint words = next;
        if (base + S < w0 + share) {
            next = vkalgo_set_bitmap_word(v, e, base + S + lane);
        }
        for (uint k = 0u; k < S; ++k) {
            uint bits = subgroupShuffle(words, k);
            uint value0 = hi | ((base + k) * 32u);
            for (uint b = lane; b < 32u && lane < lanes; b += lanes) {
                if (((bits >> b) & 1u) != 0u) {
                    emit(p + bitCount(bits & ((1u << b) - 1u)), value0 | b);
                }
            }
            p += bitCount(bits);
        }
    }
}

// MODE_WRITE: the values of the chunk in `slot` (listed for set s), in order.
void write_chunk(uint slot, uint s) {
    uint t = gl_LocalInvocationIndex;
    VkalgoSetView v = set_view(s);
    uint c = Vec2Ref(slot_addr(slot)).v.x;
    uvec4 o = out_range_of(s);
    uint64_t at = packUint2x32(o.xy) + uint64_t(U32Ref(pc.offsets + uint64_t(slot) * 4ul).v[0]);
    uint hi = c << 16;
    uvec2 e = vkalgo_set_entry(v, c);
    uint card = e.x & VKALGO_SET_CARD_MASK;
    uint runs = e.x >> VKALGO_SET_RUN_SHIFT;
    if (card == VKALGO_SET_FULL) {
        for (uint j = t; j < VKALGO_SET_FULL; j += WG_SIZE) {
            emit(at + j, hi | j);
        }
    } else if (runs != 0u) {
        // Run by run, each spread over the workgroup (the run words are uniform loads).
        uint before = 0u;
        for (uint i = 0u; i < runs; ++i) {
            uint run = vkalgo_set_run(v, e, i);
            uint first = run & 0xFFFFu;
            uint len = (run >> 16) - first + 1u;
            for (uint k = t; k < len; k += WG_SIZE) {
                emit(at + before + k, hi | (first + k));
            }
            before += len;
        }
    } else if (card <= VKALGO_SET_ARRAY_MAX) {
        uint words = (card + 1u) / 2u;
        uint head = view_array_head(card);
        for (uint j = t; j < words; j += WG_SIZE) {
            uint word = vkalgo_set_array_word(v, e.y, head + j);
            emit(at + 2u * j, hi | (word & 0xFFFFu));
            if (2u * j + 1u < card) {
                emit(at + 2u * j + 1u, hi | (word >> 16));
            }
        }
    } else {
        emit_bitmap(v, e, at, hi);
    }
}

void main() {
    uint id = linear_workgroup_id();
    if (id >= pc.grid) {
        return;  // past the grid (a dispatch split into rows)
    }
    if (pc.mode == MODE_LIST || pc.mode == MODE_OFFSETS) {
        for (uint s = id; s < pc.count; s += pc.grid) {
            if (pc.mode == MODE_LIST) {
                list_set(s);
            } else {
                offsets_of_set(s);
            }
        }
        return;
    }
    for (uint slot = id; slot < pc.slots; slot += pc.grid) {
        uint s = set_of_slot(slot);
        uvec4 t = list_range_of(s);
        uvec4 r = Vec4Ref(result_addr(s)).v;
        if (slot - t.x >= r.x || r.z != 0u) {
            continue;  // past the set's chunks (workgroup-uniform), or an overflowing set
        }
        write_chunk(slot, s);
    }
}
