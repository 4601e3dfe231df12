/* C11 tests of vkalgo's multisplit through the C ABI (include/vkalgo.h), against the installed
 * package: the constants and the desc layout the issue fixes; vkalgo_multisplit_host on the
 * default context with every bucket function (IDS with u32 values, BITS on i64 keys with u64
 * values, SPLITTERS on f32 keys, GLSL with parameters), compared exactly (keys, values,
 * offsets) with a stable CPU counting sort; bad input (INVALID_ARGUMENT / COMPILE with a
 * message, the arrays unchanged); a plan's memory requirements. VKALGO_VALIDATION=1 in the test
 * environment requires zero validation messages. Exits 1 on any failure. */
#define TEST_RNG_SEED 0x5b11750b11751234ull
#include "check.h"
#include <vkalgo.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(VKALGO_BUCKET_BITS == 0 && VKALGO_BUCKET_SPLITTERS == 1 && VKALGO_BUCKET_IDS == 2 &&
                   VKALGO_BUCKET_GLSL == 3,
               "bucket function constants");
_Static_assert(VKALGO_MULTISPLIT_PATH_AUTO == 0 && VKALGO_MULTISPLIT_PATH_GLOBAL_COUNTERS == 2 &&
                   VKALGO_MULTISPLIT_PATH_SMALL == 3 && VKALGO_MULTISPLIT_PATH_ONESWEEP == 7,
               "multisplit path constants");
_Static_assert(sizeof(VkalgoBucketFn) == 4 && sizeof(VkalgoMultisplitPath) == 4, "the enums are 32 bits wide");
_Static_assert(offsetof(VkalgoMultisplitDesc, next) == 0 && offsetof(VkalgoMultisplitDesc, key_type) == sizeof(void *) &&
                   offsetof(VkalgoMultisplitDesc, bucket_count) == sizeof(void *) + 8 &&
                   offsetof(VkalgoMultisplitDesc, bucket_fn) == sizeof(void *) + 12 &&
                   offsetof(VkalgoMultisplitDesc, bit_offset) == sizeof(void *) + 16,
               "VkalgoMultisplitDesc field offsets");

#define N 5003

/* Stable counting sort of 8-byte-or-smaller elements by bucket; offsets m + 1. */
static void cpu_split(const void *in, void *out, size_t elem, const uint32_t *bucket, size_t n, uint32_t m,
                      uint64_t *offsets) {
    uint64_t *next = xmalloc(sizeof(uint64_t) * (m + 1));
    memset(offsets, 0, sizeof(uint64_t) * (m + 1));
    for (size_t i = 0; i < n; ++i) {
        offsets[bucket[i] + 1]++;
    }
    for (uint32_t b = 0; b < m; ++b) {
        offsets[b + 1] += offsets[b];
    }
    memcpy(next, offsets, sizeof(uint64_t) * (m + 1));
    for (size_t i = 0; i < n; ++i) {
        memcpy((char *)out + elem * next[bucket[i]]++, (const char *)in + elem * i, elem);
    }
    free(next);
}

static VkalgoMultisplitDesc make_desc(VkalgoKeyType key_type, VkalgoValueType value_type, uint32_t m, VkalgoBucketFn fn) {
    VkalgoMultisplitDesc d = {0};
    d.key_type = key_type;
    d.value_type = value_type;
    d.bucket_count = m;
    d.bucket_fn = fn;
    return d;
}

/* Runs one split of keys (key_size bytes each) with values and compares with the CPU. */
static void run_case(VkalgoContext *ctx, const char *what, VkalgoMultisplitDesc d, size_t key_size, size_t value_size,
                     const void *keys, const void *values, const uint32_t *bucket) {
    uint32_t m = d.bucket_count;
    void *got_keys = xmalloc(key_size * N), *got_values = xmalloc(value_size * N);
    void *want_keys = xmalloc(key_size * N), *want_values = xmalloc(value_size * N);
    uint64_t *got_offsets = xmalloc(sizeof(uint64_t) * (m + 1));
    uint64_t *want_offsets = xmalloc(sizeof(uint64_t) * (m + 1));
    memcpy(got_keys, keys, key_size * N);
    memcpy(got_values, values, value_size * N);
    cpu_split(keys, want_keys, key_size, bucket, N, m, want_offsets);
    cpu_split(values, want_values, value_size, bucket, N, m, want_offsets);
    VkalgoResult r = vkalgo_multisplit_host(ctx, &d, got_keys, got_values, N, got_offsets);
    if (expect(r, VKALGO_SUCCESS, what)) {
        check(memcmp(got_keys, want_keys, key_size * N) == 0, "%s: keys", what);
        check(memcmp(got_values, want_values, value_size * N) == 0, "%s: values (stability)", what);
        check(memcmp(got_offsets, want_offsets, sizeof(uint64_t) * (m + 1)) == 0, "%s: offsets", what);
    }
    free(got_keys);
    free(got_values);
    free(want_keys);
    free(want_values);
    free(got_offsets);
    free(want_offsets);
}

static uint32_t f32_ordered(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

int main(void) {
    VkalgoContext *ctx = NULL;
    if (!expect(vkalgo_context_create_default(&ctx), VKALGO_SUCCESS, "default context")) {
        return 1;
    }
    printf("device: %s\n", vkalgo_context_device_name(ctx));
    static uint32_t k32[N], v32[N], ids[N], bucket[N];
    static int64_t k64[N];
    static uint64_t v64[N];
    static float f32[N];
    for (size_t i = 0; i < N; ++i) {
        uint64_t x = rng_u64();
        k32[i] = (uint32_t)x;
        v32[i] = (uint32_t)i;
        v64[i] = ((uint64_t)i << 33) | 5u;
        k64[i] = (int64_t)x;
        uint32_t fb = (uint32_t)(x >> 32);
        memcpy(&f32[i], &fb, 4);
    }

    /* IDS, 33 buckets, u32 keys with u32 values. */
    VkalgoMultisplitDesc d = make_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 33, VKALGO_BUCKET_IDS);
    for (size_t i = 0; i < N; ++i) {
        ids[i] = (uint32_t)(rng_u64() % 33);
    }
    d.bucket_ids = ids;
    run_case(ctx, "IDS m=33 u32 -> u32", d, 4, 4, k32, v32, ids);

    /* BITS on i64 keys (ordered bits: sign flipped), 256 buckets from bit 56, u64 values. */
    d = make_desc(VKALGO_KEY_I64, VKALGO_VALUE_U64, 256, VKALGO_BUCKET_BITS);
    d.bit_offset = 56;
    for (size_t i = 0; i < N; ++i) {
        bucket[i] = (uint32_t)(((uint64_t)k64[i] ^ 0x8000000000000000ull) >> 56);
    }
    run_case(ctx, "BITS m=256 i64 -> u64", d, 8, 8, k64, v64, bucket);

    /* SPLITTERS on f32 keys (totalOrder), with a repeated splitter, u32 values. */
    static const float splitters[4] = {-1.0f, 0.0f, 0.0f, 1e10f};
    d = make_desc(VKALGO_KEY_F32, VKALGO_VALUE_U32, 5, VKALGO_BUCKET_SPLITTERS);
    d.splitters = splitters;
    for (size_t i = 0; i < N; ++i) {
        uint32_t b = 0;
        while (b < 4 && f32_ordered(splitters[b]) <= f32_ordered(f32[i])) {
            ++b;
        }
        bucket[i] = b;
    }
    run_case(ctx, "SPLITTERS m=5 f32 -> u32", d, 4, 4, f32, v32, bucket);

    /* GLSL with a parameter: (k * params.x) >> 32. */
    d = make_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 8, VKALGO_BUCKET_GLSL);
    d.glsl = "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";
    d.params[0] = 8;
    for (size_t i = 0; i < N; ++i) {
        bucket[i] = (uint32_t)(((uint64_t)k32[i] * 8u) >> 32);
    }
    run_case(ctx, "GLSL m=8 u32 -> u32", d, 4, 4, k32, v32, bucket);

    /* Bad input: an error with a message, nothing changed. */
    uint32_t keys[3] = {3, 2, 1}, values[3] = {1, 2, 3};
    uint64_t offsets[4] = {77, 77, 77, 77};
    static const uint32_t bad_ids[3] = {0, 3, 1};
    d = make_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 0, VKALGO_BUCKET_IDS);
    d.bucket_ids = bad_ids;
    expect(vkalgo_multisplit_host(ctx, &d, keys, values, 3, offsets), VKALGO_ERROR_INVALID_ARGUMENT, "m = 0");
    d.bucket_count = 3;
    expect(vkalgo_multisplit_host(ctx, &d, keys, values, 3, offsets), VKALGO_ERROR_INVALID_ARGUMENT, "an id >= m");
    expect(vkalgo_multisplit_host(ctx, &d, NULL, values, 3, offsets), VKALGO_ERROR_INVALID_ARGUMENT, "NULL keys");
    d = make_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 3, VKALGO_BUCKET_GLSL);
    d.glsl = "uint vkalgo_bucket(uint k) { return not_declared; }";
    VkalgoResult r = vkalgo_multisplit_host(ctx, &d, keys, values, 3, offsets);
    expect(r, VKALGO_ERROR_COMPILE, "GLSL that does not compile");
    check(strstr(vkalgo_last_error_message(), "not_declared") != NULL, "the compile message names the error");
    d.glsl = "uint vkalgo_bucket(uint k) { return vkalgo_params.y; }";
    d.params[1] = 3;
    expect(vkalgo_multisplit_host(ctx, &d, keys, values, 3, offsets), VKALGO_ERROR_INVALID_ARGUMENT,
           "GLSL bucket >= m");
    expect(vkalgo_multisplit_host(ctx, NULL, keys, values, 3, offsets), VKALGO_ERROR_INVALID_ARGUMENT, "NULL desc");
    static int extension; /* a `next` to refuse: no extension structure is defined yet */
    d = make_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 4, VKALGO_BUCKET_BITS);
    d.next = &extension;
    expect(vkalgo_multisplit_host(ctx, &d, keys, values, 3, offsets), VKALGO_ERROR_INVALID_ARGUMENT, "desc next != NULL");
    check(keys[0] == 3 && keys[1] == 2 && keys[2] == 1 && values[0] == 1 && values[1] == 2 && values[2] == 3 &&
              offsets[0] == 77 && offsets[3] == 77,
          "data unchanged after the errors");

    /* A plan and its memory requirements. */
    VkalgoMultisplitPlan *plan = NULL;
    d = make_desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, 256, VKALGO_BUCKET_BITS);
    d.max_count = 1u << 20;
    d.path = VKALGO_MULTISPLIT_PATH_AUTO;
    VkalgoMultisplitDesc bad = d;
    bad.next = &extension;
    expect(vkalgo_multisplit_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with desc next != NULL");
    bad = d;
    bad.path = 4; /* between the defined paths */
    expect(vkalgo_multisplit_plan_create(ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "plan with unknown path 4");
    check(plan == NULL, "no plan made");
    if (expect(vkalgo_multisplit_plan_create(ctx, &d, &plan), VKALGO_SUCCESS, "plan")) {
        VkalgoMemoryRequirements req = {0};
        expect(vkalgo_multisplit_plan_memory_requirements(plan, &req), VKALGO_SUCCESS, "memory requirements");
        check(req.offsets.size == 257 * 4 && req.scratch.size > 0 && req.scratch.alignment > 0 && req.scratch.usage != 0 &&
                  req.offsets.alignment > 0 && req.offsets.usage != 0,
              "requirements: offsets %llu scratch %llu", (unsigned long long)req.offsets.size,
              (unsigned long long)req.scratch.size);
        VkalgoMemoryRequirements ext = {0};
        ext.next = &extension;
        expect(vkalgo_multisplit_plan_memory_requirements(plan, &ext), VKALGO_ERROR_INVALID_ARGUMENT,
               "memory requirements into a struct with next != NULL");
        check(ext.next == (void *)&extension && ext.offsets.size == 0 && ext.scratch.size == 0, "nothing written");
        vkalgo_multisplit_plan_destroy(plan);
    }
    vkalgo_multisplit_plan_destroy(NULL);

    check(vkalgo_context_validation_message_count(ctx) == 0, "no validation messages");
    vkalgo_context_destroy(ctx);
    printf("%u checks, %u failures\n", g_checks, g_failures);
    return g_failures ? 1 : 0;
}
