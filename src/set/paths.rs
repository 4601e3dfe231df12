//! The paths a caller may pick for tests and benchmarks (`#[doc(hidden)]`): how a filter
//! finds its tiles' offsets, how a cardinality is counted, which kernels write an operation.
//! Their `Auto` choices follow the tuning tables (tuning.rs).

use super::gpu::GpuSet;
use super::tuning::{one_kernel_op, tuned, Knob};
use crate::core::tuning::DeviceClass;
use crate::SetOp;

/// How a recorded filter finds each tile's output offset
/// ([`GpuSetFilterArgs::path`](super::GpuSetFilterArgs::path)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FilterPath {
    /// One pass with look-back where the device runs look-back passes, else count, scan and
    /// write.
    Auto,
    /// Count, scan and write: no workgroup waits on another.
    CountScanWrite,
    /// One pass with decoupled look-back: `spins` polls of a silent tile before looking its
    /// values up itself (0: every tile looks its predecessor's values up, whatever it
    /// published; a test mode).
    Lookback {
        /// Polls before the fallback.
        spins: u32,
    },
}

/// How a cardinality-only operation is recorded
/// ([`GpuSetCardinalityArgs::path`](super::GpuSetCardinalityArgs::path)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CardinalityPath {
    /// [`CardinalityPath::OnePass`] for operands with few bitmap and array blocks, most of
    /// their chunks empty, full or single runs; else [`CardinalityPath::Passes`].
    Auto,
    /// The operations' passes: clear, classify, the pair kernels adding into the status.
    Passes,
    /// One pass over the directory that counts every pair itself (glsl/set/chunk_update.comp
    /// FUSED_COUNT); its workgroups add their sums into two 64-bit words where the device has
    /// 64-bit buffer atomics, else as [`CardinalityPath::OnePassSlots`].
    OnePass,
    /// [`CardinalityPath::OnePass`] with each workgroup's sums in scratch words of its own,
    /// added up by the last workgroup to finish (the form for devices without 64-bit buffer
    /// atomics).
    OnePassSlots,
}

impl CardinalityPath {
    /// Whether `a op b` is counted in one pass on this path.
    pub(super) fn counts_in_one_pass(self, a: &GpuSet, b: &GpuSet) -> bool {
        match self {
            CardinalityPath::Auto => GpuSet::one_pass_suits(a, b),
            CardinalityPath::Passes => false,
            CardinalityPath::OnePass | CardinalityPath::OnePassSlots => true,
        }
    }

    /// Whether pair `a op b` of a batch of `pairs` pairs is counted in one pass on this path: a
    /// single pair as alone; several on [`CardinalityPath::Auto`] in one pass where the device's
    /// batches take it (`Knob::BatchOnePass`) and the pair has few bitmap and array blocks,
    /// else by the passes (docs/tuning/set.md#batch-cardinality-path).
    pub(super) fn counts_in_one_pass_of_batch(self, pairs: usize, a: &GpuSet, b: &GpuSet) -> bool {
        match self {
            CardinalityPath::Auto if pairs > 1 => {
                tuned(a.ctx.device_class(), Knob::BatchOnePass) != 0
                    && GpuSet::one_pass_bounded_in_batch(a, b)
            }
            _ => self.counts_in_one_pass(a, b),
        }
    }
}

/// Which kernels write an operation of two sets
/// ([`GpuSetOpArgs::path`](super::GpuSetOpArgs::path), [`GpuSet::assign_on`]). The result is the same on every
/// path.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpPath {
    /// [`OpPath::OneKernel`] for intersections of operands with few bitmap and array blocks,
    /// most of their chunks empty, full or single runs (as [`CardinalityPath::Auto`] picks its
    /// one pass); else [`OpPath::PairKernels`]. Only intersections: the three idle launches of
    /// each stage are saved, where the other operations' chunks copied from one operand would
    /// take a chunk_update.comp workgroup each (docs/tuning/set.md#one-kernel-and).
    Auto,
    /// Each listed pair to the kernel made for its kind: pairs of bitmaps to
    /// glsl/set/bitmap_pairs.comp, pairs of short arrays and chunk copies to small_pairs.comp
    /// and array_pairs.comp, the rest to chunk_update.comp.
    PairKernels,
    /// Every listed pair to chunk_update.comp: the three other pair kernels are not launched.
    OneKernel,
}

impl OpPath {
    /// Whether `a op b` is written by chunk_update.comp alone on this path, for operands that
    /// [`GpuSet::one_pass_suits`] or not (`few_blocks`), on a device of `class`.
    pub(super) fn one_kernel(self, class: DeviceClass, op: SetOp, few_blocks: bool) -> bool {
        match self {
            OpPath::Auto => few_blocks && one_kernel_op(class, op),
            OpPath::PairKernels => false,
            OpPath::OneKernel => true,
        }
    }
}
