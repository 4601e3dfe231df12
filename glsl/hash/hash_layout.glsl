// The slot layout and the element access every hash kernel shares (the map's, hash_common.glsl,
// and the multimap's, multimap_common.glsl): key and value types, reserved keys, slot and
// bucket sizes, 64-bit byte addressing of the caller's arrays and of buckets and slots. The
// includer has included vkalgo.glsl and the public include, and declared U64Ref.
#ifndef VKALGO_HASH_LAYOUT_GLSL
#define VKALGO_HASH_LAYOUT_GLSL

#if KEY_BITS == 32
#define KEY_T uint
const uint EMPTY_KEY = VKALGO_HASH_EMPTY_U32;
const uint ERASED_KEY = VKALGO_HASH_ERASED_U32;
uvec2 hash_key(uint key) { return vkalgo_hash_u32(key); }
#else
#define KEY_T uint64_t
const uint64_t EMPTY_KEY = VKALGO_HASH_EMPTY_U64;
const uint64_t ERASED_KEY = VKALGO_HASH_ERASED_U64;
uvec2 hash_key(uint64_t key) { return vkalgo_hash_u64(key); }
#endif

#if VALUE_BITS == 32
#define VALUE_T uint
#else
#define VALUE_T uint64_t
#endif

#if KEY_BITS == 32 && VALUE_BITS == 32
#define SLOT_BYTES 8
#else
#define SLOT_BYTES 16
#endif
#define BUCKET_SLOTS (BUCKET_BYTES / SLOT_BYTES)
// Byte offset of the value within a slot.
#define VALUE_OFFSET (SLOT_BYTES == 8 ? 4u : 8u)

// Element i of a key / value / u32 array: 64-bit byte addresses (an array index that reaches
// 2^31 would be negative in SPIR-V's signed access chains).
KEY_T load_key(uint64_t base, uint i) {
#if KEY_BITS == 32
    return U32Ref(base + uint64_t(i) * 4ul).v[0];
#else
    return U64Ref(base + uint64_t(i) * 8ul).v[0];
#endif
}

void store_key(uint64_t base, uint i, KEY_T key) {
#if KEY_BITS == 32
    U32Ref(base + uint64_t(i) * 4ul).v[0] = key;
#else
    U64Ref(base + uint64_t(i) * 8ul).v[0] = key;
#endif
}

VALUE_T load_value(uint64_t base, uint i) {
#if VALUE_BITS == 32
    return U32Ref(base + uint64_t(i) * 4ul).v[0];
#else
    return U64Ref(base + uint64_t(i) * 8ul).v[0];
#endif
}

void store_value(uint64_t base, uint i, VALUE_T value) {
#if VALUE_BITS == 32
    U32Ref(base + uint64_t(i) * 4ul).v[0] = value;
#else
    U64Ref(base + uint64_t(i) * 8ul).v[0] = value;
#endif
}

void store_flag(uint64_t base, uint i, uint flag) {
    U32Ref(u32_addr(base, i)).v[0] = flag;
}

uint64_t bucket_address(uint64_t buckets, uint bucket) {
    return buckets + uint64_t(bucket) * uint64_t(uint(BUCKET_BYTES));
}

uint64_t slot_address(uint64_t bucket_addr, uint j) {
    return bucket_addr + uint64_t(j * uint(SLOT_BYTES));
}

#endif
