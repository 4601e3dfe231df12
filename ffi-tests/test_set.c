/* C11 tests of vkalgo's GPU sets of uint32_t (include/vkalgo.h), against the installed package.
 *
 * Host calls on the default context (VKALGO_VALIDATION=1 in the test environment turns the
 * Khronos validation layer on inside it; the test then requires zero messages): build from
 * unsorted values with duplicates, remove, ranges (one ending at 2^32), contains, cardinality,
 * range cardinality, the four operations into a new set and in place (dst = a, dst = b,
 * dst = a = b), operation cardinalities, to_array and filter against a sorted CPU model,
 * serialization round trips (size query, capacity too small), malformed serializations, and
 * bad input (NULL handles and arrays, unknown op, bad ranges, sets of two contexts). A set
 * destroyed after its context still works until then (sets keep their context alive). Order
 * statistics: minimum, maximum, rank and select.
 *
 * Prints every check; exits 1 on any failure. */
#define TEST_RNG_SEED 0x5e75e75e75e75e70ull
#include "check.h"
#include <vkalgo.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts and removes duplicates in place; returns the new length. */
static size_t sort_unique(uint32_t *v, size_t n) {
    if (n == 0) {
        return 0;
    }
    qsort(v, n, sizeof *v, cmp_u32);
    size_t k = 1;
    for (size_t i = 1; i < n; i++) {
        if (v[i] != v[k - 1]) {
            v[k++] = v[i];
        }
    }
    return k;
}

static bool model_has(const uint32_t *m, size_t n, uint32_t x) {
    return bsearch(&x, m, n, sizeof *m, cmp_u32) != NULL;
}

/* The model of a op b (both sorted unique) into out; returns its length. */
static size_t model_op(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t op, uint32_t *out) {
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

/* Checks a set's content against a sorted unique model. */
static void check_set(const VkalgoSet *s, const uint32_t *m, size_t n, const char *what) {
    uint64_t card = 0;
    expect(vkalgo_set_cardinality_host(s, &card), VKALGO_SUCCESS, "vkalgo_set_cardinality_host");
    check(card == n, "%s: cardinality %" PRIu64 " (want %zu)", what, card, n);
    uint32_t *got = xmalloc((n + 1) * sizeof *got);
    size_t count = 0;
    expect(vkalgo_set_to_array_host(s, got, n + 1, &count), VKALGO_SUCCESS, "vkalgo_set_to_array_host");
    check(count == n && memcmp(got, m, n * sizeof *m) == 0, "%s: to_array equals the model", what);
    free(got);
}

/* No blocks reserved up front: the pools grow as needed. */
static const VkalgoSetDesc GROWING = {0};

static VkalgoSet *make_set(VkalgoContext *ctx, const uint32_t *v, size_t n) {
    VkalgoSet *s = NULL;
    expect(vkalgo_set_create(ctx, &GROWING, &s), VKALGO_SUCCESS, "vkalgo_set_create");
    expect(vkalgo_set_insert_host(s, v, n), VKALGO_SUCCESS, "vkalgo_set_insert_host");
    return s;
}

static uint32_t random_value(void) {
    uint64_t r = rng_u64();
    switch (r % 4) {
    case 0: return (uint32_t)(r >> 32);
    case 1: return (7u << 16) + (uint32_t)((r >> 32) % 9000);
    case 2: return (9u << 16) + (uint32_t)((r >> 32) % 65536);
    default: return (r >> 40) % 2 ? 0u : UINT32_MAX;
    }
}

static void operations(VkalgoContext *ctx) {
    enum { N = 4000 };
    uint32_t *va = xmalloc(N * sizeof *va), *vb = xmalloc(N * sizeof *vb);
    for (size_t i = 0; i < N; i++) {
        va[i] = random_value();
        vb[i] = random_value();
    }
    VkalgoSet *a = make_set(ctx, va, N);
    VkalgoSet *b = make_set(ctx, vb, N);
    size_t na = sort_unique(va, N), nb = sort_unique(vb, N);
    check_set(a, va, na, "a");
    check_set(b, vb, nb, "b");

    /* contains and filter (queries: the values of a, then random ones) */
    uint32_t q[2 * N];
    uint8_t flags[2 * N];
    for (size_t i = 0; i < 2 * N; i++) {
        q[i] = i < na ? va[i] : random_value();
    }
    expect(vkalgo_set_contains_host(b, q, flags, 2 * N), VKALGO_SUCCESS, "vkalgo_set_contains_host");
    bool ok = true;
    size_t kept = 0;
    for (size_t i = 0; i < 2 * N; i++) {
        ok = ok && flags[i] == (model_has(vb, nb, q[i]) ? 1 : 0);
        kept += flags[i];
    }
    check(ok, "contains matches the model");
    uint32_t *filtered = xmalloc(2 * N * sizeof *filtered);
    size_t out_count = 0;
    expect(vkalgo_set_filter_host(b, q, 2 * N, filtered, &out_count), VKALGO_SUCCESS, "vkalgo_set_filter_host");
    ok = out_count == kept;
    for (size_t i = 0, k = 0; ok && i < 2 * N; i++) {
        if (flags[i]) ok = filtered[k++] == q[i];
    }
    check(ok, "filter keeps the members in input order (%zu)", out_count);
    free(filtered);

    uint32_t *want = xmalloc(2 * N * sizeof *want);
    for (uint32_t op = VKALGO_SET_AND; op <= VKALGO_SET_XOR; op++) {
        size_t nw = model_op(va, na, vb, nb, op, want);
        VkalgoSet *d = NULL;
        expect(vkalgo_set_create(ctx, &GROWING, &d), VKALGO_SUCCESS, "vkalgo_set_create");
        expect(vkalgo_set_op_host(d, a, b, op), VKALGO_SUCCESS, "vkalgo_set_op_host");
        check_set(d, want, nw, "d = a op b");
        uint64_t card = 0;
        expect(vkalgo_set_op_cardinality_host(a, b, op, &card), VKALGO_SUCCESS, "vkalgo_set_op_cardinality_host");
        check(card == nw, "op %u cardinality %" PRIu64 " (want %zu)", op, card, nw);
        /* a batch: a op b, a op d (= a op b), a op a, the same set in several pairs */
        const VkalgoSet *ba[3] = {a, a, a};
        const VkalgoSet *bb[3] = {b, d, a};
        uint64_t cards[3] = {0, 0, 0};
        expect(vkalgo_set_op_cardinality_batch_host(ba, bb, 3, op, cards), VKALGO_SUCCESS, "vkalgo_set_op_cardinality_batch_host");
        uint64_t with_d = 0, with_a = 0;
        expect(vkalgo_set_op_cardinality_host(a, d, op, &with_d), VKALGO_SUCCESS, "cardinality of a op d");
        expect(vkalgo_set_op_cardinality_host(a, a, op, &with_a), VKALGO_SUCCESS, "cardinality of a op a");
        check(cards[0] == nw && cards[1] == with_d && cards[2] == with_a,
              "op %u batch %" PRIu64 " %" PRIu64 " %" PRIu64 " (want %zu %" PRIu64 " %" PRIu64 ")", op, cards[0],
              cards[1], cards[2], nw, with_d, with_a);
        /* comparisons: d (= a op b) against a and b, as the model says */
        {
            uint8_t eq = 7, sub = 7;
            expect(vkalgo_set_equals(d, a, &eq), VKALGO_SUCCESS, "vkalgo_set_equals");
            expect(vkalgo_set_is_subset(d, a, &sub), VKALGO_SUCCESS, "vkalgo_set_is_subset");
            uint32_t *ca = xmalloc((nw + na + 1) * sizeof *ca);
            size_t both = model_op(want, nw, va, na, VKALGO_SET_AND, ca);
            check(eq == (nw == na && both == na) && sub == (both == nw),
                  "op %u: d equals a %u (want %d), d subset of a %u (want %d)", op, (unsigned)eq, nw == na && both == na, (unsigned)sub,
                  both == nw);
            free(ca);
        }
        /* in place: d (= a op b) op= b, then b op d into d */
        VkalgoSet *e = make_set(ctx, va, na);
        expect(vkalgo_set_op_host(e, e, b, op), VKALGO_SUCCESS, "vkalgo_set_op_host(e, e, b)");
        check_set(e, want, nw, "e = e op b");
        vkalgo_set_destroy(e);
        e = make_set(ctx, vb, nb);
        expect(vkalgo_set_op_host(e, a, e, op), VKALGO_SUCCESS, "vkalgo_set_op_host(e, a, e)");
        check_set(e, want, nw, "e = a op e");
        expect(vkalgo_set_op_host(e, e, e, op), VKALGO_SUCCESS, "vkalgo_set_op_host(e, e, e)");
        size_t self = (op == VKALGO_SET_AND || op == VKALGO_SET_OR) ? nw : 0;
        check_set(e, want, self, "e = e op e");
        vkalgo_set_destroy(e);
        vkalgo_set_destroy(d);
    }
    free(want);

    /* ranges, remove, range cardinality */
    expect(vkalgo_set_insert_range_host(a, (1ull << 32) - 100000, 1ull << 32), VKALGO_SUCCESS, "insert_range to 2^32");
    uint64_t c = 0;
    expect(vkalgo_set_range_cardinality_host(a, (1ull << 32) - 100000, 1ull << 32, &c), VKALGO_SUCCESS,
           "vkalgo_set_range_cardinality_host");
    check(c == 100000, "range cardinality %" PRIu64, c);
    expect(vkalgo_set_remove_host(a, va, na), VKALGO_SUCCESS, "vkalgo_set_remove_host");
    expect(vkalgo_set_cardinality_host(a, &c), VKALGO_SUCCESS, "vkalgo_set_cardinality_host");
    size_t in_range = 0;
    for (size_t i = 0; i < na; i++) in_range += va[i] >= UINT32_MAX - 99999u;
    check(c == 100000 - in_range, "after remove: %" PRIu64, c);
    /* the removal freed blocks: shrinking gives them back and keeps the content */
    uint64_t mem_before = 0, mem_after = 0;
    expect(vkalgo_set_memory_bytes(a, &mem_before), VKALGO_SUCCESS, "vkalgo_set_memory_bytes");
    expect(vkalgo_set_shrink_to_fit_host(a), VKALGO_SUCCESS, "vkalgo_set_shrink_to_fit_host");
    expect(vkalgo_set_memory_bytes(a, &mem_after), VKALGO_SUCCESS, "vkalgo_set_memory_bytes after shrinking");
    check(mem_after < mem_before, "shrink_to_fit: %" PRIu64 " -> %" PRIu64 " bytes", mem_before, mem_after);
    expect(vkalgo_set_range_cardinality_host(a, (1ull << 32) - 100000, 1ull << 32, &c), VKALGO_SUCCESS,
           "range cardinality after shrinking");
    check(c == 100000 - in_range, "after shrinking: %" PRIu64, c);

    /* run_optimize: clustered values inserted as values (arrays and bitmaps) become run chunks */
    {
        VkalgoSet *cl = NULL;
        expect(vkalgo_set_create(ctx, &GROWING, &cl), VKALGO_SUCCESS, "create the clustered set");
        size_t ncl = 64 * 3000;
        uint32_t *vcl = xmalloc(ncl * sizeof(uint32_t));
        for (size_t i = 0; i < ncl; i++) vcl[i] = (uint32_t)((i / 3000) << 16 | (100 + i % 3000));
        expect(vkalgo_set_insert_host(cl, vcl, ncl), VKALGO_SUCCESS, "insert the clustered values");
        expect(vkalgo_set_shrink_to_fit_host(cl), VKALGO_SUCCESS, "shrink the clustered set");
        uint64_t plain_bytes = 0, run_bytes = 0;
        expect(vkalgo_set_memory_bytes(cl, &plain_bytes), VKALGO_SUCCESS, "memory as arrays");
        expect(vkalgo_set_run_optimize_host(cl), VKALGO_SUCCESS, "vkalgo_set_run_optimize_host");
        expect(vkalgo_set_shrink_to_fit_host(cl), VKALGO_SUCCESS, "shrink after run_optimize");
        expect(vkalgo_set_memory_bytes(cl, &run_bytes), VKALGO_SUCCESS, "memory as runs");
        check(run_bytes < plain_bytes, "run_optimize: %" PRIu64 " -> %" PRIu64 " bytes", plain_bytes, run_bytes);
        check_set(cl, vcl, ncl, "after run_optimize");
        expect(vkalgo_set_run_optimize_host(NULL), VKALGO_ERROR_INVALID_ARGUMENT, "run_optimize, set NULL");
        /* packed: the directory of the non-empty chunks only; read as before, unpacked by a write */
        uint64_t packed_bytes = 0;
        uint32_t is_packed = 7;
        expect(vkalgo_set_pack_host(cl), VKALGO_SUCCESS, "vkalgo_set_pack_host");
        expect(vkalgo_set_is_packed(cl, &is_packed), VKALGO_SUCCESS, "vkalgo_set_is_packed");
        check(is_packed == 1, "is_packed after pack: %u", is_packed);
        VkalgoSetDeviceView view = {0, 7, 7};
        expect(vkalgo_set_device_view(cl, &view), VKALGO_SUCCESS, "vkalgo_set_device_view");
        check(view.control != 0 && view.packed == 1 && view.reserved == 0,
              "device view of a packed set: packed %u reserved %u", view.packed, view.reserved);
        expect(vkalgo_set_device_view(NULL, &view), VKALGO_ERROR_INVALID_ARGUMENT, "device_view, set NULL");
        expect(vkalgo_set_device_view(cl, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "device_view, out NULL");
        expect(vkalgo_set_memory_bytes(cl, &packed_bytes), VKALGO_SUCCESS, "memory packed");
        check(packed_bytes < run_bytes / 4, "pack: %" PRIu64 " -> %" PRIu64 " bytes", run_bytes, packed_bytes);
        check_set(cl, vcl, ncl, "packed");
        expect(vkalgo_set_insert_range_host(cl, 0, 1), VKALGO_SUCCESS, "insert_range into the packed set");
        expect(vkalgo_set_is_packed(cl, &is_packed), VKALGO_SUCCESS, "vkalgo_set_is_packed after a write");
        check(is_packed == 0, "is_packed after a write: %u", is_packed);
        expect(vkalgo_set_pack_host(cl), VKALGO_SUCCESS, "pack again");
        expect(vkalgo_set_unpack_host(cl), VKALGO_SUCCESS, "vkalgo_set_unpack_host");
        expect(vkalgo_set_is_packed(cl, &is_packed), VKALGO_SUCCESS, "vkalgo_set_is_packed after unpack");
        check(is_packed == 0, "is_packed after unpack: %u", is_packed);
        expect(vkalgo_set_device_view(cl, &view), VKALGO_SUCCESS, "vkalgo_set_device_view after unpack");
        check(view.control != 0 && view.packed == 0, "device view after unpack: packed %u", view.packed);
        uint64_t card = 0;
        expect(vkalgo_set_cardinality_host(cl, &card), VKALGO_SUCCESS, "cardinality after unpack");
        check(card == ncl + (vcl[0] != 0), "cardinality after the insert: %" PRIu64, card);
        expect(vkalgo_set_pack_host(NULL), VKALGO_ERROR_INVALID_ARGUMENT, "pack, set NULL");
        expect(vkalgo_set_unpack_host(NULL), VKALGO_ERROR_INVALID_ARGUMENT, "unpack, set NULL");
        expect(vkalgo_set_is_packed(cl, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "is_packed, out NULL");
        vkalgo_set_destroy(cl);
        free(vcl);
    }

    /* serialization */
    size_t size = 0;
    expect(vkalgo_set_serialize_host(b, NULL, 0, &size), VKALGO_SUCCESS, "serialize size query");
    uint8_t *bytes = xmalloc(size);
    size_t size2 = 0;
    expect(vkalgo_set_serialize_host(b, bytes, size - 1, &size2), VKALGO_ERROR_INVALID_ARGUMENT, "serialize, capacity too small");
    check(size2 == size && bytes[0] == 0, "needed size reported (%zu), nothing written", size2);
    expect(vkalgo_set_serialize_host(b, bytes, size, &size2), VKALGO_SUCCESS, "vkalgo_set_serialize_host");
    check(bytes[0] == 0x3A && bytes[1] == 0x30 && bytes[2] == 0 && bytes[3] == 0, "cookie 12346 (no chunk of b is smaller as runs)");
    VkalgoSet *r = NULL;
    expect(vkalgo_set_deserialize_host(ctx, bytes, size, &r), VKALGO_SUCCESS, "vkalgo_set_deserialize_host");
    check_set(r, vb, nb, "deserialized");
    vkalgo_set_destroy(r);
    r = NULL;
    expect(vkalgo_set_deserialize_host(ctx, bytes, size - 1, &r), VKALGO_ERROR_INVALID_ARGUMENT, "deserialize truncated");
    check(r == NULL, "no set from a truncated serialization");
    bytes[0] ^= 1;
    expect(vkalgo_set_deserialize_host(ctx, bytes, size, &r), VKALGO_ERROR_INVALID_ARGUMENT, "deserialize wrong cookie");
    free(bytes);

    /* to_array with too little room */
    size_t count = 0;
    uint32_t small[4] = {0};
    expect(vkalgo_set_to_array_host(b, small, 4, &count), VKALGO_ERROR_INVALID_ARGUMENT, "to_array, capacity too small");
    check(count == nb && small[0] == 0, "needed count reported (%zu), nothing written", count);

    vkalgo_set_destroy(a);
    vkalgo_set_destroy(b);
    free(va);
    free(vb);
}

static void bad_input(VkalgoContext *ctx) {
    VkalgoSet *s = NULL;
    uint32_t v[2] = {1, 2};
    uint8_t f[2];
    uint64_t c;
    size_t n;
    size_t size_needed;
    VkalgoSet *s2 = NULL;
    expect(vkalgo_set_create(NULL, &GROWING, &s), VKALGO_ERROR_INVALID_ARGUMENT, "create with ctx NULL");
    expect(vkalgo_set_create(ctx, NULL, &s), VKALGO_ERROR_INVALID_ARGUMENT, "create with desc NULL");
    expect(vkalgo_set_create(ctx, &GROWING, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "create with out NULL");
    {
        static int extension; /* a `next` to refuse: no extension structure is defined yet */
        VkalgoSetDesc desc = {0};
        desc.next = &extension;
        expect(vkalgo_set_create(ctx, &desc, &s), VKALGO_ERROR_INVALID_ARGUMENT, "create with desc next != NULL");
        VkalgoMemoryRequirements reqs = {0};
        expect(vkalgo_set_memory_requirements(ctx, &desc, &reqs), VKALGO_ERROR_INVALID_ARGUMENT,
               "memory requirements with desc next != NULL");
        desc.next = NULL;
        reqs.next = &extension;
        expect(vkalgo_set_memory_requirements(ctx, &desc, &reqs), VKALGO_ERROR_INVALID_ARGUMENT,
               "memory requirements into a struct with next != NULL");
        check(s == NULL && reqs.next == (void *)&extension && reqs.storage.size == 0, "no set made, nothing written");
        /* Blocks reserved up front take their memory at creation, before any value. */
        VkalgoSet *plain = NULL, *reserved = NULL;
        desc.bitmap_blocks = 4;
        desc.array_blocks = 64;
        uint64_t plain_bytes = 0, reserved_bytes = 0, card = 1;
        expect(vkalgo_set_create(ctx, &GROWING, &plain), VKALGO_SUCCESS, "create with nothing reserved");
        expect(vkalgo_set_create(ctx, &desc, &reserved), VKALGO_SUCCESS, "create with 4 bitmap and 64 array blocks");
        expect(vkalgo_set_memory_bytes(plain, &plain_bytes), VKALGO_SUCCESS, "memory of the plain set");
        expect(vkalgo_set_memory_bytes(reserved, &reserved_bytes), VKALGO_SUCCESS, "memory of the reserved set");
        expect(vkalgo_set_cardinality_host(reserved, &card), VKALGO_SUCCESS, "cardinality of the reserved set");
        check(reserved_bytes >= plain_bytes + 4 * 8192 + 64 * 192 && card == 0,
              "reserved: %" PRIu64 " bytes (plain %" PRIu64 "), empty", reserved_bytes, plain_bytes);
        vkalgo_set_destroy(plain);
        vkalgo_set_destroy(reserved);
    }
    expect(vkalgo_set_create(ctx, &GROWING, &s), VKALGO_SUCCESS, "vkalgo_set_create");
    expect(vkalgo_set_insert_host(NULL, v, 2), VKALGO_ERROR_INVALID_ARGUMENT, "insert into NULL");
    expect(vkalgo_set_insert_host(s, NULL, 2), VKALGO_ERROR_INVALID_ARGUMENT, "insert NULL values");
    expect(vkalgo_set_insert_host(s, NULL, 0), VKALGO_SUCCESS, "insert 0 values (NULL)");
    expect(vkalgo_set_insert_host(s, v, 2), VKALGO_SUCCESS, "vkalgo_set_insert_host");
    expect(vkalgo_set_remove_host(s, NULL, 1), VKALGO_ERROR_INVALID_ARGUMENT, "remove NULL values");
    expect(vkalgo_set_insert_range_host(s, 5, 4), VKALGO_ERROR_INVALID_ARGUMENT, "range begin > end");
    expect(vkalgo_set_insert_range_host(s, 0, (1ull << 32) + 1), VKALGO_ERROR_INVALID_ARGUMENT, "range end > 2^32");
    expect(vkalgo_set_contains_host(s, v, NULL, 2), VKALGO_ERROR_INVALID_ARGUMENT, "contains, out NULL");
    expect(vkalgo_set_contains_host(NULL, v, f, 2), VKALGO_ERROR_INVALID_ARGUMENT, "contains, set NULL");
    expect(vkalgo_set_cardinality_host(s, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "cardinality, out NULL");
    expect(vkalgo_set_shrink_to_fit_host(NULL), VKALGO_ERROR_INVALID_ARGUMENT, "shrink_to_fit, set NULL");
    expect(vkalgo_set_memory_bytes(s, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "memory_bytes, out NULL");
    expect(vkalgo_set_range_cardinality_host(s, 3, 2, &c), VKALGO_ERROR_INVALID_ARGUMENT, "range cardinality, begin > end");
    expect(vkalgo_set_op_host(s, s, s, 4), VKALGO_ERROR_INVALID_ARGUMENT, "unknown op");
    expect(vkalgo_set_op_host(s, NULL, s, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "op with a NULL");
    expect(vkalgo_set_op_cardinality_host(s, s, 7, &c), VKALGO_ERROR_INVALID_ARGUMENT, "op cardinality, unknown op");
    expect(vkalgo_set_to_array_host(s, NULL, 0, &n), VKALGO_ERROR_INVALID_ARGUMENT, "to_array into nothing");
    check(n == 2, "needed count 2 reported");
    expect(vkalgo_set_filter_host(s, v, 2, NULL, &n), VKALGO_ERROR_INVALID_ARGUMENT, "filter, out NULL");
    expect(vkalgo_set_serialize_host(s, NULL, 0, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "serialize, size NULL");
    expect(vkalgo_set_deserialize_host(ctx, NULL, 8, &s), VKALGO_ERROR_INVALID_ARGUMENT, "deserialize NULL data");
    expect(vkalgo_set_contains_host(s, NULL, f, 2), VKALGO_ERROR_INVALID_ARGUMENT, "contains, values NULL");
    expect(vkalgo_set_filter_host(s, NULL, 2, v, &n), VKALGO_ERROR_INVALID_ARGUMENT, "filter, values NULL");
    expect(vkalgo_set_filter_host(s, v, 2, v, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "filter, out_count NULL");
    expect(vkalgo_set_filter_host(NULL, v, 2, v, &n), VKALGO_ERROR_INVALID_ARGUMENT, "filter, set NULL");
    expect(vkalgo_set_to_array_host(s, v, 2, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "to_array, count NULL");
    expect(vkalgo_set_op_host(NULL, s, s, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "op into NULL");
    expect(vkalgo_set_op_host(s, s, NULL, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "op with b NULL");
    expect(vkalgo_set_op_cardinality_host(NULL, s, VKALGO_SET_OR, &c), VKALGO_ERROR_INVALID_ARGUMENT, "op cardinality, a NULL");
    expect(vkalgo_set_op_cardinality_host(s, NULL, VKALGO_SET_OR, &c), VKALGO_ERROR_INVALID_ARGUMENT, "op cardinality, b NULL");
    expect(vkalgo_set_op_cardinality_host(s, s, VKALGO_SET_OR, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "op cardinality, out NULL");
    {
        const VkalgoSet *one[1] = {s};
        const VkalgoSet *none[1] = {NULL};
        uint64_t got[1] = {77};
        expect(vkalgo_set_op_cardinality_batch_host(one, one, 1, 4, got), VKALGO_ERROR_INVALID_ARGUMENT, "batch, unknown op");
        expect(vkalgo_set_op_cardinality_batch_host(NULL, one, 1, VKALGO_SET_OR, got), VKALGO_ERROR_INVALID_ARGUMENT, "batch, a NULL");
        expect(vkalgo_set_op_cardinality_batch_host(one, none, 1, VKALGO_SET_OR, got), VKALGO_ERROR_INVALID_ARGUMENT, "batch, b[0] NULL");
        expect(vkalgo_set_op_cardinality_batch_host(one, one, 1, VKALGO_SET_OR, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "batch, out NULL");
        check(got[0] == 77, "a refused batch writes nothing");
        expect(vkalgo_set_op_cardinality_batch_host(NULL, NULL, 0, VKALGO_SET_OR, NULL), VKALGO_SUCCESS, "an empty batch");
    }
    expect(vkalgo_set_range_cardinality_host(NULL, 0, 2, &c), VKALGO_ERROR_INVALID_ARGUMENT, "range cardinality, set NULL");
    expect(vkalgo_set_range_cardinality_host(s, 0, 2, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "range cardinality, out NULL");
    expect(vkalgo_set_range_cardinality_host(s, 0, (1ull << 32) + 1, &c), VKALGO_ERROR_INVALID_ARGUMENT, "range cardinality, end > 2^32");
    expect(vkalgo_set_cardinality_host(NULL, &c), VKALGO_ERROR_INVALID_ARGUMENT, "cardinality, set NULL");
    expect(vkalgo_set_serialize_host(NULL, NULL, 0, &size_needed), VKALGO_ERROR_INVALID_ARGUMENT, "serialize, set NULL");
    expect(vkalgo_set_serialize_host(s, NULL, 4096, &size_needed), VKALGO_ERROR_INVALID_ARGUMENT, "serialize, out NULL with a capacity");
    expect(vkalgo_set_deserialize_host(NULL, v, 8, &s2), VKALGO_ERROR_INVALID_ARGUMENT, "deserialize, ctx NULL");
    expect(vkalgo_set_deserialize_host(ctx, v, 8, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "deserialize, out NULL");
    check(s2 == NULL, "a refused deserialize sets no set");
    /* A set of another context. */
    VkalgoContext *other = NULL;
    expect(vkalgo_context_create_default(&other), VKALGO_SUCCESS, "a second context");
    VkalgoSet *t = NULL;
    expect(vkalgo_set_create(other, &GROWING, &t), VKALGO_SUCCESS, "a set on it");
    vkalgo_context_destroy(other); /* the set keeps it alive */
    expect(vkalgo_set_insert_host(t, v, 1), VKALGO_SUCCESS, "insert after the context handle is gone");
    expect(vkalgo_set_op_host(s, s, t, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "sets of two contexts");
    expect(vkalgo_set_op_cardinality_host(s, t, VKALGO_SET_OR, &c), VKALGO_ERROR_INVALID_ARGUMENT, "cardinality, two contexts");
    {
        uint8_t flag = 9;
        expect(vkalgo_set_equals(s, t, &flag), VKALGO_ERROR_INVALID_ARGUMENT, "equals, two contexts");
        expect(vkalgo_set_is_subset(s, t, &flag), VKALGO_ERROR_INVALID_ARGUMENT, "is_subset, two contexts");
        expect(vkalgo_set_equals(s, s, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "equals, out NULL");
        check(flag == 9, "refused comparisons write nothing");
    }
    {
        const VkalgoSet *xs[2] = {s, s};
        const VkalgoSet *ys[2] = {s, t};
        uint64_t got[2] = {77, 77};
        expect(vkalgo_set_op_cardinality_batch_host(xs, ys, 2, VKALGO_SET_OR, got), VKALGO_ERROR_INVALID_ARGUMENT,
               "batch, two contexts");
        check(got[0] == 77 && got[1] == 77, "a batch across contexts writes nothing");
    }
    expect(vkalgo_set_cardinality_host(s, &c), VKALGO_SUCCESS, "the set still works");
    check(c == 2, "and still holds 2 values");
    expect(vkalgo_set_cardinality_host(t, &c), VKALGO_SUCCESS, "the other context's set still works");
    check(c == 1, "and still holds 1 value");
    vkalgo_set_destroy(t);
    vkalgo_set_destroy(s);
    vkalgo_set_destroy(NULL);
    check(true, "vkalgo_set_destroy(NULL) is a no-op");
}

/* Order statistics against the sorted model: minimum and maximum (an empty set refused with
 * *out unchanged), ranks of values in and out of the set (number of values <= each, as
 * CRoaring's roaring_bitmap_rank) and selects of ranks (a rank >= the cardinality refused,
 * nothing written), on a set of arrays, a bitmap chunk and runs, and on the full set. */
static void order_statistics(VkalgoContext *ctx) {
    enum { N = 3000, Q = 1000 };
    uint32_t *v = xmalloc((N + 30000 + 3 * 65536 + 8) * sizeof *v);
    size_t n = 0;
    for (; n < N; n++) {
        v[n] = random_value();
    }
    for (uint32_t i = 0; i < 30000; i++) {
        v[n++] = (12u << 16) | (i * 2u);
    }
    VkalgoSet *s = make_set(ctx, v, n);
    expect(vkalgo_set_insert_range_host(s, (20ull << 16) + 5, (23ull << 16) + 9), VKALGO_SUCCESS, "insert_range");
    for (uint64_t x = (20ull << 16) + 5; x < (23ull << 16) + 9; x++) {
        v[n++] = (uint32_t)x;
    }
    n = sort_unique(v, n);
    uint32_t lo = 7, hi = 7;
    expect(vkalgo_set_minimum(s, &lo), VKALGO_SUCCESS, "vkalgo_set_minimum");
    expect(vkalgo_set_maximum(s, &hi), VKALGO_SUCCESS, "vkalgo_set_maximum");
    check(lo == v[0] && hi == v[n - 1], "minimum %" PRIu32 ", maximum %" PRIu32, lo, hi);
    uint32_t q[Q];
    uint64_t ranks[Q], picks[Q];
    uint32_t got[Q];
    for (size_t i = 0; i < Q; i++) {
        q[i] = i % 2 ? v[rng_u64() % n] : random_value();
        picks[i] = rng_u64() % n;
    }
    expect(vkalgo_set_rank_host(s, q, Q, ranks), VKALGO_SUCCESS, "vkalgo_set_rank_host");
    bool ok = true;
    for (size_t i = 0; i < Q; i++) {
        size_t below = 0, hi_i = n;
        while (below < hi_i) { /* values <= q[i] */
            size_t mid = (below + hi_i) / 2;
            if (v[mid] <= q[i]) below = mid + 1; else hi_i = mid;
        }
        ok = ok && ranks[i] == below;
    }
    check(ok, "ranks match the model");
    expect(vkalgo_set_select_host(s, picks, Q, got), VKALGO_SUCCESS, "vkalgo_set_select_host");
    ok = true;
    for (size_t i = 0; i < Q; i++) {
        ok = ok && got[i] == v[picks[i]];
    }
    check(ok, "selects match the model");
    uint64_t bad[2] = {0, n};
    uint32_t untouched[2] = {7, 7};
    expect(vkalgo_set_select_host(s, bad, 2, untouched), VKALGO_ERROR_INVALID_ARGUMENT, "select of the cardinality");
    check(untouched[0] == 7 && untouched[1] == 7, "a refused select writes nothing");
    expect(vkalgo_set_rank_host(s, NULL, 2, ranks), VKALGO_ERROR_INVALID_ARGUMENT, "rank, values NULL");
    expect(vkalgo_set_select_host(s, picks, 2, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "select, values_out NULL");
    expect(vkalgo_set_minimum(NULL, &lo), VKALGO_ERROR_INVALID_ARGUMENT, "minimum, set NULL");
    expect(vkalgo_set_maximum(s, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "maximum, out NULL");
    vkalgo_set_destroy(s);
    free(v);

    VkalgoSet *empty = make_set(ctx, NULL, 0);
    lo = hi = 7;
    expect(vkalgo_set_minimum(empty, &lo), VKALGO_ERROR_INVALID_ARGUMENT, "minimum of the empty set");
    expect(vkalgo_set_maximum(empty, &hi), VKALGO_ERROR_INVALID_ARGUMENT, "maximum of the empty set");
    check(lo == 7 && hi == 7, "the empty set's minimum and maximum leave *out");
    expect(vkalgo_set_select_host(empty, bad, 1, untouched), VKALGO_ERROR_INVALID_ARGUMENT, "select in the empty set");
    uint32_t edge[2] = {0, UINT32_MAX};
    expect(vkalgo_set_rank_host(empty, edge, 2, ranks), VKALGO_SUCCESS, "ranks in the empty set");
    check(ranks[0] == 0 && ranks[1] == 0, "ranks in the empty set are 0");
    /* The full set: 2^32 values. */
    expect(vkalgo_set_insert_range_host(empty, 0, 1ull << 32), VKALGO_SUCCESS, "insert the universe");
    expect(vkalgo_set_rank_host(empty, edge, 2, ranks), VKALGO_SUCCESS, "ranks in the full set");
    check(ranks[0] == 1 && ranks[1] == 1ull << 32, "full set: ranks %" PRIu64 " and %" PRIu64, ranks[0], ranks[1]);
    uint64_t last[1] = {(1ull << 32) - 1};
    expect(vkalgo_set_select_host(empty, last, 1, got), VKALGO_SUCCESS, "select 2^32 - 1 in the full set");
    check(got[0] == UINT32_MAX, "full set: select 2^32 - 1 is 2^32 - 1");
    vkalgo_set_destroy(empty);
}

/* Many sets in one call: OR / AND / XOR / ANDNOT of four sets, a batch of pairs sharing
 * operands, checked against the model; refused calls (no sets, dst an operand, a dst twice)
 * change nothing; the sets built, counted and listed in bulk. */
static void many_sets(VkalgoContext *ctx) {
    enum { N = 4, LEN = 600 };
    uint32_t *v[N], len[N];
    VkalgoSet *s[N];
    for (int i = 0; i < N; i++) {
        v[i] = xmalloc(LEN * sizeof *v[i]);
        for (int j = 0; j < LEN; j++) v[i][j] = random_value();
        len[i] = (uint32_t)sort_unique(v[i], LEN);
        s[i] = make_set(ctx, v[i], len[i]);
    }
    const VkalgoSet *operands[N] = {s[0], s[1], s[2], s[3]};
    uint32_t *acc = xmalloc(N * LEN * sizeof *acc), *tmp = xmalloc(N * LEN * sizeof *tmp);
    VkalgoSet *dst = make_set(ctx, NULL, 0);
    const uint32_t ops[4] = {VKALGO_SET_AND, VKALGO_SET_OR, VKALGO_SET_XOR, VKALGO_SET_ANDNOT};
    for (int k = 0; k < 4; k++) {
        uint32_t op = ops[k];
        /* The model: left to right; ANDNOT subtracts each of the others in turn. */
        size_t n = len[0];
        memcpy(acc, v[0], n * sizeof *acc);
        for (int i = 1; i < N; i++) {
            n = model_op(acc, n, v[i], len[i], op, tmp);
            memcpy(acc, tmp, n * sizeof *acc);
        }
        expect(vkalgo_set_op_many(dst, operands, N, op), VKALGO_SUCCESS, "vkalgo_set_op_many");
        check_set(dst, acc, n, "op_many");
    }
    /* dst[i] = s0 XOR s[1 + i], one submission. */
    VkalgoSet *pair_dst[2] = {make_set(ctx, NULL, 0), make_set(ctx, NULL, 0)};
    const VkalgoSet *pa[2] = {s[0], s[0]}, *pb[2] = {s[1], s[2]};
    expect(vkalgo_set_op_batch(pair_dst, pa, pb, 2, VKALGO_SET_XOR), VKALGO_SUCCESS, "vkalgo_set_op_batch");
    for (int i = 0; i < 2; i++) {
        size_t n = model_op(v[0], len[0], v[1 + i], len[1 + i], VKALGO_SET_XOR, acc);
        check_set(pair_dst[i], acc, n, "op_batch");
    }
    /* Refused: nothing changes. */
    const VkalgoSet *with_dst[2] = {s[0], pair_dst[1]};
    VkalgoSet *twice[2] = {pair_dst[0], pair_dst[0]};
    expect(vkalgo_set_op_many(dst, operands, 0, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "op_many of no sets");
    expect(vkalgo_set_op_many(pair_dst[1], with_dst, 2, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT,
           "op_many into an operand");
    expect(vkalgo_set_op_batch(twice, pa, pb, 2, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT, "op_batch, a dst twice");
    expect(vkalgo_set_op_batch(pair_dst, with_dst, pb, 2, VKALGO_SET_OR), VKALGO_ERROR_INVALID_ARGUMENT,
           "op_batch, a dst an operand");
    size_t n = model_op(v[0], len[0], v[2], len[2], VKALGO_SET_XOR, acc);
    check_set(pair_dst[1], acc, n, "after refused calls");
    /* In bulk: the four value lists as one CSR array, built, counted and listed back. */
    uint64_t offsets[N + 1] = {0};
    uint32_t *all = xmalloc(N * LEN * sizeof *all);
    for (int i = 0; i < N; i++) {
        memcpy(all + offsets[i], v[i], len[i] * sizeof *all);
        offsets[i + 1] = offsets[i] + len[i];
    }
    VkalgoSet *bulk[N] = {NULL};
    expect(vkalgo_set_from_values_many(ctx, all, offsets, N, bulk), VKALGO_SUCCESS, "vkalgo_set_from_values_many");
    const VkalgoSet *bulk_list[N] = {bulk[0], bulk[1], bulk[2], bulk[3]};
    uint64_t cards[N], back_offsets[N + 1];
    expect(vkalgo_set_cardinalities(bulk_list, N, cards), VKALGO_SUCCESS, "vkalgo_set_cardinalities");
    size_t written = 0;
    memset(acc, 0, N * LEN * sizeof *acc);
    expect(vkalgo_set_to_array_many(bulk_list, N, acc, N * LEN, back_offsets, &written), VKALGO_SUCCESS,
           "vkalgo_set_to_array_many");
    check(written == offsets[N] && memcmp(acc, all, written * sizeof *acc) == 0, "to_array_many equals the input");
    for (int i = 0; i < N; i++) {
        check(cards[i] == len[i] && back_offsets[i + 1] == offsets[i + 1], "bulk set %d: cardinality and offset", i);
        vkalgo_set_destroy(bulk[i]);
    }
    free(all);
    for (int i = 0; i < N; i++) {
        vkalgo_set_destroy(s[i]);
        free(v[i]);
    }
    vkalgo_set_destroy(pair_dst[0]);
    vkalgo_set_destroy(pair_dst[1]);
    vkalgo_set_destroy(dst);
    free(acc);
    free(tmp);
}

int main(void) {
    const context_test tests[] = {operations, order_statistics, many_sets, bad_input};
    return run_on_default_context(tests, sizeof tests / sizeof tests[0]);
}
