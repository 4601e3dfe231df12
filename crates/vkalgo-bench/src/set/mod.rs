//! Set benchmark: `vkalgo-bench set` (options: `vkalgo-bench set --help`).
//!
//! For each case two sets of about 2^log2n values (sparse: uniform over 2^32; dense: uniform
//! over [0, 2^(log2n+1)), so bitmap chunks half full; clustered: runs of 1..4096 values at
//! random places) are built, then each operation is timed alone with GPU timestamps (median
//! of `--reps` after a warm-up), through the record layer on pools reserved beforehand
//! (`GpuSet::reserve_for_op`, so that the operations take their one-pass path):
//! build from sorted values (an emptied set, the sort itself not included: it is vkalgo's
//! radix sort, benchmarked by `vkalgo-bench sort`), AND / OR / XOR / ANDNOT into a third set
//! (`record_op`, then `record_op` with `reserved` as `set_<op>_reserved`),
//! the cardinality of AND without materializing it, contains of 2^log2n queries (half hits),
//! filter of the same queries, to_array, the cardinality and the cardinality of a range over half
//! the universe. Every result is verified against a CPU merge of the sorted inputs. The
//! operand sets are built from values and then run-optimized (`GpuSet::run_optimize`: run
//! chunks where smaller, as pyroaring's `BitMap(values)` holds its bitmaps), unless
//! `--no-run-optimize`. The memory of each set is compared with the size of its Roaring
//! portable serialization (run containers where smaller: the bytes CRoaring writes for the same
//! values after `run_optimize`); `set_memory_plain_bytes` is its memory before run_optimize,
//! `set_memory_packed_*` after `GpuSet::pack`. With `--packed` the operations read the
//! operands packed (else flat).
//!
//! Cases `arrays` and `long-arrays` (not in the default list): 2^log2n / 32 (or / 136)
//! chunks shared by both sets, about 32 (136) random values each: pairs of arrays of one
//! (two) blocks, the hard cases of the one-pass cardinality. `VKALGO_BENCH_CARD_PATH=passes`
//! or `one-pass` records the cardinalities on that path instead of `Auto`'s choice, and
//! `VKALGO_BENCH_OP_PATH=pair-kernels` or `one-kernel` the operations.
//!
//! Case `full` (not in the default list): two sets with a half-full random bitmap in every
//! chunk of the universe (about 2^31 values each, 512 MiB of bitmaps, the size of the flat
//! 2^32-bit bitmaps of the CUDA baseline), made by reading a Roaring serialization written
//! here. Only the operations and their cardinalities are timed, each checked against the CPU's
//! word-by-word result (the result's serialization compared byte for byte); the rate is also
//! given as a share of the copy bandwidth for the bitmap bytes read and written.
//!
//! `--pass-times` adds each pass's GPU time beside the rows of the build from sorted values,
//! the reserved operations, the cardinalities, contains, filter, to_array and the range
//! cardinalities (in case `full`, AND through both recordings and its cardinality).
//! `RESULT` lines: vkalgo, `set_<op>`, case, n, ms, G values/s (inputs per second), extra.

use ash::vk;
use vkalgo::set::{reference, CardinalityPath, OpPath, SET_SCRATCH_BYTES, SET_STATUS_BYTES};
use vkalgo::{Context, GpuBuffer, GpuSet, MemoryLocation, Result, SetOp, SetOpStatus, SetOperand};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{axis, flag, sized, Axis, Bench, Options, Timer, Timing};

mod cases;
mod data;
mod full;
mod queries;
mod record;
use data::*;
use record::*;

const AXES: &[Axis] = &[
    sized("log2n", "24", "14", "log2 values of each set"),
    sized("reps", "5", "2", "timed repetitions (median, at most 20)"),
    axis(
        "cases",
        "sparse,dense,clustered",
        "sparse, dense, clustered, arrays, long-arrays, full",
    ),
    flag("pass-times", "also each pass's GPU time"),
    flag("no-run-optimize", "operands as built from values (no run chunks)"),
    flag("packed", "the operations read the operands packed"),
];

/// The set benchmark's run: the session, the options, and the buffers and the empty set every
/// case shares.
struct Set<'a> {
    b: Bench<'a>,
    reps: u32,
    pass_times: bool,
    run_optimize: bool,
    packed: bool,
    scratch: GpuBuffer,
    status: GpuBuffer,
    /// The cardinality batches: scratch for as many pairs at once as the batch takes.
    batch_scratch: GpuBuffer,
    batch_status: GpuBuffer,
    empty: GpuSet,
}

/// Runs the set benchmark with the command-line arguments after `set`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "set", AXES, args);
    let log2n: u32 = o.get("log2n", 14);
    let n = 1usize << log2n;
    let timer = Timer::new(ctx)?;
    let bytes = (n as u64 * 4).max(1 << 20);
    let src = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "bench src")?;
    let dst = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "bench dst")?;
    let b = Bench::with_timer(ctx, timer)?;
    b.check_buffers("set", n as u64, &src.range(), &dst.range())?;
    drop((src, dst));
    let gpu = |bytes: u64, location, name: &str| GpuBuffer::new(ctx, bytes, location, name);
    let s = Set {
        reps: o.get("reps", 2u32).clamp(1, 20),
        pass_times: o.flag("pass-times"),
        run_optimize: !o.flag("no-run-optimize"),
        packed: o.flag("packed"),
        scratch: gpu(SET_SCRATCH_BYTES, MemoryLocation::GpuOnly, "bench scratch")?,
        status: gpu(4096, MemoryLocation::GpuToCpu, "bench status")?,
        batch_scratch: gpu(
            8 * SET_SCRATCH_BYTES,
            MemoryLocation::GpuOnly,
            "bench batch scratch",
        )?,
        batch_status: gpu(
            CARD_BATCH as u64 * SET_STATUS_BYTES,
            MemoryLocation::GpuToCpu,
            "bench batch statuses",
        )?,
        empty: GpuSet::new(ctx)?,
        b,
    };
    report::table_of(
        "sets (G values/s: input values per second)",
        "operation | case | n | ms | G values/s | extra",
    );
    for case in &o.names("cases") {
        if case == "full" {
            s.full()?;
        } else {
            s.case(case, n)?;
        }
    }
    Ok(())
}

impl Set<'_> {
    /// The yardstick's warm-up, then `reps` timed repetitions of `record` (no untimed ones);
    /// with `pass_times`, then prints the GPU time of each of its passes (they come before the
    /// operation's row). Returns each repetition's milliseconds.
    fn time(
        &self,
        pass_times: bool,
        mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
    ) -> Result<Vec<f64>> {
        let timing = Timing::warmup_then_warm(0, self.reps as usize);
        let times = self.b.time(timing, |_, _, _| Ok(()), |cmd, _| record(cmd))?;
        if pass_times {
            self.b.pass_times(&mut record)?;
        }
        Ok(times)
    }

    /// One case of values (not `full`): the operands, the build from sorted values, the
    /// operations and their cardinalities, the queries, to_array and the cardinalities of the
    /// first operand.
    fn case(&self, case: &str, n: usize) -> Result<()> {
        let ctx = self.b.ctx;
        let (va, vb, a, b, plain_blocks) = self.operands(case, n)?;
        let mut d = self.build_sorted(case, &va, plain_blocks)?;
        for op in SetOp::ALL {
            self.op(case, &mut d, (&a, &b), (&va, &vb), op)?;
        }
        // contains: the values of b (about half in a for the dense case) and to_array.
        let q = GpuBuffer::new(ctx, vb.len() as u64 * 4, MemoryLocation::GpuOnly, "bench queries")?;
        let flags = GpuBuffer::new(ctx, vb.len() as u64 * 4, MemoryLocation::GpuOnly, "bench flags")?;
        vkalgo_bench::harness::upload(ctx, &q, &vb)?;
        let got = self.contains(case, &a, (&va, &vb), &q, &flags)?;
        // filter: the same queries, the values in the set kept in input order (a record call
        // takes at most 2^24 values on GPUs, 2^22 on CPU drivers).
        if vb.len() <= if ctx.is_cpu_device() { 1 << 22 } else { 1 << 24 } {
            self.filter(case, &a, &vb, &q, &got)?;
        }
        let out = GpuBuffer::new(ctx, va.len() as u64 * 4, MemoryLocation::GpuOnly, "bench out")?;
        self.to_array(case, &a, &va, &out)?;
        self.cardinalities(case, &a, &va)?;
        Ok(())
    }
}
