/* vkalgo.h must compile on its own as strict C99 (-std=c99 -pedantic -Werror). This program uses
 * only what the header declares (no library function is called, nothing is linked): it checks
 * the constants and, on LP64 targets, the struct layouts the Rust side (#[repr(C)]) assumes. */
#include <vkalgo.h>

#include <stddef.h>
#include <stdio.h>

#define VKALGO_CAT_(a, b) a##b
#define VKALGO_CAT(a, b) VKALGO_CAT_(a, b)
/* C99 has no _Static_assert: a negative array size fails the build. */
#define STATIC_CHECK(cond) typedef char VKALGO_CAT(static_check_line_, __LINE__)[(cond) ? 1 : -1]

/* The package's version (CMake's vkalgo_VERSION_*, pkg-config's modversion), passed in. */
#if !defined(EXPECT_VERSION_MAJOR) || !defined(EXPECT_VERSION_MINOR) || !defined(EXPECT_VERSION_PATCH)
#error "compile with -DEXPECT_VERSION_MAJOR=... -DEXPECT_VERSION_MINOR=... -DEXPECT_VERSION_PATCH=..."
#endif
STATIC_CHECK(VKALGO_VERSION_MAJOR == EXPECT_VERSION_MAJOR && VKALGO_VERSION_MINOR == EXPECT_VERSION_MINOR &&
             VKALGO_VERSION_PATCH == EXPECT_VERSION_PATCH);
STATIC_CHECK(sizeof(VkalgoResult) == 4);
STATIC_CHECK(VKALGO_SUCCESS == 0 && VKALGO_ERROR_INVALID_ARGUMENT == -1 && VKALGO_ERROR_INTERNAL == -9);
STATIC_CHECK(VKALGO_SCAN_EXCLUSIVE == 0 && VKALGO_SCAN_INCLUSIVE == 1);
STATIC_CHECK(VKALGO_SCAN_PATH_AUTO == 0 && VKALGO_SCAN_PATH_LOOKBACK == 1 && VKALGO_SCAN_PATH_REDUCE_THEN_SCAN == 2);
STATIC_CHECK((VKALGO_CONTEXT_DEBUG_UTILS & VKALGO_CONTEXT_LOOKBACK_ON & VKALGO_CONTEXT_LOOKBACK_OFF) == 0);

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
STATIC_CHECK(sizeof(VkalgoBufferRange) == 24);
STATIC_CHECK(offsetof(VkalgoBufferRange, offset) == 8 && offsetof(VkalgoBufferRange, size) == 16);
STATIC_CHECK(sizeof(VkalgoScanDesc) == 24 && offsetof(VkalgoScanDesc, flags) == 16);
STATIC_CHECK(offsetof(VkalgoScanDesc, path) == 4 && offsetof(VkalgoScanDesc, max_count) == 8);
STATIC_CHECK(sizeof(VkalgoMemoryRequirements) == 24);
STATIC_CHECK(offsetof(VkalgoMemoryRequirements, scratch_alignment) == 8);
STATIC_CHECK(offsetof(VkalgoMemoryRequirements, scratch_usage) == 16);
STATIC_CHECK(sizeof(VkalgoScanArgs) == 104);
STATIC_CHECK(offsetof(VkalgoScanArgs, output) == 24 && offsetof(VkalgoScanArgs, scratch) == 48);
STATIC_CHECK(offsetof(VkalgoScanArgs, count) == 72 && offsetof(VkalgoScanArgs, count_buffer) == 80);
STATIC_CHECK(sizeof(VkalgoExternalContextDesc) == 104);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, physical_device) == 8);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, device) == 16);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue_family_index) == 24);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue) == 32);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, get_instance_proc_addr) == 40);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, pipeline_cache) == 48);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, flags) == 56);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, timeout_ns) == 64);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue_lock) == 72);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue_lock_user_data) == 80);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, pipeline_cache_data) == 88);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, pipeline_cache_data_size) == 96);
STATIC_CHECK(sizeof(VkalgoContextDesc) == 16);
STATIC_CHECK(sizeof(VkalgoMemoryUsage) == 16 && offsetof(VkalgoMemoryUsage, reserved_bytes) == 8);
STATIC_CHECK(sizeof(VkalgoStorageRequirements) == 24);
#endif

int main(void) {
    /* The opaque handles stay incomplete types: only pointers to them exist. */
    VkalgoContext *ctx = NULL;
    VkalgoScanPlan *plan = NULL;
    VkalgoScanArgs args = {{VK_NULL_HANDLE, 0, 0}, {VK_NULL_HANDLE, 0, 0}, {VK_NULL_HANDLE, 0, 0}, 0,
                           {VK_NULL_HANDLE, 0, 0}};
    VkalgoResult r = VKALGO_ERROR_UNSUPPORTED;
    printf("vkalgo.h %d.%d.%d compiles as C99; ScanArgs %u bytes, ExternalContextDesc %u bytes%s\n",
           VKALGO_VERSION_MAJOR, VKALGO_VERSION_MINOR, VKALGO_VERSION_PATCH, (unsigned)sizeof args,
           (unsigned)sizeof(VkalgoExternalContextDesc), ctx == NULL && plan == NULL && r < 0 ? "" : "?");
    return 0;
}
