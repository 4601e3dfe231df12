//! Vulkan handle types as the C header sees them (declared by `<vulkan/vulkan_core.h>`, so
//! cbindgen does not emit them) and the C structs shared by several algorithms.

use ash::vk;
use std::ffi::{c_char, c_void};

/// Dispatchable Vulkan handle (a pointer in C).
macro_rules! dispatchable {
    ($($name:ident => $ash:ty),*) => {$(
        #[doc = concat!("`", stringify!($name), "` from vulkan_core.h.")]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub *mut c_void);
        impl $name {
            pub(crate) fn to_vk(self) -> $ash {
                <$ash as vk::Handle>::from_raw(self.0 as u64)
            }
        }
    )*};
}

/// Non-dispatchable Vulkan handle (64-bit).
macro_rules! non_dispatchable {
    ($($name:ident => $ash:ty),*) => {$(
        #[doc = concat!("`", stringify!($name), "` from vulkan_core.h.")]
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub u64);
        impl $name {
            pub(crate) fn to_vk(self) -> $ash {
                <$ash as vk::Handle>::from_raw(self.0)
            }
        }
    )*};
}

dispatchable!(VkInstance => vk::Instance, VkPhysicalDevice => vk::PhysicalDevice, VkDevice => vk::Device,
    VkQueue => vk::Queue, VkCommandBuffer => vk::CommandBuffer);
non_dispatchable!(VkBuffer => vk::Buffer, VkPipelineCache => vk::PipelineCache);

/// `VkDeviceSize` from vulkan_core.h.
pub type VkDeviceSize = u64;
/// `VkBufferUsageFlags` from vulkan_core.h.
pub type VkBufferUsageFlags = u32;
/// `PFN_vkGetInstanceProcAddr` from vulkan_core.h.
#[allow(non_camel_case_types)]
pub type PFN_vkGetInstanceProcAddr =
    Option<unsafe extern "system" fn(VkInstance, *const c_char) -> *const c_void>;

/// A range of a buffer created with `VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
/// VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT` (a segmented sort's scratch also with
/// `VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT`: the usage its memory requirements report); offset
/// and size in bytes. A range that ends
/// past the buffer's memory requirements (the most Vulkan tells of its size) is refused with
/// VKALGO_ERROR_INVALID_ARGUMENT before anything is recorded; within them it must lie in the
/// buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoBufferRange {
    /// The buffer (VK_NULL_HANDLE: no range).
    pub buffer: VkBuffer,
    /// First byte of the range.
    pub offset: VkDeviceSize,
    /// Bytes in the range.
    pub size: VkDeviceSize,
}

impl VkalgoBufferRange {
    pub(crate) fn to_rust(self) -> vkalgo::BufferRange {
        vkalgo::BufferRange::new(self.buffer.to_vk(), self.offset, self.size)
    }

    /// The range, or `None` for an optional one left out (buffer VK_NULL_HANDLE).
    pub(crate) fn to_rust_optional(self) -> Option<vkalgo::BufferRange> {
        (self.buffer.0 != 0).then(|| self.to_rust())
    }
}

/// What one range the caller provides must be (size 0: the range is not needed).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VkalgoBufferRequirements {
    /// Bytes of the range (0: not needed).
    pub size: VkDeviceSize,
    /// Alignment of the range's offset (and device address).
    pub alignment: VkDeviceSize,
    /// Usage flags its buffer must have.
    pub usage: VkBufferUsageFlags,
}

impl From<vkalgo::BufferRequirements> for VkalgoBufferRequirements {
    fn from(r: vkalgo::BufferRequirements) -> Self {
        VkalgoBufferRequirements {
            size: r.size,
            alignment: r.alignment,
            usage: r.usage.as_raw(),
        }
    }
}

/// What a plan or an object needs of the caller's memory besides its inputs and outputs: the
/// same struct for every `_memory_requirements` call, one named range each (size 0 where the
/// algorithm does not use it).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMemoryRequirements {
    /// Reserved for extension structs: set it to NULL.
    pub next: *mut c_void,
    /// Scratch memory of a record call.
    pub scratch: VkalgoBufferRequirements,
    /// Alternate keys (sorts): the result may end there.
    pub keys_alt: VkalgoBufferRequirements,
    /// Alternate values (sorts with values).
    pub values_alt: VkalgoBufferRequirements,
    /// The bucket offsets a multisplit writes (`bucket_count + 1` u32).
    pub offsets: VkalgoBufferRequirements,
    /// The storage of an object created in the caller's memory (`_create_in`).
    pub storage: VkalgoBufferRequirements,
}

/// Writes `r` to `out` (its `next` must be NULL).
pub(crate) unsafe fn write_requirements(
    out: *mut VkalgoMemoryRequirements,
    r: vkalgo::MemoryRequirements,
) -> vkalgo::Result<()> {
    crate::non_null(out, "out")?;
    crate::no_extension((*out).next, "memory requirements")?;
    *out = VkalgoMemoryRequirements {
        next: std::ptr::null_mut(),
        scratch: r.scratch.into(),
        keys_alt: r.keys_alt.into(),
        values_alt: r.values_alt.into(),
        offsets: r.offsets.into(),
        storage: r.storage.into(),
    };
    Ok(())
}

/// The `u32` face of a C enum of [`crate::enums`] (same name), with the constants of its
/// enumerators: C callers may store any value in the field, so Rust reads a `u32` and refuses
/// unknown ones.
macro_rules! c_enum_field {
    ($(#[$doc:meta])* $name:ident { $($constant:ident = $variant:ident),* $(,)? }) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub u32);
        $(
            #[doc = concat!("`", stringify!($constant), "` of the C enum `", stringify!($name), "`.")]
            pub const $constant: $name = $name(crate::enums::$name::$variant as u32);
        )*
    };
}

c_enum_field!(
    /// `VkalgoKeyType` as a C caller stores it.
    VkalgoKeyType {
        VKALGO_KEY_U32 = VkalgoKeyU32,
        VKALGO_KEY_I32 = VkalgoKeyI32,
        VKALGO_KEY_F32 = VkalgoKeyF32,
        VKALGO_KEY_U64 = VkalgoKeyU64,
        VKALGO_KEY_I64 = VkalgoKeyI64,
        VKALGO_KEY_F64 = VkalgoKeyF64,
    }
);
c_enum_field!(
    /// `VkalgoValueType` as a C caller stores it.
    VkalgoValueType {
        VKALGO_VALUE_NONE = VkalgoValueNone,
        VKALGO_VALUE_U32 = VkalgoValueU32,
        VKALGO_VALUE_U64 = VkalgoValueU64,
    }
);
c_enum_field!(
    /// `VkalgoSetOp` as a C caller stores it.
    VkalgoSetOp {
        VKALGO_SET_AND = VkalgoSetAnd,
        VKALGO_SET_OR = VkalgoSetOr,
        VKALGO_SET_ANDNOT = VkalgoSetAndnot,
        VKALGO_SET_XOR = VkalgoSetXor,
    }
);
c_enum_field!(
    /// `VkalgoReduceOp` as a C caller stores it (the calls that take it name the field `uint32_t`).
    VkalgoReduceOp {
        VKALGO_OP_SUM = VkalgoOpSum,
        VKALGO_OP_MIN = VkalgoOpMin,
        VKALGO_OP_MAX = VkalgoOpMax,
    }
);
c_enum_field!(
    /// `VkalgoStructureType` as a C caller stores it.
    VkalgoStructureType {
        VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED = VkalgoStructureTypeKeepScratchZeroed,
        VKALGO_STRUCTURE_TYPE_SEGMENT_LENGTH_BOUND = VkalgoStructureTypeSegmentLengthBound,
    }
);
c_enum_field!(
    /// `VkalgoScanOp` as a C caller stores it.
    VkalgoScanOp {
        VKALGO_SCAN_EXCLUSIVE = VkalgoScanExclusive,
        VKALGO_SCAN_INCLUSIVE = VkalgoScanInclusive,
    }
);
c_enum_field!(
    /// `VkalgoScanPath` as a C caller stores it.
    VkalgoScanPath {
        VKALGO_SCAN_PATH_AUTO = VkalgoScanPathAuto,
        VKALGO_SCAN_PATH_LOOKBACK = VkalgoScanPathLookback,
        VKALGO_SCAN_PATH_REDUCE_THEN_SCAN = VkalgoScanPathReduceThenScan,
        VKALGO_SCAN_PATH_SMALL = VkalgoScanPathSmall,
    }
);
c_enum_field!(
    /// `VkalgoSortPath` as a C caller stores it.
    VkalgoSortPath {
        VKALGO_SORT_PATH_AUTO = VkalgoSortPathAuto,
        VKALGO_SORT_PATH_ONESWEEP = VkalgoSortPathOnesweep,
        VKALGO_SORT_PATH_SAFE = VkalgoSortPathSafe,
        VKALGO_SORT_PATH_SMALL = VkalgoSortPathSmall,
    }
);
c_enum_field!(
    /// `VkalgoBucketFn` as a C caller stores it.
    VkalgoBucketFn {
        VKALGO_BUCKET_BITS = VkalgoBucketBits,
        VKALGO_BUCKET_SPLITTERS = VkalgoBucketSplitters,
        VKALGO_BUCKET_IDS = VkalgoBucketIds,
        VKALGO_BUCKET_GLSL = VkalgoBucketGlsl,
    }
);
c_enum_field!(
    /// `VkalgoMultisplitPath` as a C caller stores it.
    VkalgoMultisplitPath {
        VKALGO_MULTISPLIT_PATH_AUTO = VkalgoMultisplitPathAuto,
        VKALGO_MULTISPLIT_PATH_GLOBAL_COUNTERS = VkalgoMultisplitPathGlobalCounters,
        VKALGO_MULTISPLIT_PATH_SMALL = VkalgoMultisplitPathSmall,
        VKALGO_MULTISPLIT_PATH_TILE_DIRECT = VkalgoMultisplitPathTileDirect,
        VKALGO_MULTISPLIT_PATH_TILE_STAGED = VkalgoMultisplitPathTileStaged,
        VKALGO_MULTISPLIT_PATH_ONESWEEP = VkalgoMultisplitPathOnesweep,
        VKALGO_MULTISPLIT_PATH_TILE_SUBGROUP_STAGED = VkalgoMultisplitPathTileSubgroupStaged,
    }
);
c_enum_field!(
    /// `VkalgoMergePath` as a C caller stores it.
    VkalgoMergePath {
        VKALGO_MERGE_PATH_AUTO = VkalgoMergePathAuto,
        VKALGO_MERGE_PATH_PARTITIONED = VkalgoMergePathPartitioned,
        VKALGO_MERGE_PATH_FUSED = VkalgoMergePathFused,
    }
);
c_enum_field!(
    /// `VkalgoSortedSetOpPath` as a C caller stores it.
    VkalgoSortedSetOpPath {
        VKALGO_SORTED_SET_OP_PATH_AUTO = VkalgoSortedSetOpPathAuto,
        VKALGO_SORTED_SET_OP_PATH_LOOKBACK = VkalgoSortedSetOpPathLookback,
        VKALGO_SORTED_SET_OP_PATH_COUNT_SCAN_WRITE = VkalgoSortedSetOpPathCountScanWrite,
    }
);
c_enum_field!(
    /// `VkalgoHashStatus` as the GPU writes it.
    VkalgoHashStatus {
        VKALGO_HASH_STATUS_INSERTED = VkalgoHashStatusInserted,
        VKALGO_HASH_STATUS_UPDATED = VkalgoHashStatusUpdated,
        VKALGO_HASH_STATUS_FULL = VkalgoHashStatusFull,
        VKALGO_HASH_STATUS_RESERVED = VkalgoHashStatusReserved,
    }
);

impl VkalgoKeyType {
    pub(crate) fn to_rust(self) -> vkalgo::Result<vkalgo::KeyType> {
        vkalgo::KeyType::from_raw(self.0)
    }
}

impl VkalgoValueType {
    pub(crate) fn to_rust(self) -> vkalgo::Result<vkalgo::ValueType> {
        vkalgo::ValueType::from_raw(self.0)
    }
}

impl VkalgoSetOp {
    pub(crate) fn to_rust(self) -> vkalgo::Result<vkalgo::SetOp> {
        vkalgo::SetOp::from_raw(self.0)
    }
}

/// A `0`/`1` field as a bool (other values: INVALID_ARGUMENT naming `what`).
pub(crate) fn c_bool(value: u32, what: &str) -> vkalgo::Result<bool> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(vkalgo::Error::invalid(format!(
            "{what} must be 0 or 1, not {other}"
        ))),
    }
}

/// The element count of a record call: `count_buffer` (a u32 read on the GPU) when its buffer
/// is not VK_NULL_HANDLE, else `count`.
pub(crate) fn element_count(count: u64, count_buffer: VkalgoBufferRange) -> vkalgo::ElementCount {
    match count_buffer.to_rust_optional() {
        Some(range) => vkalgo::ElementCount::Indirect(range),
        None => vkalgo::ElementCount::Direct(count),
    }
}
