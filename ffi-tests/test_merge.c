/* C11 tests of vkalgo's merge and sorted-array set operations through the C ABI
 * (include/vkalgo.h), against the installed package:
 *
 * 1. The constants and the VkalgoMergeDesc layout (static and runtime checks).
 * 2. vkalgo_merge_host on the default context: every key type, ascending and descending,
 *    without values and with u32 and u64 values, run sizes (0, 0), (0, n), (n, 0), (1, 1), very
 *    unequal and a few thousand each, runs full of equal keys. Every result is compared exactly
 *    (keys bit for bit, values proving stability: equal keys keep A's elements first) with a
 *    CPU merge; the element after the output must stay untouched.
 * 3. vkalgo_sorted_set_op_host: every key type and operation over unique and repeated values,
 *    compared with a CPU walk of std::set_* semantics; the size query (out NULL, capacity 0),
 *    a too-small capacity (INVALID_ARGUMENT, the size needed reported, nothing written).
 * 4. Bad input: INVALID_ARGUMENT, a message, nothing written; then a good call on the same
 *    context.
 *
 * VKALGO_VALIDATION=1 in the test environment runs the default context under the Khronos
 * validation layer; the test then requires zero messages. Exits 1 on any failure. */
#define TEST_RNG_SEED 0x3E12CE5EEDull
#include "check.h"
#include <vkalgo.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(VKALGO_SET_AND == 0 && VKALGO_SET_OR == 1 && VKALGO_SET_ANDNOT == 2 && VKALGO_SET_XOR == 3,
               "set operation constants");
_Static_assert(VKALGO_MERGE_PATH_AUTO == 0 && VKALGO_MERGE_PATH_PARTITIONED == 1 && VKALGO_MERGE_PATH_FUSED == 2,
               "merge path constants");
_Static_assert(sizeof(VkalgoSetOp) == 4 && sizeof(VkalgoMergePath) == 4 && sizeof(VkalgoSortedSetOpPath) == 4,
               "the enums are 32 bits wide");
_Static_assert(offsetof(VkalgoMergeDesc, next) == 0 && offsetof(VkalgoMergeDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoMergeDesc, value_type) == sizeof(void *) + 4 &&
                   offsetof(VkalgoMergeDesc, descending) == sizeof(void *) + 8 &&
                   offsetof(VkalgoMergeDesc, max_a) % 8 == 0 && offsetof(VkalgoMergeDesc, max_b) == offsetof(VkalgoMergeDesc, max_a) + 8 &&
                   offsetof(VkalgoMergeDesc, path) == offsetof(VkalgoMergeDesc, max_b) + 8,
               "VkalgoMergeDesc field offsets");
_Static_assert(offsetof(VkalgoSortedSetOpDesc, next) == 0 && offsetof(VkalgoSortedSetOpDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoSortedSetOpDesc, op) == sizeof(void *) + 4,
               "VkalgoSortedSetOpDesc field offsets");

typedef struct KeyInfo {
    VkalgoKeyType type;
    const char *name;
    unsigned bits;
    unsigned kind; /* 0 unsigned, 1 signed, 2 float */
} KeyInfo;

static const KeyInfo KEY_TYPES[] = {
    {VKALGO_KEY_U32, "u32", 32, 0}, {VKALGO_KEY_I32, "i32", 32, 1}, {VKALGO_KEY_F32, "f32", 32, 2},
    {VKALGO_KEY_U64, "u64", 64, 0}, {VKALGO_KEY_I64, "i64", 64, 1}, {VKALGO_KEY_F64, "f64", 64, 2},
};
enum { KEY_TYPE_COUNT = sizeof KEY_TYPES / sizeof KEY_TYPES[0] };

/* Keys are raw bit patterns, never float values: NaN payloads and signs survive. */
static uint64_t key_get(const void *keys, unsigned bits, size_t i) {
    return bits == 32 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
}
static void key_set(void *keys, unsigned bits, size_t i, uint64_t v) {
    if (bits == 32) {
        ((uint32_t *)keys)[i] = (uint32_t)v;
    } else {
        ((uint64_t *)keys)[i] = v;
    }
}

/* The order the library merges in: unsigned keys as they are, signed with the sign bit
 * flipped, floats in IEEE-754 totalOrder; complemented when descending. */
static uint64_t order_key(const KeyInfo *k, uint64_t raw, bool descending) {
    const uint64_t sign = 1ull << (k->bits - 1);
    const uint64_t mask = k->bits == 64 ? ~0ull : 0xFFFFFFFFull;
    uint64_t o = raw;
    if (k->kind == 1) {
        o ^= sign;
    } else if (k->kind == 2) {
        o = (raw & sign) ? (~raw & mask) : (raw | sign);
    }
    return descending ? (~o & mask) : o;
}

/* Keys from a small domain (many equal keys), with float specials mixed in. */
static uint64_t draw_key(const KeyInfo *k, uint64_t domain) {
    static const uint32_t f32_specials[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                                            0x7FC00000u, 0xFFC00000u, 0x7FC00001u, 0x00000001u};
    static const uint64_t f64_specials[] = {0x0ull, 0x8000000000000000ull, 0x7FF0000000000000ull,
                                            0xFFF0000000000000ull, 0x7FF8000000000000ull, 0xFFF8000000000000ull,
                                            0x7FF8000000000001ull, 0x1ull};
    const uint64_t r = rng_u64();
    if (k->kind == 2 && r % 9 == 0) {
        return k->bits == 32 ? f32_specials[(r >> 8) % 8] : f64_specials[(r >> 8) % 8];
    }
    const uint64_t v = (r >> 16) % domain;
    if (k->kind == 2) {
        if (k->bits == 32) {
            float f = (float)v * 0.5f - 3.0f;
            uint32_t b;
            memcpy(&b, &f, 4);
            return b;
        }
        double d = (double)v * 0.25 - 3.0;
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    if (k->kind == 1) {
        const int64_t s = (int64_t)v - (int64_t)(domain / 2);
        return k->bits == 32 ? (uint64_t)(uint32_t)(int32_t)s : (uint64_t)s;
    }
    return k->bits == 32 ? v * 0x01000193u : v << 40 | 3u;
}

/* Insertion sort by order key (stable; the runs are small). */
static void sort_keys(const KeyInfo *k, void *keys, size_t n, bool descending) {
    for (size_t i = 1; i < n; i++) {
        const uint64_t x = key_get(keys, k->bits, i);
        const uint64_t ox = order_key(k, x, descending);
        size_t j = i;
        while (j > 0 && order_key(k, key_get(keys, k->bits, j - 1), descending) > ox) {
            key_set(keys, k->bits, j, key_get(keys, k->bits, j - 1));
            j--;
        }
        key_set(keys, k->bits, j, x);
    }
}

static void *sorted_run(const KeyInfo *k, size_t n, uint64_t domain, bool descending) {
    void *keys = xmalloc(n * (k->bits / 8));
    for (size_t i = 0; i < n; i++) {
        key_set(keys, k->bits, i, draw_key(k, domain));
    }
    sort_keys(k, keys, n, descending);
    return keys;
}

static size_t value_bytes(uint32_t value_type) {
    return value_type == VKALGO_VALUE_U32 ? 4 : value_type == VKALGO_VALUE_U64 ? 8 : 0;
}

/* Value of element i of run r (0: A, 1: B): names its source. */
static uint64_t value_of(uint32_t value_type, unsigned r, size_t i) {
    return value_type == VKALGO_VALUE_U32 ? ((uint64_t)i | (uint64_t)r << 31) : ((uint64_t)i << 33 | (uint64_t)r << 32 | 5u);
}
static uint64_t value_get(const void *v, uint32_t value_type, size_t i) {
    return value_type == VKALGO_VALUE_U32 ? ((const uint32_t *)v)[i] : ((const uint64_t *)v)[i];
}
static void value_set(void *v, uint32_t value_type, size_t i, uint64_t x) {
    if (value_type == VKALGO_VALUE_U32) {
        ((uint32_t *)v)[i] = (uint32_t)x;
    } else {
        ((uint64_t *)v)[i] = x;
    }
}

static void check_merge(VkalgoContext *ctx, const KeyInfo *k, VkalgoValueType value_type, bool descending,
                        VkalgoMergePath path, size_t m, size_t n, uint64_t domain) {
    const size_t kb = k->bits / 8;
    const size_t vb = value_bytes(value_type);
    void *a = sorted_run(k, m, domain, descending);
    void *b = sorted_run(k, n, domain, descending);
    void *av = vb ? xmalloc(m * vb) : NULL;
    void *bv = vb ? xmalloc(n * vb) : NULL;
    for (size_t i = 0; vb && i < m; i++) value_set(av, value_type, i, value_of(value_type, 0, i));
    for (size_t i = 0; vb && i < n; i++) value_set(bv, value_type, i, value_of(value_type, 1, i));
    /* One guard element after each output. */
    void *out = xmalloc((m + n + 1) * kb);
    void *out_v = vb ? xmalloc((m + n + 1) * vb) : NULL;
    key_set(out, k->bits, m + n, 0x5A5A5A5Au);
    if (vb) value_set(out_v, value_type, m + n, 0x77u);
    VkalgoMergeDesc desc = {0};
    desc.key_type = k->type;
    desc.value_type = value_type;
    desc.descending = descending ? 1u : 0u;
    desc.path = path;
    char what[160];
    snprintf(what, sizeof what, "merge %s values=%zu %s (%zu, %zu) domain %" PRIu64 "%s", k->name, vb,
             descending ? "desc" : "asc", m, n, domain,
             path == VKALGO_MERGE_PATH_FUSED ? " fused" : path == VKALGO_MERGE_PATH_PARTITIONED ? " partitioned" : "");
    VkalgoResult r = vkalgo_merge_host(ctx, &desc, a, av, m, b, bv, n, out, out_v);
    bool ok = r == VKALGO_SUCCESS;
    /* CPU merge: A's element first on equal keys. */
    size_t i = 0, j = 0;
    for (size_t o = 0; ok && o < m + n; o++) {
        bool take_a = j == n || (i < m && order_key(k, key_get(a, k->bits, i), descending) <=
                                              order_key(k, key_get(b, k->bits, j), descending));
        uint64_t want_key = take_a ? key_get(a, k->bits, i) : key_get(b, k->bits, j);
        uint64_t want_value = take_a ? value_of(value_type, 0, i) : value_of(value_type, 1, j);
        if (take_a) {
            i++;
        } else {
            j++;
        }
        ok = key_get(out, k->bits, o) == want_key && (!vb || value_get(out_v, value_type, o) == want_value);
    }
    ok = ok && key_get(out, k->bits, m + n) == (k->bits == 32 ? 0x5A5A5A5Au : 0x5A5A5A5Aull) &&
         (!vb || value_get(out_v, value_type, m + n) == 0x77u);
    check(ok, "%s -> %s", what, result_name(r));
    free(a);
    free(b);
    free(av);
    free(bv);
    free(out);
    free(out_v);
}

static void test_merges(VkalgoContext *ctx) {
    printf("== vkalgo_merge_host\n");
    static const size_t sizes[][2] = {{0, 0}, {0, 5}, {6, 0}, {1, 1}, {1, 3000}, {2500, 3}, {3001, 2999}};
    for (int t = 0; t < KEY_TYPE_COUNT; t++) {
        for (int d = 0; d < 2; d++) {
            for (uint32_t vt = VKALGO_VALUE_NONE; vt <= VKALGO_VALUE_U64; vt++) {
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    check_merge(ctx, &KEY_TYPES[t], vt, d == 1, VKALGO_MERGE_PATH_AUTO, sizes[s][0], sizes[s][1],
                                s % 2 ? 1000 : 12);
                }
            }
        }
        /* Runs full of equal keys: stability through the values. */
        check_merge(ctx, &KEY_TYPES[t], VKALGO_VALUE_U32, false, VKALGO_MERGE_PATH_AUTO, 2000, 1500, 1);
    }
    /* Host calls take the desc's path: each kernel set on its own. */
    static const VkalgoMergePath paths[] = {VKALGO_MERGE_PATH_PARTITIONED, VKALGO_MERGE_PATH_FUSED};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        check_merge(ctx, &KEY_TYPES[0], VKALGO_VALUE_U32, false, paths[p], 3001, 2999, 1000);
        check_merge(ctx, &KEY_TYPES[5], VKALGO_VALUE_U64, true, paths[p], 1, 3000, 12);
        check_merge(ctx, &KEY_TYPES[1], VKALGO_VALUE_NONE, false, paths[p], 0, 5, 12);
    }
}

/* CPU std::set_* over order keys of ascending runs. */
static size_t cpu_set_op(const KeyInfo *k, VkalgoSetOp op, const void *a, size_t m, const void *b, size_t n, void *out) {
    size_t i = 0, j = 0, c = 0;
    const bool keep_a = op != VKALGO_SET_AND;
    const bool keep_b = op == VKALGO_SET_OR || op == VKALGO_SET_XOR;
    while (i < m && j < n) {
        const uint64_t x = order_key(k, key_get(a, k->bits, i), false);
        const uint64_t y = order_key(k, key_get(b, k->bits, j), false);
        if (x < y) {
            if (keep_a) key_set(out, k->bits, c++, key_get(a, k->bits, i));
            i++;
        } else if (y < x) {
            if (keep_b) key_set(out, k->bits, c++, key_get(b, k->bits, j));
            j++;
        } else {
            if (op == VKALGO_SET_AND || op == VKALGO_SET_OR) key_set(out, k->bits, c++, key_get(a, k->bits, i));
            i++;
            j++;
        }
    }
    for (; keep_a && i < m; i++) key_set(out, k->bits, c++, key_get(a, k->bits, i));
    for (; keep_b && j < n; j++) key_set(out, k->bits, c++, key_get(b, k->bits, j));
    return c;
}

static void test_set_ops(VkalgoContext *ctx) {
    printf("== vkalgo_sorted_set_op_host\n");
    static const char *names[] = {"AND", "OR", "ANDNOT", "XOR"};
    static const size_t sizes[][2] = {{0, 0}, {0, 7}, {7, 0}, {1, 1}, {1500, 2600}};
    for (int t = 0; t < KEY_TYPE_COUNT; t++) {
        const KeyInfo *k = &KEY_TYPES[t];
        const size_t kb = k->bits / 8;
        for (VkalgoSetOp op = VKALGO_SET_AND; op <= VKALGO_SET_XOR; op++) {
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                for (int repeated = 0; repeated < 2; repeated++) {
                    const size_t m = sizes[s][0], n = sizes[s][1];
                    const uint64_t domain = repeated ? 40 : 1u << 20;
                    void *a = sorted_run(k, m, domain, false);
                    void *b = sorted_run(k, n, domain, false);
                    void *want = xmalloc((m + n) * kb);
                    const size_t want_count = cpu_set_op(k, op, a, m, b, n, want);
                    VkalgoSortedSetOpDesc desc = {0};
                    desc.key_type = k->type;
                    desc.op = op;
                    size_t count = 12345;
                    VkalgoResult r = vkalgo_sorted_set_op_host(ctx, &desc, a, m, b, n, NULL, 0, &count);
                    bool ok = r == VKALGO_SUCCESS && count == want_count;
                    void *out = xmalloc((want_count + 1) * kb);
                    key_set(out, k->bits, want_count, 0x5A5Au);
                    size_t got = 0;
                    r = vkalgo_sorted_set_op_host(ctx, &desc, a, m, b, n, out, want_count, &got);
                    ok = ok && r == VKALGO_SUCCESS && got == want_count &&
                         memcmp(out, want, want_count * kb) == 0 && key_get(out, k->bits, want_count) == 0x5A5Au;
                    check(ok, "set %s %s (%zu, %zu) %s: %zu keys", names[op], k->name, m, n,
                          repeated ? "repeated" : "unique", want_count);
                    free(a);
                    free(b);
                    free(want);
                    free(out);
                }
            }
        }
    }
    /* Too small: INVALID_ARGUMENT, the needed size, nothing written. */
    const uint32_t a[] = {1, 2, 3, 4}, b[] = {3, 4, 5};
    uint32_t out[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    size_t count = 0;
    VkalgoSortedSetOpDesc union_u32 = {0};
    union_u32.key_type = VKALGO_KEY_U32;
    union_u32.op = VKALGO_SET_OR;
    expect(vkalgo_sorted_set_op_host(ctx, &union_u32, a, 4, b, 3, out, 4, &count), VKALGO_ERROR_INVALID_ARGUMENT,
           "union into a capacity of 4");
    check(count == 5 && out[0] == 9 && out[4] == 9, "needed size 5 reported, nothing written");
    /* Host calls ignore the plan fields (maxima and path). */
    union_u32.max_a = 1;
    union_u32.max_b = 1;
    union_u32.path = VKALGO_SORTED_SET_OP_PATH_COUNT_SCAN_WRITE;
    expect(vkalgo_sorted_set_op_host(ctx, &union_u32, a, 4, b, 3, out, 8, &count), VKALGO_SUCCESS,
           "union into a capacity of 8 (max_a, max_b 1: ignored)");
    check(count == 5 && out[0] == 1 && out[4] == 5 && out[5] == 9, "union {1, 2, 3, 4, 5}");
}

static void test_bad_input(VkalgoContext *ctx) {
    printf("== bad input\n");
    const uint32_t a[] = {1, 2, 3}, b[] = {2, 5}, unsorted[] = {5, 2};
    uint32_t vals[3] = {0, 0, 0};
    uint32_t out[5] = {9, 9, 9, 9, 9};
    uint32_t out_v[5] = {9, 9, 9, 9, 9};
    static int extension; /* a `next` to refuse: no extension structure is defined yet */
    VkalgoMergeDesc keys = {0};
    keys.key_type = VKALGO_KEY_U32;
    keys.value_type = VKALGO_VALUE_NONE;
    VkalgoMergeDesc pairs = keys;
    pairs.value_type = VKALGO_VALUE_U32;
    VkalgoMergeDesc bad_key = keys;
    bad_key.key_type = 6;
    VkalgoMergeDesc bad_value = keys;
    bad_value.value_type = 3;
    VkalgoMergeDesc bad_order = keys;
    bad_order.descending = 2;
    VkalgoMergeDesc bad_path = keys;
    bad_path.path = 3;
    VkalgoMergeDesc extended = keys;
    extended.next = &extension;
    const VkalgoResult invalid = VKALGO_ERROR_INVALID_ARGUMENT;
    expect(vkalgo_merge_host(ctx, &bad_key, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "unknown key type");
    expect(vkalgo_merge_host(ctx, &bad_value, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "unknown value type");
    expect(vkalgo_merge_host(ctx, &bad_order, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "descending 2");
    expect(vkalgo_merge_host(ctx, &bad_path, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "unknown path 3");
    expect(vkalgo_merge_host(ctx, &extended, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "desc next != NULL");
    expect(vkalgo_merge_host(ctx, &keys, a, NULL, 3, unsorted, NULL, 2, out, NULL), invalid, "unsorted b");
    expect(vkalgo_merge_host(ctx, &keys, NULL, NULL, 3, b, NULL, 2, out, NULL), invalid, "NULL a_keys");
    expect(vkalgo_merge_host(ctx, &keys, a, NULL, 3, b, NULL, 2, NULL, NULL), invalid, "NULL out_keys");
    expect(vkalgo_merge_host(ctx, &keys, a, vals, 3, b, NULL, 2, out, NULL), invalid, "values without a type");
    expect(vkalgo_merge_host(ctx, &pairs, a, vals, 3, b, NULL, 2, out, out_v), invalid, "missing b_values");
    expect(vkalgo_merge_host(ctx, NULL, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "NULL desc");
    expect(vkalgo_merge_host(NULL, &keys, a, NULL, 3, b, NULL, 2, out, NULL), invalid, "NULL context");
    check(out[0] == 9 && out[4] == 9 && out_v[0] == 9, "nothing written");
    size_t count = 77;
    VkalgoSortedSetOpDesc and_u32 = {0};
    and_u32.key_type = VKALGO_KEY_U32;
    and_u32.op = VKALGO_SET_AND;
    VkalgoSortedSetOpDesc bad = and_u32;
    bad.op = 4;
    expect(vkalgo_sorted_set_op_host(ctx, &bad, a, 3, b, 2, out, 5, &count), invalid, "unknown op");
    bad = and_u32;
    bad.key_type = 7;
    expect(vkalgo_sorted_set_op_host(ctx, &bad, a, 3, b, 2, out, 5, &count), invalid, "unknown key type");
    bad = and_u32;
    bad.next = &extension;
    expect(vkalgo_sorted_set_op_host(ctx, &bad, a, 3, b, 2, out, 5, &count), invalid, "desc next != NULL");
    expect(vkalgo_sorted_set_op_host(ctx, NULL, a, 3, b, 2, out, 5, &count), invalid, "NULL desc");
    expect(vkalgo_sorted_set_op_host(ctx, &and_u32, unsorted, 2, b, 2, out, 5, &count), invalid, "unsorted a");
    expect(vkalgo_sorted_set_op_host(ctx, &and_u32, a, 3, NULL, 2, out, 5, &count), invalid, "NULL b");
    expect(vkalgo_sorted_set_op_host(ctx, &and_u32, a, 3, b, 2, NULL, 5, &count), invalid, "NULL out with capacity 5");
    expect(vkalgo_sorted_set_op_host(ctx, &and_u32, a, 3, b, 2, out, 5, NULL), invalid, "NULL out_count");
    check(count == 77 && out[0] == 9, "nothing written");
    expect(vkalgo_merge_host(ctx, &keys, a, NULL, 3, b, NULL, 2, out, NULL), VKALGO_SUCCESS, "good merge afterwards");
    check(out[0] == 1 && out[1] == 2 && out[2] == 2 && out[3] == 3 && out[4] == 5, "{1, 2, 2, 3, 5}");
}

int main(void) {
    const context_test tests[] = {test_merges, test_set_ops, test_bad_input};
    return run_on_default_context(tests, sizeof tests / sizeof tests[0]);
}
