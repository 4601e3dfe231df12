// Lists of many sets' non-empty chunks, each set's in order in its own range of list slots
// (a uvec2 a slot: the chunk and its cardinality, 1 to 65536), shared by the kernels over many
// sets (serialize.comp, to_array_many.comp). The includer has included the public include and
// workgroup_scan.glsl, declares Vec4Ref and Vec2Ref (16- and 8-byte references), and defines
// before including this file:
//   LIST_RANGE(s)    a uvec2: set s's first list slot and its slot capacity
//   LIST_SLOT(slot)  the address of list slot `slot`
//   LIST_SETS        the number of sets
#ifndef VKALGO_SET_LISTS_GLSL
#define VKALGO_SET_LISTS_GLSL

// The set whose list range holds `slot`: the last set whose range starts at or before it.
uint set_of_slot(uint slot) {
    uint lo = 0u;
    uint hi = LIST_SETS;
    while (hi - lo > 1u) {
        uint mid = (lo + hi) / 2u;
        if (LIST_RANGE(mid).x <= slot) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Lists set v's non-empty chunks and their cardinalities in order from slot range.x on, at
// most range.y of them; returns how many it holds (more than range.y: an overflow). Called by
// the whole workgroup in uniform control flow.
uint list_chunks(VkalgoSetView v, uvec2 range) {
    uint64_t dir = v.control + VKALGO_SET_DIR_OFFSET;
    uint n;
    if (v.packed != 0u) {
        // The index holds each group's mask and the chunks before it; the entries follow it in
        // chunk order.
        uint mine = 0u;
        for (uint g = gl_LocalInvocationIndex; g < 1024u; g += WG_SIZE) {
            uvec4 idx = VkalgoSetIndexRef(dir + uint64_t(g) * 16ul).v[0];
            uint k = idx.z;
            for (uint half_ = 0u; half_ < 2u; ++half_) {
                uint m = half_ == 0u ? idx.x : idx.y;
                while (m != 0u) {
                    uint i = findLSB(m);
                    m &= m - 1u;
                    if (k < range.y) {
                        uint x = VkalgoSetEntryRef(dir + VKALGO_SET_DIR_INDEX_BYTES + uint64_t(k) * 8ul).v[0].x;
                        Vec2Ref(LIST_SLOT(range.x + k)).v = uvec2(g * 64u + half_ * 32u + i, x & VKALGO_SET_CARD_MASK);
                    }
                    k++;
                }
            }
            mine += bitCount(idx.x) + bitCount(idx.y);
        }
        n = workgroup_reduce_add(mine);
    } else {
        // Each invocation a run of consecutive chunks (two entries a load): counted, one scan
        // of the counts, then listed in order.
        uint per = 65536u / WG_SIZE;
        uint first = gl_LocalInvocationIndex * per;
        uint held = 0u;
        for (uint i = 0u; i < per; i += 2u) {
            uvec4 q = Vec4Ref(dir + uint64_t(first + i) * 8ul).v;
            held += ((q.x & VKALGO_SET_CARD_MASK) != 0u ? 1u : 0u) + ((q.z & VKALGO_SET_CARD_MASK) != 0u ? 1u : 0u);
        }
        uint at = workgroup_exclusive_scan(held, n);
        for (uint i = 0u; i < per && held != 0u; i += 2u) {
            uvec4 q = Vec4Ref(dir + uint64_t(first + i) * 8ul).v;
            uvec2 cards = uvec2(q.x, q.z) & VKALGO_SET_CARD_MASK;
            for (uint k = 0u; k < 2u; ++k) {
                if (cards[k] != 0u) {
                    if (at < range.y) {
                        Vec2Ref(LIST_SLOT(range.x + at)).v = uvec2(first + i + k, cards[k]);
                    }
                    at++;
                    held--;
                }
            }
        }
    }
    return n;
}

#endif
