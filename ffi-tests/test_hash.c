/* C11 tests of vkalgo's GPU hash map C ABI (include/vkalgo.h), against the installed package.
 *
 * Host calls on the default context (VKALGO_VALIDATION=1 in the test environment turns the
 * Khronos validation layer on inside it; the test then requires zero messages): every key and
 * value type, a model check against a small CPU table, duplicates, erase, size, rehash,
 * retrieve_all (including an output too small: the needed count comes back), an overfilled
 * table (VKALGO_ERROR_TABLE_FULL, the stored keys stay, exact size), reserved keys, and bad
 * input (NULL handles and arrays, unknown types, capacity 0). Also checks that the package
 * installed the public GLSL include (VKALGO_GLSL_INCLUDE, set by CMake from vkalgo_GLSL_DIR).
 *
 * Prints every check; exits 1 on any failure. */
#define TEST_RNG_SEED 0x0123456789abcdefull
#include "check.h" /* check(), expect(), rng_u64(), xmalloc(), now_s() */
#include <vkalgo.h>

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

static const char *type_name(uint32_t key_type, uint32_t value_type) {
    static char text[32];
    snprintf(text, sizeof text, "%s/%s", key_type == VKALGO_KEY_U64 ? "u64" : "u32",
             value_type == VKALGO_VALUE_U64 ? "u64" : "u32");
    return text;
}

/* Inserts, overwrites, duplicates, erases, rehashes and retrieves on one map, checked against
 * the model after each step. */
static void round_trip(VkalgoContext *ctx, uint32_t key_type, uint32_t value_type) {
    const bool kw = key_type == VKALGO_KEY_U64, vw = value_type == VKALGO_VALUE_U64;
    const size_t kb = kw ? 8 : 4, vb = vw ? 8 : 4;
    const size_t n = 3000;
    char what[160];
    printf("%s map\n", type_name(key_type, value_type));
    VkalgoHashMapDesc desc = {key_type, value_type, 5000};
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
    expect(vkalgo_hash_map_size(map, &size), VKALGO_SUCCESS, "size");
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
    expect(vkalgo_hash_map_erase_host(map, (const char *)keys + n * kb, 100), VKALGO_SUCCESS,
           "erase 100 absent keys");
    for (size_t i = 500; i < 1000; i++) {
        model_erase(&model, get(keys, i, kw));
    }
    uint64_t tombstones = 0;
    expect(vkalgo_hash_map_tombstones(map, &tombstones), VKALGO_SUCCESS, "tombstones");
    check(tombstones > 0 && tombstones <= 500, "tombstones %" PRIu64, tombstones);
    expect(vkalgo_hash_map_rehash(map, 4000), VKALGO_SUCCESS, "rehash to 4000");
    expect(vkalgo_hash_map_tombstones(map, &tombstones), VKALGO_SUCCESS, "tombstones after rehash");
    check(tombstones == 0, "rehash dropped the tombstones");

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
    VkalgoHashMapDesc desc = {VKALGO_KEY_U32, VKALGO_VALUE_U32, 50};
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
    expect(vkalgo_hash_map_size(map, &size), VKALGO_SUCCESS, "size");
    check(size == 52, "size %" PRIu64 " == 52", size);
    expect(vkalgo_hash_map_find_host(map, keys, out, found, 80), VKALGO_SUCCESS, "find all 80");
    bool ok = true;
    for (int i = 0; i < 80; i++) {
        bool stored = status[i] == VKALGO_HASH_STATUS_INSERTED;
        ok = ok && found[i] == stored && out[i] == (stored ? values[i] : 0);
    }
    check(ok, "the stored keys are found with their values, the failed ones are not");
    expect(vkalgo_hash_map_insert_host(map, keys, values, 80), VKALGO_ERROR_TABLE_FULL, "insert again");
    expect(vkalgo_hash_map_size(map, &size), VKALGO_SUCCESS, "size");
    check(size == 52, "size still 52");
    vkalgo_hash_map_destroy(map);
}

static void bad_input(VkalgoContext *ctx) {
    printf("bad input\n");
    const VkalgoResult bad = VKALGO_ERROR_INVALID_ARGUMENT;
    VkalgoHashMapDesc desc = {VKALGO_KEY_U32, VKALGO_VALUE_U32, 100};
    VkalgoHashMap *map = NULL;
    expect(vkalgo_hash_map_create(NULL, &desc, &map), bad, "create: NULL ctx");
    expect(vkalgo_hash_map_create(ctx, NULL, &map), bad, "create: NULL desc");
    expect(vkalgo_hash_map_create(ctx, &desc, NULL), bad, "create: NULL out");
    const uint32_t bad_keys[] = {VKALGO_KEY_I32, VKALGO_KEY_F32, VKALGO_KEY_I64, VKALGO_KEY_F64, 6, 1000};
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        VkalgoHashMapDesc d = {bad_keys[i], VKALGO_VALUE_U32, 100};
        char what[64];
        snprintf(what, sizeof what, "create: key type %u", (unsigned)bad_keys[i]);
        expect(vkalgo_hash_map_create(ctx, &d, &map), bad, what);
    }
    const uint32_t bad_values[] = {VKALGO_VALUE_NONE, 3, 77};
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        VkalgoHashMapDesc d = {VKALGO_KEY_U32, bad_values[i], 100};
        char what[64];
        snprintf(what, sizeof what, "create: value type %u", (unsigned)bad_values[i]);
        expect(vkalgo_hash_map_create(ctx, &d, &map), bad, what);
    }
    VkalgoHashMapDesc zero = {VKALGO_KEY_U64, VKALGO_VALUE_U64, 0};
    expect(vkalgo_hash_map_create(ctx, &zero, &map), bad, "create: capacity 0");
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
    expect(vkalgo_hash_map_size(map, &size), VKALGO_SUCCESS, "size");
    check(size == 3, "size %" PRIu64 " == 3: the refused batches changed nothing", size);
    expect(vkalgo_hash_map_find_host(NULL, keys, out, found, 3), bad, "find: NULL map");
    expect(vkalgo_hash_map_find_host(map, NULL, out, found, 3), bad, "find: NULL keys");
    expect(vkalgo_hash_map_find_host(map, keys, NULL, found, 3), bad, "find: NULL values_out");
    expect(vkalgo_hash_map_erase_host(NULL, keys, 3), bad, "erase: NULL map");
    expect(vkalgo_hash_map_erase_host(map, NULL, 3), bad, "erase: NULL keys");
    expect(vkalgo_hash_map_size(NULL, &size), bad, "size: NULL map");
    expect(vkalgo_hash_map_size(map, NULL), bad, "size: NULL out");
    expect(vkalgo_hash_map_rehash(NULL, 100), bad, "rehash: NULL map");
    expect(vkalgo_hash_map_rehash(map, 0), bad, "rehash: capacity 0");
    expect(vkalgo_hash_map_rehash(map, 2), bad, "rehash: below the size");
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
    uint64_t messages = vkalgo_context_validation_message_count(ctx);
    check(messages == 0, "validation messages: %" PRIu64, messages);
    vkalgo_context_destroy(ctx);
    printf("%u checks, %u failures\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
