#version 460
// Onesweep's upfront pass: the digit counts of EVERY pass in one read of the keys (Adinets &
// Merrill 2022). Workgroup g counts tiles [g * tiles_per_block, ...) into shared memory and adds
// its counts to the global histograms (scratch, zeroed by the host) with one atomic per digit.
#include "sort_common.glsl"

shared uint s_pass_hist[8u * RADIX];

void main() {
    uint n = element_count();
    uint tiles = tiles_of(n);
    uint first = linear_workgroup_id() * pc.tiles_per_block;
    uint last = min(tiles, first + pc.tiles_per_block);
    uint bins = pc.pass_count * RADIX;
    for (uint i = gl_LocalInvocationIndex; i < bins; i += WG_SIZE) {
        s_pass_hist[i] = 0u;
    }
    barrier();
    KeyRef keys = KeyRef(pc.keys_in);
    for (uint t = first; t < last; ++t) {
        for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            uint idx = t * TILE_KEYS + i * WG_SIZE + gl_LocalInvocationIndex;
            if (idx < n) {
                KEY_T key = keys.v[idx];
                for (uint p = 0; p < pc.pass_count; ++p) {
                    atomicAdd(s_pass_hist[p * RADIX + key_digit(key, p)], 1u);
                }
            }
        }
    }
    barrier();
    U32AtomicRef global_hist = U32AtomicRef(pc.scratch + SCRATCH_HISTOGRAMS);
    for (uint i = gl_LocalInvocationIndex; i < bins; i += WG_SIZE) {
        uint c = s_pass_hist[i];
        if (c != 0u) {
            atomicAdd(global_hist.v[i], c);
        }
    }
}
