//! The C enumerations as the header declares them. cbindgen writes each enum here as a typed C
//! enum (`typedef enum VkalgoKeyType { ... } VkalgoKeyType;`) whose `_MAX_ENUM` of 0x7FFFFFFF
//! keeps it 32 bits wide, as Vulkan's do. The Rust structs hold the same names as `u32`
//! newtypes ([`crate::types`], made by a macro that cbindgen does not expand), so that whatever
//! value a C caller stores is read safely and an unknown one is refused.

/// Key type of sorts, merges, multisplits and hash maps.
#[repr(C)]
pub enum VkalgoKeyType {
    /// Unsigned 32-bit integers.
    VkalgoKeyU32 = 0,
    /// Signed 32-bit integers (not hash maps).
    VkalgoKeyI32 = 1,
    /// 32-bit floats in IEEE-754 totalOrder (not hash maps).
    VkalgoKeyF32 = 2,
    /// Unsigned 64-bit integers.
    VkalgoKeyU64 = 3,
    /// Signed 64-bit integers (not hash maps).
    VkalgoKeyI64 = 4,
    /// 64-bit floats in IEEE-754 totalOrder (not hash maps).
    VkalgoKeyF64 = 5,
    /// Keeps the enum 32 bits wide; not a key type.
    VkalgoKeyTypeMaxEnum = 0x7FFF_FFFF,
}

/// Value (payload) type.
#[repr(C)]
pub enum VkalgoValueType {
    /// No values: keys only (not hash maps).
    VkalgoValueNone = 0,
    /// 32-bit values.
    VkalgoValueU32 = 1,
    /// 64-bit values.
    VkalgoValueU64 = 2,
    /// Keeps the enum 32 bits wide; not a value type.
    VkalgoValueTypeMaxEnum = 0x7FFF_FFFF,
}

/// Set operation of sorted-array set operations and bitmap sets.
#[repr(C)]
pub enum VkalgoSetOp {
    /// Intersection.
    VkalgoSetAnd = 0,
    /// Union.
    VkalgoSetOr = 1,
    /// Difference, a minus b.
    VkalgoSetAndnot = 2,
    /// Symmetric difference.
    VkalgoSetXor = 3,
    /// Keeps the enum 32 bits wide; not an operation.
    VkalgoSetOpMaxEnum = 0x7FFF_FFFF,
}

/// An operation that combines values: the hash map's insert-or-apply (unsigned values) and the
/// reductions.
#[repr(C)]
pub enum VkalgoReduceOp {
    /// The sum (integers wrap).
    VkalgoOpSum = 0,
    /// The smaller.
    VkalgoOpMin = 1,
    /// The larger.
    VkalgoOpMax = 2,
    /// Keeps the enum 32 bits wide; not an operation.
    VkalgoReduceOpMaxEnum = 0x7FFF_FFFF,
}

/// Scan operation.
#[repr(C)]
pub enum VkalgoScanOp {
    /// Exclusive sum: `out[i]` is the sum of the elements before `i`.
    VkalgoScanExclusive = 0,
    /// Inclusive sum: `out[i]` is the sum of the elements up to `i`.
    VkalgoScanInclusive = 1,
    /// Keeps the enum 32 bits wide; not an operation.
    VkalgoScanOpMaxEnum = 0x7FFF_FFFF,
}

/// Which kernels a scan records.
#[repr(C)]
pub enum VkalgoScanPath {
    /// The device profile decides.
    VkalgoScanPathAuto = 0,
    /// Single-pass decoupled look-back.
    VkalgoScanPathLookback = 1,
    /// Reduce-then-scan (no inter-workgroup waiting).
    VkalgoScanPathReduceThenScan = 2,
    /// One workgroup scans everything in one dispatch (lowest latency for small counts).
    VkalgoScanPathSmall = 3,
    /// Keeps the enum 32 bits wide; not a path.
    VkalgoScanPathMaxEnum = 0x7FFF_FFFF,
}

/// Which kernels a radix sort records.
#[repr(C)]
pub enum VkalgoSortPath {
    /// Small counts on one workgroup, else Onesweep where the device profile allows
    /// inter-workgroup waiting, else the safe path.
    VkalgoSortPathAuto = 0,
    /// Onesweep with a circular look-back buffer.
    VkalgoSortPathOnesweep = 1,
    /// Count, scan, scatter per digit (no inter-workgroup waiting).
    VkalgoSortPathSafe = 2,
    /// One workgroup for everything (small counts only).
    VkalgoSortPathSmall = 3,
    /// Keeps the enum 32 bits wide; not a path.
    VkalgoSortPathMaxEnum = 0x7FFF_FFFF,
}

/// How a multisplit finds an element's bucket.
#[repr(C)]
pub enum VkalgoBucketFn {
    /// `(ordered key bits >> bit_offset) & (bucket_count - 1)`, bucket_count a power of two.
    VkalgoBucketBits = 0,
    /// The number of the `bucket_count - 1` splitters `<=` the key (sort order).
    VkalgoBucketSplitters = 1,
    /// One caller-given u32 bucket id per element.
    VkalgoBucketIds = 2,
    /// GLSL source defining `uint vkalgo_bucket(T key)`, compiled at run time.
    VkalgoBucketGlsl = 3,
    /// Keeps the enum 32 bits wide; not a bucket function.
    VkalgoBucketFnMaxEnum = 0x7FFF_FFFF,
}

/// Which kernels a multisplit records.
#[repr(C)]
pub enum VkalgoMultisplitPath {
    /// The device profile, bucket count and bucket function decide.
    VkalgoMultisplitPathAuto = 0,
    /// Count matrix in global memory (any bucket count).
    VkalgoMultisplitPathGlobalCounters = 2,
    /// One workgroup, one dispatch (counts up to the plan's small limit).
    VkalgoMultisplitPathSmall = 3,
    /// Workgroup tiles written straight to their places.
    VkalgoMultisplitPathTileDirect = 5,
    /// Workgroup tiles staged in shared memory in bucket order.
    VkalgoMultisplitPathTileStaged = 6,
    /// The sort's Onesweep with the bucket as its digit (devices with 64-bit atomics).
    VkalgoMultisplitPathOnesweep = 7,
    /// Workgroup tiles staged per subgroup (bucket counts up to the subgroup size).
    VkalgoMultisplitPathTileSubgroupStaged = 8,
    /// Keeps the enum 32 bits wide; not a path.
    VkalgoMultisplitPathMaxEnum = 0x7FFF_FFFF,
}

/// Which kernels a merge records.
#[repr(C)]
pub enum VkalgoMergePath {
    /// Fused for small merges, partitioned above.
    VkalgoMergePathAuto = 0,
    /// A partition kernel writes the tile table, then the merge kernel runs.
    VkalgoMergePathPartitioned = 1,
    /// One dispatch: every workgroup finds its tile's co-ranks itself.
    VkalgoMergePathFused = 2,
    /// Keeps the enum 32 bits wide; not a path.
    VkalgoMergePathMaxEnum = 0x7FFF_FFFF,
}

/// Which kernels a sorted-array set operation records.
#[repr(C)]
pub enum VkalgoSortedSetOpPath {
    /// Look-back where the device profile allows inter-workgroup waiting, else count, scan,
    /// write.
    VkalgoSortedSetOpPathAuto = 0,
    /// One pass after the partition, output offsets by decoupled look-back.
    VkalgoSortedSetOpPathLookback = 1,
    /// Count, scan, merge again and write (no inter-workgroup waiting).
    VkalgoSortedSetOpPathCountScanWrite = 2,
    /// Keeps the enum 32 bits wide; not a path.
    VkalgoSortedSetOpPathMaxEnum = 0x7FFF_FFFF,
}

/// Per-key status of a hash-map insert (u32 codes the GPU writes).
#[repr(C)]
pub enum VkalgoHashStatus {
    /// The key was new and is now in the map.
    VkalgoHashStatusInserted = 0,
    /// The key was present (or inserted by another occurrence in the batch); its value was
    /// overwritten.
    VkalgoHashStatusUpdated = 1,
    /// No free slot within the probe bound; the key was not stored.
    VkalgoHashStatusFull = 2,
    /// A reserved key (the two largest values of the key type); not stored.
    VkalgoHashStatusReserved = 3,
    /// Keeps the enum 32 bits wide; not a status.
    VkalgoHashStatusMaxEnum = 0x7FFF_FFFF,
}

/// The type of an extension structure chained through a desc's `next` pointer
/// (`VkalgoExtensionHeader::structure_type`).
#[repr(C)]
pub enum VkalgoStructureType {
    /// `VkalgoKeepScratchZeroed`.
    VkalgoStructureTypeKeepScratchZeroed = 1,
    /// `VkalgoSegmentLengthBound`.
    VkalgoStructureTypeSegmentLengthBound = 2,
    /// Keeps the enum 32 bits wide; not a structure type.
    VkalgoStructureTypeMaxEnum = 0x7FFF_FFFF,
}
