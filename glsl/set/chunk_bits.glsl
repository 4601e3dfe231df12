// A chunk's values as a bitmap in shared memory, shared by the kernels that turn chunks into
// runs (serialize.comp, deserialize.comp): the includer declares
// `shared uint s_bits[VKALGO_SET_BITMAP_WORDS]` first.
#ifndef VKALGO_SET_CHUNK_BITS_GLSL
#define VKALGO_SET_CHUNK_BITS_GLSL

// The values of word w that start a run (the value before them is absent).
uint run_starts(uint w) {
    uint before = w == 0u ? 0u : s_bits[w - 1u] >> 31;
    return s_bits[w] & ~((s_bits[w] << 1) | before);
}

// The values of word w that end a run (the value after them is absent).
uint run_ends(uint w) {
    uint after = w + 1u == VKALGO_SET_BITMAP_WORDS ? 0u : s_bits[w + 1u] << 31;
    return s_bits[w] & ~((s_bits[w] >> 1) | after);
}

#endif
