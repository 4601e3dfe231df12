// The key and value types of a permutation (KEY_BITS 32 or 64; VALUE_WORDS 0, 1 or 2: no
// values, u32 or u64), their sizes in bytes, the largest key and buffer references to arrays
// of them, and element loads and stores through them. Shared by the merge and the segmented
// sort.
#ifndef VKALGO_KEY_VALUE_GLSL
#define VKALGO_KEY_VALUE_GLSL

#ifndef KEY_BITS
#error "KEY_BITS must be defined by the permutation table"
#endif
#ifndef VALUE_WORDS
#define VALUE_WORDS 0
#endif

#if KEY_BITS == 64
#define KEY_T uint64_t
#define KEY_BYTES 8ul
const uint64_t KEY_MAX = 0xFFFFFFFFFFFFFFFFul;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyRef { uint64_t v[]; };
#else
#define KEY_T uint
#define KEY_BYTES 4ul
const uint KEY_MAX = 0xFFFFFFFFu;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyRef { uint v[]; };
#endif

#if VALUE_WORDS == 2
#define VALUE_T uint64_t
#define VALUE_BYTES 8ul
layout(buffer_reference, std430, buffer_reference_align = 8) buffer ValueRef { uint64_t v[]; };
#elif VALUE_WORDS == 1
#define VALUE_T uint
#define VALUE_BYTES 4ul
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ValueRef { uint v[]; };
#endif

KEY_T load_key(uint64_t base, uint64_t i) {
    return KeyRef(base + i * KEY_BYTES).v[0];
}

void store_key(uint64_t base, uint64_t i, KEY_T k) {
    KeyRef(base + i * KEY_BYTES).v[0] = k;
}

#if VALUE_WORDS > 0
VALUE_T load_value(uint64_t base, uint64_t i) {
    return ValueRef(base + i * VALUE_BYTES).v[0];
}

void store_value(uint64_t base, uint64_t i, VALUE_T v) {
    ValueRef(base + i * VALUE_BYTES).v[0] = v;
}
#endif

#endif
