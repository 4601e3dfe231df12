// The co-rank search of merge path (Green, McColl & Bader, "GPU merge path", ICS 2012) over
// two sorted u16 lists in shared memory, ties to list a: used by small_pairs.comp and
// array_pairs.comp. The includer defines elem_a(j) and elem_b(j) before the include.
#ifndef VKALGO_SET_LIST_CO_RANK_GLSL
#define VKALGO_SET_LIST_CO_RANK_GLSL

// Elements of list a among the first d of the merge of a (na) and b (nb).
uint co_rank_lists(uint na, uint nb, uint d) {
    uint lo = d > nb ? d - nb : 0u;
    uint hi = min(d, na);
    while (lo < hi) {
        uint mid = (lo + hi) >> 1;
        if (elem_a(mid) <= elem_b(d - 1u - mid)) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

#endif
