//! The SPIR-V of every shader permutation, precompiled from `glsl/` by `cargo xtask shaders`
//! and embedded once as a pack (`spirv.bin`): each module stripped of debug instructions and
//! deflated, inflated when its pipeline is created. `table.rs` (generated with the pack) names
//! every module.

use crate::core::types::{KeyType, ValueType};
use crate::error::{Error, Result};
use std::borrow::Cow;

#[rustfmt::skip]
mod table;
pub(crate) mod compiler;
#[cfg(test)]
pub(crate) mod shared_constants;
pub(crate) use table::*;

impl KeyBits {
    /// The key width of `key_type`.
    pub(crate) fn of(key_type: KeyType) -> Self {
        if key_type.bits() == 64 {
            KeyBits::K64
        } else {
            KeyBits::K32
        }
    }
}

impl ValueWords {
    /// The payload of `value_type`.
    pub(crate) fn of(value_type: ValueType) -> Self {
        match value_type {
            ValueType::None => ValueWords::V0,
            ValueType::U32 => ValueWords::V1,
            ValueType::U64 => ValueWords::V2,
        }
    }
}

/// The pack, embedded once (a `static`: every use refers to the same bytes).
static PACK: &[u8] = include_bytes!("spirv.bin");

/// Version of the pack layout this library reads.
const PACK_FORMAT: u32 = 1;
/// First bytes of a pack.
const PACK_MAGIC: &[u8; 8] = b"VKALSPV\0";
/// Header: magic, format, count, table id, reserved.
const HEADER_BYTES: usize = 32;
/// Per shader: data offset, deflated length, SPIR-V length (u32 each), FNV-1a of the SPIR-V.
const ENTRY_BYTES: usize = 20;
/// No module of the pack is larger (a corrupt length cannot make inflation allocate more).
const MAX_MODULE_BYTES: usize = 16 << 20;

/// One compute shader: a module of the pack, or one compiled at run time (GLSL bucket
/// functions of the multisplit).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShaderSource {
    /// Permutation name (also the pipeline's debug name).
    pub name: &'static str,
    code: Code,
}

#[derive(Clone, Copy, Debug)]
enum Code {
    /// Index into the pack.
    Packed(usize),
    /// SPIR-V words compiled at run time.
    Compiled(&'static [u32]),
}

impl ShaderSource {
    /// Module `index` of the pack (the generated table's constants).
    pub(crate) const fn packed(name: &'static str, index: usize) -> Self {
        Self {
            name,
            code: Code::Packed(index),
        }
    }

    /// A module compiled at run time.
    pub(crate) fn compiled(name: &'static str, spirv: &'static [u32]) -> Self {
        Self {
            name,
            code: Code::Compiled(spirv),
        }
    }

    /// The SPIR-V words (inflated from the pack, checked against its checksum).
    pub(crate) fn spirv(&self) -> Result<Cow<'static, [u32]>> {
        match self.code {
            Code::Packed(index) => unpack(PACK, index)
                .map(Cow::Owned)
                .map_err(|why| Error::Internal(format!("embedded SPIR-V of {}: {why}", self.name))),
            Code::Compiled(words) => Ok(Cow::Borrowed(words)),
        }
    }

    /// The push-constant block's members (name, byte offset) as the generator reflected them.
    #[cfg(test)]
    pub(crate) fn push_constant_members(&self) -> &'static [(&'static str, u32)] {
        match self.code {
            Code::Packed(index) => PUSH_CONSTANT_MEMBERS[index],
            Code::Compiled(_) => &[],
        }
    }
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

/// Module `index` of `pack`, or why the pack does not hold it: not a pack, another layout or
/// permutation list than this library's, a range outside the pack, a stream that does not
/// inflate to the recorded length, or a checksum that differs.
fn unpack(pack: &[u8], index: usize) -> std::result::Result<Vec<u32>, String> {
    const NOT_THIS_LIBRARY: &str = "the shader pack does not belong to this build of vkalgo";
    if pack.get(..8) != Some(&PACK_MAGIC[..]) {
        return Err("not a vkalgo shader pack (bad magic)".into());
    }
    let format = u32_at(pack, 8).ok_or("truncated pack header")?;
    let count = u32_at(pack, 12).ok_or("truncated pack header")? as usize;
    let table_id = u64_at(pack, 16).ok_or("truncated pack header")?;
    if format != PACK_FORMAT || count != ALL_SHADERS.len() || table_id != TABLE_ID {
        return Err(format!(
            "{NOT_THIS_LIBRARY} (format {format}, {count} shaders, table {table_id:#x}; \
             expected format {PACK_FORMAT}, {} shaders, table {TABLE_ID:#x})",
            ALL_SHADERS.len()
        ));
    }
    if index >= count {
        return Err(format!("no shader {index} in a pack of {count}"));
    }
    let entry = HEADER_BYTES + index * ENTRY_BYTES;
    let data_start = HEADER_BYTES + count * ENTRY_BYTES;
    let field = |k: usize| u32_at(pack, entry + 4 * k).ok_or("truncated pack table");
    let (offset, packed_len, spirv_len) = (field(0)? as usize, field(1)? as usize, field(2)? as usize);
    let checksum = u64_at(pack, entry + 12).ok_or("truncated pack table")?;
    let stream = data_start
        .checked_add(offset)
        .and_then(|start| pack.get(start..start.checked_add(packed_len)?))
        .ok_or("module range outside the pack")?;
    if spirv_len == 0 || spirv_len % 4 != 0 || spirv_len > MAX_MODULE_BYTES {
        return Err(format!("bad module length {spirv_len}"));
    }
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(stream, spirv_len)
        .map_err(|e| format!("module does not inflate ({:?})", e.status))?;
    if bytes.len() != spirv_len || fnv1a64(&bytes) != checksum {
        return Err("module checksum mismatch (corrupt pack)".into());
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if words.first() != Some(&0x0723_0203) {
        return Err("module is not SPIR-V (bad magic)".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed lookups find the permutation the table built for their coordinates.
    #[test]
    fn typed_lookups_find_their_permutations() {
        let name = |s: Option<&ShaderSource>| s.map(|s| s.name);
        assert_eq!(
            name(sort(SortKernel::Onesweep, KeyBits::K64, ValueWords::V1)),
            Some("sort_onesweep_k64_v1")
        );
        assert_eq!(
            name(sort(SortKernel::Histogram, KeyBits::K32, ValueWords::V0)),
            Some("sort_histogram_k32")
        );
        assert_eq!(
            name(sort(SortKernel::HistogramScan, KeyBits::K32, ValueWords::V0)),
            Some("sort_histogram_scan")
        );
        assert_eq!(
            name(sort(SortKernel::BlockMerge, KeyBits::K32, ValueWords::V0)),
            None
        );
        assert_eq!(
            name(sort(SortKernel::OnesweepClock, KeyBits::K32, ValueWords::V1)),
            Some("sort_onesweep_k32_v1_clock")
        );
        assert_eq!(
            name(split(
                SplitKernel::TileScatter,
                KeyBits::K64,
                ValueWords::V2,
                BucketFnKind::Ids
            )),
            Some("split_tile_scatter_k64_v2_ids")
        );
        assert_eq!(
            name(split(
                SplitKernel::Onesweep,
                KeyBits::K32,
                ValueWords::V0,
                BucketFnKind::Splitters
            )),
            Some("split_onesweep_k32_v0_splitters")
        );
        assert_eq!(
            name(merge(MergeKernel::SetOpLookback, KeyBits::K64, ValueWords::V0)),
            Some("merge_setop_lookback_k64")
        );
        assert_eq!(
            name(merge(MergeKernel::Fused, KeyBits::K32, ValueWords::V2)),
            Some("merge_fused_k32_v2")
        );
        assert_eq!(
            name(hash(
                HashOp::Migrate,
                KeyBits::K32,
                HashValueBits::V32,
                HashCas::PackedPair,
                HashBucketBytes::B64
            )),
            Some("hash_migrate_k32v32_packed_b64")
        );
        assert_eq!(
            name(hash(
                HashOp::Find,
                KeyBits::K64,
                HashValueBits::V32,
                HashCas::Key,
                HashBucketBytes::B32
            )),
            Some("hash_find_k64v32_b32")
        );
        assert_eq!(
            name(hash(
                HashOp::Find,
                KeyBits::K64,
                HashValueBits::V32,
                HashCas::PackedPair,
                HashBucketBytes::B32
            )),
            None
        );
    }

    /// Every module of the embedded pack inflates to checked SPIR-V.
    #[test]
    fn every_packed_module_unpacks() {
        for shader in ALL_SHADERS {
            let words = shader.spirv().unwrap();
            assert!(words.len() > 5, "{}", shader.name);
        }
    }

    /// A damaged or foreign pack gives an error, never a panic or a module.
    #[test]
    fn damaged_packs_are_refused() {
        assert!(unpack(PACK, 0).is_ok());
        let mut cases: Vec<(&str, Vec<u8>)> = vec![
            ("empty", Vec::new()),
            ("header only", PACK[..HEADER_BYTES].to_vec()),
            ("truncated data", PACK[..PACK.len() - 1].to_vec()),
        ];
        let mut other_format = PACK.to_vec();
        other_format[8] ^= 1;
        cases.push(("other format", other_format));
        let mut other_table = PACK.to_vec();
        other_table[16] ^= 1;
        cases.push(("other permutation list", other_table));
        let mut bad_length = PACK.to_vec();
        bad_length[HEADER_BYTES + ALL_SHADERS.len().saturating_sub(1) * ENTRY_BYTES + 8] ^= 4;
        cases.push(("wrong SPIR-V length", bad_length));
        let mut bad_offset = PACK.to_vec();
        bad_offset[HEADER_BYTES + (ALL_SHADERS.len() - 1) * ENTRY_BYTES + 3] = 0xff;
        cases.push(("offset past the end", bad_offset));
        let mut flipped = PACK.to_vec();
        let last = flipped.len() - 2;
        flipped[last] ^= 0x55;
        cases.push(("flipped data byte", flipped));
        let last_index = ALL_SHADERS.len() - 1;
        for (what, pack) in &cases {
            assert!(unpack(pack, last_index).is_err(), "{what}: accepted");
        }
        assert!(unpack(PACK, ALL_SHADERS.len()).is_err(), "index past the table");
    }
}
