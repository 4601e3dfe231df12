//! # vkalgo
//!
//! GPU data-organization algorithms on Vulkan: prefix scan ([`scan`]), radix sort ([`sort`]),
//! stable multisplit into buckets ([`split`]), merge and set operations on sorted arrays
//! ([`merge`]), a GPU hash map ([`HashMap`], module [`hash`]), sets of u32 in Roaring-style
//! chunks ([`GpuSet`], module [`set`]) and sets of u64 over them ([`GpuSet64`], module
//! [`set64`]).
//!
//! Three layers, one implementation:
//! - **Record layer** for engines: plan once, then record passes into your own command
//!   buffer on your own `{VkBuffer, offset, size}` ranges ([`ScanPlan::record`],
//!   [`SortPlan::record`], [`SplitPlan::record`], [`GpuSet::record_op`], ...).
//! - **Host convenience layer**: blocking calls on host slices ([`Context::scan_u32`],
//!   [`Context::sort`], [`Context::sort_pairs`], [`Context::multisplit`], [`Context::merge`],
//!   [`GpuSet::from_values`], ...).
//! - **C ABI** (`include/vkalgo.h`) and a CMake package over both.
//!
//! ## Quick start
//! ```
//! use vkalgo::{Context, ScanOp};
//! let ctx = Context::new()?; // finds the Vulkan loader, picks the best device
//! let input: Vec<u32> = (0..1_000_000).map(|i| i % 7).collect();
//! let mut output = vec![0u32; input.len()];
//! ctx.scan_u32(&input, &mut output, ScanOp::Exclusive)?;
//! assert_eq!(output[3], 0 + 1 + 2);
//!
//! // Stable radix sort of keys with payloads (any of u32, i32, f32, u64, i64, f64 keys).
//! let mut keys = vec![5i64, -7, 5, 0];
//! let mut values = vec![0u32, 1, 2, 3];
//! ctx.sort_pairs(&mut keys, &mut values)?;
//! assert_eq!((keys, values), (vec![-7, 0, 5, 5], vec![1, 3, 0, 2]));
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! ## Lifetimes and threads
//! - [`Context`] is a shared handle (`Clone`, `Send + Sync`): every object created from it
//!   ([`HashMap`], plans, [`GpuBuffer`]) holds a clone, so nothing dangles whatever the drop
//!   order; the device is destroyed with the last handle.
//! - Host calls (`ctx.sort`, `map.insert`, ...) may come from several threads at once; on one
//!   context they are serialized on its queue. Record calls (`plan.record`, `map.record_*`) are
//!   `unsafe fn`: they record into the caller's command buffer, which the caller owns and
//!   orders. Plans are immutable and shareable. A [`HashMap`] takes `&mut self` only to change
//!   its storage ([`HashMap::rehash`]); every other call takes `&self`.
//! - On an external context ([`Context::from_external`]) host calls submit to the caller's
//!   queue under the caller's lock ([`ExternalContextDesc::queue_lock`]); without one they fail
//!   with [`Error::InvalidArgument`].
//! - A host call that times out marks the context lost ([`Context::is_lost`]): later host calls
//!   fail with [`Error::DeviceLost`] and nothing the GPU may still use is ever freed.
//!
//! ## Environment
//! `VKALGO_DEVICE` (index or name substring), `VKALGO_VALIDATION=1` (Khronos validation with
//! synchronization validation), `VKALGO_LOOKBACK=on|off` (single-pass look-back policy),
//! `VKALGO_SHADER_INT16=off` (leave shaderInt16 unused), `VKALGO_TIMEOUT_MS` (longest host
//! wait).

#![warn(missing_docs)]

#[cfg(feature = "bench")]
mod bench;
pub mod core;
mod error;
pub mod hash;
pub mod histogram;
pub mod merge;
pub mod reduce;
pub mod reduce_by_key;
pub mod scan;
pub mod segmented_sort;
pub mod select;
pub mod set;
pub mod set64;
pub mod sort;
pub mod split;
mod warm_up;

/// The README's Rust examples, compiled and run as doc tests (so that they stay true).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

pub use crate::core::{
    BufferRange, BufferRequirements, Context, ContextOptions, ContextState, DeviceProfile, DeviceSelector,
    DeviceType, ElementCount, ExternalContextDesc, GpuBuffer, MemoryLocation, MemoryRequirements,
    MemoryUsage, QueueLock, ReduceOp, SetOp, BUFFER_USAGE,
};
pub use ash;
pub use error::{Error, Result};
pub use hash::{
    HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMap, HashMapDesc, HashMapDeviceView,
    HashMapStats, HashRehashArgs, HashRetrieveArgs, HashSizeArgs, HashTuning, HashValueType, InsertStatus,
};
pub use hash::{
    HashMultimap, HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets,
    HashMultimapRetrieveArgs, HashMultimapTags,
};
pub use histogram::{HistogramArgs, HistogramDesc, HistogramPlan, HistogramTuning};
pub use merge::{
    MergeArgs, MergeDesc, MergeOptions, MergePath, MergePlan, MergeSortArgs, MergeSortDesc, MergeSortPlan,
    MergeTuning, SegmentedMergeArgs, SetOpArgs, SetOpDesc, SetOpPath, SetOpPlan,
};
pub use reduce::{ReduceArgs, ReduceDesc, ReducePlan, ReduceTuning};
pub use reduce_by_key::{
    ReduceByKeyArgs, ReduceByKeyDesc, ReduceByKeyPath, ReduceByKeyPlan, ReduceByKeyTuning, ReduceByKeyValue,
};
pub use scan::{ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan, ScanTuning};
pub use segmented_sort::{
    SegmentedSortArgs, SegmentedSortDesc, SegmentedSortOptions, SegmentedSortPlan, SegmentedSortTuning,
    SEGMENTED_SORT_MAX_COUNT, SEGMENTED_SORT_MAX_SEGMENTS,
};
pub use select::{
    SelectArgs, SelectDesc, SelectMode, SelectPath, SelectPlan, SelectTuning, Selection, SELECT_MAX_COUNT,
};
pub use set::SetDeviceView;
pub use set::{
    GpuSet, GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs, GpuSetContainsArgs, GpuSetFilterArgs,
    GpuSetInsertArgs, GpuSetInsertRangeArgs, GpuSetInsertSortedArgs, GpuSetManyCardinalityArgs,
    GpuSetMinMaxArgs, GpuSetOpArgs, GpuSetOpBatchArgs, GpuSetOpManyArgs, GpuSetRangeCardinalityArgs,
    GpuSetRankArgs, GpuSetRunOptimizeArgs, GpuSetSelectArgs, GpuSetToArrayArgs, SetOpStatus, SetOperand,
};
pub use set64::GpuSet64;
pub use sort::{
    KeyType, SortArgs, SortDesc, SortKey, SortOptions, SortPath, SortPlan, SortResult, SortTuning, SortValue,
    ValueType,
};
pub use split::{BucketFn, Bucketing, SplitArgs, SplitDesc, SplitPath, SplitPlan};
pub use warm_up::Algorithm;

#[cfg(test)]
mod push_constant_tests {

    /// Every push-constant struct matches its GLSL block member for member.
    #[test]
    fn push_constant_structs_match_glsl() {
        let mut checked = 0;
        let layouts = crate::scan::push_layouts()
            .into_iter()
            .chain(crate::sort::push_layouts())
            .chain(crate::hash::push_layouts())
            .chain(crate::hash::multimap::push_layouts())
            .chain(crate::split::push_layouts())
            .chain(crate::merge::push_layouts())
            .chain(crate::set::push_layouts())
            .chain(crate::reduce::push_layouts())
            .chain(crate::histogram::push_layouts())
            .chain(crate::select::push_layouts())
            .chain(crate::segmented_sort::push_layouts())
            .chain(crate::reduce_by_key::push_layouts())
            .chain(crate::core::copy::push_layouts());
        for (shader, fields, size) in layouts {
            let glsl: Vec<(String, u32)> = shader
                .push_constant_members()
                .iter()
                .map(|&(n, o)| (n.to_string(), o))
                .collect();
            assert!(!glsl.is_empty(), "{}: no push-constant block found", shader.name);
            let rust: Vec<(String, u32)> = fields
                .iter()
                .filter(|(n, _)| !n.starts_with("_pad"))
                .map(|(n, o)| (n.to_string(), *o as u32))
                .collect();
            assert_eq!(glsl, rust, "{}: GLSL block vs Rust struct", shader.name);
            let end = glsl.last().unwrap().1 + 4;
            assert!(
                end as usize <= size && size <= 128,
                "{}: size {size}",
                shader.name
            );
            checked += 1;
        }
        assert_eq!(
            checked,
            crate::core::shaders::ALL_SHADERS.len(),
            "every shader has a push layout"
        );
    }
}
