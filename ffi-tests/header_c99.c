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
/* The typed enums: 32 bits wide (their _MAX_ENUM is 0x7FFFFFFF), enumerator values as the Rust side reads them. */
STATIC_CHECK(sizeof(VkalgoKeyType) == 4 && sizeof(VkalgoValueType) == 4 && sizeof(VkalgoScanOp) == 4);
STATIC_CHECK(sizeof(VkalgoScanPath) == 4 && sizeof(VkalgoSortPath) == 4 && sizeof(VkalgoBucketFn) == 4);
STATIC_CHECK(sizeof(VkalgoMultisplitPath) == 4 && sizeof(VkalgoMergePath) == 4 && sizeof(VkalgoSetOp) == 4);
STATIC_CHECK(sizeof(VkalgoSortedSetOpPath) == 4 && sizeof(VkalgoHashStatus) == 4);
STATIC_CHECK(VKALGO_KEY_TYPE_MAX_ENUM == 0x7FFFFFFF && VKALGO_HASH_STATUS_MAX_ENUM == 0x7FFFFFFF);
STATIC_CHECK(VKALGO_SCAN_EXCLUSIVE == 0 && VKALGO_SCAN_INCLUSIVE == 1);
STATIC_CHECK(VKALGO_SCAN_PATH_AUTO == 0 && VKALGO_SCAN_PATH_LOOKBACK == 1 && VKALGO_SCAN_PATH_REDUCE_THEN_SCAN == 2 &&
             VKALGO_SCAN_PATH_SMALL == 3);
STATIC_CHECK(VKALGO_MERGE_PATH_AUTO == 0 && VKALGO_MERGE_PATH_PARTITIONED == 1 && VKALGO_MERGE_PATH_FUSED == 2);
STATIC_CHECK(VKALGO_SORTED_SET_OP_PATH_AUTO == 0 && VKALGO_SORTED_SET_OP_PATH_LOOKBACK == 1 &&
             VKALGO_SORTED_SET_OP_PATH_COUNT_SCAN_WRITE == 2);
STATIC_CHECK(VKALGO_MULTISPLIT_PATH_AUTO == 0 && VKALGO_MULTISPLIT_PATH_GLOBAL_COUNTERS == 2 &&
             VKALGO_MULTISPLIT_PATH_SMALL == 3 && VKALGO_MULTISPLIT_PATH_TILE_DIRECT == 5 &&
             VKALGO_MULTISPLIT_PATH_TILE_STAGED == 6 && VKALGO_MULTISPLIT_PATH_ONESWEEP == 7 &&
             VKALGO_MULTISPLIT_PATH_TILE_SUBGROUP_STAGED == 8);
STATIC_CHECK(VKALGO_HASH_STATUS_INSERTED == 0 && VKALGO_HASH_STATUS_UPDATED == 1 && VKALGO_HASH_STATUS_FULL == 2 &&
             VKALGO_HASH_STATUS_RESERVED == 3);
STATIC_CHECK((VKALGO_CONTEXT_DEBUG_UTILS & VKALGO_CONTEXT_LOOKBACK_ON & VKALGO_CONTEXT_LOOKBACK_OFF) == 0);

/* Every desc, args and output struct begins with its `next` pointer. */
STATIC_CHECK(offsetof(VkalgoContextDesc, next) == 0 && offsetof(VkalgoExternalContextDesc, next) == 0);
STATIC_CHECK(offsetof(VkalgoScanDesc, next) == 0 && offsetof(VkalgoScanArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoSortDesc, next) == 0 && offsetof(VkalgoSortArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoMultisplitDesc, next) == 0 && offsetof(VkalgoMultisplitArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoMergeDesc, next) == 0 && offsetof(VkalgoMergeArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoSortedSetOpDesc, next) == 0 && offsetof(VkalgoSortedSetOpArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoMergeSortDesc, next) == 0 && offsetof(VkalgoMergeSortArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoHashMapDesc, next) == 0 && offsetof(VkalgoSetDesc, next) == 0);
STATIC_CHECK(offsetof(VkalgoHashInsertArgs, next) == 0 && offsetof(VkalgoHashFindArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoHashEraseArgs, next) == 0 && offsetof(VkalgoHashRetrieveArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoHashSizeArgs, next) == 0 && offsetof(VkalgoHashRehashArgs, next) == 0);
STATIC_CHECK(offsetof(VkalgoMemoryRequirements, next) == 0 && offsetof(VkalgoMemoryUsage, next) == 0 &&
             offsetof(VkalgoHashMapStats, next) == 0);

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
STATIC_CHECK(sizeof(VkalgoBufferRange) == 24);
STATIC_CHECK(offsetof(VkalgoBufferRange, offset) == 8 && offsetof(VkalgoBufferRange, size) == 16);
STATIC_CHECK(sizeof(VkalgoScanDesc) == 40 && offsetof(VkalgoScanDesc, flags) == 24);
STATIC_CHECK(offsetof(VkalgoScanDesc, key_type) == 28 && offsetof(VkalgoScanDesc, combine) == 32);
STATIC_CHECK(offsetof(VkalgoScanDesc, op) == 8 && offsetof(VkalgoScanDesc, path) == 12 &&
             offsetof(VkalgoScanDesc, max_count) == 16);
STATIC_CHECK(sizeof(VkalgoBufferRequirements) == 24);
STATIC_CHECK(offsetof(VkalgoBufferRequirements, alignment) == 8 && offsetof(VkalgoBufferRequirements, usage) == 16);
STATIC_CHECK(sizeof(VkalgoMemoryRequirements) == 128);
STATIC_CHECK(offsetof(VkalgoMemoryRequirements, scratch) == 8 && offsetof(VkalgoMemoryRequirements, keys_alt) == 32);
STATIC_CHECK(offsetof(VkalgoMemoryRequirements, values_alt) == 56 && offsetof(VkalgoMemoryRequirements, offsets) == 80);
STATIC_CHECK(offsetof(VkalgoMemoryRequirements, storage) == 104);
STATIC_CHECK(sizeof(VkalgoScanArgs) == 112 && offsetof(VkalgoScanArgs, input) == 8);
STATIC_CHECK(offsetof(VkalgoScanArgs, output) == 32 && offsetof(VkalgoScanArgs, scratch) == 56);
STATIC_CHECK(offsetof(VkalgoScanArgs, count) == 80 && offsetof(VkalgoScanArgs, count_buffer) == 88);
STATIC_CHECK(sizeof(VkalgoExternalContextDesc) == 112);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, instance) == 8);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, physical_device) == 16);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, device) == 24);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue_family_index) == 32);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue) == 40);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, get_instance_proc_addr) == 48);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, pipeline_cache) == 56);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, flags) == 64);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, timeout_ns) == 72);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue_lock) == 80);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, queue_lock_user_data) == 88);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, pipeline_cache_data) == 96);
STATIC_CHECK(offsetof(VkalgoExternalContextDesc, pipeline_cache_data_size) == 104);
STATIC_CHECK(sizeof(VkalgoContextDesc) == 24 && offsetof(VkalgoContextDesc, pipeline_cache_data_size) == 16);
STATIC_CHECK(sizeof(VkalgoMemoryUsage) == 24 && offsetof(VkalgoMemoryUsage, reserved_bytes) == 16);
STATIC_CHECK(sizeof(VkalgoHashMapDesc) == 24 && offsetof(VkalgoHashMapDesc, capacity) == 16);
STATIC_CHECK(sizeof(VkalgoHashMapStats) == 32 && offsetof(VkalgoHashMapStats, tombstones) == 16);
STATIC_CHECK(sizeof(VkalgoSetDesc) == 16 && offsetof(VkalgoSetDesc, array_blocks) == 12);
STATIC_CHECK(sizeof(VkalgoSortDesc) == 40 && offsetof(VkalgoSortDesc, path) == 28 &&
             offsetof(VkalgoSortDesc, max_count) == 32);
STATIC_CHECK(sizeof(VkalgoSortArgs) == 168 && offsetof(VkalgoSortArgs, result_in_alternate) == 160);
STATIC_CHECK(sizeof(VkalgoMergeDesc) == 48 && offsetof(VkalgoMergeDesc, max_a) == 24 &&
             offsetof(VkalgoMergeDesc, path) == 40);
STATIC_CHECK(sizeof(VkalgoSortedSetOpDesc) == 40 && offsetof(VkalgoSortedSetOpDesc, max_a) == 16 &&
             offsetof(VkalgoSortedSetOpDesc, path) == 32);
STATIC_CHECK(sizeof(VkalgoMultisplitDesc) == 88 && offsetof(VkalgoMultisplitDesc, params) == 56 &&
             offsetof(VkalgoMultisplitDesc, max_count) == 72 && offsetof(VkalgoMultisplitDesc, path) == 80);
#endif

int main(void) {
    /* The opaque handles stay incomplete types: only pointers to them exist. */
    VkalgoContext *ctx = NULL;
    VkalgoScanPlan *plan = NULL;
    /* Zero-initialized, then set by name (C99 designated initializers): later fields may come. */
    VkalgoScanArgs args = {0};
    VkalgoScanDesc desc = {.op = VKALGO_SCAN_INCLUSIVE, .path = VKALGO_SCAN_PATH_AUTO, .max_count = 1000};
    VkalgoMemoryRequirements req = {0};
    VkalgoResult r = VKALGO_ERROR_UNSUPPORTED;
    args.count = desc.max_count;
    printf("vkalgo.h %d.%d.%d compiles as C99; ScanArgs %u bytes, ExternalContextDesc %u bytes, "
           "MemoryRequirements %u bytes%s\n",
           VKALGO_VERSION_MAJOR, VKALGO_VERSION_MINOR, VKALGO_VERSION_PATCH, (unsigned)sizeof args,
           (unsigned)sizeof(VkalgoExternalContextDesc), (unsigned)sizeof req,
           ctx == NULL && plan == NULL && r < 0 && args.next == NULL && req.next == NULL && args.count == 1000 ? "" : "?");
    return 0;
}
