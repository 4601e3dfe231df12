//! The select plan: its checks, its path, its pipelines and its scratch.

use super::{tuning, SelectDesc, SelectMode, SelectPath, SelectTuning, SELECT_MAX_COUNT};
use crate::core::buffer::MemoryRequirements;
use crate::core::lookback_state::{lookback_variants, KEPT_ZEROED_MAX_TILES};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, KeyBits, SelectKernel, ShaderSource, ValueWords};
use crate::core::spirv::push_constants;
use crate::core::types::{KeyType, ValueType};
use crate::error::{Error, Result};
use crate::scan::{ScanDesc, ScanOp, ScanPlan};
use crate::split::glsl::{compile_external, Target};
use crate::Context;

push_constants! {
    /// Push constants of every select pass (glsl/select/select_common.glsl, block `SelectPush`).
    pub(crate) struct SelectPush {
        pub(super) keys_in: u64,
        pub(super) values_in: u64,
        pub(super) flags_addr: u64,
        pub(super) keys_out: u64,
        pub(super) values_out: u64,
        pub(super) kept_addr: u64,
        pub(super) aux_addr: u64,
        pub(super) count_addr: u64,
        pub(super) params: [u32; 4],
        pub(super) count: u32,
        pub(super) max_count: u32,
    }
}

/// SELECT_MODE of the built-in kernels: keep where the flag byte is nonzero.
pub(super) const MODE_FLAGGED: u32 = 0;
/// SELECT_MODE of the built-in kernels: keep the first of each run of equal keys.
pub(super) const MODE_UNIQUE: u32 = 2;
/// Bytes of look-back counters before the status words in the look-back path's scratch
/// (glsl/common/lookback.glsl counts its fallbacks in the u32 at byte 4).
pub(super) const SCRATCH_STATUS: u64 = 16;
/// Alignment vkalgo asks of select scratch.
pub(super) const SCRATCH_ALIGNMENT: u64 = 16;

/// The passes a GLSL predicate is compiled into (the name the caller's source is included as:
/// "vkalgo_select.glsl").
pub(crate) const GLSL_TARGETS: [Target; 3] = [
    glsl_target("count", "select/count.comp"),
    glsl_target("scatter", "select/scatter.comp"),
    glsl_target("lookback", "select/lookback.comp"),
];

const fn glsl_target(name: &'static str, path: &'static str) -> Target {
    Target {
        name,
        path,
        user_file: "vkalgo_select.glsl",
        what: "select GLSL predicate",
        prefix: "select_glsl",
    }
}

/// The specialization constants of the select's kernels (glsl/select/select_common.glsl).
#[derive(Clone, Copy)]
pub(super) struct SelectSpec {
    /// Invocations per workgroup (constant_id 0).
    workgroup_size: u32,
    /// Elements per invocation per tile (ITEMS, constant_id 1).
    items: u32,
    /// Look-back spins before the fallback (SPIN_LIMIT, constant_id 2; 0 the test mode).
    spins: u32,
    /// SELECT_MODE (constant_id 5).
    mode: u32,
    /// The look-back clears its kept-zeroed state itself (SELF_CLEANING, constant_id 8).
    self_cleaning: bool,
}

impl SelectSpec {
    /// The look-back kernel's self-cleaning variant (or not).
    pub(super) fn self_cleaning(self, self_cleaning: bool) -> Self {
        SelectSpec {
            self_cleaning,
            ..self
        }
    }
}

impl From<SelectSpec> for Specialization {
    fn from(spec: SelectSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.items,
            id2: spec.spins,
            id5: spec.mode,
            id6: 0,
            id8: spec.self_cleaning as u32,
        }
    }
}

/// The shaders of a plan's path.
#[derive(Clone, Copy, Debug)]
pub(super) enum Shaders {
    /// One pass.
    Lookback(&'static ShaderSource),
    /// Count, (scan), scatter.
    CountScan {
        count: &'static ShaderSource,
        scatter: &'static ShaderSource,
    },
}

/// A select plan: made once for key and value types, a mode and a maximum count, recorded any
/// number of times ([`SelectPlan::record`]).
pub struct SelectPlan {
    pub(super) ctx: Context,
    pub(super) desc: SelectDesc,
    pub(super) path: SelectPath,
    pub(super) tuning: SelectTuning,
    pub(super) spec: SelectSpec,
    pub(super) shaders: Shaders,
    /// The count-scan path's scan of the tile counts.
    pub(super) scan: Option<ScanPlan>,
    /// Tiles of the plan's maximum count (at least 1).
    pub(super) max_tiles: u64,
    pub(super) requirements: MemoryRequirements,
}

impl std::fmt::Debug for SelectPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SelectPlan")
            .field("desc", &self.desc)
            .field("path", &self.path)
            .field("tuning", &self.tuning)
            .finish()
    }
}

impl Context {
    /// Plans a select. Errors: a count over [`SELECT_MAX_COUNT`], a bad tuning or a look-back
    /// path without 64-bit atomics ([`Error::InvalidArgument`], [`Error::Unsupported`]); a GLSL
    /// predicate that does not compile ([`Error::CompileError`]), or no shaderc library or an
    /// f64 predicate without `shaderFloat64` ([`Error::Unsupported`]).
    pub fn select_plan(&self, desc: &SelectDesc) -> Result<SelectPlan> {
        if desc.max_count > SELECT_MAX_COUNT {
            return Err(Error::invalid(format!(
                "select: max_count {} exceeds {SELECT_MAX_COUNT}",
                desc.max_count
            )));
        }
        let path = match desc.path {
            SelectPath::Auto if self.profile.lookback => {
                tuning::auto_path(self.device_class(), &desc.mode, desc.max_count)
            }
            SelectPath::Auto => SelectPath::CountScan,
            SelectPath::Lookback if !self.profile.int64_atomics => {
                return Err(Error::unsupported(format!(
                    "select: the look-back path needs shaderBufferInt64Atomics, which {} lacks",
                    self.profile.device_name
                )))
            }
            p => p,
        };
        let tuning = desc
            .tuning
            .unwrap_or_else(|| SelectTuning::for_device(self, path, desc.max_count));
        check_tuning(self, &tuning)?;
        let shaders = self.select_shaders(desc, path)?;
        let max_tiles = desc.max_count.div_ceil(tuning.tile_elements()).max(1);
        let (scan, scratch) = match path {
            SelectPath::Lookback => (None, SCRATCH_STATUS + max_tiles * 8),
            _ => {
                let scan = self.scan_plan_in_place(&ScanDesc {
                    keep_scratch_zeroed: desc.keep_scratch_zeroed,
                    ..ScanDesc::new(ScanOp::Exclusive, max_tiles)
                })?;
                let bytes = counts_bytes(max_tiles) + scan.memory_requirements().scratch.size;
                (Some(scan), bytes)
            }
        };
        let spins = match tuning.lookback_spins {
            0 => tuning::default_tuning(self.device_class(), path, desc.max_count).lookback_spins,
            u32::MAX => 0,
            s => s,
        };
        let mode = match desc.mode {
            SelectMode::Unique => MODE_UNIQUE,
            _ => MODE_FLAGGED,
        };
        let spec = SelectSpec {
            workgroup_size: tuning.workgroup_size,
            items: tuning.items_per_invocation,
            spins,
            mode,
            self_cleaning: false,
        };
        match shaders {
            Shaders::Lookback(s) => {
                let variants = lookback_variants(desc.keep_scratch_zeroed, max_tiles, KEPT_ZEROED_MAX_TILES);
                let list: Vec<_> = variants
                    .into_iter()
                    .map(|cleaning| (s, spec.self_cleaning(cleaning)))
                    .collect();
                self.prepare_kernels(&list)?
            }
            Shaders::CountScan { count, scatter } => {
                self.prepare_kernels(&[(count, spec), (scatter, spec)])?
            }
        }
        Ok(SelectPlan {
            ctx: self.clone(),
            desc: desc.clone(),
            path,
            tuning,
            spec,
            shaders,
            scan,
            max_tiles,
            requirements: MemoryRequirements::scratch(scratch, SCRATCH_ALIGNMENT),
        })
    }

    /// The shaders of `path`: built-in permutations, or the passes compiled with the GLSL
    /// predicate.
    fn select_shaders(&self, desc: &SelectDesc, path: SelectPath) -> Result<Shaders> {
        let key = KeyBits::of(desc.key_type);
        let values = ValueWords::of(desc.value_type);
        let pick = |kernel, values| {
            shaders::select(kernel, key, values)
                .ok_or_else(|| Error::Internal(format!("select: no {kernel:?} permutation")))
        };
        let lookback = path == SelectPath::Lookback;
        match &desc.mode {
            SelectMode::If { glsl } => {
                if desc.key_type == KeyType::F64 && !self.supports_float64() {
                    return Err(Error::unsupported(format!(
                        "select: a predicate on f64 keys needs shaderFloat64, which {} lacks",
                        self.profile.device_name
                    )));
                }
                let compile = |target: &Target, value_type: ValueType| {
                    let defines = [
                        ("KEY_BITS", desc.key_type.bits().to_string()),
                        ("VALUE_WORDS", (value_type as u32).to_string()),
                        ("SELECT_GLSL", "1".to_string()),
                        ("KEY_TYPE_CODE", (desc.key_type as u32).to_string()),
                    ];
                    compile_external(glsl, desc.key_type, value_type, target, &defines)
                };
                let [count, scatter, one_pass] = &GLSL_TARGETS;
                Ok(if lookback {
                    Shaders::Lookback(compile(one_pass, desc.value_type)?)
                } else {
                    Shaders::CountScan {
                        count: compile(count, ValueType::None)?,
                        scatter: compile(scatter, desc.value_type)?,
                    }
                })
            }
            _ if lookback => Ok(Shaders::Lookback(pick(SelectKernel::Lookback, values)?)),
            _ => Ok(Shaders::CountScan {
                count: pick(SelectKernel::Count, ValueWords::V0)?,
                scatter: pick(SelectKernel::Scatter, values)?,
            }),
        }
    }
}

/// Bytes of the count-scan path's tile counts (then the scan's scratch), 16-byte aligned.
pub(super) fn counts_bytes(tiles: u64) -> u64 {
    (tiles * 4).next_multiple_of(SCRATCH_ALIGNMENT)
}

fn check_tuning(ctx: &Context, t: &SelectTuning) -> Result<()> {
    let wg = t.workgroup_size;
    if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
        return Err(Error::invalid(format!(
            "select: workgroup size {wg} is not a power of two in 32..=device limit"
        )));
    }
    if !(1..=16).contains(&t.items_per_invocation) {
        return Err(Error::invalid(format!(
            "select: items_per_invocation {} not in 1..=16",
            t.items_per_invocation
        )));
    }
    Ok(())
}

impl SelectPlan {
    /// What the plan was made for.
    pub fn desc(&self) -> &SelectDesc {
        &self.desc
    }

    /// The kernel tuning the plan uses.
    pub fn tuning(&self) -> SelectTuning {
        self.tuning
    }

    /// The path the plan records (never [`SelectPath::Auto`]).
    pub fn path(&self) -> SelectPath {
        self.path
    }

    /// Scratch every [`SelectPlan::record`] call needs: the look-back's status words, or the
    /// tile counts and their scan's scratch.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        self.requirements
    }
}

/// The select shaders with their push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    let mut list = Vec::new();
    for key in [KeyBits::K32, KeyBits::K64] {
        for values in [ValueWords::V0, ValueWords::V1, ValueWords::V2] {
            for kernel in [SelectKernel::Count, SelectKernel::Scatter, SelectKernel::Lookback] {
                if let Some(s) = shaders::select(kernel, key, values) {
                    list.push((*s, SelectPush::FIELDS, std::mem::size_of::<SelectPush>()));
                }
            }
        }
    }
    list
}
