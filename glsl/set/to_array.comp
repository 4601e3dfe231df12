#version 460
// Writes the set's values in ascending order to out_addr (after info.comp mode 0 wrote the
// chunk offsets and the list of non-empty chunks into scratch), at most max_count values (the
// output's capacity). Grid-stride over the listed chunks, one workgroup per chunk.
#include "set_common.glsl"

shared uint s_scan[WG_SIZE];

void emit(uint index, uint value) {
    if (index < pc.max_count) {
        U32Ref(u32_addr(pc.out_addr, index)).v[0] = value;
    }
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uint n = U32Ref(pc.scratch).v[S_WORK_COUNT];
    for (uint item = linear_workgroup_id(); item < n; item += pc.grid) {
        uint c = U32Ref(pc.scratch).v[S_WORK + item];
        uvec2 e = dir_entry(pc.meta_d, c);
        uint off = U32Ref(pc.scratch).v[S_START + c];
        if (off >= pc.max_count) {
            continue;
        }
        uint hi = c << 16;
        if (e.x == FULL) {
            for (uint j = t; j < FULL; j += WG_SIZE) {
                emit(off + j, hi | j);
            }
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
            // Invocation t owns bitmap words [t * per, (t + 1) * per).
            uint per = BITMAP_WORDS / WG_SIZE;
            uint mine = 0u;
            for (uint w = 0u; w < per; w++) {
                mine += bitCount(U32Ref(bitmap_word_addr(pc.meta_d, e.y, t * per + w)).v[0]);
            }
            barrier();
            s_scan[t] = mine;
            barrier();
            for (uint d = 1u; d < WG_SIZE; d <<= 1) {
                uint add = t >= d ? s_scan[t - d] : 0u;
                barrier();
                s_scan[t] += add;
                barrier();
            }
            uint p = off + s_scan[t] - mine;
            for (uint w = 0u; w < per; w++) {
                uint bits = U32Ref(bitmap_word_addr(pc.meta_d, e.y, t * per + w)).v[0];
                while (bits != 0u) {
                    uint b = uint(findLSB(bits));
                    bits &= bits - 1u;
                    emit(p, hi | ((t * per + w) * 32u + b));
                    p++;
                }
            }
        }
    }
}
