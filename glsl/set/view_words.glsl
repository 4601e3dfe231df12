// Words of a set's chunk read through its device view (glsl/public/vkalgo_set.glsl), shared by
// the many-way kernels (many_cardinality.comp, chunk_update.comp's MANY_WAY). The includer has
// included the public include.
#ifndef VKALGO_SET_VIEW_WORDS_GLSL
#define VKALGO_SET_VIEW_WORDS_GLSL

// The bits of word w (values 32 w .. 32 w + 31) in a run chunk (entry e of set s): a binary
// search for the first run that ends at or after the word, then the runs that start in it
// (at most 16: runs are disjoint and not adjacent).
uint view_run_word(VkalgoSetView s, uvec2 e, uint runs, uint w) {
    uint lo = w << 5;
    uint hi = lo + 31u;
    uint a = 0u;
    uint b = runs;
    while (a < b) {
        uint mid = (a + b) / 2u;
        if ((vkalgo_set_run(s, e, mid) >> 16) < lo) {
            a = mid + 1u;
        } else {
            b = mid;
        }
    }
    uint bits = 0u;
    for (uint r = a; r < runs; ++r) {
        uint run = vkalgo_set_run(s, e, r);
        uint first = run & 0xFFFFu;
        if (first > hi) {
            break;
        }
        uint from = max(first, lo) - lo;
        uint to = min(run >> 16, hi) - lo;
        bits |= (0xFFFFFFFFu >> (31u - to)) & (0xFFFFFFFFu << from);
    }
    return bits;
}

#endif
