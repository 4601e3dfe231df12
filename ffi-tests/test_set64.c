/* C11 tests of vkalgo's GPU sets of uint64_t (include/vkalgo.h: vkalgo_set64_*), against the
 * installed package.
 *
 * Host calls on the default context (VKALGO_VALIDATION=1 in the test environment turns the
 * Khronos validation layer on inside it; the test then requires zero messages): build from
 * unsorted values with duplicates around the 2^32 boundaries (high keys 0, 1 and 2^32 - 1, the
 * values 0 and 2^64 - 1), sparse values under 61 high keys, a dense chunk, many high keys of
 * one value each; remove, contains, cardinality, to_array, minimum and maximum against a
 * sorted CPU model; the four operations into a new set and into an operand, their
 * cardinalities, equals and is_subset; the Roaring64 serialization (size query, capacity too
 * small, round trip, a prefix read, the 8-byte empty set); bad input (NULL handles and arrays,
 * unknown op, sets of two contexts, malformed serializations) that changes and writes nothing.
 *
 * Prints every check; exits 1 on any failure. */
#define TEST_RNG_SEED 0x5e7645e7645e7640ull
#include "check.h"
#include <vkalgo.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts and removes duplicates in place; returns the new length. */
static size_t sort_unique(uint64_t *v, size_t n) {
    if (n == 0) {
        return 0;
    }
    qsort(v, n, sizeof *v, cmp_u64);
    size_t k = 1;
    for (size_t i = 1; i < n; i++) {
        if (v[i] != v[k - 1]) {
            v[k++] = v[i];
        }
    }
    return k;
}

static bool model_has(const uint64_t *m, size_t n, uint64_t x) {
    return n > 0 && bsearch(&x, m, n, sizeof *m, cmp_u64) != NULL;
}

/* The model of a op b (both sorted unique) into out; returns its length. */
static size_t model_op(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint32_t op, uint64_t *out) {
    size_t k = 0, i = 0, j = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && a[i] < b[j])) {
            if (op != VKALGO_SET_AND) out[k++] = a[i];
            i++;
        } else if (i == na || b[j] < a[i]) {
            if (op == VKALGO_SET_OR || op == VKALGO_SET_XOR) out[k++] = b[j];
            j++;
        } else {
            if (op == VKALGO_SET_AND || op == VKALGO_SET_OR) out[k++] = a[i];
            i++;
            j++;
        }
    }
    return k;
}

/* Checks a set's content against a sorted unique model: cardinality, to_array, minimum and
 * maximum. */
static void check_set(const VkalgoSet64 *s, const uint64_t *m, size_t n, const char *what) {
    uint64_t card = 0;
    expect(vkalgo_set64_cardinality(s, &card), VKALGO_SUCCESS, "vkalgo_set64_cardinality");
    check(card == n, "%s: cardinality %" PRIu64 " (want %zu)", what, card, n);
    uint64_t *got = xmalloc((n + 1) * sizeof *got);
    size_t count = 0;
    expect(vkalgo_set64_to_array(s, got, n + 1, &count), VKALGO_SUCCESS, "vkalgo_set64_to_array");
    check(count == n && memcmp(got, m, n * sizeof *m) == 0, "%s: to_array equals the model", what);
    free(got);
    uint64_t lo = 7, hi = 7;
    VkalgoResult want = n ? VKALGO_SUCCESS : VKALGO_ERROR_INVALID_ARGUMENT;
    expect(vkalgo_set64_minimum(s, &lo), want, "vkalgo_set64_minimum");
    expect(vkalgo_set64_maximum(s, &hi), want, "vkalgo_set64_maximum");
    check(n ? lo == m[0] && hi == m[n - 1] : lo == 7 && hi == 7, "%s: minimum %" PRIu64 ", maximum %" PRIu64, what, lo,
          hi);
}

static VkalgoSet64 *make_set(VkalgoContext *ctx, const uint64_t *v, size_t n) {
    VkalgoSet64 *s = NULL;
    expect(vkalgo_set64_create(ctx, &s), VKALGO_SUCCESS, "vkalgo_set64_create");
    expect(vkalgo_set64_insert(s, v, n), VKALGO_SUCCESS, "vkalgo_set64_insert");
    return s;
}

/* Values near the 2^32 boundaries, sparse values under 61 high keys, a dense chunk of key 1. */
static uint64_t random_value(void) {
    uint64_t r = rng_u64();
    switch (r % 5) {
    case 0: return ((r % 61) << 32) | (r >> 40);                    /* one of 61 high keys */
    case 1: return (1ull << 32) + ((r >> 8) % 70000) - 35000;       /* around 2^32 */
    case 2: return (1ull << 32) | (5u << 16) | ((r >> 8) % 65536);  /* a dense chunk */
    case 3: return (UINT64_C(0xFFFFFFFF) << 32) | ((r >> 8) % 5000); /* high key 2^32 - 1 */
    default: return (r >> 40) % 2 ? 0 : UINT64_MAX;
    }
}

static void operations(VkalgoContext *ctx) {
    enum { N = 6000 };
    uint64_t *va = xmalloc(N * sizeof *va), *vb = xmalloc(N * sizeof *vb);
    for (size_t i = 0; i < N; i++) {
        va[i] = random_value();
        vb[i] = random_value();
    }
    VkalgoSet64 *a = make_set(ctx, va, N);
    VkalgoSet64 *b = make_set(ctx, vb, N);
    size_t na = sort_unique(va, N), nb = sort_unique(vb, N);
    check_set(a, va, na, "a");
    check_set(b, vb, nb, "b");

    /* contains: the values of a, then random ones */
    uint64_t *q = xmalloc(2 * N * sizeof *q);
    uint8_t *flags = xmalloc(2 * N);
    for (size_t i = 0; i < 2 * N; i++) {
        q[i] = i < na ? va[i] : random_value();
    }
    expect(vkalgo_set64_contains(b, q, 2 * N, flags), VKALGO_SUCCESS, "vkalgo_set64_contains");
    bool ok = true;
    for (size_t i = 0; i < 2 * N; i++) {
        ok = ok && flags[i] == (model_has(vb, nb, q[i]) ? 1 : 0);
    }
    check(ok, "contains matches the model");
    free(q);
    free(flags);

    uint64_t *want = xmalloc(2 * N * sizeof *want);
    for (uint32_t op = VKALGO_SET_AND; op <= VKALGO_SET_XOR; op++) {
        size_t nw = model_op(va, na, vb, nb, op, want);
        VkalgoSet64 *d = make_set(ctx, NULL, 0);
        expect(vkalgo_set64_op(d, a, b, op), VKALGO_SUCCESS, "vkalgo_set64_op");
        check_set(d, want, nw, "d = a op b");
        uint64_t card = 0;
        expect(vkalgo_set64_op_cardinality(a, b, op, &card), VKALGO_SUCCESS, "vkalgo_set64_op_cardinality");
        check(card == nw, "op %u cardinality %" PRIu64 " (want %zu)", op, card, nw);
        uint8_t eq = 7, sub = 7;
        expect(vkalgo_set64_equals(d, a, &eq), VKALGO_SUCCESS, "vkalgo_set64_equals");
        expect(vkalgo_set64_is_subset(d, a, &sub), VKALGO_SUCCESS, "vkalgo_set64_is_subset");
        uint64_t *both = xmalloc((nw + na + 1) * sizeof *both);
        size_t nboth = model_op(want, nw, va, na, VKALGO_SET_AND, both);
        check(eq == (nw == na && nboth == na) && sub == (nboth == nw), "op %u: d equals a %u, d subset of a %u", op,
              (unsigned)eq, (unsigned)sub);
        free(both);
        /* into an operand: e = e op b */
        VkalgoSet64 *e = make_set(ctx, va, na);
        expect(vkalgo_set64_op(e, e, b, op), VKALGO_SUCCESS, "vkalgo_set64_op(e, e, b)");
        check_set(e, want, nw, "e = e op b");
        vkalgo_set64_destroy(e);
        vkalgo_set64_destroy(d);
    }
    free(want);

    /* remove the smaller half of a's values: the high keys they emptied go, the rest stays */
    expect(vkalgo_set64_remove(a, va, na / 2), VKALGO_SUCCESS, "vkalgo_set64_remove");
    size_t left = na - na / 2;
    check_set(a, va + na / 2, left, "a without its first half");

    /* the Roaring64 serialization: size query, too small, round trip, a prefix read */
    size_t size = 0, written = 0, read = 0;
    expect(vkalgo_set64_serialize(a, NULL, 0, &size), VKALGO_SUCCESS, "serialize: the size");
    size_t size2 = 0;
    expect(vkalgo_set64_serialized_size(a, &size2), VKALGO_SUCCESS, "vkalgo_set64_serialized_size");
    check(size == size2 && size > 8, "serialized size %zu", size);
    uint8_t *bytes = xmalloc(size + 4);
    memset(bytes, 0xAA, size + 4);
    expect(vkalgo_set64_serialize(a, bytes, size - 1, &written), VKALGO_ERROR_INVALID_ARGUMENT, "serialize: too small");
    check(written == size && bytes[0] == 0xAA, "a refused serialize reports the size and writes nothing");
    expect(vkalgo_set64_serialize(a, bytes, size, &written), VKALGO_SUCCESS, "vkalgo_set64_serialize");
    uint64_t count = 0;
    memcpy(&count, bytes, 8);
    check(written == size && count >= 1, "%" PRIu64 " 32-bit bitmaps", count);
    VkalgoSet64 *r = NULL, *p = NULL;
    expect(vkalgo_set64_deserialize(ctx, bytes, size, &r), VKALGO_SUCCESS, "vkalgo_set64_deserialize");
    check_set(r, va + na / 2, left, "read back");
    uint8_t eq = 7;
    expect(vkalgo_set64_equals(r, a, &eq), VKALGO_SUCCESS, "equals after the round trip");
    check(eq == 1, "the set read back equals the set");
    VkalgoSet64 *bad = NULL;
    expect(vkalgo_set64_deserialize(ctx, bytes, size + 4, &bad), VKALGO_ERROR_INVALID_ARGUMENT, "trailing bytes");
    expect(vkalgo_set64_deserialize(ctx, bytes, size - 1, &bad), VKALGO_ERROR_INVALID_ARGUMENT, "truncated");
    check(bad == NULL, "a refused deserialize makes no set");
    expect(vkalgo_set64_deserialize_prefix(ctx, bytes, size + 4, &read, &p), VKALGO_SUCCESS, "a prefix read");
    check(read == size, "the prefix takes %zu bytes", read);
    check_set(p, va + na / 2, left, "prefix");
    free(bytes);

    /* many high keys of one value each */
    enum { K = 200 };
    uint64_t many[K];
    for (size_t i = 0; i < K; i++) {
        many[i] = ((uint64_t)(i * 7919 + 11) << 32) | (rng_u64() >> 40);
    }
    VkalgoSet64 *m = make_set(ctx, many, K);
    size_t nm = sort_unique(many, K);
    check_set(m, many, nm, "many high keys");
    uint64_t mem = 0;
    expect(vkalgo_set64_pack(m), VKALGO_SUCCESS, "vkalgo_set64_pack");
    expect(vkalgo_set64_memory_bytes(m, &mem), VKALGO_SUCCESS, "vkalgo_set64_memory_bytes");
    check(mem > 0, "memory %" PRIu64 " bytes", mem);

    vkalgo_set64_destroy(m);
    vkalgo_set64_destroy(p);
    vkalgo_set64_destroy(r);
    vkalgo_set64_destroy(a);
    vkalgo_set64_destroy(b);
    free(va);
    free(vb);
}

static void bad_input(VkalgoContext *ctx) {
    const uint64_t v[3] = {1, 1ull << 40, UINT64_MAX};
    VkalgoSet64 *s = make_set(ctx, v, 3);
    VkalgoSet64 *empty = make_set(ctx, NULL, 0);
    uint64_t out = 77;
    uint8_t flag = 9;
    size_t n = 99;
    expect(vkalgo_set64_create(NULL, &s), VKALGO_ERROR_INVALID_ARGUMENT, "create, ctx NULL");
    expect(vkalgo_set64_create(ctx, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "create, out NULL");
    expect(vkalgo_set64_insert(NULL, v, 3), VKALGO_ERROR_INVALID_ARGUMENT, "insert, set NULL");
    expect(vkalgo_set64_insert(s, NULL, 3), VKALGO_ERROR_INVALID_ARGUMENT, "insert, values NULL");
    expect(vkalgo_set64_remove(s, NULL, 3), VKALGO_ERROR_INVALID_ARGUMENT, "remove, values NULL");
    expect(vkalgo_set64_contains(s, v, 3, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "contains, found_out NULL");
    expect(vkalgo_set64_cardinality(NULL, &out), VKALGO_ERROR_INVALID_ARGUMENT, "cardinality, set NULL");
    expect(vkalgo_set64_op(s, s, s, 4), VKALGO_ERROR_INVALID_ARGUMENT, "unknown op");
    expect(vkalgo_set64_op(s, NULL, s, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "op, a NULL");
    expect(vkalgo_set64_op_cardinality(s, s, 7, &out), VKALGO_ERROR_INVALID_ARGUMENT, "op cardinality, unknown op");
    expect(vkalgo_set64_minimum(empty, &out), VKALGO_ERROR_INVALID_ARGUMENT, "minimum of the empty set");
    expect(vkalgo_set64_maximum(empty, &out), VKALGO_ERROR_INVALID_ARGUMENT, "maximum of the empty set");
    expect(vkalgo_set64_equals(s, NULL, &flag), VKALGO_ERROR_INVALID_ARGUMENT, "equals, b NULL");
    expect(vkalgo_set64_is_subset(s, s, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "is_subset, out NULL");
    uint64_t small[2] = {5, 5};
    expect(vkalgo_set64_to_array(s, small, 2, &n), VKALGO_ERROR_INVALID_ARGUMENT, "to_array, room for 2 of 3");
    check(n == 3 && small[0] == 5 && small[1] == 5, "a refused to_array reports the count and writes nothing");
    check(out == 77 && flag == 9, "refused calls write nothing");

    /* the empty set serializes to a count of 0 */
    uint8_t eight[8];
    memset(eight, 0xAA, sizeof eight);
    expect(vkalgo_set64_serialize(empty, eight, 8, &n), VKALGO_SUCCESS, "serialize the empty set");
    static const uint8_t zeros[8] = {0};
    check(n == 8 && memcmp(eight, zeros, 8) == 0, "the empty set is 8 zero bytes");

    /* malformed serializations */
    uint8_t data[24] = {0};
    data[0] = 2; /* two bitmaps announced, 16 bytes follow: at most one fits */
    VkalgoSet64 *t = NULL;
    expect(vkalgo_set64_deserialize(ctx, data, sizeof data, &t), VKALGO_ERROR_INVALID_ARGUMENT, "a count too large");
    expect(vkalgo_set64_deserialize(ctx, NULL, 8, &t), VKALGO_ERROR_INVALID_ARGUMENT, "data NULL");
    expect(vkalgo_set64_deserialize(ctx, data, 5, &t), VKALGO_ERROR_INVALID_ARGUMENT, "a cut count");
    check(t == NULL, "refused deserializes make no set");

    /* a set of another context */
    VkalgoContext *other = NULL;
    expect(vkalgo_context_create_default(&other), VKALGO_SUCCESS, "a second context");
    VkalgoSet64 *f = NULL;
    expect(vkalgo_set64_create(other, &f), VKALGO_SUCCESS, "a set on it");
    vkalgo_context_destroy(other); /* the set keeps it alive */
    expect(vkalgo_set64_insert(f, v, 1), VKALGO_SUCCESS, "insert after the context handle is gone");
    expect(vkalgo_set64_op(s, s, f, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "sets of two contexts");
    expect(vkalgo_set64_op(f, s, s, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "dst of another context");
    expect(vkalgo_set64_op_cardinality(s, f, VKALGO_SET_AND, &out), VKALGO_ERROR_INVALID_ARGUMENT,
           "cardinality, two contexts");
    expect(vkalgo_set64_equals(s, f, &flag), VKALGO_ERROR_INVALID_ARGUMENT, "equals, two contexts");
    expect(vkalgo_set64_is_subset(f, s, &flag), VKALGO_ERROR_INVALID_ARGUMENT, "is_subset, two contexts");
    check(out == 77 && flag == 9, "refused calls across contexts write nothing");
    check_set(s, v, 3, "the set is unchanged");
    uint64_t one = 1;
    check_set(f, &one, 1, "the other context's set is unchanged");
    vkalgo_set64_destroy(f);
    vkalgo_set64_destroy(empty);
    vkalgo_set64_destroy(s);
    vkalgo_set64_destroy(NULL);
    check(true, "vkalgo_set64_destroy(NULL) is a no-op");
}

int main(void) {
    const context_test tests[] = {operations, bad_input};
    return run_on_default_context(tests, sizeof tests / sizeof tests[0]);
}
