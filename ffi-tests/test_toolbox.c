/* C11 tests of the toolbox's host entry points through the C ABI (include/vkalgo.h), against
 * the installed package, exactly as the headers declare them: vkalgo_reduce_host,
 * vkalgo_select_host (flagged, GLSL predicate, unique), vkalgo_reduce_by_key_host (sums and
 * run-length encoding), vkalgo_histogram_host and vkalgo_segmented_sort_host.
 *
 * 1. Layouts: every desc begins with `const void *next`.
 * 2. Each call on the default context against a CPU reference, compared exactly (keys and
 *    values bit for bit), with the element after each output range checked untouched.
 * 3. Bad input (NULL data with a count, unknown codes, malformed segment offsets, a bucket id
 *    out of range): VKALGO_ERROR_INVALID_ARGUMENT with a message and the outputs unchanged.
 *
 * VKALGO_VALIDATION=1 runs the default context under the validation layer; the test then
 * requires zero messages. Prints every check; exits 1 on any failure. */
#define TEST_RNG_SEED 0x70017B0C5EEDull
#include "check.h" /* check(), expect(), rng_u64(), xmalloc(), now_s() */
#include <vkalgo.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(offsetof(VkalgoReduceDesc, next) == 0 && offsetof(VkalgoReduceDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoReduceDesc, op) == sizeof(void *) + 4,
               "VkalgoReduceDesc layout");
_Static_assert(offsetof(VkalgoSelectDesc, next) == 0 && offsetof(VkalgoSelectDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoSelectDesc, value_type) == sizeof(void *) + 4 &&
                   offsetof(VkalgoSelectDesc, mode) == sizeof(void *) + 8,
               "VkalgoSelectDesc layout");
_Static_assert(offsetof(VkalgoReduceByKeyDesc, next) == 0 &&
                   offsetof(VkalgoReduceByKeyDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoReduceByKeyDesc, value_type) == sizeof(void *) + 4 &&
                   offsetof(VkalgoReduceByKeyDesc, op) == sizeof(void *) + 8,
               "VkalgoReduceByKeyDesc layout");
_Static_assert(VKALGO_OP_SUM == 0 && VKALGO_OP_MIN == 1 && VKALGO_OP_MAX == 2, "operation codes");
_Static_assert(VKALGO_SELECT_FLAGGED == 0 && VKALGO_SELECT_IF == 1 && VKALGO_SELECT_UNIQUE == 2, "select modes");

#define SENTINEL 0xA5A5A5A5u

static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_u64() % n); }

/* ------------------------------------------------------------------------------------------ */
/* Reduce                                                                                      */

static void test_reduce(VkalgoContext *ctx) {
    printf("== vkalgo_reduce_host\n");
    const size_t n = 100003;
    uint32_t *u = xmalloc(n * sizeof *u);
    int64_t *s = xmalloc(n * sizeof *s);
    uint32_t sum = 0, min = UINT32_MAX, max = 0;
    int64_t smax = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        u[i] = (uint32_t)rng_u64();
        s[i] = (int64_t)rng_u64();
        sum += u[i];
        min = u[i] < min ? u[i] : min;
        max = u[i] > max ? u[i] : max;
        smax = s[i] > smax ? s[i] : smax;
    }
    const uint32_t want[3] = {sum, min, max};
    for (uint32_t op = VKALGO_OP_SUM; op <= VKALGO_OP_MAX; op++) {
        VkalgoReduceDesc d = {NULL, VKALGO_KEY_U32, op};
        uint32_t got = SENTINEL;
        expect(vkalgo_reduce_host(ctx, &d, u, n, &got), VKALGO_SUCCESS, "reduce u32");
        check(got == want[op], "u32 op %u over %zu: %" PRIu32 " (want %" PRIu32 ")", op, n, got, want[op]);
    }
    VkalgoReduceDesc d = {NULL, VKALGO_KEY_I64, VKALGO_OP_MAX};
    int64_t got64 = 0;
    expect(vkalgo_reduce_host(ctx, &d, s, n, &got64), VKALGO_SUCCESS, "reduce i64 max");
    check(got64 == smax, "i64 max: %" PRId64 " (want %" PRId64 ")", got64, smax);
    /* Count 0: the identities (MIN of f32: bits 0x7FFFFFFF). */
    VkalgoReduceDesc f = {NULL, VKALGO_KEY_F32, VKALGO_OP_MIN};
    uint32_t bits = 0;
    expect(vkalgo_reduce_host(ctx, &f, NULL, 0, &bits), VKALGO_SUCCESS, "reduce of nothing");
    check(bits == 0x7FFFFFFFu, "f32 MIN of nothing: bits 0x%08" PRIx32 " (want 0x7FFFFFFF)", bits);
    /* Bad input. */
    uint32_t untouched = SENTINEL;
    VkalgoReduceDesc bad_op = {NULL, VKALGO_KEY_U32, 7};
    expect(vkalgo_reduce_host(ctx, &bad_op, u, n, &untouched), VKALGO_ERROR_INVALID_ARGUMENT, "unknown op");
    VkalgoReduceDesc ok = {NULL, VKALGO_KEY_U32, VKALGO_OP_SUM};
    expect(vkalgo_reduce_host(ctx, &ok, NULL, 5, &untouched), VKALGO_ERROR_INVALID_ARGUMENT, "NULL input, count 5");
    /* An extension chain: the host call takes VkalgoKeepScratchZeroed and ignores it; an
       unknown structure type is refused. */
    VkalgoKeepScratchZeroed kept = {NULL, VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED};
    VkalgoReduceDesc chained = {&kept, VKALGO_KEY_U32, VKALGO_OP_MAX};
    uint32_t got_max = SENTINEL;
    expect(vkalgo_reduce_host(ctx, &chained, u, n, &got_max), VKALGO_SUCCESS, "reduce with an extension chain");
    check(got_max == max, "u32 max with a chain: %" PRIu32 " (want %" PRIu32 ")", got_max, max);
    VkalgoExtensionHeader unknown = {NULL, (VkalgoStructureType)99};
    VkalgoReduceDesc bad_chain = {&unknown, VKALGO_KEY_U32, VKALGO_OP_MAX};
    expect(vkalgo_reduce_host(ctx, &bad_chain, u, n, &untouched), VKALGO_ERROR_INVALID_ARGUMENT,
           "unknown extension structure");
    check(untouched == SENTINEL, "the result is untouched after refused calls");
    free(u);
    free(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Select                                                                                      */

static void test_select(VkalgoContext *ctx) {
    printf("== vkalgo_select_host\n");
    const size_t n = 70001;
    uint32_t *keys = xmalloc(n * sizeof *keys);
    uint32_t *values = xmalloc(n * sizeof *values);
    uint8_t *flags = xmalloc(n);
    uint32_t *want_k = xmalloc(n * sizeof *want_k);
    uint32_t *want_v = xmalloc(n * sizeof *want_v);
    uint32_t *out_k = xmalloc((n + 1) * sizeof *out_k);
    uint32_t *out_v = xmalloc((n + 1) * sizeof *out_v);
    for (size_t i = 0; i < n; i++) {
        keys[i] = rng_below(50); /* runs of equal keys for UNIQUE */
        values[i] = (uint32_t)i;
        flags[i] = (uint8_t)(rng_below(3) == 0 ? 0 : rng_below(255) + 1);
    }
    /* FLAGGED, with values. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (flags[i]) {
            want_k[kept] = keys[i];
            want_v[kept++] = values[i];
        }
    }
    out_k[kept] = SENTINEL;
    out_v[kept] = SENTINEL;
    VkalgoSelectDesc d = {NULL, VKALGO_KEY_U32, VKALGO_VALUE_U32, VKALGO_SELECT_FLAGGED, flags, NULL, {0, 0, 0, 0}};
    uint64_t count = 0;
    expect(vkalgo_select_host(ctx, &d, keys, values, n, out_k, out_v, &count), VKALGO_SUCCESS, "flagged");
    check(count == kept && !memcmp(out_k, want_k, kept * 4) && !memcmp(out_v, want_v, kept * 4) &&
              out_k[kept] == SENTINEL && out_v[kept] == SENTINEL,
          "flagged: %" PRIu64 " kept (want %zu), in order, nothing past them", count, kept);
    /* IF: the caller's GLSL predicate with its parameters (keys below params.x). */
    kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (keys[i] < 17) {
            want_k[kept++] = keys[i];
        }
    }
    VkalgoSelectDesc g = {NULL,
                          VKALGO_KEY_U32,
                          VKALGO_VALUE_NONE,
                          VKALGO_SELECT_IF,
                          NULL,
                          "bool vkalgo_select(uint k) { return k < vkalgo_params.x; }",
                          {17, 0, 0, 0}};
    expect(vkalgo_select_host(ctx, &g, keys, NULL, n, out_k, NULL, &count), VKALGO_SUCCESS, "GLSL predicate");
    check(count == kept && !memcmp(out_k, want_k, kept * 4), "GLSL predicate: %" PRIu64 " kept (want %zu)", count,
          kept);
    /* UNIQUE, in place (keys_in == keys_out). */
    uint32_t *copy = xmalloc(n * sizeof *copy);
    memcpy(copy, keys, n * 4);
    kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            want_k[kept++] = keys[i];
        }
    }
    VkalgoSelectDesc u = {NULL, VKALGO_KEY_U32, VKALGO_VALUE_NONE, VKALGO_SELECT_UNIQUE, NULL, NULL, {0, 0, 0, 0}};
    expect(vkalgo_select_host(ctx, &u, copy, NULL, n, copy, NULL, &count), VKALGO_SUCCESS, "unique, in place");
    check(count == kept && !memcmp(copy, want_k, kept * 4), "unique in place: %" PRIu64 " runs (want %zu)", count,
          kept);
    /* Bad input: nothing written. */
    memset(out_k, 0x5A, n * 4);
    uint64_t untouched = 77;
    VkalgoSelectDesc no_flags = d;
    no_flags.flags = NULL;
    expect(vkalgo_select_host(ctx, &no_flags, keys, values, n, out_k, out_v, &untouched),
           VKALGO_ERROR_INVALID_ARGUMENT, "flagged without flags");
    VkalgoSelectDesc bad_mode = u;
    bad_mode.mode = 9;
    expect(vkalgo_select_host(ctx, &bad_mode, keys, NULL, n, out_k, NULL, &untouched),
           VKALGO_ERROR_INVALID_ARGUMENT, "unknown mode");
    expect(vkalgo_select_host(ctx, &u, NULL, NULL, n, out_k, NULL, &untouched), VKALGO_ERROR_INVALID_ARGUMENT,
           "NULL keys, count n");
    VkalgoSelectDesc broken = g;
    broken.glsl = "bool vkalgo_select(uint k) { return k <; }";
    expect(vkalgo_select_host(ctx, &broken, keys, NULL, n, out_k, NULL, &untouched), VKALGO_ERROR_COMPILE,
           "GLSL that does not compile");
    bool clean = untouched == 77;
    for (size_t i = 0; i < n && clean; i++) {
        clean = out_k[i] == 0x5A5A5A5Au;
    }
    check(clean, "refused selects wrote nothing");
    /* Plans take VkalgoKeepScratchZeroed chained to the desc (the host call ignores it); an
       unknown structure type is refused and makes no plan. */
    VkalgoKeepScratchZeroed keep = {NULL, VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED};
    VkalgoSelectDesc kept_desc = u;
    kept_desc.next = &keep;
    VkalgoSelectPlan *plan = NULL;
    expect(vkalgo_select_plan_create(ctx, &kept_desc, n, &plan), VKALGO_SUCCESS, "select plan, scratch kept zeroed");
    check(plan != NULL, "a kept-zeroed select plan");
    vkalgo_select_plan_destroy(plan);
    memcpy(copy, keys, n * 4);
    expect(vkalgo_select_host(ctx, &kept_desc, copy, NULL, n, copy, NULL, &count), VKALGO_SUCCESS,
           "unique with a chain");
    check(count == kept, "unique with a chain: %" PRIu64 " runs (want %zu)", count, kept);
    VkalgoExtensionHeader unknown = {NULL, (VkalgoStructureType)99};
    VkalgoSelectDesc bad_chain = u;
    bad_chain.next = &unknown;
    plan = NULL;
    expect(vkalgo_select_plan_create(ctx, &bad_chain, n, &plan), VKALGO_ERROR_INVALID_ARGUMENT,
           "select plan with an unknown extension structure");
    check(plan == NULL, "no plan from a refused chain");
    free(keys);
    free(values);
    free(flags);
    free(want_k);
    free(want_v);
    free(out_k);
    free(out_v);
    free(copy);
}

/* ------------------------------------------------------------------------------------------ */
/* Reduce-by-key and run-length encoding                                                       */

static void test_reduce_by_key(VkalgoContext *ctx) {
    printf("== vkalgo_reduce_by_key_host\n");
    const size_t n = 90001;
    uint64_t *keys = xmalloc(n * sizeof *keys);
    uint64_t *values = xmalloc(n * sizeof *values);
    uint64_t *want_k = xmalloc(n * sizeof *want_k);
    uint64_t *want_v = xmalloc(n * sizeof *want_v);
    uint32_t *want_len = xmalloc(n * sizeof *want_len);
    uint64_t *out_k = xmalloc((n + 1) * sizeof *out_k);
    uint64_t *out_v = xmalloc((n + 1) * sizeof *out_v);
    uint32_t *out_len = xmalloc((n + 1) * sizeof *out_len);
    uint64_t key = 0;
    for (size_t i = 0; i < n; i++) {
        if (rng_below(5) == 0) {
            key = rng_u64(); /* a new run, mean length 5 */
        }
        keys[i] = key;
        values[i] = rng_u64();
    }
    size_t runs = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            want_k[runs] = keys[i];
            want_v[runs] = 0;
            want_len[runs++] = 0;
        }
        want_v[runs - 1] += values[i]; /* wraps */
        want_len[runs - 1]++;
    }
    out_k[runs] = SENTINEL;
    out_v[runs] = SENTINEL;
    VkalgoReduceByKeyDesc d = {NULL, VKALGO_KEY_U64, VKALGO_VALUE_U64, VKALGO_OP_SUM};
    uint64_t count = 0;
    expect(vkalgo_reduce_by_key_host(ctx, &d, keys, values, n, out_k, out_v, &count), VKALGO_SUCCESS,
           "u64 keys, u64 sums");
    check(count == runs && !memcmp(out_k, want_k, runs * 8) && !memcmp(out_v, want_v, runs * 8) &&
              out_k[runs] == SENTINEL && out_v[runs] == SENTINEL,
          "sums per run: %" PRIu64 " runs (want %zu), nothing past them", count, runs);
    VkalgoReduceByKeyDesc rle = {NULL, VKALGO_KEY_U64, VKALGO_VALUE_NONE, VKALGO_OP_SUM};
    out_len[runs] = SENTINEL;
    expect(vkalgo_reduce_by_key_host(ctx, &rle, keys, NULL, n, out_k, out_len, &count), VKALGO_SUCCESS,
           "run-length encoding");
    check(count == runs && !memcmp(out_k, want_k, runs * 8) && !memcmp(out_len, want_len, runs * 4) &&
              out_len[runs] == SENTINEL,
          "run lengths: %" PRIu64 " runs (want %zu)", count, runs);
    /* Bad input. */
    uint64_t untouched = 5;
    VkalgoReduceByKeyDesc bad_op = d;
    bad_op.op = 3;
    expect(vkalgo_reduce_by_key_host(ctx, &bad_op, keys, values, n, out_k, out_v, &untouched),
           VKALGO_ERROR_INVALID_ARGUMENT, "unknown op");
    expect(vkalgo_reduce_by_key_host(ctx, &d, keys, NULL, n, out_k, out_v, &untouched), VKALGO_ERROR_INVALID_ARGUMENT,
           "NULL values with a value type");
    check(untouched == 5, "refused calls left the run count");
    /* Plans take VkalgoKeepScratchZeroed chained to the desc; an unknown structure type is
       refused and makes no plan. */
    VkalgoKeepScratchZeroed keep = {NULL, VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED};
    VkalgoReduceByKeyDesc kept_desc = d;
    kept_desc.next = &keep;
    VkalgoReduceByKeyPlan *plan = NULL;
    expect(vkalgo_reduce_by_key_plan_create(ctx, &kept_desc, n, &plan), VKALGO_SUCCESS,
           "reduce-by-key plan, scratch kept zeroed");
    check(plan != NULL, "a kept-zeroed reduce-by-key plan");
    vkalgo_reduce_by_key_plan_destroy(plan);
    VkalgoExtensionHeader unknown = {NULL, (VkalgoStructureType)99};
    VkalgoReduceByKeyDesc bad_chain = d;
    bad_chain.next = &unknown;
    plan = NULL;
    expect(vkalgo_reduce_by_key_plan_create(ctx, &bad_chain, n, &plan), VKALGO_ERROR_INVALID_ARGUMENT,
           "reduce-by-key plan with an unknown extension structure");
    check(plan == NULL, "no plan from a refused chain");
    free(keys);
    free(values);
    free(want_k);
    free(want_v);
    free(want_len);
    free(out_k);
    free(out_v);
    free(out_len);
}

/* ------------------------------------------------------------------------------------------ */
/* Histogram                                                                                   */

static void test_histogram(VkalgoContext *ctx) {
    printf("== vkalgo_histogram_host\n");
    const size_t n = 123457;
    uint32_t *keys = xmalloc(n * sizeof *keys);
    uint32_t *ids = xmalloc(n * sizeof *ids);
    uint64_t want[256] = {0}, counts[257];
    for (size_t i = 0; i < n; i++) {
        keys[i] = (uint32_t)rng_u64();
        ids[i] = rng_below(7);
        want[keys[i] >> 24]++;
    }
    counts[256] = SENTINEL;
    VkalgoMultisplitDesc d;
    memset(&d, 0, sizeof d);
    d.key_type = VKALGO_KEY_U32;
    d.bucket_count = 256;
    d.bucket_fn = VKALGO_BUCKET_BITS;
    d.bit_offset = 24;
    expect(vkalgo_histogram_host(ctx, &d, keys, n, counts), VKALGO_SUCCESS, "BITS, 256 buckets");
    check(!memcmp(counts, want, sizeof want) && counts[256] == SENTINEL, "the top byte's counts, nothing past them");
    /* IDS with one id out of range: refused, counts untouched. */
    ids[n / 2] = 7;
    d.bucket_count = 7;
    d.bucket_fn = VKALGO_BUCKET_IDS;
    d.bucket_ids = ids;
    for (int b = 0; b < 7; b++) {
        counts[b] = SENTINEL;
    }
    expect(vkalgo_histogram_host(ctx, &d, keys, n, counts), VKALGO_ERROR_INVALID_ARGUMENT, "an id past the buckets");
    bool clean = true;
    for (int b = 0; b < 7; b++) {
        clean = clean && counts[b] == SENTINEL;
    }
    check(clean, "the counts are untouched");
    free(keys);
    free(ids);
}

/* ------------------------------------------------------------------------------------------ */
/* Segmented sort                                                                              */

typedef struct Pair {
    uint32_t key, value;
} Pair;

static int cmp_pair(const void *a, const void *b) {
    const Pair *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->value < y->value ? -1 : (x->value > y->value); /* values are positions: stable */
}

static void test_segmented_sort(VkalgoContext *ctx) {
    printf("== vkalgo_segmented_sort_host\n");
    const size_t n = 50000;
    uint32_t *keys = xmalloc(n * sizeof *keys);
    uint32_t *values = xmalloc(n * sizeof *values);
    uint64_t *offsets = xmalloc((n + 1) * sizeof *offsets);
    Pair *want = xmalloc(n * sizeof *want);
    /* Segments of 0..300 keys (empty ones too), a few long ones. */
    size_t segments = 0, at = 0;
    while (at < n) {
        offsets[segments++] = at;
        size_t len = rng_below(20) == 0 ? 3000 + rng_below(5000) : rng_below(300);
        at = at + len > n ? n : at + len;
    }
    offsets[segments] = n;
    for (size_t i = 0; i < n; i++) {
        keys[i] = rng_below(1000);
        values[i] = (uint32_t)i;
        want[i].key = keys[i];
        want[i].value = values[i];
    }
    for (size_t s = 0; s < segments; s++) {
        qsort(want + offsets[s], (size_t)(offsets[s + 1] - offsets[s]), sizeof *want, cmp_pair);
    }
    VkalgoSortDesc d;
    memset(&d, 0, sizeof d);
    d.key_type = VKALGO_KEY_U32;
    d.value_type = VKALGO_VALUE_U32;
    expect(vkalgo_segmented_sort_host(ctx, &d, keys, values, n, offsets, segments), VKALGO_SUCCESS,
           "u32 keys with u32 values");
    bool same = true;
    for (size_t i = 0; i < n && same; i++) {
        same = keys[i] == want[i].key && values[i] == want[i].value;
    }
    check(same, "%zu segments sorted each on its own, stable", segments);
    /* Malformed offsets: refused, nothing written. */
    uint32_t *before = xmalloc(n * sizeof *before);
    memcpy(before, keys, n * 4);
    uint64_t broken = offsets[segments / 2];
    offsets[segments / 2] = offsets[segments / 2 + 1] + 1; /* decreasing */
    expect(vkalgo_segmented_sort_host(ctx, &d, keys, values, n, offsets, segments), VKALGO_ERROR_INVALID_ARGUMENT,
           "decreasing offsets");
    offsets[segments / 2] = broken;
    offsets[segments] = n - 1;
    expect(vkalgo_segmented_sort_host(ctx, &d, keys, values, n, offsets, segments), VKALGO_ERROR_INVALID_ARGUMENT,
           "the last offset short of the count");
    offsets[segments] = n;
    expect(vkalgo_segmented_sort_host(ctx, &d, keys, values, n, NULL, segments), VKALGO_ERROR_INVALID_ARGUMENT,
           "NULL offsets");
    check(!memcmp(before, keys, n * 4), "refused sorts changed nothing");
    free(keys);
    free(values);
    free(offsets);
    free(want);
    free(before);
}

int main(void) {
    const context_test tests[] = {test_reduce, test_select, test_reduce_by_key, test_histogram, test_segmented_sort};
    return run_on_default_context(tests, sizeof tests / sizeof tests[0]);
}
