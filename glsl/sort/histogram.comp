#version 460
// Onesweep's upfront pass: the digit counts of EVERY pass in one read of the keys (Adinets &
// Merrill 2022). Workgroup g counts tiles [g * tiles_per_block, ...) into shared memory and adds
// its counts to the global histograms (scratch, zeroed by the host) with one atomic per digit.
// A tile's loads are all issued before its counting. The kernel declares no other shared
// memory, and one copy of the counts: the pass is bound by its shared atomics
// (docs/tuning/sort.md#histogram-one-copy).
// With SPLIT_BUCKETS (the Onesweep multisplit) it counts the buckets of one pass instead.
#define SORT_COUNTING_ONLY
#include "sort_common.glsl"

shared uint s_pass_hist[KEY_BITS / RADIX_BITS * RADIX];

void main() {
#ifdef SPLIT_BUCKETS
    vkalgo_params = pc.params;
    bool bad = false;
#endif
    uint n = element_count();
    uint tiles = tiles_of(n);
    uint first = linear_workgroup_id() * pc.tiles_per_block;
    uint last = min(tiles, first + pc.tiles_per_block);
    uint bins = pc.pass_count * RADIX;
    for (uint i = gl_LocalInvocationIndex; i < bins; i += WG_SIZE) {
        s_pass_hist[i] = 0u;
    }
    barrier();
    uint digit_mask = (1u << RADIX_BITS) - 1u;
    // Each pass's digit position; passes past pass_count get an empty mask (and are skipped).
    uint pass_shift[KEY_BITS / RADIX_BITS];
    uint pass_mask[KEY_BITS / RADIX_BITS];
    [[unroll]] for (uint p = 0; p < KEY_BITS / RADIX_BITS; ++p) {
        pass_shift[p] = min(pc.begin_bit + p * RADIX_BITS, KEY_BITS - 1u);
        uint width = p < pc.pass_count ? min(RADIX_BITS, pc.end_bit - pass_shift[p]) : 0u;
        pass_mask[p] = digit_mask >> (RADIX_BITS - width);
    }
    for (uint t = first; t < last; ++t) {
        // A 64-bit base address per tile, indexed by the offset in the tile.
        uint tile_start = t * TILE_KEYS;
        uint valid = n - tile_start;
        KeyRef keys = tile_keys_at(pc.keys_in, tile_start);
        KEY_T held[KEYS_PER_THREAD];
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            uint idx = i * WG_SIZE + gl_LocalInvocationIndex;
            held[i] = idx < valid ? keys.v[idx] : KEY_T(0);
        }
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            uint idx = i * WG_SIZE + gl_LocalInvocationIndex;
#ifdef SPLIT_BUCKETS
            // The Onesweep split: the digits are bits of the key's bucket (one pass up to 256
            // buckets, two above); a bucket >= m is counted nowhere and raises the split's
            // status word.
            if (idx < valid) {
                uint b = bucket_of(held[i], uint64_t(tile_start) + uint64_t(idx));
                if (b < pc.bucket_count) {
                    [[unroll]] for (uint p = 0; p < 2u; ++p) {
                        if (p < pc.pass_count) {
                            atomicAdd(s_pass_hist[p * RADIX + ((b >> pass_shift[p]) & pass_mask[p])], 1u);
                        }
                    }
                } else {
                    bad = true;
                }
            }
#else
            if (idx < valid) {
                KEY_T bits = ordered_bits(held[i]);
                [[unroll]] for (uint p = 0; p < KEY_BITS / RADIX_BITS; ++p) {
                    if (p < pc.pass_count) {
                        uint d = uint(bits >> pass_shift[p]) & pass_mask[p];
                        atomicAdd(s_pass_hist[p * RADIX + d], 1u);
                    }
                }
            }
#endif
        }
    }
#ifdef SPLIT_BUCKETS
    if (bad) {
        atomicOr(U32AtomicRef(pc.split_status).v[0], 1u);
    }
#endif
    barrier();
    U32AtomicRef global_hist = U32AtomicRef(pc.scratch + SCRATCH_HISTOGRAMS);
    for (uint i = gl_LocalInvocationIndex; i < bins; i += WG_SIZE) {
        uint c = s_pass_hist[i];
        if (c != 0u) {
            atomicAdd(global_hist.v[i], c);
        }
    }
}
