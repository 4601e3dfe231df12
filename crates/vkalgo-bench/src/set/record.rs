//! The set benchmark's recordings and checks: each timed operation, its path, its status,
//! and the rows it reports.

use super::*;
use vkalgo::{GpuSetCardinalityArgs, GpuSetOpArgs};

/// Panics unless the last recorded operation whose status went to byte `offset` of `status`
/// wrote its result (a timing of an operation that found the pools short would time no write).
pub(super) fn assert_status_ok(ctx: &Context, status: &GpuBuffer, offset: usize, what: &str) -> Result<()> {
    let words: Vec<u32> = vkalgo_bench::harness::download(ctx, status, offset / 4 + 8)?;
    assert_eq!(
        words[offset / 4],
        1,
        "{what}: the timed operation wrote nothing (pools short)"
    );
    Ok(())
}

/// Checks the cardinality a timed `record_card` wrote (its status at byte 128).
pub(super) fn assert_card_status(ctx: &Context, status: &GpuBuffer, want: u64, what: &str) -> Result<()> {
    let words: Vec<u32> = vkalgo_bench::harness::download(ctx, status, 32 + 8)?;
    let got: SetOpStatus = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&words[32..40]));
    assert_eq!(got.cardinality(), want, "{what}: the timed cardinality");
    Ok(())
}

impl Set<'_> {
    /// Records `d = a op b` through `record_op`, `reserved` (the one-pass recording) or not, on
    /// [`op_path`] (its status at byte 0 of the status buffer).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub(super) unsafe fn record_set_op(
        &self,
        d: &mut GpuSet,
        cmd: vk::CommandBuffer,
        a: &GpuSet,
        b: &GpuSet,
        op: SetOp,
        reserved: bool,
    ) -> Result<()> {
        let (scratch, status) = (self.scratch.range(), self.status.sub_range(0, SET_STATUS_BYTES));
        d.record_op(
            cmd,
            &GpuSetOpArgs {
                path: op_path(),
                reserved,
                ..GpuSetOpArgs::new(SetOperand::Set(a), SetOperand::Set(b), op, scratch, status)
            },
        )
    }

    /// Records the cardinality of `a op b` (its status at byte 128 of the status buffer).
    ///
    /// # Safety
    /// As [`GpuSet::record_op_cardinality`].
    pub(super) unsafe fn record_card(
        &self,
        cmd: vk::CommandBuffer,
        a: &GpuSet,
        b: &GpuSet,
        op: SetOp,
    ) -> Result<()> {
        let (scratch, status) = (self.scratch.range(), self.status.sub_range(128, SET_STATUS_BYTES));
        GpuSet::record_op_cardinality(
            cmd,
            &GpuSetCardinalityArgs {
                path: card_path(),
                ..GpuSetCardinalityArgs::new(a, b, op, scratch, status)
            },
        )
    }
}

/// The operations' path: `VKALGO_BENCH_OP_PATH` = `pair-kernels` or `one-kernel` (to compare
/// them), else `Auto`.
pub(super) fn op_path() -> OpPath {
    match std::env::var("VKALGO_BENCH_OP_PATH").as_deref() {
        Ok("pair-kernels") => OpPath::PairKernels,
        Ok("one-kernel") => OpPath::OneKernel,
        _ => OpPath::Auto,
    }
}

/// Pairs of the timed cardinality batches.
pub(super) const CARD_BATCH: usize = 16;

/// The cardinalities' path (single calls and every pair of the batches):
/// `VKALGO_BENCH_CARD_PATH` = `passes`, `one-pass` or `one-pass-slots` (to compare them), else
/// `Auto`.
pub(super) fn card_path() -> CardinalityPath {
    match std::env::var("VKALGO_BENCH_CARD_PATH").as_deref() {
        Ok("passes") => CardinalityPath::Passes,
        Ok("one-pass") => CardinalityPath::OnePass,
        Ok("one-pass-slots") => CardinalityPath::OnePassSlots,
        _ => CardinalityPath::Auto,
    }
}

/// A row of the sets' table and its record.
pub(super) fn result_line(name: &str, case: &str, n: usize, ms: f64, extra: &str) {
    let rate = rate(n as u64, ms);
    report::line(&format!(
        "| {name} | {case} | {n} | {ms:.4} | {rate:.2} | {extra} |"
    ));
    report::result(&format!("set_{name}"), case, n as u64, ms, rate, extra);
}

/// The memory of `set` (`n` values) against the size of its Roaring serialization (`roaring`
/// bytes): a line, and the rows `set_memory_<form>ratio` and `set_memory_<form>bytes`.
pub(super) fn print_memory(case: &str, form: &str, set: &GpuSet, n: usize, roaring: u64) {
    let (bytes, ratio) = (set.memory_bytes(), set.memory_bytes() as f64 / roaring as f64);
    println!(
        "{case}: {n} values, {}memory {bytes} bytes, Roaring portable serialization {roaring} bytes: {ratio:.3}x",
        form.replace('_', " ")
    );
    let n = n as u64;
    report::result(
        &format!("set_memory_{form}ratio"),
        case,
        n,
        0.0,
        ratio,
        &roaring.to_string(),
    );
    report::result(
        &format!("set_memory_{form}bytes"),
        case,
        n,
        0.0,
        0.0,
        &bytes.to_string(),
    );
}
