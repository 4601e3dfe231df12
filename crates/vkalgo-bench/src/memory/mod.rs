//! `vkalgo-bench memory`: why a device-local buffer may copy slower than another one in the same
//! process. Allocates a pair of device-local buffers after different histories of other
//! allocations (raw `vkAllocateMemory` on chosen memory types, and vkalgo's own allocator) and
//! measures the compute-shader copy between them.
//!
//! Options: `vkalgo-bench memory --help`.

use vkalgo::{BufferRange, Context, GpuBuffer, MemoryLocation, Result};
use vkalgo_bench::harness::{axis, median, report, Axis, Options, Timer, MAX_BATCH};

mod probe;
mod raw;
use probe::Probe;
use raw::{memory_types, RawBuffer, Types};

/// GB/s (read + written) of the compute copy between two ranges.
fn copy_gbs(ctx: &Context, timer: &Timer, src: &BufferRange, dst: &BufferRange) -> Result<f64> {
    timer.time_batch(3, |cmd, _| unsafe { ctx.record_compute_copy(cmd, src, dst) })?;
    let times = timer.time_batch(MAX_BATCH.min(20), |cmd, _| unsafe {
        ctx.record_compute_copy(cmd, src, dst)
    })?;
    Ok(2.0 * src.size as f64 / (median(times) * 1e-3) / 1e9)
}

const AXES: &[Axis] = &[
    axis("mib", "1024", "MiB of each buffer of a pair"),
    axis("churn", "16", "staging-sized allocations per history step"),
];

/// Runs the memory probe with the command-line arguments after `memory`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "memory", AXES, args);
    let mut p = Probe {
        bytes: o.get("mib", 1024u64) << 20,
        churn: o.get("churn", 16),
        timer: Timer::new(ctx)?,
        ctx,
        rows: Vec::new(),
    };
    let types = memory_types(ctx);
    p.raw_histories(&types)?;
    let a = GpuBuffer::new(ctx, p.bytes, MemoryLocation::GpuOnly, "probe a")?;
    let b = GpuBuffer::new(ctx, p.bytes, MemoryLocation::GpuOnly, "probe b")?;
    let random = p.allocator_history(&a, &b)?;
    let c = GpuBuffer::new(ctx, p.bytes, MemoryLocation::GpuOnly, "probe c")?;
    p.row("new buffer c <- b", &b.range(), &c.range())?;
    for (label, to) in [("b <- new buffer c", &b), ("a <- new buffer c", &a)] {
        let gbs = copy_gbs(ctx, &p.timer, &c.range(), &to.range())?;
        p.rows.push((label.into(), gbs));
    }
    p.curves(&a, &b, &types, &random)?;
    let table = report::table(
        "copy of a pair after each history",
        &["history before the pair", "copy GB/s"],
    );
    for (label, gbs) in p.rows {
        table.row(&[label, format!("{gbs:.0}")]);
    }
    Ok(())
}
