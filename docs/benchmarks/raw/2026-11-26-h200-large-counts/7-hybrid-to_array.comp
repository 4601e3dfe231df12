#version 460
// Writes the set's values in ascending order to out_addr (after info.comp mode 0 wrote the
// chunk offsets and the lists of non-empty chunks into scratch), at most max_count values (the
// output's capacity). Grid-stride over the listed chunks: bitmap, full and larger array chunks
// one workgroup each, then the smaller array chunks one subgroup each.
#include "set_common.glsl"


// Each subgroup's count of values in its share of a bitmap chunk.
shared uint s_counts[WG_SIZE];

void emit(uint index, uint value) {
    if (index < pc.max_count) {
        U32Ref(u32_addr(pc.out_addr, index)).v[0] = value;
    }
}

// The values of the array chunk with directory entry `e` (chunk `hi` >> 16) from output
// position `off` on, by `lanes` invocations (`lane` this one's index among them).
void emit_array(uvec2 e, uint off, uint hi, uint lane, uint lanes) {
    uint h = header_words(e.x);
    uint words = (e.x + 1u) / 2u;
    for (uint j = lane; j < words; j += lanes) {
        uint word = array_stream_word(pc.meta_d, e.y, h + j);
        emit(off + 2u * j, hi | (word & 0xFFFFu));
        if (2u * j + 1u < e.x) {
            emit(off + 2u * j + 1u, hi | (word >> 16));
        }
    }
}

// The values of words [w0, w1) of bitmap block `block` (chunk `hi` >> 16) from output position
// p on, by one subgroup (w1 - w0 a multiple of the subgroup size).
void walk_bitmap(uint block, uint w0, uint w1, uint p, uint hi) {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint lanes = min(S, 32u);  // lanes past 32 (subgroups of 64) test no bit
    uint next = U32Ref(bitmap_word_addr(pc.meta_d, block, w0 + lane)).v[0];
    for (uint base = w0; base < w1; base += S) {
        uint words = next;
        if (base + S < w1) {
            next = U32Ref(bitmap_word_addr(pc.meta_d, block, base + S + lane)).v[0];
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

// The values of bitmap block `block` of chunk `hi` >> 16, from output position `off` on. Each
// subgroup takes an equal share of the words; it reads them S at a time (lane l word l, the
// next S loaded ahead) and walks them one by one, lane l testing bits l, l + S, ... of the
// word: the values of one word go to consecutive positions in one store. (Each invocation
// writing the values of its own words, 256 values apart from its neighbours', wrote 4.3
// billion values at 41 G values/s on an H200: every store touched a cache line per lane,
// docs/benchmarks/2026-11-26-h200-large-counts.md.)
void emit_bitmap(uint block, uint off, uint hi) {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint share = BITMAP_WORDS / gl_NumSubgroups;  // both powers of two, share >= S
    uint w0 = gl_SubgroupID * share;
    uint mine = 0u;
    for (uint w = w0 + lane; w < w0 + share; w += S) {
        mine += bitCount(U32Ref(bitmap_word_addr(pc.meta_d, block, w)).v[0]);
    }
    uint total = subgroupAdd(mine);
    if (subgroupElect()) {
        s_counts[gl_SubgroupID] = total;
    }
    barrier();
    uint p = off;
    for (uint i = 0u; i < gl_SubgroupID; ++i) {
        p += s_counts[i];
    }
    barrier();  // s_counts is read before the next chunk writes it
    walk_bitmap(block, w0, w0 + share, p, hi);
}

void main() {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    // Bitmap, full and larger array chunks (info.comp's list from the back): one workgroup
    // each, the largest work first.
    uint bigs = U32Ref(pc.scratch).v[S_BITMAP_COUNT];
    for (uint item = linear_workgroup_id(); item < bigs; item += pc.grid) {
        uint c = U32Ref(pc.scratch).v[S_BITMAPS_ENTRY(item)];
        uvec2 e = dir_entry(pc.meta_d, c);
        uint off = U32Ref(pc.scratch).v[S_START + c];
        if (off >= pc.max_count) {
            continue;
        }
        uint hi = c << 16;
        if (e.x == FULL) {
            for (uint j = gl_LocalInvocationIndex; j < FULL; j += WG_SIZE) {
                emit(off + j, hi | j);
            }
        } else if (e.x <= ARRAY_MAX) {
            emit_array(e, off, hi, gl_LocalInvocationIndex, WG_SIZE);
        } else {
            emit_bitmap(e.y, off, hi);
        }
    }
    // Array chunks of at most SMALL_ARRAY values (info.comp's list from the front): one
    // subgroup each, so that a workgroup waits on several chunks' chains of loads (directory,
    // offset, block ids, words) at once (on an H200, sparse 2^24-value sets: 1.14x faster than
    // a workgroup a chunk; bitmaps one subgroup each were 2.1x slower, clustered sets' arrays of
    // up to 4096 values 1.16x, docs/benchmarks/2026-11-26-h200-large-counts.md).
    uint arrays = U32Ref(pc.scratch).v[S_WORK_COUNT];
    uint step = pc.grid * gl_NumSubgroups;
    for (uint item = linear_workgroup_id() * gl_NumSubgroups + gl_SubgroupID; item < arrays; item += step) {
        uint c = U32Ref(pc.scratch).v[S_WORK + item];
        uvec2 e = dir_entry(pc.meta_d, c);
        uint off = U32Ref(pc.scratch).v[S_START + c];
        if (off >= pc.max_count) {
            continue;
        }
        emit_array(e, off, c << 16, lane, S);
    }
}
