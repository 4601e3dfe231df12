#version 460
// Onesweep's upfront pass: the digit counts of EVERY pass in one read of the keys (Adinets &
// Merrill 2022). Workgroup g counts tiles [g * tiles_per_block, ...) into shared memory and adds
// its counts to the global histograms (scratch, zeroed by the host) with one atomic per digit.
// A tile's loads are all issued before its counting; even and odd subgroups count into
// separate copies, so runs of equal digits contend less.
#include "sort_common.glsl"

#define COPIES 2u
shared uint s_pass_hist[COPIES * 8u * RADIX];

void main() {
    uint n = element_count();
    uint tiles = tiles_of(n);
    uint first = linear_workgroup_id() * pc.tiles_per_block;
    uint last = min(tiles, first + pc.tiles_per_block);
    uint bins = pc.pass_count * RADIX;
    for (uint i = gl_LocalInvocationIndex; i < COPIES * bins; i += WG_SIZE) {
        s_pass_hist[i] = 0u;
    }
    barrier();
    uint copy = (gl_SubgroupID % COPIES) * bins;
    uint digit_mask = (1u << RADIX_BITS) - 1u;
    KeyRef keys = KeyRef(pc.keys_in);
    for (uint t = first; t < last; ++t) {
        KEY_T held[KEYS_PER_THREAD];
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            uint idx = t * TILE_KEYS + i * WG_SIZE + gl_LocalInvocationIndex;
            held[i] = idx < n ? keys.v[idx] : KEY_T(0);
        }
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            uint idx = t * TILE_KEYS + i * WG_SIZE + gl_LocalInvocationIndex;
            if (idx < n) {
                KEY_T bits = ordered_bits(held[i]);
                for (uint p = 0; p < pc.pass_count; ++p) {
                    uint shift = pc.begin_bit + p * RADIX_BITS;
                    uint width = min(RADIX_BITS, pc.end_bit - shift);
                    uint d = uint(bits >> shift) & (digit_mask >> (RADIX_BITS - width));
                    atomicAdd(s_pass_hist[copy + p * RADIX + d], 1u);
                }
            }
        }
    }
    barrier();
    U32AtomicRef global_hist = U32AtomicRef(pc.scratch + SCRATCH_HISTOGRAMS);
    for (uint i = gl_LocalInvocationIndex; i < bins; i += WG_SIZE) {
        uint c = 0u;
        [[unroll]] for (uint k = 0u; k < COPIES; ++k) {
            c += s_pass_hist[k * bins + i];
        }
        if (c != 0u) {
            atomicAdd(global_hist.v[i], c);
        }
    }
}
