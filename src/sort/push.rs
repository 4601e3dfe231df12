//! The sort kernels' interface: the push constants every pass reads and the lookup of the
//! shader permutations.

use crate::core::shaders::{self, KeyBits, ShaderSource, SortKernel, ValueWords};
use crate::core::spirv::push_constants;
use crate::core::types::{KeyType, ValueType};
use crate::error::{Error, Result};

push_constants! {
    /// Push constants of every sort pass (glsl/sort/sort_common.glsl, block `SortPush`).
    pub(crate) struct SortPush {
        pub(super) keys_in: u64,
        pub(super) keys_out: u64,
        pub(super) values_in: u64,
        pub(super) values_out: u64,
        pub(super) scratch: u64,
        pub(super) count_addr: u64,
        pub(super) count: u32,
        pub(super) max_count: u32,
        pub(super) begin_bit: u32,
        pub(super) end_bit: u32,
        pub(super) pass_index: u32,
        pub(super) pass_count: u32,
        pub(super) max_tiles: u32,
        pub(super) blocks: u32,
        pub(super) tiles_per_block: u32,
        pub(super) reserved: u32,
        /// The Onesweep multisplit (src/split/onesweep.rs; 0 for sorts): SPLITTERS' splitters.
        pub(super) aux: u64,
        /// ... the address of the split's status word,
        pub(super) split_status: u64,
        /// ... m,
        pub(super) bucket_count: u32,
        /// ... ceil(log2(m)),
        pub(super) id_bits: u32,
        /// ... and the GLSL bucket function's vkalgo_params.
        pub(super) params: [u32; 4],
    }
}

/// The sort's `kernel` for `key_type` keys and `value_type` values.
pub(super) fn sort_shader(
    kernel: SortKernel,
    key_type: KeyType,
    value_type: ValueType,
) -> Result<&'static ShaderSource> {
    shaders::sort(kernel, KeyBits::of(key_type), ValueWords::of(value_type)).ok_or_else(|| {
        Error::Internal(format!(
            "no sort shader {kernel:?} for {key_type:?} keys and {value_type:?} values"
        ))
    })
}

/// The digit-histogram scan, one permutation for every key type and payload.
pub(super) fn histogram_scan_shader() -> Result<&'static ShaderSource> {
    sort_shader(SortKernel::HistogramScan, KeyType::U32, ValueType::None)
}

/// Every sort shader (the permutations of the generated shader table).
#[cfg(test)]
fn sort_shaders() -> impl Iterator<Item = &'static ShaderSource> {
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("sort_"))
}

/// Every sort shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    sort_shaders()
        .map(|s| (*s, SortPush::FIELDS, std::mem::size_of::<SortPush>()))
        .collect()
}
