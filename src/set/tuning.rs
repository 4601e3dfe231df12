//! The sets' tuning tables: workgroup sizes, grids, the one-pass filter's shape and the
//! thresholds of the automatic paths, per device class. Each row's evidence is in
//! `docs/tuning/set.md` under its anchor.

use super::layout::PACK_MAX_CHUNKS;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};
use crate::SetOp;
use Devices::{Any, Cpu, Nvidia, OtherGpu};
use Knob::*;

/// What a row of [`SET_TUNING`] sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Knob {
    /// Invocations per workgroup of most set kernels and of the medium array pairs.
    Workgroup,
    /// Invocations per workgroup of chunk_update.comp at most (the device's limit permitting).
    ChunkKernelWorkgroup,
    /// Invocations per workgroup of small_pairs.comp (one subgroup; the kernel needs 32).
    SmallPairsWorkgroup,
    /// Polls of a silent tile before the one-pass filter looks its values up itself.
    FilterSpins,
    /// Values an invocation of the one-pass filter takes ([`FILTER_ITEMS`]).
    FilterItems,
    /// Workgroups of chunk_update.comp at most.
    ChunkKernelGrid,
    /// Workgroups of array_pairs.comp at most.
    MediumPairsGrid,
    /// Workgroups of bitmap_pairs.comp at most (writing, or adding a cardinality).
    BitmapPairsGrid,
    /// Workgroups of bitmap_pairs.comp at most in an operation's counting stage.
    BitmapPairsCountGrid,
    /// Workgroups of the one-pass cardinality (grid-stride over the directory).
    OnePassGrid,
    /// Workgroups the one-pass pairs of a cardinality batch share, about ...
    OnePassBatchWorkgroups,
    /// ... and each pair at least.
    OnePassBatchMinGrid,
    /// Non-empty chunks of two packed operands a workgroup of a one-pass batch takes.
    OnePassBatchChunksPerWorkgroup,
    /// 1: `CardinalityPath::Auto` counts a batch's pairs of few bitmap and array blocks in one
    /// pass (a dispatch per directory form and grid for them all); 0: every pair of a batch of
    /// several by the passes.
    BatchOnePass,
    /// Workgroups a batch's jobs share in each pair pass (batch.rs), each job at least one;
    /// 0: each job gets the grid it would get alone.
    BatchPassWorkgroups,
    /// `CardinalityPath::Auto` counts in one pass where the operands' pools hold at most this
    /// many bitmap blocks together ...
    OnePassBitmapBlocks,
    /// ... at most this many array blocks ...
    OnePassArrayBlocks,
    /// ... and at most one array block for this many non-empty chunks.
    OnePassChunksPerArrayBlock,
    /// A pair of a cardinality batch is counted in one pass (`Knob::BatchOnePass`) where the
    /// operands' pools hold at most this many bitmap blocks together (and the array blocks of
    /// `Knob::OnePassArrayBlocks`).
    BatchOnePassBitmapBlocks,
    /// [`PACK_MAX_CHUNKS`]: `GpuSet::pack` packs sets of at most this many non-empty chunks.
    PackMaxChunks,
}

/// Values an invocation of the one-pass filter takes (glsl/set/filter.comp FILTER_ITEMS, a
/// constant of the shader: the same on every device).
pub(super) const FILTER_ITEMS: u64 = 4;

const fn row(
    devices: Devices,
    when: Knob,
    choice: u32,
    why: &'static str,
    anchor: &'static str,
) -> TuningRow<Knob, u32> {
    TuningRow {
        devices,
        when,
        choice,
        why,
        anchor,
    }
}

/// The sets' sizes and thresholds; the first row for the device and knob wins.
#[rustfmt::skip]
pub(super) const SET_TUNING: &[TuningRow<Knob, u32>] = &[
    row(Cpu, Workgroup, 64, "each invocation of a kernel with barriers is a coroutine", "workgroup-size"),
    row(Nvidia, Workgroup, 256, "one chunk across a workgroup", "workgroup-size"),
    row(OtherGpu, Workgroup, 256, "NVIDIA's value as default", "workgroup-size"),
    row(Cpu, ChunkKernelWorkgroup, 64, "as every set kernel on CPU drivers", "chunk-kernel-workgroup"),
    row(Nvidia, ChunkKernelWorkgroup, 512, "two workgroups share a multiprocessor", "chunk-kernel-workgroup"),
    row(OtherGpu, ChunkKernelWorkgroup, 512, "NVIDIA's value as default", "chunk-kernel-workgroup"),
    row(Any, SmallPairsWorkgroup, 32, "one subgroup a short pair", "small-pairs-workgroup"),
    row(Cpu, FilterSpins, 32, "as the merge's look-back", "filter-lookback"),
    row(Nvidia, FilterSpins, 256, "as the merge's look-back", "filter-lookback"),
    row(OtherGpu, FilterSpins, 256, "NVIDIA's value as default", "filter-lookback"),
    row(Any, FilterItems, FILTER_ITEMS as u32, "the fastest tile of the one-pass filter", "filter-items"),
    row(Any, ChunkKernelGrid, 256, "no more than run at once", "pair-kernel-grids"),
    row(Any, MediumPairsGrid, 1024, "no more than run at once", "pair-kernel-grids"),
    row(Cpu, BitmapPairsGrid, 1024, "idle workgroups cost CPU drivers much", "bitmap-pairs-grid"),
    row(Nvidia, BitmapPairsGrid, 16384, "at most 4 pairs a workgroup", "bitmap-pairs-grid"),
    row(OtherGpu, BitmapPairsGrid, 16384, "NVIDIA's value as default", "bitmap-pairs-grid"),
    row(Any, BitmapPairsCountGrid, 1024, "an idle counting stage costs only its launches", "bitmap-pairs-count-grid"),
    row(Any, OnePassGrid, 256, "grid-stride over the directory", "one-pass-cardinality"),
    row(Any, OnePassBatchWorkgroups, 256, "a batch's one-pass pairs share the GPU", "one-pass-batch"),
    row(Any, OnePassBatchMinGrid, 16, "a batch's one-pass pairs share the GPU", "one-pass-batch"),
    row(Cpu, OnePassBatchChunksPerWorkgroup, 64, "a workgroup's size of chunks, as alone", "one-pass-batch"),
    row(Any, OnePassBatchChunksPerWorkgroup, 16, "a small pair's listed chunks side by side", "one-pass-batch"),
    row(Any, BatchOnePass, 1, "a few dispatches instead of the passes' launches", "batch-cardinality-path"),
    row(Cpu, BatchPassWorkgroups, 0, "the grids that keep lavapipe's loops short", "batch-pass-grids"),
    row(Nvidia, BatchPassWorkgroups, 1024, "idle workgroups of many jobs cost more than sharing", "batch-pass-grids"),
    row(OtherGpu, BatchPassWorkgroups, 1024, "NVIDIA's value as default", "batch-pass-grids"),
    row(Any, OnePassBitmapBlocks, 16, "bitmap pairs counted one after another", "one-pass-cardinality"),
    row(Cpu, BatchOnePassBitmapBlocks, 16, "as a pair alone", "batch-cardinality-path"),
    row(Any, BatchOnePassBitmapBlocks, 64, "a batch's workgroups count its listed chunks side by side", "batch-cardinality-path"),
    row(Any, OnePassArrayBlocks, 2048, "few array pairs to walk", "one-pass-cardinality"),
    row(Any, OnePassChunksPerArrayBlock, 4, "most chunks decided by their entries", "one-pass-cardinality"),
    row(Any, PackMaxChunks, PACK_MAX_CHUNKS, "denser sets save little packed and read slower", "pack-max-chunks"),
];

/// The value of `knob` on a device of `class`.
pub(super) fn tuned(class: DeviceClass, knob: Knob) -> u32 {
    match first_row(SET_TUNING, class, |k| *k == knob) {
        Some(row) => row.choice,
        None => unreachable!("set tuning: no row for {knob:?} on {class:?}"),
    }
}

/// Which operations `OpPath::Auto` writes by chunk_update.comp alone, for operands with few
/// bitmap and array blocks (else every operation takes the pair kernels).
#[rustfmt::skip]
pub(super) const ONE_KERNEL_OPS: &[TuningRow<SetOp, bool>] = &[
    TuningRow { devices: Any, when: SetOp::And, choice: true, why: "the idle pair kernels' launches saved", anchor: "one-kernel-and" },
    TuningRow { devices: Any, when: SetOp::Or, choice: false, why: "one-sided copies a workgroup each", anchor: "one-kernel-and" },
    TuningRow { devices: Any, when: SetOp::AndNot, choice: false, why: "one-sided copies a workgroup each", anchor: "one-kernel-and" },
    TuningRow { devices: Any, when: SetOp::Xor, choice: false, why: "one-sided copies a workgroup each", anchor: "one-kernel-and" },
];

/// Whether `OpPath::Auto` writes `op` of operands with few blocks by the chunk kernel alone.
pub(super) fn one_kernel_op(class: DeviceClass, op: SetOp) -> bool {
    first_row(ONE_KERNEL_OPS, class, |o| *o == op).is_some_and(|row| row.choice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    const DOC: &str = include_str!("../../docs/tuning/set.md");
    const CLASSES: [DeviceClass; 3] = [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu];

    #[test]
    fn every_row_has_its_evidence() {
        assert_anchors(SET_TUNING, DOC);
        assert_anchors(ONE_KERNEL_OPS, DOC);
    }

    /// The tables give exactly the choices the code made before they were tables.
    #[test]
    fn choices_per_device_class() {
        for class in CLASSES {
            let cpu = class == DeviceClass::Cpu;
            let gpu = |on_gpu: u32, on_cpu: u32| if cpu { on_cpu } else { on_gpu };
            assert_eq!(tuned(class, Workgroup), gpu(256, 64));
            assert_eq!(tuned(class, ChunkKernelWorkgroup), gpu(512, 64));
            assert!(tuned(class, Workgroup) <= tuned(class, ChunkKernelWorkgroup));
            assert_eq!(tuned(class, SmallPairsWorkgroup), 32);
            assert_eq!(tuned(class, FilterSpins), gpu(256, 32));
            assert_eq!(tuned(class, FilterItems), 4);
            assert_eq!(tuned(class, ChunkKernelGrid), 256);
            assert_eq!(tuned(class, MediumPairsGrid), 1024);
            assert_eq!(tuned(class, BitmapPairsGrid), gpu(16384, 1024));
            assert_eq!(tuned(class, BitmapPairsCountGrid), 1024);
            assert_eq!(tuned(class, OnePassGrid), 256);
            assert_eq!(tuned(class, OnePassBatchWorkgroups), 256);
            assert_eq!(tuned(class, OnePassBatchMinGrid), 16);
            assert_eq!(tuned(class, BatchOnePass), 1);
            assert_eq!(tuned(class, BatchOnePassBitmapBlocks), gpu(64, 16));
            assert_eq!(tuned(class, OnePassBatchChunksPerWorkgroup), gpu(16, 64));
            assert_eq!(tuned(class, OnePassBitmapBlocks), 16);
            assert_eq!(tuned(class, OnePassArrayBlocks), 2048);
            assert_eq!(tuned(class, OnePassChunksPerArrayBlock), 4);
            assert_eq!(tuned(class, PackMaxChunks), 32768);
            assert!(one_kernel_op(class, SetOp::And));
            for op in [SetOp::Or, SetOp::AndNot, SetOp::Xor] {
                assert!(!one_kernel_op(class, op));
            }
        }
    }
}
