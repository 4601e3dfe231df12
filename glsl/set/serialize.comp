#version 460
// Roaring portable serialization of many sets, encoded on the GPU (src/set/serialize.rs): each
// non-empty chunk's container bytes written as CRoaring writes them after run_optimize (runs
// where their 2 + 4r bytes are fewer, else an array of up to 4096 values or a bitmap); the
// host adds each set's header from the listed chunks. Four dispatches, one mode each:
// - MODE_LIST, a workgroup a set: the set's non-empty chunks in order into its list range.
// - MODE_SIZE, a workgroup a list slot: the chunk's written form and bytes (its run count
//   from its values), into the slot; a set with any run container flagged.
// - MODE_OFFSETS, a workgroup a set: each chunk's byte offset in the set's data (a scan).
// - MODE_WRITE, a workgroup a list slot: the container's bytes built in shared memory, then
//   stored at the set's data base plus the chunk's offset (whole words stored, the words
//   shared with a neighbour OR-ed into the zeroed output).
// Each set is read through the public include's lookups, so flat and packed sets mix.
#include "../common/vkalgo.glsl"
#include "../public/vkalgo_set.glsl"
#include "view_words.glsl"
#include "../common/workgroup_scan.glsl"

// Must match src/set/serialize.rs (ChunkListPush).
layout(push_constant) uniform SerializePush {
    uint64_t views;    // `count` VkalgoSetView of 16 bytes
    uint64_t table;    // `count` uvec4: list base, list capacity, data base (words), data bound (bytes)
    uint64_t results;  // `count` uvec4: chunks listed, any runs, data bytes, overflow (zeroed first)
    uint64_t list;     // a uvec2 a slot (MODE_LIST: chunk, cardinality; MODE_SIZE on: chunk | (card - 1) << 16,
                       // bytes | runs << 31)
    uint64_t offsets;  // a u32 a slot: the chunk's byte offset in its set's data
    uint64_t dest;     // the sets' container bytes (zeroed first)
    uint count;        // sets
    uint mode;
    uint slots;        // list slots of all sets
    uint grid;         // workgroups of the dispatch
} pc;

const uint MODE_LIST = 0u;
const uint MODE_SIZE = 1u;
const uint MODE_OFFSETS = 2u;
const uint MODE_WRITE = 3u;

const uint BITMAP_BYTES = 8192u;
const uint RUNS_FLAG = 0x80000000u;

// Where write_chunk's half-words come from.
const uint DIRECT_NONE = 0u;
const uint DIRECT_ARRAY = 1u;          // the stored array's values
const uint DIRECT_BITMAP = 2u;         // the stored bitmap's words
const uint DIRECT_RUNS = 3u;           // the stored runs (or a full chunk's one run)
const uint DIRECT_STAGED = 4u;         // s_stage
const uint DIRECT_STAGED_BITMAP = 5u;  // s_bits

// Consecutive bitmap words of an invocation (the workgroup size is 64 to 1024, a power of two),
// so that values and runs enumerated word by word come out in order.
#define WPI (VKALGO_SET_BITMAP_WORDS / WG_SIZE)

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Vec2Ref { uvec2 v; };

shared uint s_bits[VKALGO_SET_BITMAP_WORDS];   // the chunk's values as a bitmap
shared uint s_stage[VKALGO_SET_BITMAP_WORDS];  // its written bytes (arrays and runs)

#include "chunk_bits.glsl"

VkalgoSetView set_view(uint s) {
    return view_at(pc.views, s);
}

uvec4 table_of(uint s) {
    return Vec4Ref(pc.table + uint64_t(s) * 16ul).v;
}

uint64_t result_addr(uint s) {
    return pc.results + uint64_t(s) * 16ul;
}

uint64_t slot_addr(uint slot) {
    return pc.list + uint64_t(slot) * 8ul;
}

#define LIST_RANGE(s) table_of(s).xy
#define LIST_SLOT(slot) slot_addr(slot)
#define LIST_SETS pc.count
#include "set_lists.glsl"

// MODE_LIST: set s's non-empty chunks, in order, into its list range (at most its capacity;
// more flag an overflow).
void list_set(uint s) {
    uvec4 t = table_of(s);
    uint n = list_chunks(set_view(s), t.xy);
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(result_addr(s)).v[0] = min(n, t.y);
        if (n > t.y) {
            U32Ref(result_addr(s)).v[3] = 1u;
        }
    }
}

// MODE_SIZE: the written form and bytes of the chunk in `slot` (listed for set s).
void size_chunk(uint slot, uint s) {
    VkalgoSetView v = set_view(s);
    uint c = Vec2Ref(slot_addr(slot)).v.x;
    uvec2 e = vkalgo_set_entry(v, c);
    uint card = e.x & VKALGO_SET_CARD_MASK;
    uint stored_runs = e.x >> VKALGO_SET_RUN_SHIFT;
    uint runs;
    if (card == VKALGO_SET_FULL) {
        runs = 1u;
    } else if (stored_runs != 0u) {
        // Its runs, less those that continue the one before (the written runs are maximal).
        uint joined = 0u;
        for (uint i = gl_LocalInvocationIndex + 1u; i < stored_runs; i += WG_SIZE) {
            joined += (vkalgo_set_run(v, e, i - 1u) >> 16) + 1u == (vkalgo_set_run(v, e, i) & 0xFFFFu) ? 1u : 0u;
        }
        runs = stored_runs - workgroup_reduce_add(joined);
    } else if (card <= VKALGO_SET_ARRAY_MAX) {
        // A run starts at each value that does not follow its predecessor.
        uint starts = 0u;
        for (uint j = gl_LocalInvocationIndex; j < card; j += WG_SIZE) {
            uint x = vkalgo_set_array_value(v, e.y, card, j);
            bool start = j == 0u || vkalgo_set_array_value(v, e.y, card, j - 1u) + 1u != x;
            starts += start ? 1u : 0u;
        }
        runs = workgroup_reduce_add(starts);
    } else {
        uint starts = 0u;
        for (uint w = gl_LocalInvocationIndex; w < VKALGO_SET_BITMAP_WORDS; w += WG_SIZE) {
            uint x = vkalgo_set_bitmap_word(v, e, w);
            uint before = w == 0u ? 0u : vkalgo_set_bitmap_word(v, e, w - 1u) >> 31;
            starts += bitCount(x & ~((x << 1) | before));
        }
        runs = workgroup_reduce_add(starts);
    }
    uint plain = card <= VKALGO_SET_ARRAY_MAX ? 2u * card : BITMAP_BYTES;
    bool as_runs = 2u + 4u * runs < plain;
    uint bytes = as_runs ? 2u + 4u * runs : plain;
    if (gl_LocalInvocationIndex == 0u) {
        Vec2Ref(slot_addr(slot)).v = uvec2(c | ((card - 1u) << 16), bytes | (as_runs ? RUNS_FLAG : 0u));
        if (as_runs) {
            atomicOr(U32AtomicRef(result_addr(s)).v[1], 1u);
        }
    }
}

// MODE_OFFSETS: each listed chunk's byte offset in set s's data, and the data's bytes.
void offsets_of_set(uint s) {
    uvec4 t = table_of(s);
    uint n = U32Ref(result_addr(s)).v[0];
    uint carry = 0u;
    for (uint j0 = 0u; j0 < n; j0 += WG_SIZE) {
        uint j = j0 + gl_LocalInvocationIndex;
        uint bytes = j < n ? Vec2Ref(slot_addr(t.x + j)).v.y & ~RUNS_FLAG : 0u;
        uint total;
        uint at = workgroup_exclusive_scan(bytes, total);
        if (j < n) {
            U32Ref(pc.offsets + uint64_t(t.x + j) * 4ul).v[0] = carry + at;
        }
        carry += total;
    }
    if (gl_LocalInvocationIndex == 0u) {
        U32Ref(result_addr(s)).v[2] = carry;
        if (carry > t.w) {
            U32Ref(result_addr(s)).v[3] = 1u;
        }
    }
}

// Half-word h (u16) of the chunk's written bytes: from s_bits for a bitmap, else s_stage.
uint half_word(uint h, bool bitmap) {
    uint w = bitmap ? s_bits[h >> 1] : s_stage[h >> 1];
    return (w >> ((h & 1u) * 16u)) & 0xFFFFu;
}

void store_halves(uint s, uint slot, uint bytes, uint direct, VkalgoSetView v, uvec2 e, uint card);

// MODE_WRITE: the container bytes of the chunk in `slot` (listed for set s).
void write_chunk(uint slot, uint s) {
    uint t = gl_LocalInvocationIndex;
    VkalgoSetView v = set_view(s);
    uvec2 info = Vec2Ref(slot_addr(slot)).v;
    uint c = info.x & 0xFFFFu;
    uint card = (info.x >> 16) + 1u;
    uint bytes = info.y & ~RUNS_FLAG;
    bool as_runs = (info.y & RUNS_FLAG) != 0u;
    uvec2 e = vkalgo_set_entry(v, c);
    uint stored_runs = e.x >> VKALGO_SET_RUN_SHIFT;
    bool array = card != VKALGO_SET_FULL && stored_runs == 0u && card <= VKALGO_SET_ARRAY_MAX;
    bool stored_bitmap = card != VKALGO_SET_FULL && stored_runs == 0u && card > VKALGO_SET_ARRAY_MAX;
    // Written as stored (an array's values, a bitmap's words, a run chunk's maximal runs, a
    // full chunk's one run): read straight from the set. Other forms go through s_bits.
    uint direct = DIRECT_NONE;
    if (!as_runs && array) {
        direct = DIRECT_ARRAY;
    } else if (!as_runs && stored_bitmap) {
        direct = DIRECT_BITMAP;
    } else if (as_runs && (card == VKALGO_SET_FULL || stored_runs == (bytes - 2u) / 4u)) {
        direct = DIRECT_RUNS;
    }
    if (direct != DIRECT_NONE) {
        store_halves(s, slot, bytes, direct, v, e, card);
        return;
    }

    // The chunk's values as a bitmap.
    for (uint q = 0u; q < WPI; ++q) {
        uint w = t * WPI + q;
        uint x = 0u;
        if (card == VKALGO_SET_FULL) {
            x = 0xFFFFFFFFu;
        } else if (stored_runs != 0u) {
            x = view_run_word(v, e, stored_runs, w);
        } else if (!array) {
            x = vkalgo_set_bitmap_word(v, e, w);
        }
        s_bits[w] = x;
        s_stage[w] = 0u;
    }
    barrier();
    if (array) {
        for (uint j = t; j < card; j += WG_SIZE) {
            uint x = vkalgo_set_array_value(v, e.y, card, j);
            atomicOr(s_bits[x >> 5], 1u << (x & 31u));
        }
        barrier();
    }

    bool bitmap = !as_runs && card > VKALGO_SET_ARRAY_MAX;
    if (as_runs) {
        // The run count, then (start, length - 1) a run: run k's start in the high half of
        // word k, its length in the low half of word k + 1.
        uint mine = 0u;
        for (uint q = 0u; q < WPI; ++q) {
            uint w = t * WPI + q;
            mine += bitCount(run_starts(w));
        }
        uint total;
        uint k = workgroup_exclusive_scan(mine, total);
        if (t == 0u) {
            atomicOr(s_stage[0], total);
        }
        for (uint q = 0u; q < WPI; ++q) {
            uint w = t * WPI + q;
            uint m = run_starts(w);
            while (m != 0u) {
                uint b = findLSB(m);
                m &= m - 1u;
                atomicOr(s_stage[k], (w * 32u + b) << 16);
                k++;
            }
        }
        barrier();
        // Run k ends at the k-th end (ends pair with starts in order).
        uint ends = 0u;
        for (uint q = 0u; q < WPI; ++q) {
            uint w = t * WPI + q;
            ends += bitCount(run_ends(w));
        }
        k = workgroup_exclusive_scan(ends, total);
        for (uint q = 0u; q < WPI; ++q) {
            uint w = t * WPI + q;
            uint m = run_ends(w);
            while (m != 0u) {
                uint b = findLSB(m);
                m &= m - 1u;
                uint start = s_stage[k] >> 16;
                atomicOr(s_stage[k + 1u], w * 32u + b - start);
                k++;
            }
        }
        barrier();
    } else if (!bitmap) {
        // The values in order, two a word.
        uint mine = 0u;
        for (uint q = 0u; q < WPI; ++q) {
            mine += bitCount(s_bits[t * WPI + q]);
        }
        uint total;
        uint rank = workgroup_exclusive_scan(mine, total);
        for (uint q = 0u; q < WPI; ++q) {
            uint w = t * WPI + q;
            uint m = s_bits[w];
            while (m != 0u) {
                uint b = findLSB(m);
                m &= m - 1u;
                atomicOr(s_stage[rank >> 1], (w * 32u + b) << ((rank & 1u) * 16u));
                rank++;
            }
        }
        barrier();
    }

    store_halves(s, slot, bytes, bitmap ? DIRECT_STAGED_BITMAP : DIRECT_STAGED, v, e, card);
}

// Half-word h (u16) of a chunk written as it is stored (`direct`), or staged in shared memory.
uint chunk_half(uint h, uint direct, VkalgoSetView v, uvec2 e, uint card) {
    if (direct == DIRECT_ARRAY) {
        return vkalgo_set_array_value(v, e.y, card, h);
    }
    if (direct == DIRECT_BITMAP) {
        return (vkalgo_set_bitmap_word(v, e, h >> 1) >> ((h & 1u) * 16u)) & 0xFFFFu;
    }
    if (direct == DIRECT_RUNS) {
        uint runs = card == VKALGO_SET_FULL ? 1u : e.x >> VKALGO_SET_RUN_SHIFT;
        if (h == 0u) {
            return runs;
        }
        uint run = card == VKALGO_SET_FULL ? 0xFFFF0000u : vkalgo_set_run(v, e, (h - 1u) / 2u);
        return ((h - 1u) & 1u) == 0u ? run & 0xFFFFu : (run >> 16) - (run & 0xFFFFu);
    }
    return half_word(h, direct == DIRECT_STAGED_BITMAP);
}

// Stores the chunk's `bytes` bytes (half-words from chunk_half) at set s's data base
// (word-aligned) plus the chunk's even offset.
void store_halves(uint s, uint slot, uint bytes, uint direct, VkalgoSetView v, uvec2 e, uint card) {
    uint t = gl_LocalInvocationIndex;
    uvec4 tab = table_of(s);
    uint offset = U32Ref(pc.offsets + uint64_t(slot) * 4ul).v[0];
    uint64_t base = pc.dest + uint64_t(tab.z) * 4ul;
    uint first_half = offset >> 1;
    uint halves = bytes >> 1;
    uint first_word = first_half >> 1;
    uint last_word = (first_half + halves - 1u) >> 1;
    for (uint q = first_word + t; q <= last_word; q += WG_SIZE) {
        int lo = int(2u * q) - int(first_half);
        int hi = lo + 1;
        bool lo_in = lo >= 0 && lo < int(halves);
        bool hi_in = hi >= 0 && hi < int(halves);
        uint word = (lo_in ? chunk_half(uint(lo), direct, v, e, card) : 0u)
                  | (hi_in ? chunk_half(uint(hi), direct, v, e, card) << 16 : 0u);
        uint64_t at = base + uint64_t(q) * 4ul;
        if (lo_in && hi_in) {
            U32Ref(at).v[0] = word;
        } else {
            atomicOr(U32AtomicRef(at).v[0], word);
        }
    }
    barrier();  // the shared arrays are filled again for the next slot
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
        uvec4 t = table_of(s);
        uvec4 r = Vec4Ref(result_addr(s)).v;
        if (slot - t.x >= r.x || r.w != 0u) {
            continue;  // past the set's chunks (workgroup-uniform), or an overflowing set
        }
        if (pc.mode == MODE_SIZE) {
            size_chunk(slot, s);
        } else {
            write_chunk(slot, s);
        }
    }
}
