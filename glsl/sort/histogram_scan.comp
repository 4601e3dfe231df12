#version 460
// Onesweep, after the upfront histogram: one workgroup turns every pass's digit counts into
// exclusive digit starts, in place, so each tile of a digit pass just loads them. A pass whose
// digit is the same in every key (one digit counts them all) moves no key: its tile counter
// gets CONSTANT_DIGIT_PASS, and its tiles are copied instead of ranked (onesweep.comp).
#include "sort_common.glsl"

void main() {
    U32Ref hist = U32Ref(pc.scratch + SCRATCH_HISTOGRAMS);
    for (uint p = 0u; p < pc.pass_count; ++p) {
        uint counts[DIGITS_PER_THREAD];
        uint thread_total = 0u;
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            uint d = owned_digit(j);
            counts[j] = d < RADIX ? hist.v[p * RADIX + d] : 0u;
            thread_total += counts[j];
        }
        uint total;
        uint start = workgroup_exclusive_scan(thread_total, total);
        [[unroll]] for (uint j = 0u; j < DIGITS_PER_THREAD; ++j) {
            uint d = owned_digit(j);
            if (d < RADIX) {
                hist.v[p * RADIX + d] = start;
                if (counts[j] == total && total != 0u) {
                    U32Ref(pc.scratch + SCRATCH_TILE_COUNTERS).v[p] = CONSTANT_DIGIT_PASS;
                }
            }
            start += counts[j];
        }
    }
}
