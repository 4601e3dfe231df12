//! The reduce-by-key plan: its checks, its pipelines and the record layer.

use super::{
    tuning, ReduceByKeyArgs, ReduceByKeyDesc, ReduceByKeyPath, ReduceByKeyTuning, REDUCE_BY_KEY_MAX_COUNT,
};
use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::lookback_state::{lookback_variants, LookbackScratch, KEPT_ZEROED_MAX_TILES};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, KeyBits, ReduceByKeyKernel, ShaderSource, ValueWords};
use crate::core::spirv::push_constants;
use crate::core::types::{ReduceOp, ValueType};
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of every reduce-by-key kernel (glsl/reduce_by_key/rbk_common.glsl, block
    /// `RbkPush`).
    pub(crate) struct RbkPush {
        keys_in: u64,
        values_in: u64,
        keys_out: u64,
        values_out: u64,
        run_count: u64,
        scratch: u64,
        count_addr: u64,
        count: u32,
        max_count: u32,
        max_tiles: u32,
        tile_elems: u32,
    }
}

/// Bytes of scratch before the look-back status words or the tiles' pairs (the tile ticket at
/// byte 0, the fallback counter at byte 4).
pub(super) const SCRATCH_HEADER: u64 = 16;
/// Look-back flag of a tile that has published nothing yet: zero, so that a cleared state
/// reads as nothing published.
pub(super) const FLAG_NONE: u32 = 0;
const _: () = assert!(FLAG_NONE == 0);
/// Look-back flag of a tile whose own pair is published (the kernels' through the generated
/// header).
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const FLAG_AGGREGATE: u32 = 1;
/// Look-back flag of a tile whose pair of everything up to its end is published.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const FLAG_INCLUSIVE: u32 = 2;
/// Bytes of one pair in the scratch (the reduce-then-scan path).
const PAIR_BYTES: u64 = 16;
/// Bytes of a tile's look-back status: u64 words of the flag beside the heads and each 32-bit
/// half of the value (glsl/reduce_by_key/lookback.comp).
fn status_bytes(value_type: ValueType) -> u64 {
    if value_type == ValueType::U64 {
        24
    } else {
        16
    }
}

/// The specialization constants of the reduce-by-key kernels.
#[derive(Clone, Copy)]
struct RbkSpec {
    /// Invocations per workgroup (constant_id 0).
    workgroup_size: u32,
    /// Elements per invocation (constant_id 1).
    items: u32,
    /// Look-back spins before the fallback (constant_id 2; 0: test mode).
    spins: u32,
    /// The operation (RBK_OP, constant_id 5).
    op: ReduceOp,
    /// The look-back clears its kept-zeroed state itself (SELF_CLEANING, constant_id 8).
    self_cleaning: bool,
}

impl From<RbkSpec> for Specialization {
    fn from(spec: RbkSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.items,
            id2: spec.spins,
            id5: spec.op as u32,
            id6: 0,
            id8: spec.self_cleaning as u32,
        }
    }
}

/// A reduce-by-key plan: made once for a key type, value type, operation and maximum count,
/// recorded any number of times ([`ReduceByKeyPlan::record`]).
pub struct ReduceByKeyPlan {
    ctx: Context,
    desc: ReduceByKeyDesc,
    path: ReduceByKeyPath,
    tuning: ReduceByKeyTuning,
    spins: u32,
    max_tiles: u64,
}

impl std::fmt::Debug for ReduceByKeyPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReduceByKeyPlan")
            .field("desc", &self.desc)
            .field("path", &self.path)
            .field("tuning", &self.tuning)
            .field("max_tiles", &self.max_tiles)
            .finish()
    }
}

impl Context {
    /// Plans a reduce-by-key (or, with [`ValueType::None`], a run-length encoding). Errors: a
    /// count over [`REDUCE_BY_KEY_MAX_COUNT`] or a bad tuning ([`Error::InvalidArgument`]).
    pub fn reduce_by_key_plan(&self, desc: &ReduceByKeyDesc) -> Result<ReduceByKeyPlan> {
        if desc.max_count > REDUCE_BY_KEY_MAX_COUNT {
            return Err(Error::invalid(format!(
                "reduce_by_key: max_count {} exceeds {REDUCE_BY_KEY_MAX_COUNT}",
                desc.max_count
            )));
        }
        let tuning = desc
            .tuning
            .unwrap_or_else(|| ReduceByKeyTuning::for_device(self, desc.max_count));
        check_tuning(self, &tuning)?;
        let shared = tile_shared_bytes(desc, &tuning);
        if shared > self.profile.max_shared_memory as u64 {
            return Err(Error::invalid(format!(
                "reduce_by_key: workgroups of {} invocations need {shared} bytes of shared memory, \
                 more than the device's {}",
                tuning.workgroup_size, self.profile.max_shared_memory
            )));
        }
        let path = match desc.path {
            ReduceByKeyPath::Auto if self.profile.lookback => ReduceByKeyPath::Lookback,
            ReduceByKeyPath::Auto => ReduceByKeyPath::ReduceThenScan,
            p => p,
        };
        let spins = match tuning.lookback_spins {
            0 => tuning::default_spins(self.device_class()),
            u32::MAX => 0,
            s => s,
        };
        let mut desc = *desc;
        if desc.value_type == ValueType::None {
            desc.op = ReduceOp::Sum; // run lengths: the sum of ones
        }
        let plan = ReduceByKeyPlan {
            ctx: self.clone(),
            desc,
            path,
            tuning,
            spins,
            max_tiles: desc.max_count.div_ceil(tuning.tile_elements()).max(1),
        };
        let kernels = plan.kernels()?;
        self.prepare_kernels(&kernels)?;
        Ok(plan)
    }
}

/// Shared memory of the tile kernels: the runs' output window (4 keys and values an
/// invocation), the subgroups' pairs (for subgroups of 4 and up) and the walk's state.
fn tile_shared_bytes(desc: &ReduceByKeyDesc, t: &ReduceByKeyTuning) -> u64 {
    let wg = t.workgroup_size as u64;
    let value_bytes = if desc.value_type == ValueType::U64 { 8 } else { 4 };
    4 * wg * (desc.key_type.bytes() + value_bytes) + (wg / 4) * 16 + 16
}

fn check_tuning(ctx: &Context, t: &ReduceByKeyTuning) -> Result<()> {
    let wg = t.workgroup_size;
    if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
        return Err(Error::invalid(format!(
            "reduce_by_key: workgroup size {wg} is not a power of two in 32..=device limit"
        )));
    }
    if !(1..=16).contains(&t.items_per_invocation) {
        return Err(Error::invalid(format!(
            "reduce_by_key: items_per_invocation {} not in 1..=16",
            t.items_per_invocation
        )));
    }
    Ok(())
}

/// The checked ranges of one call: (direct count, most elements).
struct Checked {
    direct: Option<u64>,
    tiles: u64,
}

impl ReduceByKeyPlan {
    /// What the plan was made for (the operation is `Sum` for run-length encodings).
    pub fn desc(&self) -> &ReduceByKeyDesc {
        &self.desc
    }

    /// The path this plan records (never [`ReduceByKeyPath::Auto`]).
    pub fn path(&self) -> ReduceByKeyPath {
        self.path
    }

    /// The kernel tuning the plan uses.
    pub fn tuning(&self) -> ReduceByKeyTuning {
        self.tuning
    }

    /// Elements per tile (one workgroup's share).
    pub fn tile_size(&self) -> u64 {
        self.tuning.tile_elements()
    }

    /// Scratch every [`ReduceByKeyPlan::record`] call needs: a look-back status per tile (16
    /// bytes, 24 with u64 values), or one pair per tile.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        MemoryRequirements::scratch(self.scratch_bytes(), 16)
    }

    fn scratch_bytes(&self) -> u64 {
        match self.path {
            ReduceByKeyPath::Lookback => SCRATCH_HEADER + self.max_tiles * status_bytes(self.desc.value_type),
            _ => SCRATCH_HEADER + self.max_tiles * PAIR_BYTES,
        }
    }

    fn spec(&self, spins: u32) -> RbkSpec {
        RbkSpec {
            workgroup_size: self.tuning.workgroup_size,
            items: self.tuning.items_per_invocation,
            spins,
            op: self.desc.op,
            self_cleaning: false,
        }
    }

    fn shader(&self, kernel: ReduceByKeyKernel) -> Result<&'static ShaderSource> {
        let (key, values) = (
            KeyBits::of(self.desc.key_type),
            ValueWords::of(self.desc.value_type),
        );
        shaders::reduce_by_key(kernel, key, values)
            .ok_or_else(|| Error::Internal(format!("reduce_by_key: no shader {kernel:?} {key:?} {values:?}")))
    }

    /// The look-back kernel, self-cleaning or not.
    fn lookback_kernel(&self, self_cleaning: bool) -> Result<(&'static ShaderSource, RbkSpec)> {
        let spec = RbkSpec {
            self_cleaning,
            ..self.spec(self.spins)
        };
        Ok((self.shader(ReduceByKeyKernel::Lookback)?, spec))
    }

    /// Every pipeline the plan's calls may record: the look-back's variants, or the
    /// reduce-then-scan path's three in recording order.
    fn kernels(&self) -> Result<Vec<(&'static ShaderSource, RbkSpec)>> {
        Ok(match self.path {
            ReduceByKeyPath::Lookback => lookback_variants(
                self.desc.keep_scratch_zeroed,
                self.max_tiles,
                KEPT_ZEROED_MAX_TILES,
            )
            .into_iter()
            .map(|cleaning| self.lookback_kernel(cleaning))
            .collect::<Result<_>>()?,
            _ => vec![
                (self.shader(ReduceByKeyKernel::TileReduce)?, self.spec(1)),
                (
                    &shaders::REDUCE_BY_KEY_SPINE,
                    RbkSpec {
                        items: 1,
                        ..self.spec(1)
                    },
                ),
                (self.shader(ReduceByKeyKernel::TileWrite)?, self.spec(1)),
            ],
        })
    }

    /// Checks the call's buffers against the plan (sizes, alignment, overlaps).
    fn check_args(&self, args: &ReduceByKeyArgs) -> Result<Checked> {
        let ctx = &self.ctx;
        let (direct, n) = args
            .count
            .resolve(ctx, "reduce_by_key: count", self.desc.max_count)?;
        let kb = self.desc.key_type.bytes();
        let vb = self.desc.value_type.bytes();
        let ob = if self.desc.value_type == ValueType::U64 {
            8
        } else {
            4
        };
        args.keys_in.check(ctx, "reduce_by_key keys_in", n * kb, kb)?;
        let mut reads = vec![args.keys_in.part(0, n * kb)];
        match (self.desc.value_type, args.values_in) {
            (ValueType::None, None) => {}
            (ValueType::None, Some(_)) => {
                return Err(Error::invalid(
                    "reduce_by_key: values_in given for a run-length encoding (value type NONE)",
                ))
            }
            (_, None) => return Err(Error::invalid("reduce_by_key: values_in missing")),
            (_, Some(values)) => {
                values.check(ctx, "reduce_by_key values_in", n * vb, vb)?;
                reads.push(values.part(0, n * vb));
            }
        }
        if let ElementCount::Indirect(range) = args.count {
            reads.push(range.part(0, 4));
        }
        args.keys_out.check(ctx, "reduce_by_key keys_out", n * kb, kb)?;
        args.values_out
            .check(ctx, "reduce_by_key values_out", n * ob, ob)?;
        args.run_count.check(ctx, "reduce_by_key run_count", 4, 4)?;
        let scratch_bytes = self.scratch_bytes();
        args.scratch
            .check(ctx, "reduce_by_key scratch", scratch_bytes, 16)?;
        let writes = [
            args.keys_out.part(0, n * kb),
            args.values_out.part(0, n * ob),
            args.run_count.part(0, 4),
            args.scratch.part(0, scratch_bytes),
        ];
        let clash = writes.iter().enumerate().any(|(i, w)| {
            writes[i + 1..].iter().any(|o| o.overlaps(w)) || reads.iter().any(|r| r.overlaps(w))
        });
        if clash {
            return Err(Error::invalid(
                "reduce_by_key: an output or the scratch overlaps another range of the call",
            ));
        }
        let tiles = match direct {
            Some(d) => d.div_ceil(self.tuning.tile_elements()).max(1),
            None => self.max_tiles,
        };
        Ok(Checked { direct, tiles })
    }

    /// Records the reduce-by-key of `args.count` elements: on the look-back path a compute
    /// clear of the scratch's status words, a barrier and one dispatch; on the reduce-then-scan
    /// path three dispatches with barriers between (see the module docs for the synchronization
    /// contract). Writes the runs and their number. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &ReduceByKeyArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("reduce_by_key: the command buffer is null"));
        }
        let checked = self.check_args(args)?;
        let address = |r: &Option<BufferRange>| r.as_ref().map_or(0, |r| ctx.address_of(r));
        let push = RbkPush {
            keys_in: ctx.address_of(&args.keys_in),
            values_in: address(&args.values_in),
            keys_out: ctx.address_of(&args.keys_out),
            values_out: ctx.address_of(&args.values_out),
            run_count: ctx.address_of(&args.run_count),
            scratch: ctx.address_of(&args.scratch),
            count_addr: match args.count {
                ElementCount::Indirect(range) => ctx.address_of(&range),
                ElementCount::Direct(_) => 0,
            },
            count: checked.direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
            max_tiles: self.max_tiles as u32,
            tile_elems: self.tuning.tile_elements() as u32,
        };
        let tiles = checked.tiles as u32;
        // SAFETY: `cmd` is recording (documented); the ranges were checked above.
        unsafe {
            if self.path == ReduceByKeyPath::Lookback {
                // The header and the status of the tiles this call may use (FLAG_NONE is 0).
                let state = args.scratch.part(
                    0,
                    SCRATCH_HEADER + tiles as u64 * status_bytes(self.desc.value_type),
                );
                let scratch = LookbackScratch::of_plan(self.desc.keep_scratch_zeroed);
                let (shader, spec) =
                    self.lookback_kernel(scratch.self_cleaning(tiles as u64, KEPT_ZEROED_MAX_TILES))?;
                let lookback = ctx.kernel(shader, spec)?;
                ctx.record_lookback(cmd, scratch, &state, tiles as u64, KEPT_ZEROED_MAX_TILES, || {
                    ctx.dispatch(cmd, lookback, &push, tiles)
                })?;
            } else if let [reduce, spine, write] = self
                .kernels()?
                .into_iter()
                .map(|(shader, spec)| ctx.kernel(shader, spec))
                .collect::<Result<Vec<_>>>()?[..]
            {
                ctx.dispatch(cmd, reduce, &push, tiles);
                ctx.compute_to_compute(cmd);
                ctx.dispatch(cmd, spine, &push, 1);
                ctx.compute_to_compute(cmd);
                ctx.dispatch(cmd, write, &push, tiles);
            }
        }
        Ok(())
    }
}

/// The reduce-by-key shaders with their push-constant layout (checked against the SPIR-V by a
/// test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("reduce_by_key_"))
        .map(|s| (*s, RbkPush::FIELDS, std::mem::size_of::<RbkPush>()))
        .collect()
}
