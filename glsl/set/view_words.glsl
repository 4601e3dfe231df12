// Sets read through their device views (glsl/public/vkalgo_set.glsl), shared by the kernels
// over many sets (many_cardinality.comp, chunk_update.comp's MANY_WAY, serialize.comp,
// to_array_many.comp): views listed in memory, array headers, run chunks' words. The includer
// has included the public include.
#ifndef VKALGO_SET_VIEW_WORDS_GLSL
#define VKALGO_SET_VIEW_WORDS_GLSL

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ViewListRef { uvec4 v[]; };

// View i of the views (16 bytes each) at `views`.
VkalgoSetView view_at(uint64_t views, uint i) {
    uvec4 v = ViewListRef(views).v[i];
    return VkalgoSetView(packUint2x32(v.xy), v.z, v.w);
}

// Words before the values in the stream of an array chunk of `card` values: the ids of its
// blocks after the first (as vkalgo_set_array_value counts them).
uint view_array_head(uint card) {
    uint words = (card + 1u) / 2u;
    return max(1u, (words - 1u + VKALGO_SET_ARRAY_BLOCK_WORDS - 2u) / (VKALGO_SET_ARRAY_BLOCK_WORDS - 1u)) - 1u;
}

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
