// vkalgo_set.glsl: test membership in a vkalgo GPU set of 32-bit values from your own shaders.
//
// Installed with the C header (CMake package: <prefix>/include/vkalgo/glsl/vkalgo_set.glsl; in
// the source tree: glsl/public/). vkalgo's own set kernels include this file too, so the lookups
// here read the set exactly as the library wrote it.
//
// Usage (GLSL 4.60, Vulkan 1.2+, bufferDeviceAddress, shaderInt64):
//
//     #version 460
//     #include "vkalgo_set.glsl"
//     layout(push_constant) uniform Push { VkalgoSetView set; uint64_t values; ... } pc;
//     ...
//     if (vkalgo_set_contains(pc.set, value)) { ... }
//
// Fill `set` with what vkalgo returns for the set: `GpuSet::device_view()` (Rust) or
// `vkalgo_set_device_view()` (C). The struct is 16 bytes, 8-byte aligned, with the same layout
// in push constants, std140 and std430 blocks and in C/Rust (VkalgoSetDeviceView). The view
// stays valid until the next call that changes the set (inserts, removals, operations written
// into it, pack, unpack, reserve, shrink, run_optimize): they may move its storage.
//
// Synchronization: a lookup reads the set's storage with plain loads. Make the set operations
// that wrote it (COMPUTE_SHADER and TRANSFER writes) visible to your shader's stage with a
// memory barrier first, and do not write the set while your lookups run.
//
// Layout (what the functions below rely on): the set cuts [0, 2^32) into 65536 chunks of 2^16
// values. Its control block starts with the device addresses of its bitmap pool and its array
// pool; at VKALGO_SET_DIR_OFFSET its directory gives each chunk an entry (x, y): x & CARD_MASK
// is the chunk's cardinality, x >> RUN_SHIFT its number of runs (0: not a run chunk). A flat
// directory holds the 65536 entries; a packed one (`packed` 1) an index of 1024 uvec4, one per
// 64 chunks (the mask of its non-empty chunks in two words, the number of non-empty chunks
// before it), then the entries of the non-empty chunks in order. A chunk is empty (0 values),
// full (65536), a run chunk (runs of first | last << 16: the one run in y, or several runs in
// the array pool from block y (flat) or word y (packed)), a sorted array of up to ARRAY_MAX
// u16 values (blocks of ARRAY_BLOCK_WORDS words of the array pool: block y starts with the ids
// of the chunk's further blocks, then the values two per word, low half first, in one stream
// through the blocks), or a bitmap of 2048 words (block y of the bitmap pool).
//
// Addressing: every access is a 64-bit byte address, never an array index that could reach
// 2^31.
#ifndef VKALGO_SET_GLSL
#define VKALGO_SET_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// What a shader needs to know about a set (VkalgoSetDeviceView in C and Rust).
struct VkalgoSetView {
    uint64_t control;  // device address of the set's control block
    uint packed;       // 1: a packed directory, 0: a flat one
    uint reserved;     // 0
};

// The layout's constants (the library's tests check them against its own).
const uint VKALGO_SET_FULL = 65536u;
const uint VKALGO_SET_ARRAY_MAX = 4096u;
const uint VKALGO_SET_CARD_MASK = 131071u;
const uint VKALGO_SET_RUN_SHIFT = 17u;
const uint VKALGO_SET_ARRAY_BLOCK_WORDS = 48u;
const uint VKALGO_SET_BITMAP_WORDS = 2048u;
const uint64_t VKALGO_SET_DIR_OFFSET = 256ul;
const uint64_t VKALGO_SET_DIR_INDEX_BYTES = 16384ul;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer VkalgoSetControlRef {
    uint64_t bitmap_pool;
    uint64_t array_pool;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer VkalgoSetWordRef { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer VkalgoSetEntryRef { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer VkalgoSetIndexRef { uvec4 v[]; };

// The directory entry of chunk c (uvec2(0) for an empty chunk).
uvec2 vkalgo_set_entry(VkalgoSetView s, uint c) {
    uint64_t dir = s.control + VKALGO_SET_DIR_OFFSET;
    if (s.packed == 0u) {
        return VkalgoSetEntryRef(dir + uint64_t(c) * 8ul).v[0];
    }
    uvec4 g = VkalgoSetIndexRef(dir + uint64_t(c >> 6) * 16ul).v[0];
    uint i = c & 63u;
    uint word = i < 32u ? g.x : g.y;
    uint bit = i & 31u;
    if (((word >> bit) & 1u) == 0u) {
        return uvec2(0u);
    }
    uint rank = g.z + bitCount(word & ((1u << bit) - 1u)) + (i < 32u ? 0u : bitCount(g.x));
    return VkalgoSetEntryRef(dir + VKALGO_SET_DIR_INDEX_BYTES + uint64_t(rank) * 8ul).v[0];
}

// Run i (first | last << 16) of a run chunk with entry e.
uint vkalgo_set_run(VkalgoSetView s, uvec2 e, uint i) {
    if ((e.x >> VKALGO_SET_RUN_SHIFT) == 1u) {
        return e.y;
    }
    uint64_t pool = VkalgoSetControlRef(s.control).array_pool;
    uint64_t first = s.packed != 0u ? pool + uint64_t(e.y) * 4ul
                                    : pool + uint64_t(e.y) * uint64_t(VKALGO_SET_ARRAY_BLOCK_WORDS * 4u);
    return VkalgoSetWordRef(first).v[i];
}

// Word w of the stream of an array chunk whose first block is id0 (header words first).
uint vkalgo_set_array_word(VkalgoSetView s, uint id0, uint w) {
    uint64_t pool = VkalgoSetControlRef(s.control).array_pool;
    uint64_t block_bytes = uint64_t(VKALGO_SET_ARRAY_BLOCK_WORDS * 4u);
    uint blk = w / VKALGO_SET_ARRAY_BLOCK_WORDS;
    uint id = blk == 0u ? id0 : VkalgoSetWordRef(pool + uint64_t(id0) * block_bytes).v[blk - 1u];
    return VkalgoSetWordRef(pool + uint64_t(id) * block_bytes).v[w % VKALGO_SET_ARRAY_BLOCK_WORDS];
}

// Value j (0..n-1) of an array chunk of n values whose first block is id0.
uint vkalgo_set_array_value(VkalgoSetView s, uint id0, uint n, uint j) {
    // The header: the ids of the chunk's blocks after the first.
    uint words = (n + 1u) / 2u;
    uint blocks = max(1u, (words - 1u + VKALGO_SET_ARRAY_BLOCK_WORDS - 2u) / (VKALGO_SET_ARRAY_BLOCK_WORDS - 1u));
    uint word = vkalgo_set_array_word(s, id0, blocks - 1u + j / 2u);
    return (j & 1u) == 0u ? (word & 0xFFFFu) : (word >> 16);
}

// Word w (values 32 w .. 32 w + 31) of a bitmap chunk with entry e.
uint vkalgo_set_bitmap_word(VkalgoSetView s, uvec2 e, uint w) {
    uint64_t block = VkalgoSetControlRef(s.control).bitmap_pool
                   + uint64_t(e.y) * uint64_t(VKALGO_SET_BITMAP_WORDS * 4u);
    return VkalgoSetWordRef(block + uint64_t(w) * 4ul).v[0];
}

// Whether v is in the set.
bool vkalgo_set_contains(VkalgoSetView s, uint v) {
    uint x = v & 0xFFFFu;
    uvec2 e = vkalgo_set_entry(s, v >> 16);
    uint card = e.x & VKALGO_SET_CARD_MASK;
    uint runs = e.x >> VKALGO_SET_RUN_SHIFT;
    if (card == 0u) {
        return false;
    }
    if (card == VKALGO_SET_FULL) {
        return true;
    }
    if (runs != 0u) {
        // The last run starting at or below x (runs ascend), then whether it reaches x.
        uint lo = 0u;
        uint hi = runs;
        while (hi - lo > 1u) {
            uint mid = (lo + hi) / 2u;
            if ((vkalgo_set_run(s, e, mid) & 0xFFFFu) <= x) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        uint run = vkalgo_set_run(s, e, lo);
        return (run & 0xFFFFu) <= x && x <= (run >> 16);
    }
    if (card > VKALGO_SET_ARRAY_MAX) {
        uint word = vkalgo_set_bitmap_word(s, e, x >> 5);
        return ((word >> (x & 31u)) & 1u) != 0u;
    }
    uint lo = 0u;
    uint hi = card;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (vkalgo_set_array_value(s, e.y, card, mid) < x) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo < card && vkalgo_set_array_value(s, e.y, card, lo) == x;
}

#endif  // VKALGO_SET_GLSL
