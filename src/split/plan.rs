//! The multisplit plan: what [`Context::split_plan`] fixes (kernels, geometry, scratch layout)
//! and the plan's accessors. The path and geometry come from `choice.rs`.

use super::choice::{self, DeviceLimits};
use super::tiles::{TileGeometry, TileWrite};
use super::{glsl, onesweep, BucketFn, SplitDesc, SplitPath, MAX_BUCKETS, MAX_COUNT, MAX_TILE_ITEMS};
use crate::core::buffer::{BufferRequirements, MemoryRequirements};
use crate::core::shaders::{self, BucketFnKind, KeyBits, ShaderSource, SplitKernel, ValueWords};
use crate::core::types::{KeyType, ValueType};
use crate::error::{Error, Result};
use crate::scan::{ScanDesc, ScanOp, ScanPath, ScanPlan};
use crate::Context;

/// Push flag of the tile paths (glsl/split/split_common.glsl): the status word comes from the
/// scanned matrix's total, written by the offsets pass.
pub(super) const SPLIT_FLAG_TOTAL_STATUS: u32 = 1;
/// Bytes of the status word's slot at the start of the scratch (the scan's state follows;
/// glsl/split/split_common.glsl SCAN_STATE_OFFSET).
pub(super) const STATUS_BYTES: u64 = 16;
/// Most buckets a split by SPLITTERS searches the caller's splitters for without an index
/// (glsl/common/bucket_fn.glsl SPLITTERS_PLAIN_MAX): above, the index's table read is cheaper
/// than the longer search (docs/tuning/split.md#splitters-index).
pub(super) const SPLITTERS_PLAIN_MAX: u32 = 64;
/// Bit of the split kernels' key order constant (glsl/split/split_common.glsl
/// SPLITTERS_INDEXED): the plan has a splitter index. Keeps the unused search out of the
/// pipelines.
pub(super) const SPLIT_KEY_ORDER_INDEXED: u32 = 8;
/// Most bits of the splitter index's table (2^14 + 1 entries, 64 KiB).
pub(super) const SPLITTER_TABLE_MAX_BITS: u32 = 14;

/// The splitter index of a split by SPLITTERS (glsl/split/splitter_index.comp, searched by
/// glsl/common/bucket_fn.glsl): where it lies in the scratch and the bits of its table.
///
/// The index turns a key's bucket from a binary search over all `m - 1` splitters (a chain of
/// `ceil(log2 m)` dependent loads) into a table read and a search of the few splitters sharing
/// the key's slot. Its table has `2^(ceil(log2 m) + 1)` slots (at most
/// 2^[`SPLITTER_TABLE_MAX_BITS`]), so spread-out splitters share a slot with about one other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SplitterIndex {
    /// Byte offset in the scratch (16-byte aligned).
    pub(super) offset: u64,
    /// R: the table has `2^R + 1` entries.
    pub(super) table_bits: u32,
}

impl SplitterIndex {
    /// The index of a split into `m` buckets (`m >= 2`), at the first aligned offset from
    /// `offset`.
    pub(super) fn new(offset: u64, m: u32) -> Self {
        SplitterIndex {
            offset: offset.next_multiple_of(ALIGNMENT),
            table_bits: (id_bits(m) + 1).min(SPLITTER_TABLE_MAX_BITS),
        }
    }

    /// Bytes of the index: a 16-byte header, the splitters (padded to 16 bytes), the table.
    pub(super) fn bytes(&self, m: u32, key_size: u64) -> u64 {
        16 + ((m as u64 - 1) * key_size).next_multiple_of(16) + ((1u64 << self.table_bits) + 1) * 4
    }

    /// Invocations of the index pass: one per table entry and per splitter.
    pub(super) fn invocations(&self, m: u32) -> u64 {
        ((1u64 << self.table_bits) + 1).max(m as u64 - 1)
    }
}

/// Alignment vkalgo asks for every range.
pub(super) const ALIGNMENT: u64 = 16;

/// A multisplit planned for one context: kernels, geometry and memory sizes are fixed. Cheap to
/// keep and to record many times.
#[derive(Clone, Debug)]
pub struct SplitPlan {
    pub(super) ctx: Context,
    pub(super) desc: SplitDesc,
    pub(super) workgroup_size: u32,
    /// Lanes of a lane group (the device's smallest subgroup size).
    pub(super) group_lanes: u32,
    pub(super) column_steps: u32,
    pub(super) max_columns: u64,
    /// Words of the tile scatter's shared pool (1 on the column path).
    pub(super) counter_words: u32,
    /// Steps each lane loads before ranking them (glsl/split/split_common.glsl BATCH).
    pub(super) batch: u32,
    /// 16-byte vectors a lane of the tile count's register form loads at once: 8 on GPUs
    /// (bytes in flight); 2 on CPU drivers, whose compiler is slow on long unrolled batches.
    pub(super) count_load_vectors: u32,
    /// The tile path's geometry (`None`: the lane-group column paths).
    pub(super) tile: Option<TileGeometry>,
    /// Whether the tile scatter ranks through a table of lane masks
    /// ([`super::tuning::match_table`]).
    pub(super) match_table: bool,
    /// The count-scan-scatter passes of the tile and column paths (`None` on the Onesweep path).
    pub(super) columns: Option<ColumnPasses>,
    /// The Onesweep path.
    pub(super) onesweep: Option<onesweep::OnesweepSplit>,
    pub(super) small: &'static ShaderSource,
    /// SPLITTERS above [`SPLITTERS_PLAIN_MAX`] buckets: the splitter index every pass
    /// searches, after the other scratch.
    pub(super) splitter_index: Option<SplitterIndex>,
    /// Largest count of the one-workgroup path (0: none).
    pub(super) small_limit: u64,
    pub(super) requirements: MemoryRequirements,
}

/// The passes of the tile and column paths above the small path.
#[derive(Clone, Debug)]
pub(super) struct ColumnPasses {
    /// The matrix is scanned into a second one (else in place).
    pub(super) out_of_place: bool,
    pub(super) scan: ScanPlan,
    pub(super) histogram: &'static ShaderSource,
    pub(super) scatter: &'static ShaderSource,
}

/// Where the tile and column paths keep their parts of the scratch (byte offsets).
pub(super) struct ScratchLayout {
    /// The scan's scratch, right after the status word (the column path's fill clears both;
    /// on the tile paths the count zeroes the scan's state).
    pub(super) scan_scratch: u64,
    /// The count matrix.
    pub(super) counts: u64,
    /// The scanned matrix (`counts` where it is scanned in place).
    pub(super) scanned: u64,
    /// Bytes in all.
    pub(super) size: u64,
}

impl ColumnPasses {
    /// The scratch layout for a matrix of up to `entries` entries.
    pub(super) fn layout(&self, entries: u64) -> ScratchLayout {
        // (One entry more: the tile paths' total.)
        let matrix_bytes = ((entries + 1) * 4).next_multiple_of(ALIGNMENT);
        let scan_scratch = STATUS_BYTES;
        let counts =
            (scan_scratch + self.scan.memory_requirements().scratch.size).next_multiple_of(ALIGNMENT);
        let scanned = if self.out_of_place {
            counts + matrix_bytes
        } else {
            counts
        };
        ScratchLayout {
            scan_scratch,
            counts,
            scanned,
            size: scanned + matrix_bytes,
        }
    }
}

impl SplitPlan {
    /// Memory every [`SplitPlan::record`] call needs.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }

    /// The description the plan was made from.
    pub fn desc(&self) -> &SplitDesc {
        &self.desc
    }

    /// The path the plan records above [`SplitPlan::small_limit`] (never
    /// [`SplitPath::Auto`]; [`SplitPath::Small`] when the plan asked for it).
    pub fn path(&self) -> SplitPath {
        if self.desc.path == SplitPath::Small {
            SplitPath::Small
        } else if self.onesweep.is_some() {
            SplitPath::Onesweep
        } else if let Some(tile) = self.tile {
            match tile.write {
                TileWrite::Direct => SplitPath::TileDirect,
                TileWrite::SubgroupStaged => SplitPath::TileSubgroupStaged,
                TileWrite::Staged => SplitPath::TileStaged,
            }
        } else {
            SplitPath::GlobalCounters
        }
    }

    /// Largest count the one-workgroup path handles ([`SplitPath::Auto`] takes it for direct
    /// counts up to this).
    pub fn small_limit(&self) -> u64 {
        self.small_limit
    }

    /// Elements of one column of the count matrix above [`SplitPlan::small_limit`]: a
    /// workgroup's tile on the tile paths, else one lane group's run of the input (the
    /// Onesweep path has no matrix).
    pub fn column_length(&self) -> u64 {
        match self.tile {
            Some(tile) => tile.items as u64 * self.workgroup_size as u64,
            None => self.lane_column_length(),
        }
    }

    /// Elements of a lane group's column (the small path and the column paths).
    pub(super) fn lane_column_length(&self) -> u64 {
        self.column_steps as u64 * self.group_lanes as u64
    }

    pub(super) fn id_bits(&self) -> u32 {
        id_bits(self.desc.bucket_count)
    }

    /// The splitter index's pass for the plan's key width.
    pub(super) fn splitter_index_shader(&self) -> Result<&'static ShaderSource> {
        let key = KeyBits::of(self.desc.key_type);
        shaders::split(
            SplitKernel::SplitterIndex,
            key,
            ValueWords::V0,
            BucketFnKind::Splitters,
        )
        .ok_or_else(|| Error::Internal("multisplit: no splitter index shader".into()))
    }
}

impl Context {
    /// Plans a multisplit: checks the description against the device, compiles a GLSL bucket
    /// function (or takes it from the cache) and fixes geometry and memory sizes.
    pub fn split_plan(&self, desc: &SplitDesc) -> Result<SplitPlan> {
        self.check_split_desc(desc)?;
        let limits = DeviceLimits {
            class: self.device_class(),
            group_lanes: self.profile.min_subgroup_size.max(1),
            max_subgroup: self.profile.max_subgroup_size.max(1),
            max_shared_memory: self.profile.max_shared_memory as u64,
            lookback: self.profile.lookback,
            onesweep_refusal: onesweep::refusal(self, desc),
        };
        let geometry = choice::choose(desc, &limits)?;
        let m = desc.bucket_count;
        let small = self.split_shader(desc, glsl::Pass::Small)?;
        let (columns, onesweep, scratch_size) = if geometry.onesweep {
            let split = onesweep::OnesweepSplit::new(self, desc, id_bits(m))?;
            let scratch_size = split.scratch_size();
            (None, Some(split), scratch_size)
        } else {
            let passes = self.column_passes(desc, geometry.tile, geometry.matrix_entries)?;
            let scratch_size = passes.layout(geometry.matrix_entries).size;
            (Some(passes), None, scratch_size)
        };
        let splitter_index = (desc.bucket_fn == BucketFn::Splitters && m > SPLITTERS_PLAIN_MAX)
            .then(|| SplitterIndex::new(scratch_size, m));
        let scratch_size = match splitter_index {
            Some(index) => index.offset + index.bytes(m, desc.key_type.bytes()),
            None => scratch_size,
        };
        let plan = SplitPlan {
            ctx: self.clone(),
            desc: desc.clone(),
            workgroup_size: geometry.workgroup_size,
            group_lanes: limits.group_lanes,
            column_steps: geometry.column_steps,
            max_columns: geometry.max_columns,
            counter_words: geometry.counter_words,
            match_table: geometry.match_table,
            batch: geometry.batch,
            count_load_vectors: geometry.count_load_vectors,
            tile: geometry.tile,
            columns,
            onesweep,
            small,
            splitter_index,
            small_limit: geometry.small_limit,
            requirements: MemoryRequirements {
                offsets: BufferRequirements::new((m as u64 + 1) * 4, ALIGNMENT),
                ..MemoryRequirements::scratch(scratch_size, ALIGNMENT)
            },
        };
        let spec = plan.pass_specialization();
        let mut kernels = vec![(offsets_shader(), spec), (plan.small, spec)];
        if let Some(starts) = plan.onesweep.as_ref().and_then(|o| o.bucket_starts()) {
            kernels.push((starts, spec));
        }
        if plan.splitter_index.is_some() {
            kernels.push((plan.splitter_index_shader()?, spec));
        }
        if let Some(passes) = &plan.columns {
            kernels.push((passes.histogram, plan.count_specialization()));
            kernels.push((passes.scatter, plan.specialization()));
        }
        self.prepare_kernels(&kernels)?;
        Ok(plan)
    }

    /// Checks the description's own limits and the device features it needs.
    fn check_split_desc(&self, desc: &SplitDesc) -> Result<()> {
        if desc.max_count > MAX_COUNT {
            return Err(Error::invalid(format!(
                "multisplit: max_count {} exceeds the largest supported count {MAX_COUNT}",
                desc.max_count
            )));
        }
        let m = desc.bucket_count;
        if m == 0 || m > MAX_BUCKETS {
            return Err(Error::invalid(format!(
                "multisplit: bucket_count {m} not in 1..={MAX_BUCKETS}"
            )));
        }
        if desc.tile_items > MAX_TILE_ITEMS {
            return Err(Error::invalid(format!(
                "multisplit: tile_items {} exceeds {MAX_TILE_ITEMS}",
                desc.tile_items
            )));
        }
        self.check_bucket_fn(
            "multisplit",
            desc.key_type,
            m,
            desc.bucket_fn,
            desc.bit_offset,
            desc.glsl.is_some(),
        )
    }

    /// Checks a bucket function of `m` buckets on `key_type` keys against its own rules and the
    /// device (`what` names the caller in messages): the multisplit's and the histogram's
    /// check.
    pub(crate) fn check_bucket_fn(
        &self,
        what: &str,
        key_type: KeyType,
        m: u32,
        bucket_fn: BucketFn,
        bit_offset: u32,
        has_glsl: bool,
    ) -> Result<()> {
        let width = key_type.bits();
        match bucket_fn {
            BucketFn::Bits => {
                if !m.is_power_of_two() {
                    return Err(Error::invalid(format!(
                        "{what}: BITS needs a power-of-two bucket_count, not {m}"
                    )));
                }
                if bit_offset >= width {
                    return Err(Error::invalid(format!(
                        "{what}: bit_offset {bit_offset} is not below the key's {width} bits"
                    )));
                }
            }
            BucketFn::Glsl if !has_glsl => {
                return Err(Error::invalid(format!("{what}: GLSL needs a source text")));
            }
            _ => {}
        }
        if bucket_fn == BucketFn::Glsl && key_type == KeyType::F64 && !self.supports_float64() {
            return Err(Error::unsupported(format!(
                "{what}: GLSL bucket functions of double keys need shaderFloat64, which {} lacks",
                self.profile.device_name
            )));
        }
        Ok(())
    }

    /// The count, scan and scatter passes of the tile path `tile` (`None`: the column path)
    /// for a matrix of up to `matrix_entries` entries.
    fn column_passes(
        &self,
        desc: &SplitDesc,
        tile: Option<TileGeometry>,
        matrix_entries: u64,
    ) -> Result<ColumnPasses> {
        let (count_pass, scatter_pass) = if tile.is_some() {
            (glsl::Pass::TileCount, glsl::Pass::TileScatter)
        } else {
            (glsl::Pass::Histogram, glsl::Pass::Scatter)
        };
        // The matrix (one entry more: the total) is scanned by the scan module's record
        // layer: `Auto` gives matrices up to the small limit the one-workgroup scan sized to
        // them (docs/tuning/split.md#matrix-scan). Where the device runs look-back scans, out
        // of place (a look-back scan of its own input in place could not redo a silent
        // predecessor's tile), in one pass whose state the count pass zeroes. Elsewhere
        // reduce-then-scan scans it in place, but on the column path always out of place: its
        // scatter bounds every write by the count matrix's entry (the places its run has
        // left), which it lowers as it writes (glsl/split/scatter.comp).
        let scan_desc = ScanDesc {
            op: ScanOp::Exclusive,
            path: ScanPath::Auto,
            max_count: matrix_entries + 1,
            tuning: None,
            keep_scratch_zeroed: false,
            ..Default::default()
        };
        let out_of_place = self.profile.lookback || tile.is_none();
        let scan = if out_of_place {
            self.scan_plan(&scan_desc)?
        } else {
            self.scan_plan_in_place(&scan_desc)?
        };
        Ok(ColumnPasses {
            out_of_place,
            scan,
            histogram: self.split_shader(desc, count_pass)?,
            scatter: self.split_shader(desc, scatter_pass)?,
        })
    }

    /// The shader of `pass`: for GLSL bucket functions compiled with the caller's source (or
    /// taken from the cache), else the built-in permutation.
    fn split_shader(&self, desc: &SplitDesc, pass: glsl::Pass) -> Result<&'static ShaderSource> {
        if desc.bucket_fn == BucketFn::Glsl {
            let source = desc.glsl.as_deref().unwrap_or_default();
            return glsl::compile(source, desc.key_type, desc.value_type, pass);
        }
        let kernel = pass
            .kernel()
            .ok_or_else(|| Error::Internal(format!("multisplit: {pass:?} is no multisplit pass")))?;
        builtin_shader(desc, kernel, pass.moves_values())
    }
}

/// Bits of a bucket id below `m`: ceil(log2(m)).
pub(super) fn id_bits(m: u32) -> u32 {
    if m <= 1 {
        0
    } else {
        32 - (m - 1).leading_zeros()
    }
}

/// The key kind of specialization constant 6 (0 unsigned, 1 signed, 2 float).
pub(super) fn key_kind(key_type: KeyType) -> u32 {
    match key_type {
        KeyType::U32 | KeyType::U64 => 0,
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
    }
}

/// The built-in permutation of `kernel` for the plan's key type, bucket function and (where the
/// kernel `moves_values`) value type.
pub(super) fn builtin_shader(
    desc: &SplitDesc,
    kernel: SplitKernel,
    moves_values: bool,
) -> Result<&'static ShaderSource> {
    let values = if moves_values {
        desc.value_type
    } else {
        ValueType::None
    };
    let bucket_fn = match desc.bucket_fn {
        BucketFn::Bits => BucketFnKind::Bits,
        BucketFn::Splitters => BucketFnKind::Splitters,
        BucketFn::Ids => BucketFnKind::Ids,
        BucketFn::Glsl => {
            return Err(Error::Internal(
                "multisplit: GLSL bucket functions have no built-in shader".into(),
            ))
        }
    };
    shaders::split(
        kernel,
        KeyBits::of(desc.key_type),
        ValueWords::of(values),
        bucket_fn,
    )
    .ok_or_else(|| {
        Error::Internal(format!(
            "multisplit: no shader {kernel:?} for {:?} keys, {values:?} values, {bucket_fn:?}",
            desc.key_type
        ))
    })
}

/// The bucket-offsets pass (one permutation for every plan).
pub(super) fn offsets_shader() -> &'static ShaderSource {
    shaders::split(
        SplitKernel::Offsets,
        KeyBits::K32,
        ValueWords::V0,
        BucketFnKind::Bits,
    )
    .expect("the permutation table has the multisplit's offsets pass")
}

/// Every built-in multisplit shader.
#[cfg(test)]
pub(super) fn split_shaders() -> impl Iterator<Item = &'static ShaderSource> {
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("split_"))
}

#[cfg(test)]
mod tests {
    use super::id_bits;

    /// The tile kernels search m - 1 splitters in exactly `id_bits(m)` halving steps
    /// (glsl/common/bucket_fn.glsl splitters_at_most), which needs m - 1 < 2^id_bits(m); and the
    /// bits hold every bucket id below m, but no fewer would.
    #[test]
    fn id_bits_bound_the_buckets() {
        for m in 1..=65536u32 {
            let bits = id_bits(m);
            assert!(((m - 1) as u64) < (1u64 << bits), "m = {m}: {bits} bits");
            assert!(bits == 0 || (m - 1) >= (1 << (bits - 1)), "m = {m}: {bits} bits");
        }
    }
}
