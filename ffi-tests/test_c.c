/* C11 tests of vkalgo's C ABI (include/vkalgo.h), against the installed package.
 *
 * 1. Host calls on the default context (VKALGO_VALIDATION=1 in the test environment turns the
 *    Khronos validation layer on inside it; the test then requires zero messages).
 * 2. The record layer on a VkInstance/VkDevice this test creates itself (the external-device
 *    path): buffers at non-zero offsets, both scan paths, indirect counts, in-place scans,
 *    chained scans, exact comparison with a CPU scan, and argument errors (among them a `next`
 *    that is not NULL in a desc, an args struct or an output struct: refused, nothing written).
 *    The test's own instance enables VK_LAYER_KHRONOS_validation (with synchronization
 *    validation) when it is installed, unless VKALGO_TEST_NO_VALIDATION=1; every validation
 *    warning or error is a failure. (Synchronization validation cannot see accesses through
 *    buffer device addresses, which is how vkalgo's shaders reach every buffer: it checks the
 *    API usage and the scratch clear, not the hazards between shader passes.)
 *
 * Prints every check; exits 1 on any failure. */
#define TEST_RNG_SEED 0x5eed5eed12345678ull
#include "check.h" /* check(), expect(), rng_u64(), xmalloc(), now_s() */
#include <vkalgo.h>
#include <vulkan/vulkan.h>
#define VKALGO_TEST_APP_NAME "vkalgo test_c"
#include "vk_fixture.h" /* Gpu, Buffer, gpu_create(), barriers, align_up() */

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* Reporting                                                                                  */


/* ------------------------------------------------------------------------------------------ */
/* Data                                                                                       */

static uint32_t rng_u32(void) { return (uint32_t)(rng_u64() >> 32); }
static void fill_random(uint32_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        p[i] = rng_u32();
    }
}

/* Reference scan (wrapping u32 sums); in == out allowed. */
static void cpu_scan(const uint32_t *in, uint32_t *out, size_t n, bool inclusive) {
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = in[i];
        out[i] = inclusive ? sum + x : sum;
        sum += x;
    }
}

/* Index of the first difference, or SIZE_MAX. */
static size_t first_diff(const uint32_t *a, const uint32_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return i;
        }
    }
    return SIZE_MAX;
}

static bool check_equal(const uint32_t *got, const uint32_t *want, size_t n, const char *what) {
    size_t d = first_diff(got, want, n);
    if (d == SIZE_MAX) {
        return check(true, "%s", what);
    }
    return check(false, "%s: first difference at word %zu: got 0x%08" PRIx32 ", want 0x%08" PRIx32,
                 what, d, got[d], want[d]);
}

/* ------------------------------------------------------------------------------------------ */
/* 1. Host calls                                                                              */

static void test_static_calls(void) {
    printf("== static calls\n");
    uint32_t v = vkalgo_version();
    check(v == ((uint32_t)VKALGO_VERSION_MAJOR << 22 | (uint32_t)VKALGO_VERSION_MINOR << 12 |
                (uint32_t)VKALGO_VERSION_PATCH),
          "vkalgo_version() = %" PRIu32 ".%" PRIu32 ".%" PRIu32 " matches the header macros", v >> 22,
          (v >> 12) & 0x3ff, v & 0xfff);
    static const VkalgoResult codes[] = {
        VKALGO_SUCCESS,          VKALGO_ERROR_INVALID_ARGUMENT, VKALGO_ERROR_UNSUPPORTED,
        VKALGO_ERROR_OUT_OF_MEMORY, VKALGO_ERROR_DEVICE_LOST,   VKALGO_ERROR_TIMEOUT,
        VKALGO_ERROR_TABLE_FULL, VKALGO_ERROR_COMPILE,          VKALGO_ERROR_VULKAN,
        VKALGO_ERROR_INTERNAL,
    };
    const char *seen[sizeof codes / sizeof codes[0]];
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = vkalgo_result_string(codes[i]);
        bool distinct = true;
        for (size_t j = 0; j < i; j++) {
            distinct = distinct && s && seen[j] && strcmp(s, seen[j]) != 0;
        }
        seen[i] = s;
        check(s != NULL && s[0] != '\0' && distinct, "vkalgo_result_string(%d) = \"%s\" (non-empty, distinct)",
              (int)codes[i], s ? s : "(NULL)");
    }
    /* Codes outside -9..0 (any int32_t a caller may pass) answer "VKALGO_RESULT_UNKNOWN". */
    static const int32_t unknown_codes[] = {1, 5, 77, 100, -10, 12345, -12345, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < sizeof unknown_codes / sizeof unknown_codes[0]; i++) {
        const char *s = vkalgo_result_string(unknown_codes[i]);
        check(s != NULL && strcmp(s, "VKALGO_RESULT_UNKNOWN") == 0, "vkalgo_result_string(%" PRId32 ") = \"%.40s\"",
              unknown_codes[i], s ? s : "(NULL)");
    }
    vkalgo_context_destroy(NULL);
    vkalgo_scan_plan_destroy(NULL);
    check(true, "vkalgo_context_destroy(NULL) and vkalgo_scan_plan_destroy(NULL) are no-ops");
    const char *name = vkalgo_context_device_name(NULL);
    check(name != NULL && name[0] == '\0', "vkalgo_context_device_name(NULL) = \"\"");
    check(vkalgo_context_lookback_enabled(NULL) == 0, "vkalgo_context_lookback_enabled(NULL) = 0");
    check(vkalgo_context_validation_message_count(NULL) == 0, "vkalgo_context_validation_message_count(NULL) = 0");
    check(vkalgo_scan_plan_tile_size(NULL) == 0, "vkalgo_scan_plan_tile_size(NULL) = 0");
    expect(vkalgo_context_create_default(NULL), VKALGO_ERROR_INVALID_ARGUMENT, "vkalgo_context_create_default(NULL)");
    {
        /* A desc's `next` must be NULL (no extension structure is defined yet): refused before
         * any device is made, *out untouched. */
        static int extension;
        VkalgoContextDesc desc = {0};
        desc.next = &extension;
        VkalgoContext *const untouched = (VkalgoContext *)(void *)&extension;
        VkalgoContext *ctx = untouched;
        expect(vkalgo_context_create(&desc, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "vkalgo_context_create, next != NULL");
        expect(vkalgo_context_create(NULL, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "vkalgo_context_create(NULL desc)");
        check(ctx == untouched, "  *out unchanged");
    }
    const char *msg = vkalgo_last_error_message();
    check(msg != NULL, "vkalgo_last_error_message() is never NULL");
}

/* One vkalgo_scan_host call of `op` (the desc's path AUTO), checked against the CPU scan. */
static void host_scan_case(VkalgoContext *ctx, VkalgoScanOp op, size_t n, bool in_place, const char *label) {
    const bool inclusive = op == VKALGO_SCAN_INCLUSIVE;
    VkalgoScanDesc desc = {0};
    desc.op = op;
    uint32_t *in = xmalloc((n + 1) * sizeof *in);
    uint32_t *out = xmalloc((n + 1) * sizeof *out);
    uint32_t *want = xmalloc((n + 1) * sizeof *want);
    fill_random(in, n);
    cpu_scan(in, want, n, inclusive);
    char what[160];
    snprintf(what, sizeof what, "%s n=%zu%s", label, n, in_place ? " in place" : "");
    VkalgoResult r;
    if (in_place) {
        memcpy(out, in, n * sizeof *in);
        out[n] = 0xC0FFEEu;
        r = vkalgo_scan_host(ctx, &desc, out, out, n);
    } else {
        for (size_t i = 0; i <= n; i++) {
            out[i] = 0xDEADBEEFu;
        }
        r = vkalgo_scan_host(ctx, &desc, in, out, n);
    }
    want[n] = out[n]; /* the word after the output: must be untouched */
    if (expect(r, VKALGO_SUCCESS, what)) {
        check_equal(out, want, n + 1, what);
    }
    free(in);
    free(out);
    free(want);
}

/* The test's queue lock: vkalgo's host calls take it around vkQueueSubmit. */
static struct {
    int held;
    int taken;
} queue_lock_state;

static void test_queue_lock(void *user_data, uint32_t lock) {
    struct { int held; int taken; } *state = user_data;
    if (lock) {
        check(!state->held, "queue lock: taken while free");
        state->held = 1;
        state->taken++;
    } else {
        check(state->held, "queue lock: released while held");
        state->held = 0;
    }
}

/* Objects keep their context alive: the context handle destroyed first, then the map and the
 * plan still work, and the last of them frees the context. */
static void context_lifetime_case(void) {
    VkalgoContext *ctx = NULL;
    if (!expect(vkalgo_context_create_default(&ctx), VKALGO_SUCCESS, "lifetime: second default context")) {
        return;
    }
    VkalgoHashMapDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.capacity = 1000;
    VkalgoHashMap *map = NULL;
    VkalgoScanDesc scan_desc = {0};
    scan_desc.op = VKALGO_SCAN_EXCLUSIVE;
    scan_desc.path = VKALGO_SCAN_PATH_AUTO;
    scan_desc.max_count = 1000;
    VkalgoScanPlan *plan = NULL;
    bool made = expect(vkalgo_hash_map_create(ctx, &desc, &map), VKALGO_SUCCESS, "lifetime: map") &&
                expect(vkalgo_scan_plan_create(ctx, &scan_desc, &plan), VKALGO_SUCCESS, "lifetime: plan");
    vkalgo_context_destroy(ctx); /* the caller's handle only */
    if (made) {
        uint32_t keys[3] = {7, 8, 9}, values[3] = {70, 80, 90}, out[3] = {0, 0, 0};
        uint8_t found[3] = {0, 0, 0};
        uint64_t size = 0;
        expect(vkalgo_hash_map_insert_host(map, keys, values, 3), VKALGO_SUCCESS, "lifetime: insert after context destroy");
        expect(vkalgo_hash_map_find_host(map, keys, out, found, 3), VKALGO_SUCCESS, "lifetime: find after context destroy");
        expect(vkalgo_hash_map_size_host(map, &size), VKALGO_SUCCESS, "lifetime: size");
        check(out[0] == 70 && out[1] == 80 && out[2] == 90 && found[0] && found[1] && found[2] && size == 3,
              "  the map works without its context handle");
        VkalgoMemoryRequirements req = {0};
        expect(vkalgo_scan_plan_memory_requirements(plan, &req), VKALGO_SUCCESS, "lifetime: plan query after context destroy");
    }
    vkalgo_scan_plan_destroy(plan); /* in either order */
    vkalgo_hash_map_destroy(map);   /* the last handle frees the context */
}

static void test_host(void) {
    printf("== host calls on the default context\n");
    VkalgoContext *ctx = NULL;
    double t0 = now_s();
    VkalgoResult r = vkalgo_context_create_default(&ctx);
    if (!expect(r, VKALGO_SUCCESS, "vkalgo_context_create_default") || !ctx) {
        return;
    }
    const char *name = vkalgo_context_device_name(ctx);
    check(name != NULL && name[0] != '\0', "device name \"%s\" (%.2f s to create)", name ? name : "(NULL)", now_s() - t0);
    printf("  info  look-back by default: %" PRIu32 "\n", vkalgo_context_lookback_enabled(ctx));

    static const size_t counts[] = {0, 1, 4095, 4096, 4097, 100003, (size_t)1 << 20};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        host_scan_case(ctx, VKALGO_SCAN_EXCLUSIVE, counts[i], false, "scan_host exclusive");
        host_scan_case(ctx, VKALGO_SCAN_INCLUSIVE, counts[i], false, "scan_host inclusive");
    }
    host_scan_case(ctx, VKALGO_SCAN_EXCLUSIVE, 100003, true, "scan_host exclusive");
    host_scan_case(ctx, VKALGO_SCAN_INCLUSIVE, 4097, true, "scan_host inclusive");
    VkalgoScanDesc exclusive = {0};
    exclusive.op = VKALGO_SCAN_EXCLUSIVE;
    VkalgoScanDesc inclusive = {0};
    inclusive.op = VKALGO_SCAN_INCLUSIVE;
    expect(vkalgo_scan_host(ctx, &exclusive, NULL, NULL, 0), VKALGO_SUCCESS, "scan_host(ctx, exclusive, NULL, NULL, 0)");
    {
        /* Host calls take the desc's path (its max_count and flags are ignored). */
        uint32_t data[5000], want[5000];
        fill_random(data, 5000);
        cpu_scan(data, want, 5000, true);
        VkalgoScanDesc d = inclusive;
        d.path = VKALGO_SCAN_PATH_REDUCE_THEN_SCAN;
        d.max_count = 1;
        d.flags = VKALGO_SCAN_FLAG_KEEP_SCRATCH_ZEROED;
        if (expect(vkalgo_scan_host(ctx, &d, data, data, 5000), VKALGO_SUCCESS,
                   "scan_host inclusive, path REDUCE_THEN_SCAN, max_count 1 (ignored), in place")) {
            check_equal(data, want, 5000, "  scanned");
        }
    }

    {
        /* Typed scans: key_type and combine pick the elements and the operation. */
        double depth[4] = {2.5, 0.5, 1.5, -0.0};
        VkalgoScanDesc d = inclusive;
        d.key_type = VKALGO_KEY_F64;
        d.combine = VKALGO_OP_MIN;
        if (expect(vkalgo_scan_host(ctx, &d, depth, depth, 4), VKALGO_SUCCESS, "scan_host f64 MIN inclusive")) {
            uint64_t bits[4];
            memcpy(bits, depth, sizeof bits);
            check(depth[0] == 2.5 && depth[1] == 0.5 && depth[2] == 0.5 && bits[3] == 0x8000000000000000ull,
                  "  running minimum {2.5, 0.5, 0.5, -0.0}");
        }
        int32_t ints[3] = {4, -9, 7}, maxima[3] = {0, 0, 0};
        d = exclusive;
        d.key_type = VKALGO_KEY_I32;
        d.combine = VKALGO_OP_MAX;
        if (expect(vkalgo_scan_host(ctx, &d, ints, maxima, 3), VKALGO_SUCCESS, "scan_host i32 MAX exclusive")) {
            check(maxima[0] == INT32_MIN && maxima[1] == 4 && maxima[2] == 4, "  exclusive maximum {INT32_MIN, 4, 4}");
        }
        d.combine = 3; /* unknown operation: refused, nothing written */
        expect(vkalgo_scan_host(ctx, &d, ints, maxima, 3), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host combine 3");
        check(maxima[0] == INT32_MIN && maxima[1] == 4 && maxima[2] == 4, "  output untouched");
        d.combine = VKALGO_OP_MAX;
        d.key_type = 6; /* unknown key type */
        expect(vkalgo_scan_host(ctx, &d, ints, maxima, 3), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host key_type 6");
    }

    context_lifetime_case();

    /* Bad input: INVALID_ARGUMENT, a message, and the output untouched. */
    enum { N = 1000 };
    uint32_t in[N], out[N], before[N];
    fill_random(in, N);
    for (size_t i = 0; i < N; i++) {
        out[i] = before[i] = 0x5A5A0000u + (uint32_t)i;
    }
    expect(vkalgo_scan_host(NULL, &exclusive, in, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host(NULL ctx)");
    check_equal(out, before, N, "  output untouched after the NULL-ctx call");
    expect(vkalgo_scan_host(NULL, &inclusive, in, out, 0), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host(NULL ctx, count 0)");
    expect(vkalgo_scan_host(ctx, &exclusive, NULL, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host exclusive(NULL input)");
    check_equal(out, before, N, "  output untouched after the NULL-input call");
    expect(vkalgo_scan_host(ctx, &inclusive, NULL, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host inclusive(NULL input)");
    check_equal(out, before, N, "  output untouched after the NULL-input call");
    expect(vkalgo_scan_host(ctx, &exclusive, in, NULL, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host exclusive(NULL output)");
    expect(vkalgo_scan_host(ctx, &inclusive, in, NULL, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host inclusive(NULL output)");
    expect(vkalgo_scan_host(ctx, NULL, in, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host(NULL desc)");
    check_equal(out, before, N, "  output untouched after the NULL-desc call");
    {
        /* The desc is checked as a plan's is: an extension, an unknown op or path is refused. */
        static int extension;
        VkalgoScanDesc bad = inclusive;
        bad.next = &extension;
        expect(vkalgo_scan_host(ctx, &bad, in, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host, desc next != NULL");
        check_equal(out, before, N, "  output untouched");
        expect(vkalgo_scan_host(ctx, &bad, in, out, 0), VKALGO_ERROR_INVALID_ARGUMENT,
               "scan_host, desc next != NULL, count 0");
        bad = inclusive;
        bad.op = 7;
        expect(vkalgo_scan_host(ctx, &bad, in, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host, unknown op 7");
        bad = inclusive;
        bad.path = 9;
        expect(vkalgo_scan_host(ctx, &bad, in, out, N), VKALGO_ERROR_INVALID_ARGUMENT, "scan_host, unknown path 9");
        check_equal(out, before, N, "  output untouched after the refused descs");
    }
    /* A success clears the message. */
    expect(vkalgo_scan_host(ctx, &inclusive, in, out, N), VKALGO_SUCCESS, "scan_host inclusive after errors");

    uint64_t messages = vkalgo_context_validation_message_count(ctx);
    const char *validation = getenv("VKALGO_VALIDATION");
    check(messages == 0, "validation messages of the default context: %" PRIu64 " (VKALGO_VALIDATION=%s)", messages,
          validation ? validation : "unset");
    vkalgo_context_destroy(ctx);
    check(true, "vkalgo_context_destroy");
}

/* ------------------------------------------------------------------------------------------ */
/* 2. Record layer on the test's own device                                                   */

/* Between two scans of one command buffer: the first's output is read by the second, and the
 * second may clear (TRANSFER) and rewrite the scratch the first used. */
static void barrier_between(Gpu *g) {
    memory_barrier(g, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}


static void fill_sentinel(Buffer *b, uint32_t salt) {
    size_t n = (size_t)(b->size / 4);
    for (size_t i = 0; i < n; i++) {
        b->words[i] = 0xA5A50000u ^ salt ^ (uint32_t)(i * 2654435761u);
    }
}

/* The test's shared state for the record layer. */
enum { MAX_N = 1 << 20 };
typedef struct Rec {
    Gpu *g;
    VkalgoContext *ctx;
    Buffer in, out, scratch, count;
    VkDeviceSize scratch_offset;
    uint32_t *want_in, *want_out; /* expected contents of whole buffers */
} Rec;

typedef struct PlanInfo {
    VkalgoScanPlan *plan;
    VkalgoScanOp op;
    VkalgoScanPath path;
    uint64_t max_count;
    VkalgoMemoryRequirements req;
    const char *name;
} PlanInfo;

static bool plan_create(Rec *t, VkalgoScanOp op, VkalgoScanPath path, uint64_t max_count, PlanInfo *p) {
    memset(p, 0, sizeof *p);
    p->op = op;
    p->path = path;
    p->max_count = max_count;
    p->name = path == VKALGO_SCAN_PATH_LOOKBACK ? (op == VKALGO_SCAN_INCLUSIVE ? "look-back inclusive" : "look-back exclusive")
              : path == VKALGO_SCAN_PATH_REDUCE_THEN_SCAN
                  ? (op == VKALGO_SCAN_INCLUSIVE ? "reduce-then-scan inclusive" : "reduce-then-scan exclusive")
              : path == VKALGO_SCAN_PATH_SMALL ? (op == VKALGO_SCAN_INCLUSIVE ? "small inclusive" : "small exclusive")
                  : (op == VKALGO_SCAN_INCLUSIVE ? "auto inclusive" : "auto exclusive");
    VkalgoScanDesc desc = {0};
    desc.op = op;
    desc.path = path;
    desc.max_count = max_count;
    char what[160];
    snprintf(what, sizeof what, "vkalgo_scan_plan_create %s max_count=%" PRIu64, p->name, max_count);
    VkalgoResult r = vkalgo_scan_plan_create(t->ctx, &desc, &p->plan);
    if (path == VKALGO_SCAN_PATH_LOOKBACK && r == VKALGO_ERROR_UNSUPPORTED && !t->g->int64_atomics) {
        printf("  skip  %s: UNSUPPORTED without shaderBufferInt64Atomics (%s)\n", what, vkalgo_last_error_message());
        p->plan = NULL;
        return false;
    }
    if (!expect(r, VKALGO_SUCCESS, what) || !p->plan) {
        p->plan = NULL;
        return false;
    }
    r = vkalgo_scan_plan_memory_requirements(p->plan, &p->req);
    expect(r, VKALGO_SUCCESS, "  vkalgo_scan_plan_memory_requirements");
    const VkalgoBufferRequirements *scratch = &p->req.scratch;
    check(scratch->alignment > 0 && (scratch->alignment & (scratch->alignment - 1)) == 0 &&
              (scratch->usage & ~BUFFER_USAGE) == 0 && scratch->size + t->scratch_offset <= t->scratch.size,
          "  scratch %" PRIu64 " bytes, alignment %" PRIu64 ", usage 0x%" PRIx32 " (fits the scratch buffer), tile %" PRIu64,
          (uint64_t)scratch->size, (uint64_t)scratch->alignment, (uint32_t)scratch->usage,
          vkalgo_scan_plan_tile_size(p->plan));
    /* A scan needs only scratch: the other ranges are reported as not needed. */
    check(p->req.next == NULL && p->req.keys_alt.size == 0 && p->req.values_alt.size == 0 && p->req.offsets.size == 0 &&
              p->req.storage.size == 0,
          "  no alternates, offsets or storage");
    return true;
}

enum Mode { DIRECT, INDIRECT, IN_PLACE };

/* One recorded scan: input at in_off of `in` (or of `out` in place), output at out_off of `out`.
 * DIRECT scans n elements; INDIRECT stores count_value in the count buffer and gives ranges of
 * the plan's max_count elements. Checks every word of both buffers afterwards. */
static void record_case(Rec *t, const PlanInfo *p, enum Mode mode, uint64_t n, VkDeviceSize in_off,
                        VkDeviceSize out_off, uint32_t count_value) {
    Gpu *g = t->g;
    uint64_t range_elems = mode == INDIRECT ? p->max_count : n;
    uint64_t scanned = mode == INDIRECT ? (count_value < p->max_count ? count_value : p->max_count) : n;
    char what[200];
    if (mode == INDIRECT) {
        snprintf(what, sizeof what, "%s indirect count %" PRIu32 " (max_count %" PRIu64 ") in@%" PRIu64 " out@%" PRIu64,
                 p->name, count_value, p->max_count, (uint64_t)in_off, (uint64_t)out_off);
    } else {
        snprintf(what, sizeof what, "%s n=%" PRIu64 " %s@%" PRIu64 " out@%" PRIu64, p->name, n,
                 mode == IN_PLACE ? "in place" : "in", (uint64_t)(mode == IN_PLACE ? out_off : in_off), (uint64_t)out_off);
    }
    fill_sentinel(&t->in, 0x1111u);
    fill_sentinel(&t->out, 0x2222u);
    fill_sentinel(&t->scratch, 0x3333u);
    fill_sentinel(&t->count, 0x4444u);
    Buffer *src = mode == IN_PLACE ? &t->out : &t->in;
    VkDeviceSize src_off = mode == IN_PLACE ? out_off : in_off;
    fill_random(src->words + src_off / 4, (size_t)range_elems);
    memcpy(t->want_in, t->in.words, (size_t)t->in.size);
    memcpy(t->want_out, t->out.words, (size_t)t->out.size);
    cpu_scan(src->words + src_off / 4, t->want_out + out_off / 4, (size_t)scanned, p->op == VKALGO_SCAN_INCLUSIVE);
    const VkDeviceSize count_offset = 12;
    t->count.words[count_offset / 4] = count_value;

    VkalgoScanArgs args;
    memset(&args, 0, sizeof args);
    args.input = range_of(src, src_off, range_elems * 4);
    args.output = range_of(&t->out, out_off, range_elems * 4);
    args.scratch = range_of(&t->scratch, t->scratch_offset, p->req.scratch.size);
    args.count = mode == INDIRECT ? 0xFFFFFFFFFFull : n; /* ignored with a count buffer */
    if (mode == INDIRECT) {
        args.count_buffer = range_of(&t->count, count_offset, 4);
    }
    if (!cmd_begin(g)) {
        return;
    }
    barrier_before(g);
    VkalgoResult r = vkalgo_scan_record(p->plan, g->cmd, &args);
    barrier_after(g);
    bool recorded = r == VKALGO_SUCCESS;
    if (!cmd_submit_wait(g, what) || !expect(r, VKALGO_SUCCESS, what) || !recorded) {
        return;
    }
    check_equal(t->out.words, t->want_out, (size_t)(t->out.size / 4), "  output buffer (scanned range, untouched rest)");
    if (mode != IN_PLACE) {
        check_equal(t->in.words, t->want_in, (size_t)(t->in.size / 4), "  input buffer unchanged");
    }
}

/* Two scans in one command buffer: exclusive (plan a) from in@64 into out@4, then inclusive
 * (plan b) from out@4 into in@second, with a barrier between and the scratch shared. */
static void record_chained(Rec *t, const PlanInfo *a, const PlanInfo *b, uint64_t n) {
    Gpu *g = t->g;
    char what[200];
    snprintf(what, sizeof what, "chained: %s then %s, n=%" PRIu64 ", shared scratch", a->name, b->name, n);
    const VkDeviceSize in_off = 64, out_off = 4, second_off = align_up(in_off + n * 4 + 64, 16) + 8;
    fill_sentinel(&t->in, 0x5555u);
    fill_sentinel(&t->out, 0x6666u);
    fill_random(t->in.words + in_off / 4, (size_t)n);
    memcpy(t->want_in, t->in.words, (size_t)t->in.size);
    memcpy(t->want_out, t->out.words, (size_t)t->out.size);
    cpu_scan(t->in.words + in_off / 4, t->want_out + out_off / 4, (size_t)n, a->op == VKALGO_SCAN_INCLUSIVE);
    cpu_scan(t->want_out + out_off / 4, t->want_in + second_off / 4, (size_t)n, b->op == VKALGO_SCAN_INCLUSIVE);
    VkDeviceSize scratch_size = a->req.scratch.size > b->req.scratch.size ? a->req.scratch.size : b->req.scratch.size;
    VkalgoScanArgs first;
    memset(&first, 0, sizeof first);
    first.input = range_of(&t->in, in_off, n * 4);
    first.output = range_of(&t->out, out_off, n * 4);
    first.scratch = range_of(&t->scratch, t->scratch_offset, scratch_size);
    first.count = n;
    VkalgoScanArgs second = first;
    second.input = first.output;
    second.output = range_of(&t->in, second_off, n * 4);
    if (!cmd_begin(g)) {
        return;
    }
    barrier_before(g);
    VkalgoResult r1 = vkalgo_scan_record(a->plan, g->cmd, &first);
    barrier_between(g);
    VkalgoResult r2 = vkalgo_scan_record(b->plan, g->cmd, &second);
    barrier_after(g);
    if (!cmd_submit_wait(g, what) || !expect(r1, VKALGO_SUCCESS, what) ||
        !expect(r2, VKALGO_SUCCESS, "  second scan recorded")) {
        return;
    }
    check_equal(t->out.words, t->want_out, (size_t)(t->out.size / 4), "  first output");
    check_equal(t->in.words, t->want_in, (size_t)(t->in.size / 4), "  second output (input of the first unchanged)");
}

/* Argument errors of the record layer: INVALID_ARGUMENT, a message, nothing recorded. All the
 * refused calls go into one command buffer, which then still ends and submits. */
static void record_bad_input(Rec *t, const PlanInfo *p) {
    Gpu *g = t->g;
    printf("-- record-layer argument errors (%s)\n", p->name);
    const uint64_t n = 4097;
    fill_sentinel(&t->in, 0x7777u);
    fill_sentinel(&t->out, 0x8888u);
    memcpy(t->want_in, t->in.words, (size_t)t->in.size);
    memcpy(t->want_out, t->out.words, (size_t)t->out.size);
    VkalgoScanArgs ok;
    memset(&ok, 0, sizeof ok);
    ok.input = range_of(&t->in, 64, n * 4);
    ok.output = range_of(&t->out, 4, n * 4);
    ok.scratch = range_of(&t->scratch, t->scratch_offset, p->req.scratch.size);
    ok.count = n;
    VkalgoScanArgs a;
    if (!cmd_begin(g)) {
        return;
    }
    barrier_before(g);
#define BAD(setup, call, label)                                    \
    do {                                                           \
        a = ok;                                                    \
        setup;                                                     \
        expect((call), VKALGO_ERROR_INVALID_ARGUMENT, "  " label); \
    } while (0)
    /* Record calls take no context (the plan's own is used). An args struct whose `next` is
     * not NULL is refused: no extension structure is defined yet. */
    static int extension;
    BAD(a.next = &extension, vkalgo_scan_record(p->plan, g->cmd, &a), "args next != NULL");
    BAD((void)0, vkalgo_scan_record(NULL, g->cmd, &a), "NULL plan");
    BAD((void)0, vkalgo_scan_record(p->plan, g->cmd, NULL), "NULL args");
    BAD((void)0, vkalgo_scan_record(p->plan, VK_NULL_HANDLE, &a), "NULL command buffer");
    BAD(a.input.offset = 66, vkalgo_scan_record(p->plan, g->cmd, &a), "input offset 66 (not a multiple of 4)");
    BAD(a.output.offset = 6, vkalgo_scan_record(p->plan, g->cmd, &a), "output offset 6 (not a multiple of 4)");
    BAD(a.count = p->max_count + 1, vkalgo_scan_record(p->plan, g->cmd, &a), "count = max_count + 1");
    BAD((a.output.buffer = t->in.buffer, a.output.offset = 64 + 4), vkalgo_scan_record(p->plan, g->cmd, &a),
        "output overlapping the input partially (4 bytes later)");
    BAD((a.output.buffer = t->in.buffer, a.output.offset = 64 - 4), vkalgo_scan_record(p->plan, g->cmd, &a),
        "output overlapping the input partially (4 bytes earlier)");
    BAD(a.input.size = n * 4 - 4, vkalgo_scan_record(p->plan, g->cmd, &a), "input range one element short");
    BAD(a.output.size = n * 4 - 4, vkalgo_scan_record(p->plan, g->cmd, &a), "output range one element short");
    BAD(a.input.buffer = VK_NULL_HANDLE, vkalgo_scan_record(p->plan, g->cmd, &a), "input buffer VK_NULL_HANDLE");
    BAD(a.output.buffer = VK_NULL_HANDLE, vkalgo_scan_record(p->plan, g->cmd, &a), "output buffer VK_NULL_HANDLE");
    BAD(a.scratch.buffer = VK_NULL_HANDLE, vkalgo_scan_record(p->plan, g->cmd, &a), "scratch buffer VK_NULL_HANDLE");
    BAD(a.scratch.size = p->req.scratch.size - 4, vkalgo_scan_record(p->plan, g->cmd, &a), "scratch 4 bytes short");
    if (p->req.scratch.alignment > 4) {
        BAD(a.scratch.offset += 4, vkalgo_scan_record(p->plan, g->cmd, &a), "scratch offset misaligned by 4");
    }
    BAD((a.scratch.buffer = t->in.buffer, a.scratch.offset = align_up(64 + 8, p->req.scratch.alignment)),
        vkalgo_scan_record(p->plan, g->cmd, &a), "scratch overlapping the input");
    BAD((a.scratch.buffer = t->out.buffer, a.scratch.offset = align_up(4 + n * 4 - 64, p->req.scratch.alignment)),
        vkalgo_scan_record(p->plan, g->cmd, &a), "scratch overlapping the output");
    BAD(a.count_buffer = range_of(&t->count, 2, 4), vkalgo_scan_record(p->plan, g->cmd, &a),
        "count buffer offset 2 (not a multiple of 4)");
    BAD(a.count_buffer = range_of(&t->count, 12, 2), vkalgo_scan_record(p->plan, g->cmd, &a),
        "count buffer range of 2 bytes");
    BAD(a.count_buffer = range_of(&t->out, 4 + 40, 4), vkalgo_scan_record(p->plan, g->cmd, &a),
        "count buffer inside the output range");
#undef BAD
    barrier_after(g);
    if (cmd_submit_wait(g, "command buffer with only refused calls")) {
        check(true, "  the command buffer with only refused calls ended and ran");
        check_equal(t->out.words, t->want_out, (size_t)(t->out.size / 4), "  output buffer untouched");
        check_equal(t->in.words, t->want_in, (size_t)(t->in.size / 4), "  input buffer untouched");
    }
}

/* The sort's record layer on the test's buffers: plan queries, argument errors that record
 * nothing and change nothing (buffers read back), then a sort of u32 -> u32 pairs checked
 * against a CPU stable sort. */
static int cmp_pair(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void sort_record_case(Rec *t) {
    Gpu *g = t->g;
    printf("-- sort record layer\n");
    const uint64_t n = 5003;
    VkalgoSortDesc desc = {0};
    desc.key_type = VKALGO_KEY_U32;
    desc.value_type = VKALGO_VALUE_U32;
    desc.path = VKALGO_SORT_PATH_AUTO;
    desc.max_count = n;
    VkalgoSortPlan *plan = NULL;
    VkalgoSortDesc bad_desc = desc;
    bad_desc.path = 99;
    expect(vkalgo_sort_plan_create(t->ctx, &bad_desc, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown path 99");
    bad_desc = desc;
    bad_desc.key_type = 17;
    expect(vkalgo_sort_plan_create(t->ctx, &bad_desc, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown key type 17");
    bad_desc = desc;
    bad_desc.begin_bit = 20;
    bad_desc.end_bit = 10;
    expect(vkalgo_sort_plan_create(t->ctx, &bad_desc, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  bit range [20, 10)");
    static int extension; /* a `next` to refuse: no extension is defined yet */
    bad_desc = desc;
    bad_desc.next = &extension;
    expect(vkalgo_sort_plan_create(t->ctx, &bad_desc, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  desc next != NULL");
    check(plan == NULL, "  *out unchanged on error");
    if (!expect(vkalgo_sort_plan_create(t->ctx, &desc, &plan), VKALGO_SUCCESS, "  plan")) {
        return;
    }
    VkalgoMemoryRequirements req = {0};
    if (!expect(vkalgo_sort_plan_memory_requirements(plan, &req), VKALGO_SUCCESS, "  memory requirements")) {
        vkalgo_sort_plan_destroy(plan);
        return;
    }
    check(req.keys_alt.size == n * 4 && req.values_alt.size == n * 4 && req.scratch.alignment > 0 &&
              req.scratch.alignment <= 256 && req.keys_alt.alignment <= 256 && req.values_alt.alignment <= 256 &&
              req.scratch.size + 256 <= t->scratch.size,
          "  requirements: alternates %" PRIu64 "/%" PRIu64 " bytes, scratch %" PRIu64 ", alignment %" PRIu64,
          (uint64_t)req.keys_alt.size, (uint64_t)req.values_alt.size, (uint64_t)req.scratch.size,
          (uint64_t)req.scratch.alignment);
    check(vkalgo_sort_plan_tile_size(plan) > 0, "  tile size %" PRIu64, vkalgo_sort_plan_tile_size(plan));
    const VkDeviceSize values_at = 32768; /* past n keys, a multiple of any alignment */
    fill_sentinel(&t->in, 0x5151u);
    fill_sentinel(&t->out, 0x6161u);
    for (uint64_t i = 0; i < n; i++) {
        t->in.words[i] = t->in.words[i] % 1000u; /* many equal keys: stability shows */
        t->in.words[values_at / 4 + i] = (uint32_t)i;
    }
    memcpy(t->want_in, t->in.words, (size_t)t->in.size);
    memcpy(t->want_out, t->out.words, (size_t)t->out.size);
    VkalgoSortArgs ok;
    memset(&ok, 0, sizeof ok);
    ok.keys = range_of(&t->in, 0, n * 4);
    ok.values = range_of(&t->in, values_at, n * 4);
    ok.keys_alt = range_of(&t->out, 0, n * 4);
    ok.values_alt = range_of(&t->out, values_at, n * 4);
    ok.scratch = range_of(&t->scratch, 256, req.scratch.size);
    ok.count = n;
    uint32_t where = 7;
    ok.result_in_alternate = &where;
    VkalgoSortArgs a;
    if (!cmd_begin(g)) {
        vkalgo_sort_plan_destroy(plan);
        return;
    }
    barrier_before(g);
#define BAD(setup, label)                                                                             \
    do {                                                                                              \
        a = ok;                                                                                       \
        setup;                                                                                        \
        expect(vkalgo_sort_record(plan, g->cmd, &a), VKALGO_ERROR_INVALID_ARGUMENT, "  " label);      \
    } while (0)
    BAD(a.next = &extension, "args next != NULL");
    BAD(a.count = n + 1, "count over max_count");
    BAD(a.keys.buffer = VK_NULL_HANDLE, "keys VK_NULL_HANDLE");
    BAD(a.values.buffer = VK_NULL_HANDLE, "values missing with a value type");
    BAD(a.values_alt.buffer = VK_NULL_HANDLE, "alternate values missing");
    BAD(a.keys_alt.size = n * 4 - 4, "alternate keys 4 bytes short");
    BAD(a.keys.offset = 2, "keys offset 2");
    BAD(a.scratch.size = req.scratch.size - 4, "scratch 4 bytes short");
    BAD(a.keys_alt = a.keys, "alternate keys = keys");
    BAD(a.values = range_of(&t->in, 64, n * 4), "values overlapping the keys");
    BAD(a.count_buffer = range_of(&t->count, 2, 4), "count buffer offset 2");
#undef BAD
    expect(vkalgo_sort_record(NULL, g->cmd, &ok), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL plan");
    expect(vkalgo_sort_record(plan, g->cmd, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL args");
    expect(vkalgo_sort_record(plan, VK_NULL_HANDLE, &ok), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL command buffer");
    barrier_after(g);
    if (cmd_submit_wait(g, "sort: only refused calls")) {
        check(where == 7, "  result location untouched by refused calls");
        check_equal(t->in.words, t->want_in, (size_t)(t->in.size / 4), "  keys and values untouched");
        check_equal(t->out.words, t->want_out, (size_t)(t->out.size / 4), "  alternates untouched");
    }
    /* The good call (on the plan's context); it says where the result is, as the plan does. */
    uint64_t *want = xmalloc((size_t)n * 8);
    for (uint64_t i = 0; i < n; i++) {
        want[i] = ((uint64_t)t->in.words[i] << 32) | i; /* (key, index): the stable order */
    }
    qsort(want, (size_t)n, 8, cmp_pair);
    if (cmd_begin(g)) {
        barrier_before(g);
        VkalgoResult r = vkalgo_sort_record(plan, g->cmd, &ok);
        barrier_after(g);
        if (cmd_submit_wait(g, "sort record") && expect(r, VKALGO_SUCCESS, "  u32 -> u32 pairs, n = 5003")) {
            const Buffer *res = where == 1 ? &t->out : &t->in;
            size_t bad = (size_t)n;
            for (size_t i = 0; i < (size_t)n && bad == (size_t)n; i++) {
                if (res->words[i] != (uint32_t)(want[i] >> 32) || res->words[values_at / 4 + i] != (uint32_t)want[i]) {
                    bad = i;
                }
            }
            check(where <= 1 && bad == (size_t)n, "  sorted, stable (result in %s; first mismatch %zu)",
                  where == 1 ? "the alternates" : "place", bad);
            check(where == vkalgo_sort_plan_result_in_alternate(plan),
                  "  result_in_alternate %" PRIu32 " as vkalgo_sort_plan_result_in_alternate says", where);
        }
    }
    free(want);
    vkalgo_sort_plan_destroy(plan);
}

static void plan_bad_input(Rec *t) {
    printf("-- plan argument errors\n");
    static int marker;
    VkalgoScanPlan *const untouched = (VkalgoScanPlan *)(void *)&marker;
    VkalgoScanPlan *plan = untouched;
    VkalgoScanDesc desc = {0};
    desc.op = VKALGO_SCAN_EXCLUSIVE;
    desc.path = VKALGO_SCAN_PATH_REDUCE_THEN_SCAN;
    desc.max_count = 1000;
    VkalgoScanDesc bad = desc;
    bad.next = &marker; /* no extension structure is defined yet */
    expect(vkalgo_scan_plan_create(t->ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  next != NULL in VkalgoScanDesc");
    check(plan == untouched, "  *out unchanged on error");
    bad = desc;
    bad.flags = 2;
    expect(vkalgo_scan_plan_create(t->ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown flag 2 in VkalgoScanDesc");
    check(plan == untouched, "  *out unchanged on error");
    bad.op = 7;
    expect(vkalgo_scan_plan_create(t->ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown op 7 in VkalgoScanDesc");
    check(plan == untouched, "  *out unchanged on error");
    bad = desc;
    bad.path = 9;
    expect(vkalgo_scan_plan_create(t->ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown path 9 in VkalgoScanDesc");
    bad = desc;
    bad.max_count = (uint64_t)UINT32_MAX + 1;
    expect(vkalgo_scan_plan_create(t->ctx, &bad, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  max_count 2^32");
    expect(vkalgo_scan_plan_create(NULL, &desc, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL ctx");
    expect(vkalgo_scan_plan_create(t->ctx, NULL, &plan), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL desc");
    expect(vkalgo_scan_plan_create(t->ctx, &desc, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL out");
    check(plan == untouched, "  *out unchanged after every refused plan");
    VkalgoMemoryRequirements req = {0};
    expect(vkalgo_scan_plan_memory_requirements(NULL, &req), VKALGO_ERROR_INVALID_ARGUMENT, "  memory_requirements(NULL plan)");
    VkalgoScanPlan *good = NULL;
    if (expect(vkalgo_scan_plan_create(t->ctx, &desc, &good), VKALGO_SUCCESS, "  a valid plan")) {
        expect(vkalgo_scan_plan_memory_requirements(good, NULL), VKALGO_ERROR_INVALID_ARGUMENT,
               "  memory_requirements(plan, NULL)");
        /* The output struct's `next` must be NULL too: refused, and nothing written to it. */
        VkalgoMemoryRequirements ext = {0};
        ext.next = &marker;
        ext.scratch.size = 77;
        ext.scratch.alignment = 3;
        expect(vkalgo_scan_plan_memory_requirements(good, &ext), VKALGO_ERROR_INVALID_ARGUMENT,
               "  memory_requirements into a struct with next != NULL");
        check(ext.next == (void *)&marker && ext.scratch.size == 77 && ext.scratch.alignment == 3 && ext.scratch.usage == 0,
              "  the struct is unchanged");
        vkalgo_scan_plan_destroy(good);
    }
}

static void external_context_bad_input(Gpu *g, const VkalgoExternalContextDesc *valid) {
    printf("-- external context argument errors\n");
    static int marker;
    VkalgoContext *const untouched = (VkalgoContext *)(void *)&marker;
    VkalgoContext *ctx = untouched;
    VkalgoExternalContextDesc d;
    expect(vkalgo_context_create_external(NULL, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL desc");
    expect(vkalgo_context_create_external(valid, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "  NULL out");
    d = *valid;
    d.flags = 0x100;
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  unknown flag 0x100");
    d = *valid;
    d.flags = VKALGO_CONTEXT_LOOKBACK_ON | VKALGO_CONTEXT_LOOKBACK_OFF;
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  LOOKBACK_ON | LOOKBACK_OFF");
    d = *valid;
    d.get_instance_proc_addr = NULL;
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  get_instance_proc_addr NULL");
    d = *valid;
    d.device = VK_NULL_HANDLE;
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  device NULL");
    d = *valid;
    d.queue_family_index = 999;
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  queue family 999");
    d = *valid;
    d.next = &marker; /* no extension structure is defined yet */
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_INVALID_ARGUMENT, "  next != NULL");
    check(ctx == untouched, "  *out unchanged after every refused context");
    /* Forcing look-back on: allowed exactly when the device has 64-bit buffer atomics. */
    d = *valid;
    d.flags = valid->flags | VKALGO_CONTEXT_LOOKBACK_ON;
    VkalgoResult r = vkalgo_context_create_external(&d, &ctx);
    if (g->int64_atomics) {
        if (expect(r, VKALGO_SUCCESS, "  LOOKBACK_ON with 64-bit atomics")) {
            check(vkalgo_context_lookback_enabled(ctx) == 1, "  vkalgo_context_lookback_enabled = 1");
            vkalgo_context_destroy(ctx);
        }
    } else {
        expect(r, VKALGO_ERROR_UNSUPPORTED, "  LOOKBACK_ON without 64-bit atomics");
    }
    /* Not declaring the 64-bit atomics enabled: vkalgo must not use them (look-back refused). */
    ctx = untouched;
    d = *valid;
    d.flags = (valid->flags & ~VKALGO_CONTEXT_INT64_ATOMICS_ENABLED) | VKALGO_CONTEXT_LOOKBACK_ON;
    expect(vkalgo_context_create_external(&d, &ctx), VKALGO_ERROR_UNSUPPORTED,
           "  LOOKBACK_ON without INT64_ATOMICS_ENABLED");
    check(ctx == untouched, "  *out unchanged");
}

/* Scans of more than 4096 tiles: reduce-then-scan partitions then hold several tiles each. */
static void record_large(Rec *t, VkalgoScanPath path, uint64_t n) {
    Gpu *g = t->g;
    PlanInfo p;
    Buffer in, out, scratch;
    if (!plan_create(t, VKALGO_SCAN_EXCLUSIVE, path, n, &p)) {
        return;
    }
    if (!buffer_create(g, n * 4 + 64, "large input", &in) || !buffer_create(g, n * 4 + 64, "large output", &out) ||
        !buffer_create(g, p.req.scratch.size + p.req.scratch.alignment, "large scratch", &scratch)) {
        vkalgo_scan_plan_destroy(p.plan);
        return;
    }
    char what[160];
    snprintf(what, sizeof what, "%s n=%" PRIu64 " (%" PRIu64 " tiles)", p.name, n,
             (n + vkalgo_scan_plan_tile_size(p.plan) - 1) / vkalgo_scan_plan_tile_size(p.plan));
    uint32_t *want = xmalloc((size_t)out.size);
    fill_random(in.words, (size_t)(in.size / 4));
    fill_sentinel(&out, 0x9999u);
    memcpy(want, out.words, (size_t)out.size);
    cpu_scan(in.words + 16 / 4, want + 32 / 4, (size_t)n, false);
    VkalgoScanArgs args;
    memset(&args, 0, sizeof args);
    args.input = range_of(&in, 16, n * 4);
    args.output = range_of(&out, 32, n * 4);
    args.scratch = range_of(&scratch, p.req.scratch.alignment, p.req.scratch.size);
    args.count = n;
    double t0 = now_s();
    if (cmd_begin(g)) {
        barrier_before(g);
        VkalgoResult r = vkalgo_scan_record(p.plan, g->cmd, &args);
        barrier_after(g);
        if (cmd_submit_wait(g, what) && expect(r, VKALGO_SUCCESS, what)) {
            check_equal(out.words, want, (size_t)(out.size / 4), "  output buffer");
            printf("  info  %.2f s\n", now_s() - t0);
        }
    }
    free(want);
    buffer_destroy(g, &in);
    buffer_destroy(g, &out);
    buffer_destroy(g, &scratch);
    vkalgo_scan_plan_destroy(p.plan);
}

/* Engine integration: the pipeline cache's data (two-call), a context made from it, memory
 * usage, warm-up, and a hash map on the test's own memory (cleared through the record layer). */
static void engine_case(Gpu *g, VkalgoContext *ctx, const VkalgoExternalContextDesc *desc) {
    printf("-- engine integration\n");
    size_t size = 0;
    expect(vkalgo_context_pipeline_cache_data(ctx, NULL, &size), VKALGO_SUCCESS, "pipeline cache size");
    check(size >= 32, "  cache data of %zu bytes (a header at least)", size);
    unsigned char *data = xmalloc(size + 1);
    size_t too_small = 8;
    expect(vkalgo_context_pipeline_cache_data(ctx, data, &too_small), VKALGO_ERROR_INVALID_ARGUMENT,
           "pipeline cache data into 8 bytes");
    size_t got = size;
    expect(vkalgo_context_pipeline_cache_data(ctx, data, &got), VKALGO_SUCCESS, "pipeline cache data");
    check(got == size, "  %zu bytes written", got);
    VkalgoExternalContextDesc with_data = *desc;
    with_data.pipeline_cache_data = data;
    with_data.pipeline_cache_data_size = got;
    VkalgoContext *second = NULL;
    if (expect(vkalgo_context_create_external(&with_data, &second), VKALGO_SUCCESS, "external context from cache data")) {
        const char *note = vkalgo_context_pipeline_cache_note(second);
        check(note && note[0] == '\0', "  the data was used (note \"%s\")", note ? note : "(null)");
        vkalgo_context_destroy(second);
    }
    data[8] ^= 0xFF; /* another vendor's data */
    if (expect(vkalgo_context_create_external(&with_data, &second), VKALGO_SUCCESS, "external context from foreign data")) {
        const char *note = vkalgo_context_pipeline_cache_note(second);
        check(note && strstr(note, "ignored") != NULL, "  ignored, and said so (\"%s\")", note ? note : "(null)");
        vkalgo_context_destroy(second);
    }
    with_data.pipeline_cache_data = NULL; /* a size without data */
    expect(vkalgo_context_create_external(&with_data, &second), VKALGO_ERROR_INVALID_ARGUMENT, "cache size without data");
    free(data);

    VkalgoMemoryUsage usage = {0};
    expect(vkalgo_context_memory_usage(ctx, &usage), VKALGO_SUCCESS, "memory usage");
    check(usage.reserved_bytes >= usage.allocated_bytes, "  %" PRIu64 " allocated, %" PRIu64 " reserved",
          usage.allocated_bytes, usage.reserved_bytes);
    expect(vkalgo_context_memory_usage(ctx, NULL), VKALGO_ERROR_INVALID_ARGUMENT, "memory usage into NULL");
    expect(vkalgo_context_release_kept_memory(ctx), VKALGO_SUCCESS, "release kept memory");
    expect(vkalgo_context_release_kept_memory(NULL), VKALGO_ERROR_INVALID_ARGUMENT, "release kept memory of NULL");
    {
        /* An output struct with a `next` (no extension is defined yet): refused, nothing written. */
        static int extension;
        VkalgoMemoryUsage ext = {0};
        ext.next = &extension;
        ext.allocated_bytes = 7;
        expect(vkalgo_context_memory_usage(ctx, &ext), VKALGO_ERROR_INVALID_ARGUMENT, "memory usage, next != NULL");
        check(ext.next == (void *)&extension && ext.allocated_bytes == 7 && ext.reserved_bytes == 0, "  nothing written");
    }
    expect(vkalgo_context_warm_up(ctx, 1u << 30), VKALGO_ERROR_INVALID_ARGUMENT, "warm-up of an unknown algorithm");
    expect(vkalgo_context_warm_up(ctx, VKALGO_ALGORITHM_SCAN | VKALGO_ALGORITHM_HASH_MAP), VKALGO_SUCCESS, "warm-up");

    VkalgoHashMapDesc map_desc = {0};
    map_desc.key_type = VKALGO_KEY_U32;
    map_desc.value_type = VKALGO_VALUE_U32;
    map_desc.capacity = 5000;
    VkalgoMemoryRequirements reqs = {0};
    if (!expect(vkalgo_hash_map_memory_requirements(ctx, &map_desc, &reqs), VKALGO_SUCCESS, "hash map memory requirements")) {
        return;
    }
    const VkalgoBufferRequirements req = reqs.storage;
    check(req.size > 5000 * 8 && req.alignment >= 16 && (req.usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) &&
              reqs.scratch.size == 0,
          "  %" PRIu64 " bytes, alignment %" PRIu64, (uint64_t)req.size, (uint64_t)req.alignment);
    {
        static int extension;
        VkalgoHashMapDesc bad = map_desc;
        bad.next = &extension;
        VkalgoMemoryRequirements untouched = {0};
        untouched.storage.size = 77;
        expect(vkalgo_hash_map_memory_requirements(ctx, &bad, &untouched), VKALGO_ERROR_INVALID_ARGUMENT,
               "hash map memory requirements, desc next != NULL");
        check(untouched.storage.size == 77, "  nothing written");
        untouched.next = &extension;
        expect(vkalgo_hash_map_memory_requirements(ctx, &map_desc, &untouched), VKALGO_ERROR_INVALID_ARGUMENT,
               "hash map memory requirements into a struct with next != NULL");
        check(untouched.next == (void *)&extension && untouched.storage.size == 77, "  nothing written");
    }
    Buffer storage;
    if (!buffer_create(g, req.size + 2 * req.alignment, "map storage", &storage)) {
        return;
    }
    VkalgoHashMap *map = NULL;
    VkalgoBufferRange range = {storage.buffer, req.alignment, req.size};
    VkalgoBufferRange bad_range = range;
    bad_range.size = req.size - 4;
    expect(vkalgo_hash_map_create_in(ctx, &map_desc, &bad_range, 0, &map), VKALGO_ERROR_INVALID_ARGUMENT,
           "map on a range 4 bytes short");
    bad_range = range;
    bad_range.offset = 4;
    expect(vkalgo_hash_map_create_in(ctx, &map_desc, &bad_range, 0, &map), VKALGO_ERROR_INVALID_ARGUMENT,
           "map on a misaligned range");
    expect(vkalgo_hash_map_create_in(ctx, &map_desc, &range, 2, &map), VKALGO_ERROR_INVALID_ARGUMENT,
           "map with unknown flags");
    expect(vkalgo_hash_map_create_in(ctx, &map_desc, NULL, 0, &map), VKALGO_ERROR_INVALID_ARGUMENT, "map on a NULL range");
    {
        static int extension;
        VkalgoHashMapDesc bad = map_desc;
        bad.next = &extension;
        expect(vkalgo_hash_map_create_in(ctx, &bad, &range, 0, &map), VKALGO_ERROR_INVALID_ARGUMENT,
               "map with desc next != NULL");
    }
    check(map == NULL, "  no map made");
    memset(storage.words, 0x5A, (size_t)storage.size); /* garbage: the recorded clear must empty it */
    if (expect(vkalgo_hash_map_create_in(ctx, &map_desc, &range, VKALGO_HASH_MAP_UNINITIALIZED, &map), VKALGO_SUCCESS,
               "map on the test's memory (uninitialized)") &&
        cmd_begin(g)) {
        expect(vkalgo_hash_map_record_clear(map, g->cmd), VKALGO_SUCCESS, "  record_clear");
        expect(vkalgo_hash_map_record_barrier(map, g->cmd), VKALGO_SUCCESS, "  record_barrier");
        if (cmd_submit_wait(g, "map clear")) {
            uint32_t keys[4000], values[4000], out[4000];
            uint8_t found[4000];
            for (uint32_t i = 0; i < 4000; i++) {
                keys[i] = i * 2654435761u % 0xFFFFFFF0u;
                values[i] = ~keys[i];
            }
            expect(vkalgo_hash_map_insert_host(map, keys, values, 3000), VKALGO_SUCCESS, "  insert 3000");
            expect(vkalgo_hash_map_find_host(map, keys, out, found, 4000), VKALGO_SUCCESS, "  find 4000");
            bool ok = true;
            for (uint32_t i = 0; i < 4000; i++) {
                ok = ok && found[i] == (i < 3000) && out[i] == (i < 3000 ? values[i] : 0u);
            }
            uint64_t n = 0;
            expect(vkalgo_hash_map_size_host(map, &n), VKALGO_SUCCESS, "  size");
            check(ok && n == 3000, "  3000 found with their values, 1000 absent, size %" PRIu64, n);
            expect(vkalgo_hash_map_rehash_host(map, 10000), VKALGO_ERROR_INVALID_ARGUMENT,
                   "  rehash of a map on caller memory");
        }
    }
    vkalgo_hash_map_destroy(map); /* frees nothing of the test's */
    buffer_destroy(g, &storage);

    /* A set on the test's memory: one bitmap block and 16 array blocks, fixed. */
    VkalgoSetDesc set_desc = {0};
    set_desc.bitmap_blocks = 1;
    set_desc.array_blocks = 16;
    VkalgoMemoryRequirements set_reqs = {0};
    if (!expect(vkalgo_set_memory_requirements(ctx, &set_desc, &set_reqs), VKALGO_SUCCESS, "set memory requirements")) {
        return;
    }
    const VkalgoBufferRequirements set_req = set_reqs.storage;
    check(set_req.size > 8192 && set_req.alignment > 0, "  %" PRIu64 " bytes, alignment %" PRIu64, (uint64_t)set_req.size,
          (uint64_t)set_req.alignment);
    Buffer set_storage;
    if (!buffer_create(g, set_req.size + set_req.alignment, "set storage", &set_storage)) {
        return;
    }
    VkalgoSet *set = NULL;
    VkalgoBufferRange set_range = {set_storage.buffer, set_req.alignment, set_req.size};
    VkalgoBufferRange misaligned = set_range;
    misaligned.offset = 8;
    expect(vkalgo_set_create_in(ctx, &set_desc, &misaligned, 0, &set), VKALGO_ERROR_INVALID_ARGUMENT,
           "set on a misaligned range");
    expect(vkalgo_set_create_in(ctx, &set_desc, &set_range, 1, &set), VKALGO_ERROR_INVALID_ARGUMENT,
           "set with unknown flags");
    {
        static int extension;
        VkalgoSetDesc bad = set_desc;
        bad.next = &extension;
        expect(vkalgo_set_create_in(ctx, &bad, &set_range, 0, &set), VKALGO_ERROR_INVALID_ARGUMENT,
               "set with desc next != NULL");
    }
    check(set == NULL, "  no set made");
    if (expect(vkalgo_set_create_in(ctx, &set_desc, &set_range, 0, &set), VKALGO_SUCCESS, "set on the test's memory")) {
        static uint32_t dense[6000];
        uint32_t sparse[100], probe[3] = {5u << 16, (5u << 16) + 3, 42};
        uint8_t found[3] = {0, 0, 0};
        for (uint32_t i = 0; i < 100; i++) {
            sparse[i] = (5u << 16) + 3 * i;
        }
        for (uint32_t i = 0; i < 6000; i++) {
            dense[i] = (8u << 16) + 7 * i;
        }
        expect(vkalgo_set_insert_host(set, sparse, 100), VKALGO_SUCCESS, "  insert 100 (an array chunk)");
        expect(vkalgo_set_insert_host(set, dense, 6000), VKALGO_SUCCESS, "  insert 6000 (the one bitmap block)");
        for (uint32_t i = 0; i < 6000; i++) {
            dense[i] += 1u << 16; /* a second dense chunk: no bitmap block left */
        }
        expect(vkalgo_set_insert_host(set, dense, 6000), VKALGO_ERROR_OUT_OF_MEMORY, "  insert a second dense chunk");
        uint64_t card = 0;
        expect(vkalgo_set_cardinality_host(set, &card), VKALGO_SUCCESS, "  cardinality");
        expect(vkalgo_set_contains_host(set, probe, found, 3), VKALGO_SUCCESS, "  contains");
        check(card == 6100 && found[0] && found[1] && !found[2], "  6100 values, the refused insert changed nothing");
    }
    vkalgo_set_destroy(set);
    buffer_destroy(g, &set_storage);
}

static void test_record(void) {
    printf("== record layer on the test's own VkDevice\n");
    Gpu gpu;
    Rec t;
    memset(&t, 0, sizeof t);
    t.g = &gpu;
    double t0 = now_s();
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
    desc.pipeline_cache = VK_NULL_HANDLE;
    /* The optional features this test enabled on its device (vkalgo cannot query them). */
    desc.flags = (gpu.debug_utils ? VKALGO_CONTEXT_DEBUG_UTILS : 0u) |
                 (gpu.int64_atomics ? VKALGO_CONTEXT_INT64_ATOMICS_ENABLED : 0u) |
                 (gpu.full_subgroups ? VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED : 0u);
    desc.timeout_ns = 0;
    desc.queue_lock = test_queue_lock; /* the test's own submissions are on this thread */
    desc.queue_lock_user_data = &queue_lock_state;
    external_context_bad_input(&gpu, &desc);
    if (!expect(vkalgo_context_create_external(&desc, &t.ctx), VKALGO_SUCCESS, "vkalgo_context_create_external")) {
        gpu_destroy(&gpu);
        return;
    }
    {
        /* Host calls on an external context need the caller's queue lock: refused, untouched. */
        VkalgoExternalContextDesc unlocked = desc;
        unlocked.queue_lock = NULL;
        VkalgoContext *no_lock = NULL;
        if (expect(vkalgo_context_create_external(&unlocked, &no_lock), VKALGO_SUCCESS, "external context without queue_lock")) {
            uint32_t data[3] = {1, 2, 3};
            VkalgoScanDesc exclusive = {0};
            exclusive.op = VKALGO_SCAN_EXCLUSIVE;
            expect(vkalgo_scan_host(no_lock, &exclusive, data, data, 3), VKALGO_ERROR_INVALID_ARGUMENT,
                   "  host call without queue_lock");
            check(data[0] == 1 && data[1] == 2 && data[2] == 3, "  data untouched");
            vkalgo_context_destroy(no_lock);
        }
    }
    engine_case(&gpu, t.ctx, &desc);
    const char *name = vkalgo_context_device_name(t.ctx);
    check(name && name[0], "external context device name \"%s\" (%.2f s for instance, device, context)", name ? name : "",
          now_s() - t0);

    const VkDeviceSize buffer_bytes = (VkDeviceSize)(2 * MAX_N + 4096) * 4;
    bool buffers = buffer_create(&gpu, buffer_bytes, "input", &t.in) && buffer_create(&gpu, buffer_bytes, "output", &t.out) &&
                   buffer_create(&gpu, (VkDeviceSize)MAX_N * 8 + 65536, "scratch", &t.scratch) &&
                   buffer_create(&gpu, 256, "count", &t.count);
    t.want_in = xmalloc((size_t)buffer_bytes);
    t.want_out = xmalloc((size_t)buffer_bytes);
    t.scratch_offset = 256; /* a non-zero offset, a multiple of any alignment up to 256 */

    PlanInfo plans[6];
    int nplans = 0;
    if (buffers) {
        static const VkalgoScanPath paths[] = {VKALGO_SCAN_PATH_REDUCE_THEN_SCAN, VKALGO_SCAN_PATH_LOOKBACK,
                                               VKALGO_SCAN_PATH_SMALL};
        static const VkalgoScanOp ops[] = {VKALGO_SCAN_EXCLUSIVE, VKALGO_SCAN_INCLUSIVE};
        for (int pi = 0; pi < 3; pi++) {
            for (int oi = 0; oi < 2; oi++) {
                if (plan_create(&t, ops[oi], paths[pi], MAX_N, &plans[nplans])) {
                    check(plans[nplans].req.scratch.alignment <= t.scratch_offset, "  scratch alignment <= 256");
                    nplans++;
                }
            }
        }
    }
    for (int i = 0; i < nplans; i++) {
        const PlanInfo *p = &plans[i];
        uint64_t tile = vkalgo_scan_plan_tile_size(p->plan);
        const uint64_t sizes[] = {1, 3, 4, 5, tile - 1, tile, tile + 1, 2 * tile + 3, 100003, MAX_N};
        printf("-- %s: direct counts, input at offset 64, output at offset 4 (scalar kernels)\n", p->name);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            record_case(&t, p, DIRECT, sizes[s], 64, 4, 0);
        }
        printf("-- %s: input at offset 64, output at offset 16 (vector kernels)\n", p->name);
        record_case(&t, p, DIRECT, tile + 1, 64, 16, 0);
        record_case(&t, p, DIRECT, 100003, 64, 16, 0);
        record_case(&t, p, DIRECT, MAX_N, 64, 16, 0);
        record_case(&t, p, DIRECT, 0, 64, 4, 0);
        printf("-- %s: in place\n", p->name);
        record_case(&t, p, IN_PLACE, 100003, 0, 4, 0);
        record_case(&t, p, IN_PLACE, MAX_N, 0, 16, 0);
        printf("-- %s: indirect counts\n", p->name);
        record_case(&t, p, INDIRECT, 0, 64, 4, 100003);
        record_case(&t, p, INDIRECT, 0, 64, 4, 0);
        record_case(&t, p, INDIRECT, 0, 64, 16, MAX_N - 1);
        record_case(&t, p, INDIRECT, 0, 64, 4, MAX_N + 12345); /* clamped to max_count */
    }
    /* A small plan: an indirect count above it is clamped; ranges sized for max_count only. */
    PlanInfo small;
    if (buffers && plan_create(&t, VKALGO_SCAN_INCLUSIVE, VKALGO_SCAN_PATH_AUTO, 5000, &small)) {
        record_case(&t, &small, INDIRECT, 0, 64, 4, 4097);
        record_case(&t, &small, INDIRECT, 0, 64, 4, 6000);
        record_case(&t, &small, DIRECT, 5000, 64, 4, 0);
        vkalgo_scan_plan_destroy(small.plan);
    }
    if (nplans >= 2) {
        record_chained(&t, &plans[0], &plans[nplans - 1], 300007);
    }
    if (nplans >= 1) {
        record_bad_input(&t, &plans[0]);
        record_bad_input(&t, &plans[nplans - 1]);
        sort_record_case(&t);
        plan_bad_input(&t);
    }
    if (buffers) {
        printf("-- more than 4096 tiles\n");
        record_large(&t, VKALGO_SCAN_PATH_REDUCE_THEN_SCAN, (uint64_t)4096 * 4097 + 123);
        record_large(&t, VKALGO_SCAN_PATH_LOOKBACK, (uint64_t)4096 * 4097 + 123);
    }

    printf("-- host call on the external context (its queue)\n");
    int taken_before = queue_lock_state.taken;
    host_scan_case(t.ctx, VKALGO_SCAN_INCLUSIVE, 100003, false, "scan_host inclusive (external)");
    check(queue_lock_state.taken > taken_before && !queue_lock_state.held, "  the caller's queue lock was taken and released");

    for (int i = 0; i < nplans; i++) {
        vkalgo_scan_plan_destroy(plans[i].plan);
    }
    vkalgo_context_destroy(t.ctx); /* before the device */
    buffer_destroy(&gpu, &t.in);
    buffer_destroy(&gpu, &t.out);
    buffer_destroy(&gpu, &t.scratch);
    buffer_destroy(&gpu, &t.count);
    free(t.want_in);
    free(t.want_out);
    gpu_destroy(&gpu);
    check(g_validation_messages == 0, "validation messages on the test's own instance: %u", g_validation_messages);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    double t0 = now_s();
    test_static_calls();
    test_host();
    test_record();
    printf("== %u checks, %u failures, %.1f s\n", g_checks, g_failures, now_s() - t0);
    return g_failures == 0 ? 0 : 1;
}
