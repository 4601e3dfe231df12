/* Shared by the C tests of ffi-tests/: reporting (every check printed, failures counted),
 * result checks with the thread-local message, a deterministic generator, a timer and a
 * checked allocator. Define TEST_RNG_SEED before including it to pick the data. */
#ifndef VKALGO_FFI_CHECK_H
#define VKALGO_FFI_CHECK_H

#include <vkalgo.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TEST_RNG_SEED
#define TEST_RNG_SEED 0x5eed5eed12345678ull
#endif

static unsigned g_checks;
static unsigned g_failures;
static uint64_t g_rng = TEST_RNG_SEED;

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

static inline bool check(bool ok, const char *fmt, ...) PRINTF_LIKE(2, 3);
static inline bool check(bool ok, const char *fmt, ...) {
    va_list ap;
    g_checks++;
    if (!ok) {
        g_failures++;
    }
    fputs(ok ? "  ok    " : "  FAIL  ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    return ok;
}

static inline const char *result_name(VkalgoResult r) {
    const char *s = vkalgo_result_string(r);
    return s ? s : "(NULL)";
}

/* A vkalgo result as expected; errors need a message, successes an empty one. */
static inline bool expect(VkalgoResult got, VkalgoResult want, const char *what) {
    const char *msg = vkalgo_last_error_message();
    if (got != want) {
        return check(false, "%s -> %s, want %s (message: \"%s\")", what, result_name(got), result_name(want),
                     msg ? msg : "(NULL)");
    }
    if (want != VKALGO_SUCCESS) {
        return check(msg != NULL && msg[0] != '\0', "%s -> %s (message: \"%s\")", what, result_name(got),
                     msg ? msg : "(NULL)");
    }
    return check(msg != NULL && msg[0] == '\0', "%s -> %s", what, result_name(got));
}

/* Seconds on a monotonic-enough clock, for progress output. */
static inline double now_s(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SplitMix64: small, fast, deterministic. */
static inline uint64_t rng_u64(void) {
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Zeroed (calloc): no buffer is ever read uninitialized; exits on failure. */
static inline void *xmalloc(size_t bytes) {
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* A test program's part that runs on a context. */
typedef void (*context_test)(VkalgoContext *ctx);

/* The main of a test program: runs `tests` in order on one default context, checks that the
   validation layer reported nothing, prints the totals. Returns the exit status. */
static inline int run_on_default_context(const context_test *tests, size_t count) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const double t0 = now_s();
    VkalgoContext *ctx = NULL;
    if (!expect(vkalgo_context_create_default(&ctx), VKALGO_SUCCESS, "vkalgo_context_create_default") || !ctx) {
        printf("== %u checks, %u failures\n", g_checks, g_failures);
        return 1;
    }
    printf("  info  device \"%s\"\n", vkalgo_context_device_name(ctx));
    for (size_t i = 0; i < count; i++) tests[i](ctx);
    const uint64_t messages = vkalgo_context_validation_message_count(ctx);
    check(messages == 0, "validation messages of the default context: %llu", (unsigned long long)messages);
    vkalgo_context_destroy(ctx);
    printf("== %u checks, %u failures, %.1f s\n", g_checks, g_failures, now_s() - t0);
    return g_failures == 0 ? 0 : 1;
}

#endif
