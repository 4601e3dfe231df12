//! The multimap's push constants, specialization and kernels (glsl/hash/multimap_*.comp).

use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, HashOp, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::Result;
use crate::hash::table::table_shader;
use crate::hash::{HashKeyType, HashTuning, HashValueType};

push_constants! {
    /// Push constants of every multimap kernel (glsl/hash/multimap_common.glsl, block
    /// `MultimapPush`).
    pub(crate) struct MultimapPush {
        pub buckets_addr: u64,
        pub header_addr: u64,
        pub keys_addr: u64,
        pub values_addr: u64,
        pub offsets_addr: u64,
        pub out_addr: u64,
        pub count_addr: u64,
        pub failed_addr: u64,
        pub tags_addr: u64,
        pub tags_out_addr: u64,
        pub capacity: u64,
        pub count: u32,
        pub max_count: u32,
        pub num_buckets: u32,
        pub max_probes: u32,
        pub flags: u32,
        pub _pad0: u32,
    }
}

/// `MultimapPush::flags` of a retrieve: the offsets are u64 (MULTIMAP_OFFSETS_U64).
pub(super) const OFFSETS_U64: u32 = 1;

/// The specialization of the multimap's kernels: the workgroup size (constant_id 0) and the
/// keys per invocation (KEYS_PER_INVOCATION, constant_id 1).
pub(super) fn specialization(tuning: &HashTuning) -> Specialization {
    Specialization {
        workgroup_size: tuning.workgroup_size,
        id1: tuning.keys_per_invocation,
        id2: 1,
        id5: 1,
        id6: 0,
        id8: 0,
    }
}

/// The per-key kernels of one multimap layout.
#[derive(Clone, Copy)]
pub(super) struct Kernels {
    pub insert: &'static ShaderSource,
    pub count: &'static ShaderSource,
    pub retrieve: &'static ShaderSource,
}

impl Kernels {
    /// The kernels of a layout (`packed`: the u32/u32 insert with a 64-bit pair CAS).
    pub(super) fn of(
        key: HashKeyType,
        value: HashValueType,
        bucket_bytes: u32,
        packed: bool,
    ) -> Result<Self> {
        let find =
            |op: HashOp, packed: bool| table_shader("hash multimap", op, key, value, bucket_bytes, packed);
        Ok(Kernels {
            insert: find(HashOp::MultimapInsert, packed)?,
            count: find(HashOp::MultimapCount, false)?,
            retrieve: find(HashOp::MultimapRetrieve, false)?,
        })
    }

    /// Every kernel a multimap of this layout dispatches (the size kernel included).
    pub(super) fn all(&self) -> [&'static ShaderSource; 4] {
        [self.insert, self.count, self.retrieve, &shaders::MULTIMAP_SIZE]
    }
}

/// Every multimap shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("multimap_"))
        .map(|&s| (s, MultimapPush::FIELDS, std::mem::size_of::<MultimapPush>()))
        .collect()
}
