/* C11 tests of vkalgo's sort through the C ABI (include/vkalgo.h), against the installed package:
 *
 * 1. The constants and struct layouts of the sort section (static checks, plus runtime checks).
 * 2. vkalgo_sort_host on the default context: every key type (u32, i32, f32, u64, i64, f64),
 *    ascending and descending, without values and with u32 and u64 values, counts 0, 1, 1000,
 *    100003 and around the plan's tile size; bit ranges. Each result is compared exactly (keys
 *    and values, bit for bit) with a stable CPU reference; the element after the sorted range
 *    must stay untouched.
 * 3. Bad input: INVALID_ARGUMENT, a non-empty vkalgo_last_error_message, the arrays unchanged;
 *    then a good sort on the same context.
 * 4. A few plan calls on the default context (sizes, alignment, usage, argument errors).
 *
 * VKALGO_VALIDATION=1 in the test environment runs the default context under the Khronos
 * validation layer; the test then requires zero messages. Prints every check; exits 1 on any
 * failure. */
#define TEST_RNG_SEED 0x0DDB1A5E5BAD5EEDull
#include "check.h" /* check(), expect(), rng_u64(), xmalloc(), now_s() */
#include <vkalgo.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* 1. Constants and layouts (the values are ABI: the Rust side matches on them)               */

_Static_assert(VKALGO_KEY_U32 == 0 && VKALGO_KEY_I32 == 1 && VKALGO_KEY_F32 == 2, "32-bit key constants");
_Static_assert(VKALGO_KEY_U64 == 3 && VKALGO_KEY_I64 == 4 && VKALGO_KEY_F64 == 5, "64-bit key constants");
_Static_assert(VKALGO_VALUE_NONE == 0 && VKALGO_VALUE_U32 == 1 && VKALGO_VALUE_U64 == 2, "value constants");
_Static_assert(VKALGO_SORT_PATH_AUTO == 0 && VKALGO_SORT_PATH_ONESWEEP == 1 && VKALGO_SORT_PATH_SAFE == 2 &&
                   VKALGO_SORT_PATH_SMALL == 3,
               "sort path constants");
_Static_assert(sizeof(VkalgoKeyType) == 4 && sizeof(VkalgoValueType) == 4 && sizeof(VkalgoSortPath) == 4,
               "the enums are 32 bits wide");
_Static_assert(offsetof(VkalgoSortDesc, next) == 0 && offsetof(VkalgoSortDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoSortDesc, value_type) == offsetof(VkalgoSortDesc, key_type) + 4 &&
                   offsetof(VkalgoSortDesc, begin_bit) == offsetof(VkalgoSortDesc, key_type) + 8 &&
                   offsetof(VkalgoSortDesc, end_bit) == offsetof(VkalgoSortDesc, key_type) + 12 &&
                   offsetof(VkalgoSortDesc, descending) == offsetof(VkalgoSortDesc, key_type) + 16 &&
                   offsetof(VkalgoSortDesc, path) == offsetof(VkalgoSortDesc, key_type) + 20 &&
                   offsetof(VkalgoSortDesc, max_count) % 8 == 0,
               "VkalgoSortDesc field offsets");
_Static_assert(offsetof(VkalgoMemoryRequirements, next) == 0 &&
                   offsetof(VkalgoMemoryRequirements, keys_alt) ==
                       offsetof(VkalgoMemoryRequirements, scratch) + sizeof(VkalgoBufferRequirements) &&
                   offsetof(VkalgoMemoryRequirements, values_alt) ==
                       offsetof(VkalgoMemoryRequirements, keys_alt) + sizeof(VkalgoBufferRequirements) &&
                   offsetof(VkalgoBufferRequirements, alignment) == 8 && offsetof(VkalgoBufferRequirements, usage) == 16,
               "VkalgoMemoryRequirements field offsets");

/* ------------------------------------------------------------------------------------------ */
/* Key types, data, and the CPU reference                                                      */

typedef struct KeyInfo {
    VkalgoKeyType type;
    const char *name;
    unsigned bits;
} KeyInfo;

static const KeyInfo KEY_TYPES[] = {
    {VKALGO_KEY_U32, "u32", 32}, {VKALGO_KEY_I32, "i32", 32}, {VKALGO_KEY_F32, "f32", 32},
    {VKALGO_KEY_U64, "u64", 64}, {VKALGO_KEY_I64, "i64", 64}, {VKALGO_KEY_F64, "f64", 64},
};
enum { KEY_TYPE_COUNT = sizeof KEY_TYPES / sizeof KEY_TYPES[0] };

static const char *value_name(VkalgoValueType value_type) {
    return value_type == VKALGO_VALUE_U32 ? "u32" : value_type == VKALGO_VALUE_U64 ? "u64" : "none";
}
static size_t value_bytes(VkalgoValueType value_type) {
    return value_type == VKALGO_VALUE_U32 ? 4 : value_type == VKALGO_VALUE_U64 ? 8 : 0;
}

/* SplitMix64: small, fast, deterministic. */

/* Keys are handled as raw bit patterns (uint32_t/uint64_t), never as float values, so NaN
 * payloads and signs survive exactly. */
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

/* Edge values of every type (as bit patterns; 64-bit patterns truncate for 32-bit types only
 * where the 32-bit table is used). */
static const uint32_t SPECIAL_INT32[] = {
    0x00000000u, 0x00000001u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x00000100u,
};
static const uint64_t SPECIAL_INT64[] = {
    0x0000000000000000ull, 0x0000000000000001ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull,
    0x8000000000000001ull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFEull, 0x00000000FFFFFFFFull,
    0x0000000100000000ull, 0xFFFFFFFF00000000ull,
};
static const uint32_t SPECIAL_F32[] = {
    0x00000000u, /* +0.0 */
    0x80000000u, /* -0.0 */
    0x7F800000u, /* +inf */
    0xFF800000u, /* -inf */
    0x7FC00000u, /* +quiet NaN */
    0xFFC00000u, /* -quiet NaN */
    0x7F800001u, /* +signaling NaN */
    0xFF800001u, /* -signaling NaN */
    0x7FFFFFFFu, /* +NaN, largest payload */
    0xFFFFFFFFu, /* -NaN, largest payload */
    0x00000001u, /* smallest +denormal */
    0x80000001u, /* smallest -denormal */
    0x007FFFFFu, /* largest +denormal */
    0x807FFFFFu, /* largest -denormal */
    0x00800000u, /* FLT_MIN */
    0x80800000u, /* -FLT_MIN */
    0x7F7FFFFFu, /* FLT_MAX */
    0xFF7FFFFFu, /* -FLT_MAX */
    0x3F800000u, /* 1.0 */
    0xBF800000u, /* -1.0 */
};
static const uint64_t SPECIAL_F64[] = {
    0x0000000000000000ull, /* +0.0 */
    0x8000000000000000ull, /* -0.0 */
    0x7FF0000000000000ull, /* +inf */
    0xFFF0000000000000ull, /* -inf */
    0x7FF8000000000000ull, /* +quiet NaN */
    0xFFF8000000000000ull, /* -quiet NaN */
    0x7FF0000000000001ull, /* +signaling NaN */
    0xFFF0000000000001ull, /* -signaling NaN */
    0x7FFFFFFFFFFFFFFFull, /* +NaN, largest payload */
    0xFFFFFFFFFFFFFFFFull, /* -NaN, largest payload */
    0x0000000000000001ull, /* smallest +denormal */
    0x8000000000000001ull, /* smallest -denormal */
    0x000FFFFFFFFFFFFFull, /* largest +denormal */
    0x800FFFFFFFFFFFFFull, /* largest -denormal */
    0x0010000000000000ull, /* DBL_MIN */
    0x8010000000000000ull, /* -DBL_MIN */
    0x7FEFFFFFFFFFFFFFull, /* DBL_MAX */
    0xFFEFFFFFFFFFFFFFull, /* -DBL_MAX */
    0x3FF0000000000000ull, /* 1.0 */
    0xBFF0000000000000ull, /* -1.0 */
};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t special_key(VkalgoKeyType type) {
    uint64_t r = rng_u64();
    switch (type) {
    case VKALGO_KEY_F32:
        return SPECIAL_F32[r % COUNT_OF(SPECIAL_F32)];
    case VKALGO_KEY_F64:
        return SPECIAL_F64[r % COUNT_OF(SPECIAL_F64)];
    case VKALGO_KEY_U32:
    case VKALGO_KEY_I32:
        return SPECIAL_INT32[r % COUNT_OF(SPECIAL_INT32)];
    default:
        return SPECIAL_INT64[r % COUNT_OF(SPECIAL_INT64)];
    }
}

/* A mix that exercises every digit and stability: random words, low-entropy words (AND of
 * three), a small pool of repeated values (many equal keys), near neighbours of the pool
 * (equal high digits), and the type's edge values. */
static void fill_keys(void *keys, const KeyInfo *k, size_t n) {
    const uint64_t width_mask = k->bits == 64 ? UINT64_MAX : 0xFFFFFFFFull;
    uint64_t pool[16];
    for (size_t i = 0; i < COUNT_OF(pool); i++) {
        pool[i] = rng_u64() & width_mask;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        switch (rng_u64() % 8) {
        case 0:
        case 1:
        case 2:
            v = rng_u64();
            break;
        case 3:
            v = rng_u64() & rng_u64() & rng_u64();
            break;
        case 4:
        case 5:
            v = pool[rng_u64() % COUNT_OF(pool)];
            break;
        case 6:
            v = pool[rng_u64() % COUNT_OF(pool)] ^ (rng_u64() & 0xFF);
            break;
        default:
            v = special_key(k->type);
            break;
        }
        key_set(keys, k->bits, i, v & width_mask);
    }
}

/* Unique values (the low 32 bits are the index): comparing them checks the permutation and,
 * for equal keys, stability. The high bits of u64 values are random so that both halves move. */
static void fill_values(void *values, VkalgoValueType value_type, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (value_type == VKALGO_VALUE_U32) {
            ((uint32_t *)values)[i] = (uint32_t)i ^ 0x5A000000u;
        } else if (value_type == VKALGO_VALUE_U64) {
            ((uint64_t *)values)[i] = (rng_u64() << 32) | (uint32_t)i;
        }
    }
}

/* The order-preserving transform: comparing the results as unsigned integers orders the keys
 * (floats in IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN).
 * Unsigned: as is. Signed: the sign bit flipped. Floats: negative (sign bit set) -> all bits
 * flipped; positive -> the sign bit set. */
static uint64_t ordered_bits(VkalgoKeyType type, uint64_t raw) {
    switch (type) {
    case VKALGO_KEY_I32:
        return raw ^ 0x80000000ull;
    case VKALGO_KEY_I64:
        return raw ^ 0x8000000000000000ull;
    case VKALGO_KEY_F32:
        return (raw & 0x80000000ull) ? (~raw & 0xFFFFFFFFull) : (raw | 0x80000000ull);
    case VKALGO_KEY_F64:
        return (raw & 0x8000000000000000ull) ? ~raw : (raw | 0x8000000000000000ull);
    default:
        return raw;
    }
}

/* What the sort orders by: the transformed key (complemented within the key's width when
 * descending), bits [begin, end) of it; end 0 means the full width. */
static uint64_t rank_of(const KeyInfo *k, uint64_t raw, uint32_t begin, uint32_t end, bool descending) {
    const uint64_t width_mask = k->bits == 64 ? UINT64_MAX : 0xFFFFFFFFull;
    uint64_t t = ordered_bits(k->type, raw);
    if (descending) {
        t = ~t & width_mask;
    }
    const unsigned span = (end ? end : k->bits) - begin;
    return (t >> begin) & (span >= 64 ? UINT64_MAX : (UINT64_C(1) << span) - 1);
}

/* Stable bottom-up merge sort of the indices 0..n-1 by rank (the right element goes first only
 * when strictly smaller). */
static void stable_order(const uint64_t *rank, uint32_t *order, size_t n) {
    uint32_t *tmp = xmalloc(n * sizeof *tmp);
    uint32_t *src = order, *dst = tmp;
    for (size_t i = 0; i < n; i++) {
        order[i] = (uint32_t)i;
    }
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                dst[o++] = rank[src[j]] < rank[src[i]] ? src[j++] : src[i++];
            }
            while (i < mid) {
                dst[o++] = src[i++];
            }
            while (j < hi) {
                dst[o++] = src[j++];
            }
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != order) {
        memcpy(order, src, n * sizeof *order);
    }
    free(tmp);
}

/* ------------------------------------------------------------------------------------------ */
/* 2. Host sorts compared with the reference                                                  */

static double g_gpu_seconds;

/* Sorts n keys (and values) of the given types; compares keys and values bit for bit with the
 * reference, and checks that the element after the n sorted ones is untouched. */
static void sort_case(VkalgoContext *ctx, const KeyInfo *k, VkalgoValueType value_type, size_t n, uint32_t begin,
                      uint32_t end, uint32_t descending) {
    const size_t kb = k->bits / 8, vb = value_bytes(value_type);
    unsigned char *keys = xmalloc((n + 1) * kb), *want_keys = xmalloc((n + 1) * kb);
    unsigned char *values = vb ? xmalloc((n + 1) * vb) : NULL;
    unsigned char *want_values = vb ? xmalloc((n + 1) * vb) : NULL;
    uint64_t *rank = xmalloc(n * sizeof *rank);
    uint32_t *order = xmalloc(n * sizeof *order);

    fill_keys(keys, k, n + 1); /* element n is a sentinel */
    if (vb) {
        fill_values(values, value_type, n + 1);
    }
    for (size_t i = 0; i < n; i++) {
        rank[i] = rank_of(k, key_get(keys, k->bits, i), begin, end, descending != 0);
    }
    stable_order(rank, order, n);
    for (size_t i = 0; i < n; i++) {
        memcpy(want_keys + i * kb, keys + (size_t)order[i] * kb, kb);
        if (vb) {
            memcpy(want_values + i * vb, values + (size_t)order[i] * vb, vb);
        }
    }
    memcpy(want_keys + n * kb, keys + n * kb, kb);
    if (vb) {
        memcpy(want_values + n * vb, values + n * vb, vb);
    }

    char what[200];
    snprintf(what, sizeof what, "sort_host %s keys, values %s, n=%zu, bits [%" PRIu32 ",%" PRIu32 ")%s", k->name,
             value_name(value_type), n, begin, end ? end : (uint32_t)k->bits, descending ? ", descending" : "");
    VkalgoSortDesc desc = {0};
    desc.key_type = k->type;
    desc.value_type = value_type;
    desc.begin_bit = begin;
    desc.end_bit = end;
    desc.descending = descending;
    double t0 = now_s();
    VkalgoResult r = vkalgo_sort_host(ctx, &desc, keys, values, n);
    g_gpu_seconds += now_s() - t0;
    if (expect(r, VKALGO_SUCCESS, what)) {
        size_t bad_key = SIZE_MAX, bad_value = SIZE_MAX;
        for (size_t i = 0; i <= n && bad_key == SIZE_MAX; i++) {
            if (memcmp(keys + i * kb, want_keys + i * kb, kb) != 0) {
                bad_key = i;
            }
        }
        for (size_t i = 0; vb && i <= n && bad_value == SIZE_MAX; i++) {
            if (memcmp(values + i * vb, want_values + i * vb, vb) != 0) {
                bad_value = i;
            }
        }
        if (bad_key != SIZE_MAX) {
            check(false, "  keys: first difference at %zu%s: got 0x%" PRIx64 ", want 0x%" PRIx64, bad_key,
                  bad_key == n ? " (the element after the sorted range)" : "", key_get(keys, k->bits, bad_key),
                  key_get(want_keys, k->bits, bad_key));
        } else if (bad_value != SIZE_MAX) {
            uint64_t got = vb == 4 ? ((uint32_t *)values)[bad_value] : ((uint64_t *)values)[bad_value];
            uint64_t want = vb == 4 ? ((uint32_t *)want_values)[bad_value] : ((uint64_t *)want_values)[bad_value];
            check(false, "  values: first difference at %zu%s: got 0x%" PRIx64 ", want 0x%" PRIx64 " (keys equal)",
                  bad_value, bad_value == n ? " (the element after the sorted range)" : "", got, want);
        } else {
            check(true, "  keys%s match the stable reference exactly", vb ? " and values" : "");
        }
    }
    free(keys);
    free(want_keys);
    free(values);
    free(want_values);
    free(rank);
    free(order);
}

static void test_all_types(VkalgoContext *ctx) {
    printf("== every key type, both directions, every value type\n");
    static const size_t counts[] = {0, 1, 1000, 100003};
    static const VkalgoValueType value_types[] = {VKALGO_VALUE_NONE, VKALGO_VALUE_U32, VKALGO_VALUE_U64};
    for (size_t t = 0; t < KEY_TYPE_COUNT; t++) {
        for (uint32_t descending = 0; descending <= 1; descending++) {
            for (size_t v = 0; v < COUNT_OF(value_types); v++) {
                for (size_t c = 0; c < COUNT_OF(counts); c++) {
                    sort_case(ctx, &KEY_TYPES[t], value_types[v], counts[c], 0, 0, descending);
                }
            }
        }
    }
}

/* Bit ranges: only [begin, end) of the transformed key orders the elements; keys differing
 * elsewhere are "equal", so even keys-only sorts show whether their input order was kept. */
static void test_bit_ranges(VkalgoContext *ctx) {
    printf("== bit ranges\n");
    typedef struct Range {
        uint32_t begin, end;
    } Range;
    static const Range r32[] = {{0, 8}, {4, 20}, {24, 32}, {31, 32}, {0, 32}};
    static const Range r64[] = {{0, 8}, {4, 20}, {20, 52}, {56, 64}, {0, 64}};
    for (size_t t = 0; t < KEY_TYPE_COUNT; t++) {
        const KeyInfo *k = &KEY_TYPES[t];
        const Range *ranges = k->bits == 32 ? r32 : r64;
        for (size_t r = 0; r < COUNT_OF(r32); r++) {
            for (uint32_t descending = 0; descending <= 1; descending++) {
                sort_case(ctx, k, VKALGO_VALUE_U32, 1000, ranges[r].begin, ranges[r].end, descending);
            }
        }
        sort_case(ctx, k, VKALGO_VALUE_NONE, 100003, 4, 20, 0);
        sort_case(ctx, k, VKALGO_VALUE_U64, 100003, 0, 8, 1);
    }
}

/* Counts around the plan's tile size (the edge cases of the tiled passes) and across the
 * single-workgroup path's limit, on a plan of the default context. */
static void test_tile_edges(VkalgoContext *ctx) {
    printf("== counts around the tile size\n");
    VkalgoSortDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.path = VKALGO_SORT_PATH_AUTO;
    desc.max_count = 1u << 20;
    VkalgoSortPlan *plan = NULL;
    if (!expect(vkalgo_sort_plan_create(ctx, &desc, &plan), VKALGO_SUCCESS,
                "vkalgo_sort_plan_create (u32 pairs, max_count 2^20)")) {
        return;
    }
    const uint64_t tile = vkalgo_sort_plan_tile_size(plan);
    vkalgo_sort_plan_destroy(plan);
    if (!check(tile > 0 && tile <= 65536, "tile size %" PRIu64, tile)) {
        return;
    }
    const uint64_t sizes[] = {tile - 1, tile, tile + 1, 4 * tile, 4 * tile + 1, 7 * tile + 3};
    for (size_t i = 0; i < COUNT_OF(sizes); i++) {
        sort_case(ctx, &KEY_TYPES[0], VKALGO_VALUE_U32, (size_t)sizes[i], 0, 0, 0);
        sort_case(ctx, &KEY_TYPES[5], VKALGO_VALUE_U64, (size_t)sizes[i], 0, 0, 1);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* 3. Bad input                                                                                */

enum { BAD_N = 1000 };

typedef struct BadInput {
    uint64_t keys[BAD_N], values[BAD_N]; /* room for 8-byte keys and values */
    uint64_t keys_before[BAD_N], values_before[BAD_N];
} BadInput;

static void bad_case(VkalgoContext *ctx, BadInput *b, const VkalgoSortDesc *desc, void *keys, void *values,
                     size_t n, const char *label) {
    char what[200];
    snprintf(what, sizeof what, "sort_host with %s", label);
    expect(vkalgo_sort_host(ctx, desc, keys, values, n), VKALGO_ERROR_INVALID_ARGUMENT, what);
    check(memcmp(b->keys, b->keys_before, sizeof b->keys) == 0 &&
              memcmp(b->values, b->values_before, sizeof b->values) == 0,
          "  keys and values unchanged");
}

static void test_bad_input(VkalgoContext *ctx) {
    printf("== bad input\n");
    static BadInput b;
    for (size_t i = 0; i < BAD_N; i++) {
        b.keys[i] = b.keys_before[i] = rng_u64();
        b.values[i] = b.values_before[i] = rng_u64();
    }
    VkalgoSortDesc good = {0};
    good.key_type = VKALGO_KEY_U32;
    good.value_type = VKALGO_VALUE_U32;
    VkalgoSortDesc d;
    static int extension; /* what a `next` would point to: no extension is defined yet */

    bad_case(NULL, &b, &good, b.keys, b.values, BAD_N, "NULL ctx");
    expect(vkalgo_sort_host(NULL, &good, b.keys, b.values, 0), VKALGO_ERROR_INVALID_ARGUMENT,
           "sort_host with NULL ctx, count 0");
    bad_case(ctx, &b, NULL, b.keys, b.values, BAD_N, "NULL desc");
    d = good, d.next = &extension;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "next != NULL in VkalgoSortDesc");
    bad_case(ctx, &b, &d, b.keys, b.values, 0, "next != NULL in VkalgoSortDesc, count 0");
    d = good, d.key_type = 6;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "key_type 6");
    bad_case(ctx, &b, &d, b.keys, b.values, 0, "key_type 6, count 0");
    d = good, d.key_type = UINT32_MAX;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "key_type 0xFFFFFFFF");
    d = good, d.value_type = 3;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "value_type 3");
    d = good, d.begin_bit = 8, d.end_bit = 8;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "begin_bit 8 == end_bit 8");
    d = good, d.begin_bit = 20, d.end_bit = 4;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "begin_bit 20 > end_bit 4");
    bad_case(ctx, &b, &d, b.keys, b.values, 0, "begin_bit 20 > end_bit 4, count 0");
    d = good, d.begin_bit = 32, d.end_bit = 0;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "u32 keys, begin_bit 32 (end_bit 0: full width)");
    d = good, d.end_bit = 33;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "u32 keys, end_bit 33");
    bad_case(ctx, &b, &d, b.keys, b.values, 0, "u32 keys, end_bit 33, count 0");
    d = good, d.key_type = VKALGO_KEY_F64, d.end_bit = 65;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "f64 keys, end_bit 65");
    d = good, d.key_type = VKALGO_KEY_I64, d.begin_bit = 64, d.end_bit = 64;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "i64 keys, begin_bit 64, end_bit 64");
    d = good, d.descending = 2;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "descending 2");
    d = good, d.path = 4; /* host calls take the path too */
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "path 4");
    bad_case(ctx, &b, &good, NULL, b.values, BAD_N, "NULL keys, count > 0");
    bad_case(ctx, &b, &good, b.keys, NULL, BAD_N, "NULL values with VKALGO_VALUE_U32, count > 0");
    d = good, d.value_type = VKALGO_VALUE_U64;
    bad_case(ctx, &b, &d, b.keys, NULL, BAD_N, "NULL values with VKALGO_VALUE_U64, count > 0");
    d = good, d.value_type = VKALGO_VALUE_NONE;
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "values given with VKALGO_VALUE_NONE");
    bad_case(ctx, &b, &d, b.keys, b.values, 0, "values given with VKALGO_VALUE_NONE, count 0");

    /* Count 0 needs no arrays. */
    expect(vkalgo_sort_host(ctx, &good, NULL, NULL, 0), VKALGO_SUCCESS, "sort_host count 0 with NULL keys and values");
    d = good, d.value_type = VKALGO_VALUE_NONE;
    expect(vkalgo_sort_host(ctx, &d, NULL, NULL, 0), VKALGO_SUCCESS, "sort_host count 0, keys only, NULL keys");

    /* The context is still usable: a good sort (the message is cleared by the success). */
    printf("-- after the errors\n");
    bad_case(ctx, &b, &d, b.keys, b.values, BAD_N, "values given with VKALGO_VALUE_NONE (again)");
    sort_case(ctx, &KEY_TYPES[0], VKALGO_VALUE_U32, 100003, 0, 0, 0);
    sort_case(ctx, &KEY_TYPES[2], VKALGO_VALUE_NONE, 1000, 0, 0, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* 4. Plan calls                                                                               */

static void test_plans(VkalgoContext *ctx) {
    printf("== sort plans on the default context\n");
    vkalgo_sort_plan_destroy(NULL);
    check(vkalgo_sort_plan_tile_size(NULL) == 0, "vkalgo_sort_plan_destroy(NULL) is a no-op; tile_size(NULL) = 0");
    check(vkalgo_sort_plan_pass_count(NULL) == 0 && vkalgo_sort_plan_result_in_alternate(NULL) == 0,
          "pass_count(NULL) = 0, result_in_alternate(NULL) = 0");
    VkalgoMemoryRequirements req = {0};
    expect(vkalgo_sort_plan_memory_requirements(NULL, &req), VKALGO_ERROR_INVALID_ARGUMENT,
           "vkalgo_sort_plan_memory_requirements(NULL plan)");

    const uint64_t max_count = 1000003;
    static const VkalgoSortDesc descs[] = {
        {.key_type = VKALGO_KEY_U32, .value_type = VKALGO_VALUE_U32, .end_bit = 30, .max_count = 1000003},
        {.key_type = VKALGO_KEY_F64, .value_type = VKALGO_VALUE_U64, .descending = 1, .max_count = 1000003},
        {.key_type = VKALGO_KEY_I32, .value_type = VKALGO_VALUE_NONE, .begin_bit = 4, .end_bit = 20, .max_count = 1000003},
    };
    for (size_t i = 0; i < COUNT_OF(descs); i++) {
        const VkalgoSortDesc *d = &descs[i];
        VkalgoSortPlan *plan = NULL;
        char what[160];
        snprintf(what, sizeof what,
                 "vkalgo_sort_plan_create key %" PRIu32 " value %" PRIu32 " begin_bit %" PRIu32 " end_bit %" PRIu32
                 " descending %" PRIu32,
                 (uint32_t)d->key_type, (uint32_t)d->value_type, d->begin_bit, d->end_bit, d->descending);
        if (!expect(vkalgo_sort_plan_create(ctx, d, &plan), VKALGO_SUCCESS, what)) {
            continue;
        }
        const uint64_t kb = d->key_type >= VKALGO_KEY_U64 ? 8 : 4;
        const uint64_t vb = value_bytes(d->value_type);
        const VkBufferUsageFlags need = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
        memset(&req, 0, sizeof req);
        if (expect(vkalgo_sort_plan_memory_requirements(plan, &req), VKALGO_SUCCESS, "  memory requirements")) {
            /* The alternates share the scratch's alignment and usage; a sort needs no offsets or storage. */
            check(req.next == NULL && req.keys_alt.size >= max_count * kb && req.values_alt.size >= max_count * vb &&
                      (vb != 0 || req.values_alt.size == 0) && req.scratch.alignment > 0 &&
                      (req.scratch.alignment & (req.scratch.alignment - 1)) == 0 && (req.scratch.usage & need) == need &&
                      req.keys_alt.alignment > 0 && (req.keys_alt.usage & need) == need && req.offsets.size == 0 &&
                      req.storage.size == 0,
                  "  keys_alt %" PRIu64 ", values_alt %" PRIu64 ", scratch %" PRIu64 " bytes, alignment %" PRIu64
                  ", usage 0x%" PRIx32,
                  (uint64_t)req.keys_alt.size, (uint64_t)req.values_alt.size, (uint64_t)req.scratch.size,
                  (uint64_t)req.scratch.alignment, (uint32_t)req.scratch.usage);
        }
        const uint32_t passes = vkalgo_sort_plan_pass_count(plan);
        check(vkalgo_sort_plan_tile_size(plan) > 0 && passes > 0 &&
                  vkalgo_sort_plan_result_in_alternate(plan) == (passes % 2),
              "  tile size %" PRIu64 ", %" PRIu32 " passes, result in the alternates: %" PRIu32,
              vkalgo_sort_plan_tile_size(plan), passes, vkalgo_sort_plan_result_in_alternate(plan));
        expect(vkalgo_sort_plan_memory_requirements(plan, NULL), VKALGO_ERROR_INVALID_ARGUMENT,
               "  memory_requirements(plan, NULL)");
        /* An output struct with a `next` (no extension is defined yet): refused, nothing written. */
        static int extension;
        VkalgoMemoryRequirements ext = {0};
        ext.next = &extension;
        ext.scratch.size = 77;
        expect(vkalgo_sort_plan_memory_requirements(plan, &ext), VKALGO_ERROR_INVALID_ARGUMENT,
               "  memory_requirements into a struct with next != NULL");
        check(ext.next == &extension && ext.scratch.size == 77 && ext.keys_alt.size == 0, "  nothing written");
        vkalgo_sort_plan_destroy(plan);
    }

    static int marker;
    VkalgoSortPlan *const untouched = (VkalgoSortPlan *)(void *)&marker;
    VkalgoSortPlan *plan = untouched;
    VkalgoSortDesc good = descs[0];
    good.max_count = 1000;
    VkalgoSortDesc bad = good;
    bad.path = 4;
    expect(vkalgo_sort_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with path 4");
    expect(vkalgo_sort_plan_create(NULL, &good, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with NULL ctx");
    expect(vkalgo_sort_plan_create(ctx, NULL, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with NULL desc");
    expect(vkalgo_sort_plan_create(ctx, &good, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "plan with NULL out");
    bad = good, bad.next = &marker;
    expect(vkalgo_sort_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with next != NULL");
    bad = good, bad.key_type = 6;
    expect(vkalgo_sort_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with key_type 6");
    bad = good, bad.end_bit = 33;
    expect(vkalgo_sort_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with end_bit 33");
    bad = good, bad.max_count = (uint64_t)UINT32_MAX + 1;
    expect(vkalgo_sort_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with max_count 2^32");
    check(plan == untouched, "*out unchanged after every refused plan");
}

/* ------------------------------------------------------------------------------------------ */

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const double t0 = now_s();
    printf("== constants\n");
    check(VKALGO_KEY_U32 == 0 && VKALGO_KEY_I32 == 1 && VKALGO_KEY_F32 == 2 && VKALGO_KEY_U64 == 3 &&
              VKALGO_KEY_I64 == 4 && VKALGO_KEY_F64 == 5,
          "VKALGO_KEY_U32..VKALGO_KEY_F64 = 0..5");
    check(VKALGO_VALUE_NONE == 0 && VKALGO_VALUE_U32 == 1 && VKALGO_VALUE_U64 == 2, "VKALGO_VALUE_NONE/U32/U64 = 0/1/2");

    VkalgoContext *ctx = NULL;
    if (!expect(vkalgo_context_create_default(&ctx), VKALGO_SUCCESS, "vkalgo_context_create_default") || !ctx) {
        printf("== %u checks, %u failures\n", g_checks, g_failures);
        return 1;
    }
    printf("  info  device \"%s\", look-back %s\n", vkalgo_context_device_name(ctx),
           vkalgo_context_lookback_enabled(ctx) ? "on" : "off");

    test_all_types(ctx);
    test_bit_ranges(ctx);
    test_tile_edges(ctx);
    test_bad_input(ctx);
    test_plans(ctx);

    const uint64_t messages = vkalgo_context_validation_message_count(ctx);
    const char *validation = getenv("VKALGO_VALIDATION");
    check(messages == 0, "validation messages of the default context: %" PRIu64 " (VKALGO_VALIDATION=%s)", messages,
          validation ? validation : "unset");
    vkalgo_context_destroy(ctx);
    printf("== %u checks, %u failures, %.1f s (%.1f s in vkalgo_sort_host)\n", g_checks, g_failures, now_s() - t0,
           g_gpu_seconds);
    return g_failures == 0 ? 0 : 1;
}
