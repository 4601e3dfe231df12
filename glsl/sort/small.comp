#version 460
// Small-N path: ONE workgroup runs every digit pass (count, scan, rank and scatter tile by
// tile), ping-ponging between the key buffers, so a small sort is a single dispatch. Buffers
// are coherent: a pass reads what the previous pass of this workgroup wrote.
#include "sort_common.glsl"

shared uint s_count[RADIX];

void main() {
    uint n = element_count();
    uint tiles = tiles_of(n);
    for (uint pass = 0u; pass < pc.pass_count; ++pass) {
        bool even = (pass & 1u) == 0u;
        select_pass(pass);
        g_keys_in = even ? pc.keys_in : pc.keys_out;
        g_keys_out = even ? pc.keys_out : pc.keys_in;
        g_values_in = even ? pc.values_in : pc.values_out;
        g_values_out = even ? pc.values_out : pc.values_in;
        for (uint i = gl_LocalInvocationIndex; i < RADIX; i += WG_SIZE) {
            s_count[i] = 0u;
        }
        barrier();
        for (uint t = 0u; t < tiles; ++t) {
            // A 64-bit base address per tile, indexed by the offset in the tile.
            uint valid = n - t * TILE_KEYS;
            KeyRef keys = tile_keys_at(g_keys_in, t * TILE_KEYS);
            [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
                uint idx = i * WG_SIZE + gl_LocalInvocationIndex;
                if (idx < valid) {
                    atomicAdd(s_count[stored_key_digit(keys.v[idx])], 1u);
                }
            }
        }
        barrier();
        uint counts[DIGITS_PER_THREAD];
        uint thread_total = 0u;
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            uint d = owned_digit(j);
            counts[j] = d < RADIX ? s_count[d] : 0u;
            thread_total += counts[j];
        }
        uint total;
        uint running[DIGITS_PER_THREAD];
        uint start = workgroup_exclusive_scan(thread_total, total);
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            running[j] = start;
            start += counts[j];
        }
        for (uint t = 0u; t < tiles; ++t) {
            uint tile_start = t * TILE_KEYS;
            uint valid = min(TILE_KEYS, n - tile_start);
            clear_digit_counters();
            barrier();
            rank_tile(tile_start, valid);
            [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
                uint d = owned_digit(j);
                if (d < RADIX) {
                    s_digit_offset[d] = running[j] - g_local_start[j];
                }
                running[j] += g_tile_count[j];
            }
            scatter_tile(tile_start, valid);
        }
        memoryBarrierBuffer();
        barrier();
    }
}
