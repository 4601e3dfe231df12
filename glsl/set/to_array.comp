#version 460
// Writes the set's values in ascending order to out_addr (after info.comp modes 0 and 3 wrote
// the chunk offsets and the list of non-empty chunks into scratch), at most max_count values
// (the output's capacity). Grid-stride over the listed chunks, one workgroup per chunk.
#define WORKGROUP_SCAN_COMPACT_SLOTS
#include "set_common.glsl"
#include "../common/workgroup_scan.glsl"

void emit(uint index, uint value) {
    if (index < pc.max_count) {
        U32Ref(u32_addr(pc.out_addr, index)).v[0] = value;
    }
}

// The values of bitmap block `block` of chunk `hi` >> 16, from output position `off` on. Each
// subgroup takes an equal share of the words; it reads them S at a time (lane l word l, the
// next S loaded ahead) and walks them one by one, lane l testing bits l, l + S, ... of the
// word: the values of one word go to consecutive positions in one store. (Each invocation
// writing the values of its own words, 256 values apart from its neighbours', touched a cache
// line per lane with every store: docs/tuning/set.md#to-array-coalesced.)
void emit_bitmap(uint block, uint off, uint hi) {
    uint S = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint share = BITMAP_WORDS / gl_NumSubgroups;  // both powers of two, share >= S
    uint w0 = gl_SubgroupID * share;
    uint mine = 0u;
    for (uint w = w0 + lane; w < w0 + share; w += S) {
        mine += bitCount(U32Ref(bitmap_word_addr(pc.meta_d, block, w)).v[0]);
    }
    uint chunk_total;
    uint p = off + workgroup_exclusive_scan_subgroup_values(subgroup_sum(mine), chunk_total);
    uint lanes = min(S, 32u);  // lanes past 32 (subgroups of 64) test no bit
    uint next = U32Ref(bitmap_word_addr(pc.meta_d, block, w0 + lane)).v[0];
    for (uint base = w0; base < w0 + share; base += S) {
        uint words = next;
        if (base + S < w0 + share) {
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

// The values of a run chunk (entry e, r runs) from output position `off` on: run by run, each
// spread over the workgroup (coalesced stores; the run words are uniform loads).
void emit_runs(uvec2 e, uint r, uint off, uint hi) {
    uint before = 0u;
    for (uint i = 0u; i < r; i++) {
        uint run = chunk_run_word(pc.meta_d, e, i);
        uint first = run & 0xFFFFu;
        uint len = (run >> 16) - first + 1u;
        for (uint k = gl_LocalInvocationIndex; k < len; k += WG_SIZE) {
            emit(off + before + k, hi | (first + k));
        }
        before += len;
    }
}

// A listed chunk and what its values need first: its entry and its first output position.
struct Listed {
    uint c;
    uvec2 e;
    uint off;
};

Listed listed_chunk(uint c) {
    Listed l;
    l.c = c;
    l.e = dir_entry(pc.meta_d, c);
    l.off = U32Ref(pc.scratch).v[S_START + c];
    return l;
}

// The work list's item, or chunk 0 past its end (read, never written).
uint listed_at(uint item, uint n) {
    return item < n ? U32Ref(pc.scratch).v[S_WORK + item] : 0u;
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_WORK_COUNT];
    // Loads run ahead of the chunk being written: the entry and offset of the next item, the
    // chunk of the one after (a chain of dependent loads per chunk otherwise).
    uint item = linear_workgroup_id();
    Listed cur = listed_chunk(listed_at(item, n));
    uint after = listed_at(item + pc.grid, n);
    for (; item < n; item += pc.grid) {
        Listed next = listed_chunk(after);
        after = listed_at(item + 2u * pc.grid, n);
        uvec2 e = cur.e;
        uint off = cur.off;
        uint hi = cur.c << 16;
        cur = next;
        if (off >= pc.max_count) {
            continue;
        }
        uint r = chunk_runs(e.x);
        if (e.x == FULL) {
            for (uint j = t; j < FULL; j += WG_SIZE) {
                emit(off + j, hi | j);
            }
        } else if (r != 0u) {
            emit_runs(e, r, off, hi);
        } else if (e.x <= ARRAY_MAX) {
            uint h = header_words(e.x);
            uint words = (e.x + 1u) / 2u;
            for (uint j = t; j < words; j += WG_SIZE) {
                uint word = array_stream_word(pc.meta_d, e.y, h + j);
                emit(off + 2u * j, hi | (word & 0xFFFFu));
                if (2u * j + 1u < e.x) {
                    emit(off + 2u * j + 1u, hi | (word >> 16));
                }
            }
        } else {
            emit_bitmap(e.y, off, hi);
        }
    }
}
