#version 460
// Sets read from Roaring portable serializations on the GPU (src/set/deserialize.rs): the host
// checked every byte and placed every container (its form on the GPU, its blocks); here each
// set's control block is written, then each container's values into its set's pools and its
// directory entry. Two modes, one dispatch each, the second behind a barrier:
// - MODE_CONTAINERS, a workgroup a container: arrays and bitmaps kept as they are copied;
//   every other form built from the values as a bitmap in shared memory (runs from it, an
//   array of a run container's values, a bitmap of its runs).
// - MODE_CONTROL, a workgroup a set: its header (pool and ring addresses, ring masks, zero
//   cursors, its chunk count), then a packed directory's index (each group of 64 chunks' mask
//   of non-empty chunks and the number before it) or a flat directory zeroed.
#include "../common/vkalgo.glsl"
#include "../common/workgroup_scan.glsl"
#include "../public/vkalgo_set.glsl"

// Must match src/set/deserialize.rs (DeserializePush).
layout(push_constant) uniform DeserializePush {
    uint64_t data;        // the serializations' bytes (readable 8 bytes past the end)
    uint64_t containers;  // `count` placements of 32 bytes
    uint64_t sets;        // `set_count` set records of 64 bytes
    uint count;           // containers
    uint set_count;
    uint mode;
    uint grid;            // workgroups of the dispatch
} pc;

const uint MODE_CONTAINERS = 0u;
const uint MODE_CONTROL = 1u;

// The container's kind in the serialization (src/set/roaring.rs ContainerKind).
const uint SRC_ARRAY = 0u;
const uint SRC_BITMAP = 1u;
const uint SRC_RUNS = 2u;
// Its form on the GPU (GpuForm).
const uint FORM_FULL = 0u;
const uint FORM_RUNS = 1u;
const uint FORM_ARRAY = 2u;
const uint FORM_BITMAP = 3u;

const uint ARRAY_BLOCK_BYTES = VKALGO_SET_ARRAY_BLOCK_WORDS * 4u;
const uint BITMAP_BLOCK_BYTES = VKALGO_SET_BITMAP_WORDS * 4u;

// Consecutive bitmap words of an invocation (the workgroup size is 64 to 1024, a power of two),
// so that runs and values enumerated word by word come out in order.
#define WPI (VKALGO_SET_BITMAP_WORDS / WG_SIZE)

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Vec2Ref { uvec2 v; };

shared uint s_bits[VKALGO_SET_BITMAP_WORDS];   // the chunk's values as a bitmap
shared uint s_stage[VKALGO_SET_BITMAP_WORDS];  // an array's values, two a word
shared uint s_run[64];                         // the runs' first values, then their words

#include "chunk_bits.glsl"

// A set's record: its control block, pools, directory form and containers (the header's
// other words are in the record's last 32 bytes: src/set/deserialize.rs).
struct SetRecord {
    uint64_t control;
    uint64_t bm_pool;
    uint64_t ar_pool;
    bool packed;
    uint first;  // its first container
    uint count;  // its containers
};

SetRecord set_record(uint s) {
    uint64_t at = pc.sets + uint64_t(s) * 64ul;
    uvec4 r0 = Vec4Ref(at).v;
    uvec4 r1 = Vec4Ref(at + 16ul).v;
    uvec4 r2 = Vec4Ref(at + 32ul).v;
    return SetRecord(packUint2x32(r0.xy), packUint2x32(r0.zw), packUint2x32(r1.xy), r1.z != 0u, r1.w, r2.x);
}

uint key_of(uint i) {
    return Vec4Ref(pc.containers + uint64_t(i) * 32ul).v.y & 0xFFFFu;
}

// The 4 bytes at byte address a of the data (any alignment).
uint data_u32(uint64_t a) {
    uint64_t base = a & ~3ul;
    uint shift = uint(a & 3ul) * 8u;
    uint lo = U32Ref(base).v[0];
    if (shift == 0u) {
        return lo;
    }
    return (lo >> shift) | (U32Ref(base + 4ul).v[0] << (32u - shift));
}

uint data_u16(uint64_t a) {
    return data_u32(a) & 0xFFFFu;
}

void store(uint64_t a, uint x) {
    U32Ref(a).v[0] = x;
}

// s_bits = the container's values (workgroup-uniform).
void load_bits(uint kind, uint64_t src, uint n) {
    uint t = gl_LocalInvocationIndex;
    for (uint q = 0u; q < WPI; ++q) {
        uint w = t * WPI + q;
        s_bits[w] = kind == SRC_BITMAP ? data_u32(src + uint64_t(w) * 4ul) : 0u;
    }
    barrier();
    if (kind == SRC_ARRAY) {
        for (uint j = t; j < n; j += WG_SIZE) {
            uint x = data_u16(src + uint64_t(j) * 2ul);
            atomicOr(s_bits[x >> 5], 1u << (x & 31u));
        }
    } else if (kind == SRC_RUNS) {
        for (uint k = t; k < n; k += WG_SIZE) {
            uint first = data_u16(src + uint64_t(k) * 4ul);
            uint last = first + data_u16(src + uint64_t(k) * 4ul + 2ul);
            for (uint w = first >> 5; w <= last >> 5; ++w) {
                uint lo = max(first, w * 32u) - w * 32u;
                uint hi = min(last, w * 32u + 31u) - w * 32u;
                atomicOr(s_bits[w], (0xFFFFFFFFu >> (31u - hi)) & (0xFFFFFFFFu << lo));
            }
        }
    }
    barrier();
}

// The runs of s_bits (at most 64; the placement says how many) as words first | last << 16
// into s_run (workgroup-uniform).
void runs_of_bits() {
    uint t = gl_LocalInvocationIndex;
    uint starts = 0u;
    uint ends = 0u;
    for (uint q = 0u; q < WPI; ++q) {
        uint w = t * WPI + q;
        starts += bitCount(run_starts(w));
        ends += bitCount(run_ends(w));
    }
    uint total;
    uint k = workgroup_exclusive_scan(starts, total);
    for (uint q = 0u; q < WPI; ++q) {
        uint w = t * WPI + q;
        uint m = run_starts(w);
        while (m != 0u) {
            uint b = findLSB(m);
            m &= m - 1u;
            if (k < 64u) {
                s_run[k] = w * 32u + b;
            }
            k++;
        }
    }
    barrier();
    k = workgroup_exclusive_scan(ends, total);
    for (uint q = 0u; q < WPI; ++q) {
        uint w = t * WPI + q;
        uint m = run_ends(w);
        while (m != 0u) {
            uint b = findLSB(m);
            m &= m - 1u;
            if (k < 64u) {
                s_run[k] |= (w * 32u + b) << 16;
            }
            k++;
        }
    }
    barrier();
}

// The array stream of n values (header words naming the chunk's further blocks, then the
// values two a word) from block `id` on, whose blocks are consecutive; value j from `value`.
void store_array(uint64_t ar_pool, uint id, uint n, bool from_stage, uint64_t src) {
    uint words = (n + 1u) / 2u;
    uint blocks = max(1u, (words - 1u + VKALGO_SET_ARRAY_BLOCK_WORDS - 2u) / (VKALGO_SET_ARRAY_BLOCK_WORDS - 1u));
    uint h = blocks - 1u;
    uint64_t stream = ar_pool + uint64_t(id) * uint64_t(ARRAY_BLOCK_BYTES);
    for (uint k = gl_LocalInvocationIndex; k < h + words; k += WG_SIZE) {
        uint x;
        if (k < h) {
            x = id + k + 1u;
        } else if (from_stage) {
            x = s_stage[k - h];
        } else {
            uint j = 2u * (k - h);
            x = data_u32(src + uint64_t(j) * 2ul);
            if (j + 1u == n) {
                x &= 0xFFFFu;
            }
        }
        store(stream + uint64_t(k) * 4ul, x);
    }
}

// MODE_CONTAINERS: container i's values and directory entry.
void place(uint i) {
    uint t = gl_LocalInvocationIndex;
    uvec4 a = Vec4Ref(pc.containers + uint64_t(i) * 32ul).v;
    uvec4 b = Vec4Ref(pc.containers + uint64_t(i) * 32ul + 16ul).v;
    uint64_t src = pc.data + uint64_t(a.x);
    uint key = a.y & 0xFFFFu;
    uint kind = (a.y >> 16) & 0xFu;
    uint form = (a.y >> 20) & 0xFu;
    uint card = a.z;
    uint n = a.w;
    uint dst = b.x;
    uint runs = b.y;
    SetRecord rec = set_record(b.z);
    uint y = dst;
    if (form == FORM_ARRAY && kind == SRC_ARRAY) {
        store_array(rec.ar_pool, dst, card, false, src);
    } else if (form == FORM_BITMAP && kind == SRC_BITMAP) {
        uint64_t block = rec.bm_pool + uint64_t(dst) * uint64_t(BITMAP_BLOCK_BYTES);
        for (uint w = t; w < VKALGO_SET_BITMAP_WORDS; w += WG_SIZE) {
            store(block + uint64_t(w) * 4ul, data_u32(src + uint64_t(w) * 4ul));
        }
    } else if (form == FORM_FULL) {
        y = 0u;
    } else {
        load_bits(kind, src, n);
        if (form == FORM_RUNS) {
            runs_of_bits();
            if (runs == 1u) {
                y = s_run[0];
            } else {
                // Several runs: a block of the array pool (flat), or words from word `dst` on
                // (packed).
                uint64_t first = rec.packed ? rec.ar_pool + uint64_t(dst) * 4ul
                                            : rec.ar_pool + uint64_t(dst) * uint64_t(ARRAY_BLOCK_BYTES);
                for (uint k = t; k < runs; k += WG_SIZE) {
                    store(first + uint64_t(k) * 4ul, s_run[k]);
                }
            }
        } else if (form == FORM_ARRAY) {
            // A run container's values in order, two a word.
            uint mine = 0u;
            for (uint q = 0u; q < WPI; ++q) {
                s_stage[t * WPI + q] = 0u;
                mine += bitCount(s_bits[t * WPI + q]);
            }
            barrier();
            uint total;
            uint rank = workgroup_exclusive_scan(mine, total);
            for (uint q = 0u; q < WPI; ++q) {
                uint w = t * WPI + q;
                uint m = s_bits[w];
                while (m != 0u) {
                    uint bit = findLSB(m);
                    m &= m - 1u;
                    atomicOr(s_stage[rank >> 1], (w * 32u + bit) << ((rank & 1u) * 16u));
                    rank++;
                }
            }
            barrier();
            store_array(rec.ar_pool, dst, card, true, 0ul);
        } else {
            uint64_t block = rec.bm_pool + uint64_t(dst) * uint64_t(BITMAP_BLOCK_BYTES);
            for (uint w = t; w < VKALGO_SET_BITMAP_WORDS; w += WG_SIZE) {
                store(block + uint64_t(w) * 4ul, s_bits[w]);
            }
        }
    }
    if (t == 0u) {
        uint x = card | (form == FORM_RUNS ? runs << VKALGO_SET_RUN_SHIFT : 0u);
        uint64_t dir = rec.control + VKALGO_SET_DIR_OFFSET;
        uint64_t entry = rec.packed ? dir + VKALGO_SET_DIR_INDEX_BYTES + uint64_t(b.w) * 8ul
                                    : dir + uint64_t(key) * 8ul;
        Vec2Ref(entry).v = uvec2(x, y);
    }
    barrier();  // the shared arrays are filled again for the next container
}

// MODE_CONTROL: set s's control block. The header's 64 words: the bitmap pool, array pool,
// bitmap ring and array ring addresses (words 0-7), the rings' masks (8, 9), zero cursors
// (16-19), the chunk count (20), zeros elsewhere (src/set/layout.rs meta_bytes).
void control_set(uint s) {
    SetRecord rec = set_record(s);
    uint64_t at = pc.sets + uint64_t(s) * 64ul;
    uvec4 r2 = Vec4Ref(at + 32ul).v;
    uvec4 rings = Vec4Ref(at + 48ul).v;
    uint t = gl_LocalInvocationIndex;
    for (uint w = t; w < uint(VKALGO_SET_DIR_OFFSET) / 4u; w += WG_SIZE) {
        uint x = 0u;
        if (w < 2u) {
            x = unpackUint2x32(rec.bm_pool)[w];
        } else if (w < 4u) {
            x = unpackUint2x32(rec.ar_pool)[w - 2u];
        } else if (w < 8u) {
            x = rings[w - 4u];
        } else if (w < 10u) {
            x = w == 8u ? r2.y : r2.z;
        } else if (w == 20u) {
            x = rec.count;
        }
        store(rec.control + uint64_t(w) * 4ul, x);
    }
    uint64_t dir = rec.control + VKALGO_SET_DIR_OFFSET;
    if (!rec.packed) {
        for (uint c = t; c < 65536u; c += WG_SIZE) {
            Vec2Ref(dir + uint64_t(c) * 8ul).v = uvec2(0u);
        }
        return;
    }
    for (uint g = t; g < 1024u; g += WG_SIZE) {
        uint lo = 0u;
        uint hi = rec.count;
        while (lo < hi) {
            uint mid = (lo + hi) / 2u;
            if (key_of(rec.first + mid) < g * 64u) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        uvec2 mask = uvec2(0u);
        for (uint k = lo; k < rec.count; ++k) {
            uint c = key_of(rec.first + k);
            if (c >= g * 64u + 64u) {
                break;
            }
            uint bit = c - g * 64u;
            if (bit < 32u) {
                mask.x |= 1u << bit;
            } else {
                mask.y |= 1u << (bit - 32u);
            }
        }
        Vec4Ref(dir + uint64_t(g) * 16ul).v = uvec4(mask, lo, 0u);
    }
}

void main() {
    uint id = linear_workgroup_id();
    if (id >= pc.grid) {
        return;  // past the grid (a dispatch split into rows)
    }
    if (pc.mode == MODE_CONTROL) {
        for (uint s = id; s < pc.set_count; s += pc.grid) {
            control_set(s);
        }
        return;
    }
    for (uint i = id; i < pc.count; i += pc.grid) {
        place(i);
    }
}
