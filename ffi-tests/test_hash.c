/* C11 tests of vkalgo's GPU hash map C ABI (include/vkalgo.h), against the installed package.
 *
 * Host calls on the default context (VKALGO_VALIDATION=1 in the test environment turns the
 * Khronos validation layer on inside it; the test then requires zero messages): every key and
 * value type, a model check against a small CPU table, duplicates, erase, size, stats
 * (tombstones), rehash, retrieve_all (including an output too small: the needed count comes
 * back), an overfilled table (VKALGO_ERROR_TABLE_FULL, the stored keys stay, exact size),
 * reserved keys, and bad input (NULL handles and arrays, unknown types, capacity 0, a `next`
 * in a desc or an output struct). Also checks that the package
 * installed the public GLSL include (VKALGO_GLSL_INCLUDE, set by CMake from vkalgo_GLSL_DIR).
 *
 * The record layer on a VkDevice this test creates itself (an external context; the Vulkan
 * helpers are test_c.c's, with the validation layer when installed, unless
 * VKALGO_TEST_NO_VALIDATION=1, and every message a failure): every record call
 * (clear, barrier, insert, find, size, erase, retrieve_all) on u32/u32 and u64/u64 maps at
 * non-zero offsets, direct and indirect counts, checked exactly; and bad input to each of them
 * and to rehash_into, `next` in every args struct included (INVALID_ARGUMENT, nothing recorded,
 * every output buffer and the map unchanged, read back).
 *
 * Prints every check; exits 1 on any failure. */
#define TEST_RNG_SEED 0x0123456789abcdefull
#include "check.h" /* check(), expect(), rng_u64(), xmalloc(), now_s() */
#include <vkalgo.h>
#include <vulkan/vulkan.h>
#define VKALGO_TEST_APP_NAME "vkalgo test_hash"
#include "vk_fixture.h" /* Gpu, Buffer, gpu_create(), barriers, align_up() */

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny CPU model: keys and values as u64, linear search (the tests are small) -------- */

typedef struct Model {
    uint64_t *keys;
    uint64_t *values;
    size_t len;
} Model;

static size_t model_find(const Model *m, uint64_t key) {
    for (size_t i = 0; i < m->len; i++) {
        if (m->keys[i] == key) {
            return i;
        }
    }
    return SIZE_MAX;
}

static void model_put(Model *m, uint64_t key, uint64_t value) {
    size_t i = model_find(m, key);
    if (i == SIZE_MAX) {
        i = m->len++;
        m->keys[i] = key;
    }
    m->values[i] = value;
}

static void model_erase(Model *m, uint64_t key) {
    size_t i = model_find(m, key);
    if (i != SIZE_MAX) {
        m->len--;
        m->keys[i] = m->keys[m->len];
        m->values[i] = m->values[m->len];
    }
}

/* Element i of an array of u32 or u64. */
static uint64_t get(const void *p, size_t i, bool wide) {
    return wide ? ((const uint64_t *)p)[i] : ((const uint32_t *)p)[i];
}
static void put(void *p, size_t i, uint64_t v, bool wide) {
    if (wide) {
        ((uint64_t *)p)[i] = v;
    } else {
        ((uint32_t *)p)[i] = (uint32_t)v;
    }
}

static const char *type_name(VkalgoKeyType key_type, VkalgoValueType value_type) {
    static char text[32];
    snprintf(text, sizeof text, "%s/%s", key_type == VKALGO_KEY_U64 ? "u64" : "u32",
             value_type == VKALGO_VALUE_U64 ? "u64" : "u32");
    return text;
}

/* Inserts, overwrites, duplicates, erases, rehashes and retrieves on one map, checked against
 * the model after each step. */
static void round_trip(VkalgoContext *ctx, VkalgoKeyType key_type, VkalgoValueType value_type) {
    const bool kw = key_type == VKALGO_KEY_U64, vw = value_type == VKALGO_VALUE_U64;
    const size_t kb = kw ? 8 : 4, vb = vw ? 8 : 4;
    const size_t n = 3000;
    char what[160];
    printf("%s map\n", type_name(key_type, value_type));
    VkalgoHashMapDesc desc = {0};
    desc.key_type = key_type;
    desc.value_type = value_type;
    desc.capacity = 5000;
    VkalgoHashMap *map = NULL;
    if (!expect(vkalgo_hash_map_create(ctx, &desc, &map), VKALGO_SUCCESS, "create")) {
        return;
    }
    uint64_t capacity = 0;
    vkalgo_hash_map_capacity(map, &capacity);
    /* 4 slots per 32-byte bucket for u32/u32, 2 for the others; a prime number of buckets. */
    check(capacity >= 5000 && capacity % (kw || vw ? 2 : 4) == 0 && capacity < 5100,
          "capacity 5000 -> %" PRIu64, capacity);

    Model model = {xmalloc(2 * n * 8), xmalloc(2 * n * 8), 0};
    void *keys = xmalloc(2 * n * kb), *values = xmalloc(2 * n * vb), *out = xmalloc(2 * n * vb);
    uint8_t *found = xmalloc(2 * n);
    /* 2n distinct storable keys: the first n go in (with duplicates), the rest stay out. */
    for (size_t i = 0; i < 2 * n;) {
        uint64_t k = kw ? rng_u64() : (rng_u64() & 0xffffffffu);
        bool seen = k >= (kw ? UINT64_MAX - 1 : UINT32_MAX - 1);
        for (size_t j = 0; j < i && !seen; j++) {
            seen = get(keys, j, kw) == k;
        }
        if (!seen) {
            put(keys, i, k, kw);
            put(values, i, rng_u64() | 1, vw);
            i++;
        }
    }
    /* Batch 1: keys 0..n-1 where key i == key i-1 for every 10th i (duplicates, distinct values). */
    for (size_t i = 10; i < n; i += 10) {
        put(keys, i, get(keys, i - 1, kw), kw);
    }
    expect(vkalgo_hash_map_insert_host(map, keys, values, n), VKALGO_SUCCESS, "insert 3000 with duplicates");
    /* Model: a duplicated key holds one of its values: take the GPU's, after checking it. */
    expect(vkalgo_hash_map_find_host(map, keys, out, found, n), VKALGO_SUCCESS, "find them");
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = get(keys, i, kw), v = get(out, i, vw);
        bool dup = (i % 10 == 0 && i > 0) || (i % 10 == 9 && i + 1 < n);
        uint64_t mine = get(values, i, vw);
        uint64_t partner = i % 10 == 0 && i > 0 ? get(values, i - 1, vw) : (i + 1 < n ? get(values, i + 1, vw) : mine);
        ok = ok && found[i] == 1 && (v == mine || (dup && v == partner));
        model_put(&model, k, v);
    }
    check(ok, "every inserted key found with its value (or, duplicated, one of its values)");
    uint64_t size = 0;
    expect(vkalgo_hash_map_size_host(map, &size), VKALGO_SUCCESS, "size");
    check(size == model.len, "size %" PRIu64 " == %zu distinct keys", size, model.len);

    /* Overwrite the first 500 with new values, erase keys 500..999 and some absent keys. */
    for (size_t i = 0; i < 500; i++) {
        put(values, i, rng_u64() | 1, vw);
    }
    for (size_t i = 1; i < 500; i++) { /* no duplicates in this batch */
        if (get(keys, i, kw) == get(keys, i - 1, kw)) {
            put(values, i, get(values, i - 1, vw), vw);
        }
    }
    expect(vkalgo_hash_map_insert_host(map, keys, values, 500), VKALGO_SUCCESS, "overwrite 500");
    for (size_t i = 0; i < 500; i++) {
        model_put(&model, get(keys, i, kw), get(values, i, vw));
    }
    expect(vkalgo_hash_map_erase_host(map, (const char *)keys + 500 * kb, 500), VKALGO_SUCCESS, "erase 500");
    /* The counts in one call: live keys, tombstones (erased slots of full buckets), capacity.
     * Taken before the next erase, whose reclaim may turn these tombstones empty (it runs once
     * they fill 1/32 of the slots, which depends on where the inserts' races put the keys). */
    VkalgoHashMapStats erased = {0};
    expect(vkalgo_hash_map_stats_host(map, &erased), VKALGO_SUCCESS, "stats after the erase");
    check(erased.tombstones > 0 && erased.tombstones <= 500, "tombstones %" PRIu64, erased.tombstones);
    expect(vkalgo_hash_map_erase_host(map, (const char *)keys + n * kb, 100), VKALGO_SUCCESS,
           "erase 100 absent keys");
    for (size_t i = 500; i < 1000; i++) {
        model_erase(&model, get(keys, i, kw));
    }
    VkalgoHashMapStats stats = {0};
    expect(vkalgo_hash_map_stats_host(map, &stats), VKALGO_SUCCESS, "stats");
    check(stats.tombstones <= erased.tombstones && stats.size == erased.size,
          "the absent keys' erase erased nothing and made no tombstone (%" PRIu64 " <= %" PRIu64 ")",
          stats.tombstones, erased.tombstones);
    check(stats.next == NULL && stats.size == model.len && stats.capacity == capacity,
          "stats: size %" PRIu64 " == %zu, capacity %" PRIu64 " == %" PRIu64, stats.size, model.len, stats.capacity,
          capacity);
    expect(vkalgo_hash_map_rehash_host(map, 4000), VKALGO_SUCCESS, "rehash to 4000");
    memset(&stats, 0, sizeof stats);
    expect(vkalgo_hash_map_stats_host(map, &stats), VKALGO_SUCCESS, "stats after rehash");
    check(stats.tombstones == 0, "rehash dropped the tombstones");
    vkalgo_hash_map_capacity(map, &capacity);
    check(stats.size == model.len && stats.capacity == capacity && capacity >= 4000 && capacity < 5000,
          "stats after rehash: size %" PRIu64 ", capacity %" PRIu64, stats.size, stats.capacity);

    /* All 2n keys: present ones with the model's value, the others not found with value 0. */
    memset(found, 7, 2 * n);
    expect(vkalgo_hash_map_find_host(map, keys, out, found, 2 * n), VKALGO_SUCCESS, "find 6000");
    ok = true;
    for (size_t i = 0; i < 2 * n; i++) {
        size_t j = model_find(&model, get(keys, i, kw));
        uint64_t v = get(out, i, vw);
        ok = ok && (j == SIZE_MAX ? (found[i] == 0 && v == 0) : (found[i] == 1 && v == model.values[j]));
    }
    check(ok, "find after overwrite/erase/rehash matches the model");
    expect(vkalgo_hash_map_find_host(map, keys, out, NULL, 2 * n), VKALGO_SUCCESS, "find without found_out");
    expect(vkalgo_hash_map_contains_host(map, keys, found, 2 * n), VKALGO_SUCCESS, "contains");

    /* retrieve_all: too small reports the needed count; then every entry once. */
    size_t count = 0;
    snprintf(what, sizeof what, "retrieve_all into room for %zu", model.len - 1);
    expect(vkalgo_hash_map_retrieve_all_host(map, out, values, model.len - 1, &count),
           VKALGO_ERROR_INVALID_ARGUMENT, what);
    check(count == model.len, "count_out reports the needed %zu (got %zu)", model.len, count);
    void *rk = xmalloc(2 * n * kb);
    expect(vkalgo_hash_map_retrieve_all_host(map, rk, out, 2 * n, &count), VKALGO_SUCCESS, "retrieve_all");
    ok = count == model.len;
    for (size_t i = 0; ok && i < count; i++) {
        size_t j = model_find(&model, get(rk, i, kw));
        ok = j != SIZE_MAX && model.values[j] == get(out, i, vw);
        if (ok) {
            model.values[j] ^= 1; /* seen: a second copy would now mismatch (values are odd) */
        }
    }
    check(ok, "retrieve_all returned every entry once (%zu)", count);

    vkalgo_hash_map_destroy(map);
    free(rk);
    free(keys);
    free(values);
    free(out);
    free(found);
    free(model.keys);
    free(model.values);
}

/* A table of 52 slots given 80 keys: TABLE_FULL, exactly 52 stored, size exact, all
 * findable; statuses say which failed. */
static void overfill(VkalgoContext *ctx) {
    printf("overfilled table\n");
    VkalgoHashMapDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.capacity = 50;
    VkalgoHashMap *map = NULL;
    if (!expect(vkalgo_hash_map_create(ctx, &desc, &map), VKALGO_SUCCESS, "create capacity 50")) {
        return;
    }
    uint64_t capacity = 0, size = 0;
    vkalgo_hash_map_capacity(map, &capacity);
    check(capacity == 52, "capacity 50 -> %" PRIu64 " (13 buckets of 4 slots)", capacity);
    uint32_t keys[80], values[80], out[80], status[80];
    uint8_t found[80];
    for (uint32_t i = 0; i < 80; i++) {
        keys[i] = i * 2654435761u + 1;
        values[i] = i + 100;
    }
    expect(vkalgo_hash_map_insert_status_host(map, keys, values, status, 80), VKALGO_ERROR_TABLE_FULL,
           "insert 80 keys");
    unsigned inserted = 0, full = 0;
    for (int i = 0; i < 80; i++) {
        inserted += status[i] == VKALGO_HASH_STATUS_INSERTED;
        full += status[i] == VKALGO_HASH_STATUS_FULL;
    }
    check(inserted == 52 && full == 28, "statuses: %u inserted, %u full", inserted, full);
    expect(vkalgo_hash_map_size_host(map, &size), VKALGO_SUCCESS, "size");
    check(size == 52, "size %" PRIu64 " == 52", size);
    expect(vkalgo_hash_map_find_host(map, keys, out, found, 80), VKALGO_SUCCESS, "find all 80");
    bool ok = true;
    for (int i = 0; i < 80; i++) {
        bool stored = status[i] == VKALGO_HASH_STATUS_INSERTED;
        ok = ok && found[i] == stored && out[i] == (stored ? values[i] : 0);
    }
    check(ok, "the stored keys are found with their values, the failed ones are not");
    expect(vkalgo_hash_map_insert_host(map, keys, values, 80), VKALGO_ERROR_TABLE_FULL, "insert again");
    expect(vkalgo_hash_map_size_host(map, &size), VKALGO_SUCCESS, "size");
    check(size == 52, "size still 52");
    vkalgo_hash_map_destroy(map);
}

static void bad_input(VkalgoContext *ctx) {
    printf("bad input\n");
    const VkalgoResult bad = VKALGO_ERROR_INVALID_ARGUMENT;
    VkalgoHashMapDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.capacity = 100;
    VkalgoHashMap *map = NULL;
    static int extension; /* what a `next` would point to: no extension structure is defined yet */
    expect(vkalgo_hash_map_create(NULL, &desc, &map), bad, "create: NULL ctx");
    expect(vkalgo_hash_map_create(ctx, NULL, &map), bad, "create: NULL desc");
    expect(vkalgo_hash_map_create(ctx, &desc, NULL), bad, "create: NULL out");
    const uint32_t bad_keys[] = {VKALGO_KEY_I32, VKALGO_KEY_F32, VKALGO_KEY_I64, VKALGO_KEY_F64, 6, 1000};
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        VkalgoHashMapDesc d = desc;
        d.key_type = bad_keys[i];
        char what[64];
        snprintf(what, sizeof what, "create: key type %u", (unsigned)bad_keys[i]);
        expect(vkalgo_hash_map_create(ctx, &d, &map), bad, what);
    }
    const uint32_t bad_values[] = {VKALGO_VALUE_NONE, 3, 77};
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        VkalgoHashMapDesc d = desc;
        d.value_type = bad_values[i];
        char what[64];
        snprintf(what, sizeof what, "create: value type %u", (unsigned)bad_values[i]);
        expect(vkalgo_hash_map_create(ctx, &d, &map), bad, what);
    }
    VkalgoHashMapDesc zero = {0};
    zero.key_type = VKALGO_KEY_U64;
    zero.value_type = VKALGO_VALUE_U64;
    expect(vkalgo_hash_map_create(ctx, &zero, &map), bad, "create: capacity 0");
    VkalgoHashMapDesc extended = desc;
    extended.next = &extension;
    expect(vkalgo_hash_map_create(ctx, &extended, &map), bad, "create: desc next != NULL");
    check(map == NULL, "no map was made");

    expect(vkalgo_hash_map_create(ctx, &desc, &map), VKALGO_SUCCESS, "create u32/u32");
    uint32_t keys[3] = {1, 2, 3}, values[3] = {10, 20, 30}, out[3];
    uint8_t found[3];
    uint64_t size = 0;
    size_t count = 0;
    expect(vkalgo_hash_map_insert_host(map, keys, values, 3), VKALGO_SUCCESS, "insert 3");
    expect(vkalgo_hash_map_insert_host(NULL, keys, values, 3), bad, "insert: NULL map");
    expect(vkalgo_hash_map_insert_host(map, NULL, values, 3), bad, "insert: NULL keys");
    expect(vkalgo_hash_map_insert_host(map, keys, NULL, 3), bad, "insert: NULL values");
    expect(vkalgo_hash_map_insert_host(map, NULL, NULL, 0), VKALGO_SUCCESS, "insert: count 0, NULL arrays");
    uint32_t reserved[2][3] = {{4, UINT32_MAX, 5}, {4, UINT32_MAX - 1, 5}};
    expect(vkalgo_hash_map_insert_host(map, reserved[0], values, 3), bad, "insert: key 0xFFFFFFFF");
    expect(vkalgo_hash_map_insert_host(map, reserved[1], values, 3), bad, "insert: key 0xFFFFFFFE");
    expect(vkalgo_hash_map_size_host(map, &size), VKALGO_SUCCESS, "size");
    check(size == 3, "size %" PRIu64 " == 3: the refused batches changed nothing", size);
    expect(vkalgo_hash_map_find_host(NULL, keys, out, found, 3), bad, "find: NULL map");
    expect(vkalgo_hash_map_find_host(map, NULL, out, found, 3), bad, "find: NULL keys");
    expect(vkalgo_hash_map_find_host(map, keys, NULL, found, 3), bad, "find: NULL values_out");
    expect(vkalgo_hash_map_erase_host(NULL, keys, 3), bad, "erase: NULL map");
    expect(vkalgo_hash_map_erase_host(map, NULL, 3), bad, "erase: NULL keys");
    expect(vkalgo_hash_map_size_host(NULL, &size), bad, "size: NULL map");
    expect(vkalgo_hash_map_size_host(map, NULL), bad, "size: NULL out");
    {
        VkalgoHashMapStats stats = {0};
        expect(vkalgo_hash_map_stats_host(NULL, &stats), bad, "stats: NULL map");
        expect(vkalgo_hash_map_stats_host(map, NULL), bad, "stats: NULL out");
        /* An output struct with a `next`: refused, and nothing written to it. */
        stats.next = &extension;
        stats.size = 77;
        expect(vkalgo_hash_map_stats_host(map, &stats), bad, "stats: next != NULL");
        check(stats.next == (void *)&extension && stats.size == 77 && stats.tombstones == 0 && stats.capacity == 0,
              "  the stats struct is unchanged");
        VkalgoMemoryRequirements reqs = {0};
        reqs.next = &extension;
        expect(vkalgo_hash_map_memory_requirements(ctx, &desc, &reqs), bad, "memory requirements: next != NULL");
        check(reqs.next == (void *)&extension && reqs.storage.size == 0, "  the requirements struct is unchanged");
    }
    expect(vkalgo_hash_map_rehash_host(NULL, 100), bad, "rehash: NULL map");
    expect(vkalgo_hash_map_rehash_host(map, 0), bad, "rehash: capacity 0");
    expect(vkalgo_hash_map_rehash_host(map, 2), bad, "rehash: below the size");
    expect(vkalgo_hash_map_retrieve_all_host(NULL, keys, values, 3, &count), bad, "retrieve_all: NULL map");
    expect(vkalgo_hash_map_retrieve_all_host(map, keys, values, 3, NULL), bad, "retrieve_all: NULL count_out");
    expect(vkalgo_hash_map_retrieve_all_host(map, NULL, values, 3, &count), bad, "retrieve_all: NULL keys_out");
    expect(vkalgo_hash_map_retrieve_all_host(map, keys, NULL, 3, &count), bad, "retrieve_all: NULL values_out");
    count = 0;
    expect(vkalgo_hash_map_retrieve_all_host(map, NULL, NULL, 0, &count), bad, "retrieve_all: no room");
    check(count == 3, "count_out = %zu, the needed count 3", count);
    /* The map and the context still work. */
    expect(vkalgo_hash_map_find_host(map, keys, out, found, 3), VKALGO_SUCCESS, "find after bad calls");
    check(out[0] == 10 && out[1] == 20 && out[2] == 30 && found[0] && found[1] && found[2],
          "contents unchanged");
    vkalgo_hash_map_destroy(map);
    vkalgo_hash_map_destroy(NULL);
    check(true, "vkalgo_hash_map_destroy(NULL) is a no-op");
}


/* ------------------------------------------------------------------------------------------ */
/* Record layer on the test's own Vulkan device (the external-device path); the Vulkan       */
/* helpers are those of test_c.c.                                                              */




/* Element i of a mapped buffer at byte offset `off`, as u32 or u64. */
static uint64_t buf_get(const Buffer *b, VkDeviceSize off, size_t i, bool wide) {
    const uint8_t *p = (const uint8_t *)b->words + off;
    if (wide) {
        uint64_t v;
        memcpy(&v, p + i * 8, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, p + i * 4, 4);
    return v;
}

static void buf_put(Buffer *b, VkDeviceSize off, size_t i, uint64_t v, bool wide) {
    uint8_t *p = (uint8_t *)b->words + off;
    if (wide) {
        memcpy(p + i * 8, &v, 8);
    } else {
        uint32_t w = (uint32_t)v;
        memcpy(p + i * 4, &w, 4);
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void sentinel(Buffer *b) {
    for (size_t i = 0; i < b->size / 4; i++) {
        b->words[i] = 0xA5A55A5Au ^ (uint32_t)i;
    }
}

static bool sentinel_intact(const Buffer *b, VkDeviceSize from, VkDeviceSize to) {
    for (VkDeviceSize i = from / 4; i < to / 4 && i < b->size / 4; i++) {
        if (b->words[i] != (0xA5A55A5Au ^ (uint32_t)i)) {
            return false;
        }
    }
    return true;
}

static VkalgoBufferRange no_range(void) {
    VkalgoBufferRange r = {VK_NULL_HANDLE, 0, 0};
    return r;
}

/* The buffers of the record-layer test. */
typedef struct RecBuffers {
    Buffer keys, values, out, count;
} RecBuffers;

enum { REC_N = 600, REC_DUP = 40, REC_ABSENT = 100, REC_ERASE = 100, REC_CAP = 1000 };
/* Byte offsets in `out`: status, found, values, erased flags, size words, retrieve keys,
 * retrieve values, retrieve count (all multiples of 256). */
enum {
    O_STATUS = 256,
    O_FOUND = O_STATUS + 4096,
    O_VALUES = O_FOUND + 4096,
    O_ERASED = O_VALUES + 8192,
    O_SIZE = O_ERASED + 4096,
    O_RKEYS = O_SIZE + 256,
    O_RVALUES = O_RKEYS + 16384,
    O_RCOUNT = O_RVALUES + 16384,
    O_END = O_RCOUNT + 256
};
enum { K_OFF = 64, V_OFF = 128 }; /* non-zero input offsets */

/* One map (u32/u32 or u64/u64) through every record call: clear, insert (direct count, per-key
 * status, failure counter, duplicates), find (values and found flags, absent keys), size,
 * erase (erased flags), retrieve_all, then indirect counts; compared exactly with a CPU model. */
static void record_round_trip(Gpu *g, VkalgoContext *ctx, RecBuffers *b, bool wide) {
    const char *name = wide ? "u64/u64" : "u32/u32";
    printf("-- record layer, %s map\n", name);
    const size_t kb = wide ? 8 : 4;
    VkalgoHashMapDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.capacity = REC_CAP;
    if (wide) {
        desc.key_type = VKALGO_KEY_U64;
        desc.value_type = VKALGO_VALUE_U64;
    }
    VkalgoHashMap *map = NULL;
    if (!expect(vkalgo_hash_map_create(ctx, &desc, &map), VKALGO_SUCCESS, "  vkalgo_hash_map_create")) {
        return;
    }
    /* Keys: REC_N - REC_DUP distinct keys, then REC_DUP repeats (same value); then REC_ABSENT
     * absent keys right after them (the find covers both). */
    const size_t distinct = REC_N - REC_DUP;
    uint64_t *k = xmalloc((REC_N + REC_ABSENT) * sizeof *k);
    uint64_t *v = xmalloc(REC_N * sizeof *v);
    for (size_t i = 0; i < distinct + REC_ABSENT; i++) {
        bool fresh;
        do {
            k[i] = wide ? (rng_u64() % 3 == 0 ? rng_u64() & 0xffffffffu : rng_u64()) : (uint64_t)(rng_u64() >> 32);
            fresh = k[i] < (wide ? UINT64_MAX - 1 : (uint64_t)UINT32_MAX - 1);
            for (size_t j = 0; j < i && fresh; j++) {
                fresh = k[j] != k[i];
            }
        } while (!fresh);
    }
    /* Move the absent keys to the end, put the duplicates before them. */
    uint64_t absent[REC_ABSENT];
    memcpy(absent, k + distinct, sizeof absent);
    for (size_t i = 0; i < REC_DUP; i++) {
        k[distinct + i] = k[(i * 13) % distinct];
    }
    memcpy(k + REC_N, absent, sizeof absent);
    for (size_t i = 0; i < REC_N; i++) {
        v[i] = i < distinct ? (wide ? rng_u64() : rng_u64() >> 32) : v[(i - distinct) * 13 % distinct];
    }
    sentinel(&b->keys);
    sentinel(&b->values);
    sentinel(&b->out);
    sentinel(&b->count);
    for (size_t i = 0; i < REC_N + REC_ABSENT; i++) {
        buf_put(&b->keys, K_OFF, i, k[i], wide);
    }
    for (size_t i = 0; i < REC_N; i++) {
        buf_put(&b->values, V_OFF, i, v[i], wide);
    }
    b->count.words[1] = 0; /* failure counter at byte 4 */

    VkalgoHashInsertArgs ins = {
        .keys = range_of(&b->keys, K_OFF, REC_N * kb),
        .values = range_of(&b->values, V_OFF, REC_N * kb),
        .count = REC_N,
        .count_buffer = no_range(),
        .max_count = 0,
        .status = range_of(&b->out, O_STATUS, REC_N * 4),
        .failed_count = range_of(&b->count, 4, 4),
    };
    VkalgoHashFindArgs find = {
        .keys = range_of(&b->keys, K_OFF, (REC_N + REC_ABSENT) * kb),
        .values = range_of(&b->out, O_VALUES, (REC_N + REC_ABSENT) * kb),
        .found = range_of(&b->out, O_FOUND, (REC_N + REC_ABSENT) * 4),
        .count = REC_N + REC_ABSENT,
        .count_buffer = no_range(),
        .max_count = 0,
    };
    /* Erase the first REC_ERASE distinct keys, and REC_ERASE / 2 of them a second time. */
    VkalgoHashEraseArgs er = {
        .keys = range_of(&b->keys, K_OFF, REC_ERASE * kb),
        .erased = range_of(&b->out, O_ERASED, REC_ERASE * 4),
        .count = REC_ERASE,
        .count_buffer = no_range(),
        .max_count = 0,
    };
    VkalgoHashRetrieveArgs ret = {
        .keys = range_of(&b->out, O_RKEYS, REC_CAP * kb),
        .values = range_of(&b->out, O_RVALUES, REC_CAP * kb),
        .capacity = REC_CAP,
        .count_out = range_of(&b->out, O_RCOUNT, 4),
    };
    bool ok = cmd_begin(g);
    barrier_before(g);
    ok = expect(vkalgo_hash_map_record_clear(map, g->cmd), VKALGO_SUCCESS, "  record_clear") && ok;
    ok = expect(vkalgo_hash_map_record_barrier(map, g->cmd), VKALGO_SUCCESS, "  record_barrier") && ok;
    ok = expect(vkalgo_hash_map_record_insert(map, g->cmd, &ins), VKALGO_SUCCESS, "  record_insert (direct)") && ok;
    ok = expect(vkalgo_hash_map_record_barrier(map, g->cmd), VKALGO_SUCCESS, "  record_barrier") && ok;
    ok = expect(vkalgo_hash_map_record_find(map, g->cmd, &find), VKALGO_SUCCESS, "  record_find") && ok;
    ok = expect(vkalgo_hash_map_record_size(map, g->cmd, &(VkalgoHashSizeArgs){.out = range_of(&b->out, O_SIZE, 4)}),
                VKALGO_SUCCESS, "  record_size") && ok;
    ok = expect(vkalgo_hash_map_record_barrier(map, g->cmd), VKALGO_SUCCESS, "  record_barrier") && ok;
    ok = expect(vkalgo_hash_map_record_erase(map, g->cmd, &er), VKALGO_SUCCESS, "  record_erase") && ok;
    ok = expect(vkalgo_hash_map_record_barrier(map, g->cmd), VKALGO_SUCCESS, "  record_barrier") && ok;
    ok = expect(vkalgo_hash_map_record_size(map, g->cmd, &(VkalgoHashSizeArgs){.out = range_of(&b->out, O_SIZE + 4, 4)}),
                VKALGO_SUCCESS, "  record_size") && ok;
    ok = expect(vkalgo_hash_map_record_retrieve_all(map, g->cmd, &ret), VKALGO_SUCCESS, "  record_retrieve_all") && ok;
    barrier_after(g);
    ok = cmd_submit_wait(g, "record round trip") && ok;
    if (ok) {
        size_t inserted = 0, bad_status = 0;
        for (size_t i = 0; i < REC_N; i++) {
            uint32_t s = *(const uint32_t *)((const uint8_t *)b->out.words + O_STATUS + 4 * i);
            inserted += s == VKALGO_HASH_STATUS_INSERTED;
            bad_status += s != VKALGO_HASH_STATUS_INSERTED && s != VKALGO_HASH_STATUS_UPDATED;
        }
        check(inserted == distinct && bad_status == 0, "  status: %zu INSERTED (want %zu), %zu neither inserted nor updated",
              inserted, distinct, bad_status);
        check(b->count.words[1] == 0, "  failure counter %" PRIu32 " (want 0)", b->count.words[1]);
        size_t wrong = 0;
        for (size_t i = 0; i < REC_N + REC_ABSENT; i++) {
            uint32_t f = *(const uint32_t *)((const uint8_t *)b->out.words + O_FOUND + 4 * i);
            uint64_t got = buf_get(&b->out, O_VALUES, i, wide);
            bool want_found = i < REC_N;
            wrong += f != (want_found ? 1u : 0u) || got != (want_found ? v[i] : 0);
        }
        check(wrong == 0, "  find: %zu of %d keys wrong (values and found flags)", wrong, REC_N + REC_ABSENT);
        check(sentinel_intact(&b->out, O_STATUS + REC_N * 4, O_FOUND) &&
                  sentinel_intact(&b->out, O_FOUND + (REC_N + REC_ABSENT) * 4, O_VALUES) &&
                  sentinel_intact(&b->out, O_VALUES + (REC_N + REC_ABSENT) * kb, O_ERASED),
              "  nothing written past the outputs");
        const uint32_t *size = (const uint32_t *)((const uint8_t *)b->out.words + O_SIZE);
        check(size[0] == distinct && size[1] == distinct - REC_ERASE, "  sizes %" PRIu32 ", %" PRIu32 " (want %zu, %zu)",
              size[0], size[1], distinct, distinct - REC_ERASE);
        size_t erased = 0;
        for (size_t i = 0; i < REC_ERASE; i++) {
            erased += *(const uint32_t *)((const uint8_t *)b->out.words + O_ERASED + 4 * i) == 1;
        }
        check(erased == REC_ERASE, "  erase flags: %zu of %d", erased, REC_ERASE);
        uint32_t count = *(const uint32_t *)((const uint8_t *)b->out.words + O_RCOUNT);
        bool same = count == distinct - REC_ERASE;
        if (same) {
            uint64_t *got = xmalloc(count * sizeof *got);
            uint64_t *want = xmalloc(count * sizeof *want);
            for (size_t i = 0; i < count; i++) {
                got[i] = buf_get(&b->out, O_RKEYS, i, wide) ^ (buf_get(&b->out, O_RVALUES, i, wide) * 0x9E3779B97F4A7C15ull);
                want[i] = k[REC_ERASE + i] ^ (v[REC_ERASE + i] * 0x9E3779B97F4A7C15ull);
            }
            qsort(got, count, sizeof *got, cmp_u64);
            qsort(want, count, sizeof *want, cmp_u64);
            same = memcmp(got, want, count * sizeof *got) == 0;
            free(got);
            free(want);
        }
        check(same, "  retrieve_all: %" PRIu32 " entries, exactly the live ones", count);
    }

    /* Indirect counts: insert 7 of REC_ABSENT new keys (max_count REC_ABSENT), then find 5. */
    sentinel(&b->out);
    b->count.words[0] = 7;
    b->count.words[1] = 0;
    b->count.words[2] = 5;
    for (size_t i = 0; i < REC_ABSENT; i++) {
        buf_put(&b->values, V_OFF, i, 1000 + i, wide);
    }
    ins.keys = range_of(&b->keys, K_OFF + REC_N * kb, REC_ABSENT * kb);
    ins.values = range_of(&b->values, V_OFF, REC_ABSENT * kb);
    ins.count = 0;
    ins.count_buffer = range_of(&b->count, 0, 4);
    ins.max_count = REC_ABSENT;
    ins.status = range_of(&b->out, O_STATUS, REC_ABSENT * 4);
    find.keys = ins.keys;
    find.values = range_of(&b->out, O_VALUES, REC_ABSENT * kb);
    find.found = range_of(&b->out, O_FOUND, REC_ABSENT * 4);
    find.count = 0;
    find.count_buffer = range_of(&b->count, 8, 4);
    find.max_count = REC_ABSENT;
    ok = cmd_begin(g);
    barrier_before(g);
    ok = expect(vkalgo_hash_map_record_insert(map, g->cmd, &ins), VKALGO_SUCCESS, "  record_insert (indirect count 7)") && ok;
    ok = expect(vkalgo_hash_map_record_barrier(map, g->cmd), VKALGO_SUCCESS, "  record_barrier") && ok;
    ok = expect(vkalgo_hash_map_record_find(map, g->cmd, &find), VKALGO_SUCCESS, "  record_find (indirect count 5)") && ok;
    ok = expect(vkalgo_hash_map_record_size(map, g->cmd, &(VkalgoHashSizeArgs){.out = range_of(&b->out, O_SIZE, 4)}),
                VKALGO_SUCCESS, "  record_size") && ok;
    barrier_after(g);
    ok = cmd_submit_wait(g, "record indirect") && ok;
    if (ok) {
        size_t wrong = 0;
        for (size_t i = 0; i < 5; i++) {
            uint32_t f = *(const uint32_t *)((const uint8_t *)b->out.words + O_FOUND + 4 * i);
            wrong += f != 1 || buf_get(&b->out, O_VALUES, i, wide) != 1000 + i;
        }
        check(wrong == 0, "  the 5 looked-up keys found with their values");
        check(sentinel_intact(&b->out, O_STATUS + 7 * 4, O_FOUND) && sentinel_intact(&b->out, O_FOUND + 5 * 4, O_VALUES) &&
                  sentinel_intact(&b->out, O_VALUES + 5 * kb, O_SIZE),
              "  statuses past 7 and lookups past 5 not written");
        uint32_t size = *(const uint32_t *)((const uint8_t *)b->out.words + O_SIZE);
        check(size == distinct - REC_ERASE + 7, "  size %" PRIu32 " (want %zu)", size, distinct - REC_ERASE + 7);
    }
    free(k);
    free(v);
    vkalgo_hash_map_destroy(map);
}

/* Argument errors of every record call: INVALID_ARGUMENT with a message, nothing recorded,
 * nothing changed: the outputs keep their sentinels and the map its contents (read back). */
static void record_bad_input(Gpu *g, VkalgoContext *ctx, RecBuffers *b) {
    printf("-- record layer argument errors\n");
    VkalgoHashMapDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.capacity = REC_CAP;
    VkalgoHashMap *map = NULL;
    if (!expect(vkalgo_hash_map_create(ctx, &desc, &map), VKALGO_SUCCESS, "  vkalgo_hash_map_create")) {
        return;
    }
    /* Contents: 10 keys through the record layer. */
    sentinel(&b->out);
    sentinel(&b->count);
    for (uint32_t i = 0; i < 10; i++) {
        buf_put(&b->keys, K_OFF, i, 100 + i, false);
        buf_put(&b->values, V_OFF, i, 200 + i, false);
    }
    VkalgoHashInsertArgs ins = {
        .keys = range_of(&b->keys, K_OFF, 40),
        .values = range_of(&b->values, V_OFF, 40),
        .count = 10,
        .count_buffer = no_range(),
        .max_count = 0,
        .status = range_of(&b->out, O_STATUS, 40),
        .failed_count = no_range(),
    };
    bool ok = cmd_begin(g);
    barrier_before(g);
    ok = expect(vkalgo_hash_map_record_insert(map, g->cmd, &ins), VKALGO_SUCCESS, "  record_insert 10 keys") && ok;
    barrier_after(g);
    ok = cmd_submit_wait(g, "setup") && ok;
    if (!ok) {
        vkalgo_hash_map_destroy(map);
        return;
    }
    sentinel(&b->out);
    VkalgoHashFindArgs find = {
        .keys = range_of(&b->keys, K_OFF, 40),
        .values = range_of(&b->out, O_VALUES, 40),
        .found = range_of(&b->out, O_FOUND, 40),
        .count = 10,
        .count_buffer = no_range(),
        .max_count = 0,
    };
    VkalgoHashEraseArgs er = {
        .keys = range_of(&b->keys, K_OFF, 40),
        .erased = range_of(&b->out, O_ERASED, 40),
        .count = 10,
        .count_buffer = no_range(),
        .max_count = 0,
    };
    VkalgoHashRetrieveArgs ret = {
        .keys = range_of(&b->out, O_RKEYS, REC_CAP * 4),
        .values = range_of(&b->out, O_RVALUES, REC_CAP * 4),
        .capacity = REC_CAP,
        .count_out = range_of(&b->out, O_RCOUNT, 4),
    };
    VkalgoHashSizeArgs size_args = {0};
    size_args.out = range_of(&b->out, O_SIZE, 4);
    /* The destination of a recorded rehash (only refused calls are recorded into it). */
    VkalgoHashMap *dst = NULL;
    expect(vkalgo_hash_map_create(ctx, &desc, &dst), VKALGO_SUCCESS, "  a second map");
    VkalgoHashRehashArgs rehash = {0};
    rehash.dst = dst;
    rehash.failed_count = range_of(&b->count, 4, 4);
    static int extension; /* what a `next` would point to: no extension structure is defined yet */
    VkalgoHashInsertArgs i2;
    VkalgoHashFindArgs f2;
    VkalgoHashEraseArgs e2;
    VkalgoHashRetrieveArgs r2;
    VkalgoHashSizeArgs s2;
    VkalgoHashRehashArgs h2;
    int refused = 0, calls = 0;
#define BAD(setup, call, what)                                                                                      \
    do {                                                                                                            \
        i2 = ins;                                                                                                   \
        f2 = find;                                                                                                  \
        e2 = er;                                                                                                    \
        r2 = ret;                                                                                                   \
        s2 = size_args;                                                                                             \
        h2 = rehash;                                                                                                \
        setup;                                                                                                      \
        VkalgoResult r_ = (call);                                                                                   \
        calls++;                                                                                                    \
        const char *m_ = vkalgo_last_error_message();                                                               \
        if (check(r_ == VKALGO_ERROR_INVALID_ARGUMENT && m_ && m_[0], "  %s: %s (%s)", what, result_name(r_), m_)) { \
            refused++;                                                                                              \
        }                                                                                                           \
    } while (0)
    ok = cmd_begin(g);
    VkCommandBuffer cmd = g->cmd;
    /* Handles and pointers. */
    BAD((void)0, vkalgo_hash_map_record_insert(NULL, cmd, &i2), "insert: NULL map");
    BAD((void)0, vkalgo_hash_map_record_insert(map, VK_NULL_HANDLE, &i2), "insert: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_insert(map, cmd, NULL), "insert: NULL args");
    BAD((void)0, vkalgo_hash_map_record_find(NULL, cmd, &f2), "find: NULL map");
    BAD((void)0, vkalgo_hash_map_record_find(map, VK_NULL_HANDLE, &f2), "find: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_find(map, cmd, NULL), "find: NULL args");
    BAD((void)0, vkalgo_hash_map_record_erase(NULL, cmd, &e2), "erase: NULL map");
    BAD((void)0, vkalgo_hash_map_record_erase(map, VK_NULL_HANDLE, &e2), "erase: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_erase(map, cmd, NULL), "erase: NULL args");
    BAD((void)0, vkalgo_hash_map_record_retrieve_all(NULL, cmd, &r2), "retrieve_all: NULL map");
    BAD((void)0, vkalgo_hash_map_record_retrieve_all(map, VK_NULL_HANDLE, &r2), "retrieve_all: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_retrieve_all(map, cmd, NULL), "retrieve_all: NULL args");
    BAD((void)0, vkalgo_hash_map_record_size(NULL, cmd, &s2), "size: NULL map");
    BAD((void)0, vkalgo_hash_map_record_size(map, VK_NULL_HANDLE, &s2), "size: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_size(map, cmd, NULL), "size: NULL args");
    BAD((void)0, vkalgo_hash_map_record_rehash_into(NULL, cmd, &h2), "rehash_into: NULL map");
    BAD((void)0, vkalgo_hash_map_record_rehash_into(map, VK_NULL_HANDLE, &h2), "rehash_into: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_rehash_into(map, cmd, NULL), "rehash_into: NULL args");
    BAD(h2.dst = NULL, vkalgo_hash_map_record_rehash_into(map, cmd, &h2), "rehash_into: NULL dst");
    BAD(h2.dst = map, vkalgo_hash_map_record_rehash_into(map, cmd, &h2), "rehash_into: dst is the map itself");
    /* Every args struct's `next` must be NULL. */
    BAD(i2.next = &extension, vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: args next != NULL");
    BAD(f2.next = &extension, vkalgo_hash_map_record_find(map, cmd, &f2), "find: args next != NULL");
    BAD(e2.next = &extension, vkalgo_hash_map_record_erase(map, cmd, &e2), "erase: args next != NULL");
    BAD(r2.next = &extension, vkalgo_hash_map_record_retrieve_all(map, cmd, &r2), "retrieve_all: args next != NULL");
    BAD(s2.next = &extension, vkalgo_hash_map_record_size(map, cmd, &s2), "size: args next != NULL");
    BAD(h2.next = &extension, vkalgo_hash_map_record_rehash_into(map, cmd, &h2), "rehash_into: args next != NULL");
    BAD((void)0, vkalgo_hash_map_record_clear(NULL, cmd), "clear: NULL map");
    BAD((void)0, vkalgo_hash_map_record_clear(map, VK_NULL_HANDLE), "clear: NULL command buffer");
    BAD((void)0, vkalgo_hash_map_record_barrier(NULL, cmd), "barrier: NULL map");
    BAD((void)0, vkalgo_hash_map_record_barrier(map, VK_NULL_HANDLE), "barrier: NULL command buffer");
    /* Ranges. */
    BAD(i2.keys.offset = K_OFF + 2, vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: keys offset not a multiple of 4");
    BAD(i2.keys.size = 36, vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: keys range too small");
    BAD(i2.values.size = 36, vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: values range too small");
    BAD(i2.keys.buffer = VK_NULL_HANDLE, vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: keys buffer NULL");
    BAD(i2.status = range_of(&b->keys, K_OFF, 40), vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: status overlaps the keys");
    BAD(i2.status.size = 4, vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: status range too small");
    BAD(i2.failed_count = range_of(&b->out, O_STATUS + 8, 4), vkalgo_hash_map_record_insert(map, cmd, &i2),
        "insert: failed_count overlaps the status");
    BAD(i2.failed_count = range_of(&b->count, 2, 4), vkalgo_hash_map_record_insert(map, cmd, &i2),
        "insert: failed_count offset 2");
    BAD((i2.count = 0, i2.count_buffer = range_of(&b->count, 2, 4), i2.max_count = 10),
        vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: count buffer offset 2");
    BAD((i2.count = 0, i2.count_buffer = range_of(&b->count, 0, 4), i2.max_count = 11),
        vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: max_count 11 past the 10-key ranges");
    BAD((i2.count = 0, i2.count_buffer = range_of(&b->count, 0, 4), i2.max_count = (uint64_t)UINT32_MAX + 1),
        vkalgo_hash_map_record_insert(map, cmd, &i2), "insert: max_count 2^32 (past the largest batch)");
    BAD(i2.count = (uint64_t)UINT32_MAX + 1, vkalgo_hash_map_record_insert(map, cmd, &i2),
        "insert: count 2^32 (past the largest batch)");
    BAD(f2.values.offset = O_VALUES + 2, vkalgo_hash_map_record_find(map, cmd, &f2), "find: values offset 2");
    BAD(f2.found = f2.values, vkalgo_hash_map_record_find(map, cmd, &f2), "find: found overlaps values");
    BAD(f2.keys.size = 8, vkalgo_hash_map_record_find(map, cmd, &f2), "find: keys range too small");
    BAD(f2.count = (uint64_t)UINT32_MAX + 1, vkalgo_hash_map_record_find(map, cmd, &f2), "find: count 2^32");
    BAD(e2.keys.size = 8, vkalgo_hash_map_record_erase(map, cmd, &e2), "erase: keys range too small");
    BAD(e2.erased = range_of(&b->keys, K_OFF + 4, 40), vkalgo_hash_map_record_erase(map, cmd, &e2), "erase: flags overlap keys");
    BAD(e2.count = (uint64_t)UINT32_MAX + 1, vkalgo_hash_map_record_erase(map, cmd, &e2), "erase: count 2^32");
    BAD(r2.keys.size = 16, vkalgo_hash_map_record_retrieve_all(map, cmd, &r2), "retrieve_all: keys too small for capacity");
    BAD(r2.count_out = range_of(&b->out, O_RKEYS, 4), vkalgo_hash_map_record_retrieve_all(map, cmd, &r2),
        "retrieve_all: count_out overlaps the keys");
    BAD(r2.count_out.size = 0, vkalgo_hash_map_record_retrieve_all(map, cmd, &r2), "retrieve_all: count_out empty");
    BAD(s2.out.offset = O_SIZE + 2, vkalgo_hash_map_record_size(map, cmd, &s2), "size: dst offset 2");
    BAD(s2.out.size = 2, vkalgo_hash_map_record_size(map, cmd, &s2), "size: dst 2 bytes");
    BAD(s2.out = no_range(), vkalgo_hash_map_record_size(map, cmd, &s2), "size: dst buffer NULL");
    BAD(h2.failed_count = range_of(&b->count, 2, 4), vkalgo_hash_map_record_rehash_into(map, cmd, &h2),
        "rehash_into: failed_count offset 2");
#undef BAD
    check(refused == calls, "  %d of %d bad calls refused with INVALID_ARGUMENT and a message", refused, calls);
    /* Nothing was recorded: the command buffer (with the test's barriers only) runs, every
     * output keeps its sentinel; then the map still holds its 10 keys. */
    barrier_before(g);
    barrier_after(g);
    ok = cmd_submit_wait(g, "bad calls") && ok;
    check(ok && sentinel_intact(&b->out, 0, b->out.size) && sentinel_intact(&b->count, 0, b->count.size),
          "  nothing written to any output buffer");
    ok = cmd_begin(g);
    barrier_before(g);
    ok = expect(vkalgo_hash_map_record_find(map, cmd, &find), VKALGO_SUCCESS, "  record_find") && ok;
    ok = expect(vkalgo_hash_map_record_size(map, cmd, &size_args), VKALGO_SUCCESS, "  record_size") && ok;
    barrier_after(g);
    ok = cmd_submit_wait(g, "after bad calls") && ok;
    if (ok) {
        size_t wrong = 0;
        for (uint32_t i = 0; i < 10; i++) {
            wrong += buf_get(&b->out, O_FOUND, i, false) != 1 || buf_get(&b->out, O_VALUES, i, false) != 200 + i;
        }
        uint32_t size = *(const uint32_t *)((const uint8_t *)b->out.words + O_SIZE);
        check(wrong == 0 && size == 10, "  the map is unchanged (10 keys, their values; size %" PRIu32 ")", size);
    }
    uint64_t dst_size = 1;
    expect(vkalgo_hash_map_size_host(dst, &dst_size), VKALGO_SUCCESS, "  size of the rehash destination");
    check(dst_size == 0, "  no refused rehash moved anything into it (size %" PRIu64 ")", dst_size);
    vkalgo_hash_map_destroy(dst);
    vkalgo_hash_map_destroy(map);
}

/* The test's queue lock (host calls on an external context, here the maps' creation, take it
 * around vkQueueSubmit; the test's own submissions are on this thread). */
static int g_queue_locked;
static void test_queue_lock(void *user_data, uint32_t lock) {
    (void)user_data;
    if (lock) {
        check(!g_queue_locked, "queue lock: taken while free");
    }
    g_queue_locked = lock != 0;
}

static void test_record_layer(void) {
    printf("== record layer on the test's own device\n");
    Gpu gpu;
    if (!gpu_create(&gpu)) {
        gpu_destroy(&gpu);
        return;
    }
    VkalgoExternalContextDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.instance = gpu.instance;
    desc.physical_device = gpu.physical_device;
    desc.device = gpu.device;
    desc.queue_family_index = gpu.queue_family;
    desc.queue = gpu.queue;
    desc.get_instance_proc_addr = vkGetInstanceProcAddr;
    desc.queue_lock = test_queue_lock;
    desc.queue_lock_user_data = NULL;
    desc.flags = (gpu.debug_utils ? VKALGO_CONTEXT_DEBUG_UTILS : 0u) |
                 (gpu.int64_atomics ? VKALGO_CONTEXT_INT64_ATOMICS_ENABLED : 0u) |
                 (gpu.full_subgroups ? VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED : 0u);
    VkalgoContext *ctx = NULL;
    if (!expect(vkalgo_context_create_external(&desc, &ctx), VKALGO_SUCCESS, "vkalgo_context_create_external")) {
        gpu_destroy(&gpu);
        return;
    }
    RecBuffers b;
    memset(&b, 0, sizeof b);
    const VkDeviceSize in_bytes = 256 + (REC_N + REC_ABSENT) * 8;
    if (buffer_create(&gpu, in_bytes, "keys", &b.keys) && buffer_create(&gpu, in_bytes, "values", &b.values) &&
        buffer_create(&gpu, O_END, "outputs", &b.out) && buffer_create(&gpu, 256, "counts", &b.count)) {
        record_round_trip(&gpu, ctx, &b, false);
        if (gpu.int64_atomics) {
            record_round_trip(&gpu, ctx, &b, true);
        } else {
            printf("  skip  u64/u64 map: no shaderBufferInt64Atomics\n");
        }
        record_bad_input(&gpu, ctx, &b);
    }
    vkDeviceWaitIdle(gpu.device);
    buffer_destroy(&gpu, &b.keys);
    buffer_destroy(&gpu, &b.values);
    buffer_destroy(&gpu, &b.out);
    buffer_destroy(&gpu, &b.count);
    vkalgo_context_destroy(ctx);
    check(g_validation_messages == 0, "validation messages on the test's own device: %u", g_validation_messages);
    gpu_destroy(&gpu);
}

int main(void) {
    VkalgoContext *ctx = NULL;
    if (!expect(vkalgo_context_create_default(&ctx), VKALGO_SUCCESS, "vkalgo_context_create_default")) {
        return 1;
    }
    printf("device: %s\n", vkalgo_context_device_name(ctx));
#ifdef VKALGO_GLSL_INCLUDE
    FILE *include = fopen(VKALGO_GLSL_INCLUDE, "r");
    check(include != NULL, "the package installed %s", VKALGO_GLSL_INCLUDE);
    if (include) {
        char line[256];
        bool has_find = false;
        while (fgets(line, sizeof line, include)) {
            has_find = has_find || strstr(line, "bool vkalgo_hash_map_find_u32_u32(") != NULL;
        }
        fclose(include);
        check(has_find, "it declares vkalgo_hash_map_find_u32_u32");
    }
#endif
    round_trip(ctx, VKALGO_KEY_U32, VKALGO_VALUE_U32);
    round_trip(ctx, VKALGO_KEY_U32, VKALGO_VALUE_U64);
    round_trip(ctx, VKALGO_KEY_U64, VKALGO_VALUE_U32);
    round_trip(ctx, VKALGO_KEY_U64, VKALGO_VALUE_U64);
    overfill(ctx);
    bad_input(ctx);
    test_record_layer();
    uint64_t messages = vkalgo_context_validation_message_count(ctx);
    check(messages == 0, "validation messages: %" PRIu64, messages);
    vkalgo_context_destroy(ctx);
    printf("%u checks, %u failures\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
