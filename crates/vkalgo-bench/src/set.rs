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
use vkalgo::{
    Context, ElementCount, GpuBuffer, GpuSet, GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs,
    GpuSetContainsArgs, GpuSetFilterArgs, GpuSetInsertSortedArgs, GpuSetOpArgs, GpuSetRangeCardinalityArgs,
    GpuSetToArrayArgs, MemoryLocation, Result, SetOp, SetOpStatus, SetOperand,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{axis, flag, median, print_pass_times, sized, yardstick, Axis, Options, Timer};

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Sorted distinct values of a case.
fn case_values(case: &str, n: usize, seed: u64) -> Vec<u32> {
    let mut r = xorshift(seed);
    let mut v: Vec<u32> = match case {
        "sparse" => (0..n).map(|_| (r() >> 32) as u32).collect(),
        "dense" => (0..n).map(|_| ((r() >> 32) % (2 * n as u64)) as u32).collect(),
        // n / k chunks spread over the universe (the same in both sets), about k random values
        // each: pairs of arrays of one block (k = 32) or two (k = 136).
        "arrays" | "long-arrays" => {
            let k = if case == "arrays" { 32 } else { 136 };
            (0..n)
                .map(|i| ((((i / k) as u32).wrapping_mul(61) & 0xFFFF) << 16) | ((r() >> 48) as u32))
                .collect()
        }
        _ => {
            let mut v = Vec::with_capacity(n + 4096);
            while v.len() < n {
                let start = (r() >> 32) as u32;
                let len = 1 + (r() % 4096) as u32;
                v.extend((0..len).map(|i| start.wrapping_add(i)));
            }
            v
        }
    };
    v.sort_unstable();
    v.dedup();
    v
}

fn merge(a: &[u32], b: &[u32], op: SetOp) -> Vec<u32> {
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            if op != SetOp::And {
                out.push(a[i]);
            }
            i += 1;
        } else if i == a.len() || b[j] < a[i] {
            if matches!(op, SetOp::Or | SetOp::Xor) {
                out.push(b[j]);
            }
            j += 1;
        } else {
            if matches!(op, SetOp::And | SetOp::Or) {
                out.push(a[i]);
            }
            i += 1;
            j += 1;
        }
    }
    out
}

/// Panics unless the last recorded operation whose status went to byte `offset` of `status`
/// wrote its result (a timing of an operation that found the pools short would time no write).
fn assert_status_ok(ctx: &Context, status: &GpuBuffer, offset: usize, what: &str) -> Result<()> {
    let words: Vec<u32> = vkalgo_bench::harness::download(ctx, status, offset / 4 + 8)?;
    assert_eq!(
        words[offset / 4],
        1,
        "{what}: the timed operation wrote nothing (pools short)"
    );
    Ok(())
}

/// Checks the cardinality a timed `record_card` wrote (its status at byte 128).
fn assert_card_status(ctx: &Context, status: &GpuBuffer, want: u64, what: &str) -> Result<()> {
    let words: Vec<u32> = vkalgo_bench::harness::download(ctx, status, 32 + 8)?;
    let got: SetOpStatus = bytemuck::pod_read_unaligned(bytemuck::cast_slice(&words[32..40]));
    assert_eq!(got.cardinality(), want, "{what}: the timed cardinality");
    Ok(())
}

/// Times `record` over `reps` repetitions; with `pass_times`, then prints the GPU time of each
/// of its passes (they come before the operation's row).
fn time_op(
    ctx: &Context,
    timer: &Timer,
    reps: u32,
    pass_times: bool,
    mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<Vec<f64>> {
    let times = timer.time_batch(reps, |cmd, _| record(cmd))?;
    if pass_times {
        print_pass_times(ctx, timer, &mut record)?;
    }
    Ok(times)
}

/// Records `d = a op b` through `record_op`, `reserved` (the one-pass recording) or not, on
/// [`op_path`].
///
/// # Safety
/// As [`GpuSet::record_op`].
#[allow(clippy::too_many_arguments)]
unsafe fn record_set_op(
    d: &mut GpuSet,
    cmd: vk::CommandBuffer,
    a: &GpuSet,
    b: &GpuSet,
    op: SetOp,
    reserved: bool,
    scratch: &GpuBuffer,
    status: &GpuBuffer,
) -> Result<()> {
    d.record_op(
        cmd,
        &GpuSetOpArgs {
            path: op_path(),
            reserved,
            ..GpuSetOpArgs::new(
                SetOperand::Set(a),
                SetOperand::Set(b),
                op,
                scratch.range(),
                status.sub_range(0, SET_STATUS_BYTES),
            )
        },
    )
}

/// The operations' path: `VKALGO_BENCH_OP_PATH` = `pair-kernels` or `one-kernel` (to compare
/// them), else `Auto`.
fn op_path() -> OpPath {
    match std::env::var("VKALGO_BENCH_OP_PATH").as_deref() {
        Ok("pair-kernels") => OpPath::PairKernels,
        Ok("one-kernel") => OpPath::OneKernel,
        _ => OpPath::Auto,
    }
}

/// Records the cardinality of `a op b` (its status at byte 128 of `status`).
///
/// # Safety
/// As [`GpuSet::record_op_cardinality`].
unsafe fn record_card(
    cmd: vk::CommandBuffer,
    a: &GpuSet,
    b: &GpuSet,
    op: SetOp,
    scratch: &GpuBuffer,
    status: &GpuBuffer,
) -> Result<()> {
    GpuSet::record_op_cardinality(
        cmd,
        &GpuSetCardinalityArgs {
            path: card_path(),
            ..GpuSetCardinalityArgs::new(a, b, op, scratch.range(), status.sub_range(128, SET_STATUS_BYTES))
        },
    )
}

/// Pairs of the timed cardinality batches.
const CARD_BATCH: usize = 16;

/// The cardinalities' path (single calls and every pair of the batches):
/// `VKALGO_BENCH_CARD_PATH` = `passes`, `one-pass` or `one-pass-slots` (to compare them), else
/// `Auto`.
fn card_path() -> CardinalityPath {
    match std::env::var("VKALGO_BENCH_CARD_PATH").as_deref() {
        Ok("passes") => CardinalityPath::Passes,
        Ok("one-pass") => CardinalityPath::OnePass,
        Ok("one-pass-slots") => CardinalityPath::OnePassSlots,
        _ => CardinalityPath::Auto,
    }
}

/// A row of the sets' table and its record.
fn result_line(name: &str, case: &str, n: usize, ms: f64, extra: &str) {
    let rate = rate(n as u64, ms);
    report::line(&format!(
        "| {name} | {case} | {n} | {ms:.4} | {rate:.2} | {extra} |"
    ));
    report::result(&format!("set_{name}"), case, n as u64, ms, rate, extra);
}

/// The memory of `set` (`n` values) against the size of its Roaring serialization (`roaring`
/// bytes): a line, and the rows `set_memory_<form>ratio` and `set_memory_<form>bytes`.
fn print_memory(case: &str, form: &str, set: &GpuSet, n: usize, roaring: u64) {
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

pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "set", AXES, args);
    let log2n: u32 = o.get("log2n", 14);
    let reps: u32 = o.get("reps", 2u32).clamp(1, 20);
    let cases = o.names("cases");
    let pass_times = o.flag("pass-times");
    let run_optimize = !o.flag("no-run-optimize");
    let packed = o.flag("packed");
    let n = 1usize << log2n;
    let timer = Timer::new(ctx)?;
    let bytes = (n as u64 * 4).max(1 << 20);
    let src = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "bench src")?;
    let dst = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "bench dst")?;
    let yard = yardstick(ctx, &timer)?;
    let copy_gbs = yard.gbs;
    yard.check_buffers(ctx, &timer, "set", n as u64, &src.range(), &dst.range())?;
    drop((src, dst));
    let scratch = GpuBuffer::new(ctx, SET_SCRATCH_BYTES, MemoryLocation::GpuOnly, "bench scratch")?;
    let status = GpuBuffer::new(ctx, 4096, MemoryLocation::GpuToCpu, "bench status")?;
    // The cardinality batches: scratch for as many pairs at once as the batch takes.
    let batch_scratch = GpuBuffer::new(
        ctx,
        8 * SET_SCRATCH_BYTES,
        MemoryLocation::GpuOnly,
        "bench batch scratch",
    )?;
    let batch_status = GpuBuffer::new(
        ctx,
        CARD_BATCH as u64 * SET_STATUS_BYTES,
        MemoryLocation::GpuToCpu,
        "bench batch statuses",
    )?;
    let empty = GpuSet::new(ctx)?;
    report::table(
        "sets (G values/s: input values per second)",
        &["operation", "case", "n", "ms", "G values/s", "extra"],
    );
    for case in &cases {
        if case == "full" {
            run_full(ctx, &timer, yard, &scratch, &status, reps, pass_times)?;
            continue;
        }
        let va = case_values(case, n, 1);
        let vb = case_values(case, n, 2);
        let mut a = GpuSet::from_values(ctx, &va)?;
        let mut b = GpuSet::from_values(ctx, &vb)?;
        let plain = a.memory_bytes().to_string();
        report::result("set_memory_plain_bytes", case, va.len() as u64, 0.0, 0.0, &plain);
        let plain_blocks = a.pool_blocks();
        // The operands as pyroaring's BitMap(values) holds them: after run_optimize (run
        // chunks where smaller), unless --no-run-optimize.
        if run_optimize {
            for s in [&mut a, &mut b] {
                s.run_optimize()?;
                s.shrink_to_fit()?;
            }
        }
        let roaring_a = a.serialized_size()?;
        print_memory(case, "", &a, va.len(), roaring_a);
        // Packed (GpuSet::pack: the directory of the non-empty chunks only); the operations
        // below read the operands packed with --packed, else flat.
        a.pack()?;
        print_memory(case, "packed_", &a, va.len(), roaring_a);
        if packed {
            b.pack()?;
        } else {
            a.unpack()?;
        }
        // Build from sorted values into an emptied set whose pools fit the result.
        let sorted = GpuBuffer::new(ctx, va.len() as u64 * 4, MemoryLocation::GpuOnly, "bench sorted")?;
        vkalgo_bench::harness::upload(ctx, &sorted, &va)?;
        let mut d = GpuSet::from_values(ctx, &va)?;
        // (A build from values writes arrays and bitmaps: the blocks of a before run_optimize.)
        let (bm, ar) = plain_blocks;
        d.reserve(bm, ar)?;
        let batch = va.len().min(1 << 24);
        yard.warm(ctx, &timer)?;
        let times = timer.time_each(
            reps,
            |cmd, _| unsafe {
                d.record_op(
                    cmd,
                    &GpuSetOpArgs::new(
                        SetOperand::Set(&empty),
                        SetOperand::Set(&empty),
                        SetOp::And,
                        scratch.range(),
                        status.sub_range(0, SET_STATUS_BYTES),
                    ),
                )
            },
            |cmd, _| unsafe {
                d.record_insert_sorted(
                    cmd,
                    &GpuSetInsertSortedArgs {
                        sorted: sorted.sub_range(0, batch as u64 * 4),
                        count: ElementCount::Direct(batch as u64),
                        max_count: batch as u64,
                        remove: false,
                        scratch: scratch.range(),
                        status: status.sub_range(64, SET_STATUS_BYTES),
                    },
                )
            },
        )?;
        assert_status_ok(ctx, &status, 64, "build")?;
        assert!(d.to_vec()? == va[..batch], "build: wrong set");
        result_line("build_sorted", case, batch, median(times), "");
        if pass_times {
            // The emptying operation's passes come first, then the build's.
            print_pass_times(ctx, &timer, |cmd| unsafe {
                let (scratch, empty) = (scratch.range(), SetOperand::Set(&empty));
                d.record_op(
                    cmd,
                    &GpuSetOpArgs::new(
                        empty,
                        empty,
                        SetOp::And,
                        scratch,
                        status.sub_range(0, SET_STATUS_BYTES),
                    ),
                )?;
                d.record_barrier(cmd);
                d.record_insert_sorted(
                    cmd,
                    &GpuSetInsertSortedArgs {
                        sorted: sorted.sub_range(0, batch as u64 * 4),
                        count: ElementCount::Direct(batch as u64),
                        max_count: batch as u64,
                        remove: false,
                        scratch,
                        status: status.sub_range(64, SET_STATUS_BYTES),
                    },
                )
            })?;
        }
        drop(sorted);
        for op in SetOp::ALL {
            // Once through the host call, then free blocks for the bound the one-pass path
            // needs (as an engine recording operations would reserve them): a recorded
            // operation counts the free blocks before it gives d's old ones back.
            d.assign(SetOperand::Set(&a), SetOperand::Set(&b), op)?;
            let want = merge(&va, &vb, op);
            // record_op, then record_op reserved (the one-pass path in three passes, without
            // the counting and check passes) as `set_<op>_reserved`.
            for (reserved, suffix) in [(false, ""), (true, "_reserved")] {
                d.reserve_for_op(SetOperand::Set(&a), SetOperand::Set(&b), op)?;
                yard.warm(ctx, &timer)?;
                let times = time_op(ctx, &timer, reps, pass_times && reserved, |cmd| unsafe {
                    record_set_op(&mut d, cmd, &a, &b, op, reserved, &scratch, &status)
                })?;
                let name = format!("{op:?}{suffix}").to_lowercase();
                assert_status_ok(ctx, &status, 0, &name)?;
                assert!(d.to_vec()? == want, "{name}: wrong result");
                let bitmap_bytes = 3 * (a.pool_blocks().0 as u64 * 8192);
                let ms = median(times);
                let extra = format!(
                    "{:.1}%copyBW(bitmap bytes)",
                    100.0 * bitmap_bytes as f64 / (ms * 1e-3) / 1e9 / copy_gbs
                );
                result_line(&name, case, va.len() + vb.len(), ms, &extra);
            }
            yard.warm(ctx, &timer)?;
            let times = time_op(ctx, &timer, reps, pass_times, |cmd| unsafe {
                record_card(cmd, &a, &b, op, &scratch, &status)
            })?;
            assert_card_status(ctx, &status, want.len() as u64, &format!("{op:?}"))?;
            assert_eq!(GpuSet::op_cardinality(&a, &b, op)?, want.len() as u64);
            result_line(
                &format!("{op:?}_cardinality").to_lowercase(),
                case,
                va.len() + vb.len(),
                median(times),
                "",
            );
            // Sixteen cardinalities of the same two sets: one after another as the record
            // layer's single calls (a barrier between them), then as one batch.
            yard.warm(ctx, &timer)?;
            let times = time_op(ctx, &timer, reps, false, |cmd| unsafe {
                for _ in 0..CARD_BATCH {
                    record_card(cmd, &a, &b, op, &scratch, &status)?;
                }
                Ok(())
            })?;
            assert_card_status(ctx, &status, want.len() as u64, &format!("{op:?} x16"))?;
            let name = format!("{op:?}_cardinality_x16").to_lowercase();
            result_line(&name, case, CARD_BATCH * (va.len() + vb.len()), median(times), "");
            let pairs = vec![(&a, &b); CARD_BATCH];
            yard.warm(ctx, &timer)?;
            let times = time_op(ctx, &timer, reps, false, |cmd| unsafe {
                GpuSet::record_op_cardinality_batch(
                    cmd,
                    &GpuSetCardinalityBatchArgs {
                        path: card_path(),
                        ..GpuSetCardinalityBatchArgs::new(
                            &pairs,
                            op,
                            batch_scratch.range(),
                            batch_status.range(),
                        )
                    },
                )
            })?;
            let words: Vec<u32> = vkalgo_bench::harness::download(ctx, &batch_status, 8 * CARD_BATCH)?;
            for (i, w) in words.chunks(8).enumerate() {
                let got: SetOpStatus = bytemuck::pod_read_unaligned(bytemuck::cast_slice(w));
                assert_eq!(got.cardinality(), want.len() as u64, "{op:?} batch pair {i}");
            }
            let name = format!("{op:?}_cardinality_batch16").to_lowercase();
            result_line(&name, case, CARD_BATCH * (va.len() + vb.len()), median(times), "");
        }
        // contains: the values of b (about half in a for the dense case) and to_array.
        let q = GpuBuffer::new(ctx, vb.len() as u64 * 4, MemoryLocation::GpuOnly, "bench queries")?;
        let flags = GpuBuffer::new(ctx, vb.len() as u64 * 4, MemoryLocation::GpuOnly, "bench flags")?;
        vkalgo_bench::harness::upload(ctx, &q, &vb)?;
        yard.warm(ctx, &timer)?;
        let times = time_op(ctx, &timer, reps, pass_times, |cmd| unsafe {
            a.record_contains(
                cmd,
                &GpuSetContainsArgs {
                    values: q.range(),
                    count: ElementCount::Direct(vb.len() as u64),
                    max_count: vb.len() as u64,
                    flags: flags.range(),
                },
            )
        })?;
        let got: Vec<u32> = vkalgo_bench::harness::download(ctx, &flags, vb.len())?;
        let hits = got.iter().filter(|&&f| f == 1).count();
        assert_eq!(hits, merge(&va, &vb, SetOp::And).len(), "contains");
        result_line("contains", case, vb.len(), median(times), "");
        // filter: the same queries, the values in the set kept in input order (a record call
        // takes at most 2^24 values on GPUs, 2^22 on CPU drivers).
        if vb.len() <= if ctx.is_cpu_device() { 1 << 22 } else { 1 << 24 } {
            let kept = GpuBuffer::new(ctx, vb.len() as u64 * 4, MemoryLocation::GpuOnly, "bench kept")?;
            yard.warm(ctx, &timer)?;
            let times = time_op(ctx, &timer, reps, pass_times, |cmd| unsafe {
                a.record_filter(
                    cmd,
                    &GpuSetFilterArgs::new(
                        q.range(),
                        ElementCount::Direct(vb.len() as u64),
                        vb.len() as u64,
                        kept.range(),
                        status.sub_range(200, 4),
                        scratch.range(),
                    ),
                )
            })?;
            let kept_count = vkalgo_bench::harness::download::<u32>(ctx, &status, 51)?[50] as usize;
            let want: Vec<u32> = vb
                .iter()
                .zip(&got)
                .filter(|(_, &f)| f == 1)
                .map(|(&v, _)| v)
                .collect();
            let got_kept: Vec<u32> = vkalgo_bench::harness::download(ctx, &kept, kept_count)?;
            assert!(got_kept == want, "filter");
            result_line("filter", case, vb.len(), median(times), "");
        }
        let out = GpuBuffer::new(ctx, va.len() as u64 * 4, MemoryLocation::GpuOnly, "bench out")?;
        yard.warm(ctx, &timer)?;
        let times = time_op(ctx, &timer, reps, pass_times, |cmd| unsafe {
            a.record_to_array(
                cmd,
                &GpuSetToArrayArgs {
                    out: out.range(),
                    capacity: va.len() as u64,
                    count_out: status.sub_range(192, 8),
                    scratch: scratch.range(),
                },
            )
        })?;
        let got: Vec<u32> = vkalgo_bench::harness::download(ctx, &out, va.len())?;
        assert!(got == va, "to_array");
        result_line("to_array", case, va.len(), median(times), "");
        // The cardinality (of the whole universe) and of a range over half of it.
        for (name, begin, end) in [
            ("cardinality", 0u64, 1u64 << 32),
            ("range_cardinality", RANGE.0, RANGE.1),
        ] {
            yard.warm(ctx, &timer)?;
            let times = time_op(ctx, &timer, reps, pass_times, |cmd| unsafe {
                a.record_range_cardinality(
                    cmd,
                    &GpuSetRangeCardinalityArgs {
                        begin,
                        end,
                        out: status.sub_range(208, 8),
                    },
                )
            })?;
            let words: Vec<u32> = vkalgo_bench::harness::download(ctx, &status, 54)?;
            let want = va.iter().filter(|&&v| (begin..end).contains(&(v as u64))).count() as u64;
            assert_eq!(words[52] as u64 | (words[53] as u64) << 32, want, "{name}");
            result_line(name, case, va.len(), median(times), "");
        }
        // The host call, wall clock: answered on the host once a first call counted the set
        // (`cardinality_host`), and a count on the GPU from the host, submission and wait
        // included (`cardinality_host_counted`).
        let want = va.len() as u64;
        assert_eq!(a.cardinality()?, want, "cardinality()");
        for (name, counted) in [("cardinality_host", false), ("cardinality_host_counted", true)] {
            let mut times = Vec::with_capacity(reps as usize);
            for _ in 0..reps.max(1) {
                let start = std::time::Instant::now();
                let got = if counted {
                    a.counted_cardinality()?
                } else {
                    a.cardinality()?
                };
                times.push(start.elapsed().as_secs_f64() * 1e3);
                assert_eq!(got, want, "{name}");
            }
            result_line(name, case, va.len(), median(times), "wall clock");
        }
        let _ = vk::Buffer::null();
    }
    Ok(())
}

/// The range of the `range_cardinality` row (bench/croaring_set.py times the same one).
const RANGE: (u64, u64) = ((1 << 30) + 12_345, 3 * (1 << 30) + 6_789);

/// Words of a chunk's bitmap (u64).
const CHUNK_WORDS: usize = 1024;
/// Chunks of the universe.
const ALL_CHUNKS: usize = 65536;

/// A random bitmap of the first `chunks` chunks, every chunk about half full.
fn half_full_bitmap(chunks: usize, seed: u64) -> Vec<u64> {
    let mut r = xorshift(seed);
    (0..chunks * CHUNK_WORDS).map(|_| r()).collect()
}

/// The Roaring portable serialization of consecutive chunk bitmaps from chunk 0 on, as
/// vkalgo writes it.
fn serialize_bitmaps(words: &[u64]) -> Vec<u8> {
    reference::serialize_bitmaps(words.chunks(CHUNK_WORDS).enumerate().map(|(c, w)| (c as u16, w)))
}

/// The `full` case: operations of two sets whose every chunk is a bitmap.
fn run_full(
    ctx: &Context,
    timer: &Timer,
    yard: &vkalgo_bench::harness::Yardstick,
    scratch: &GpuBuffer,
    status: &GpuBuffer,
    reps: u32,
    pass_times: bool,
) -> Result<()> {
    let case = "full";
    // The whole universe on GPUs; 64 chunks on CPU drivers (a check of the benchmark itself).
    let chunks = if ctx.is_cpu_device() { 64 } else { ALL_CHUNKS };
    let wa = half_full_bitmap(chunks, 11);
    let wb = half_full_bitmap(chunks, 12);
    let a = GpuSet::deserialize(ctx, &serialize_bitmaps(&wa))?;
    let b = GpuSet::deserialize(ctx, &serialize_bitmaps(&wb))?;
    let card = |w: &[u64]| w.iter().map(|x| x.count_ones() as u64).sum::<u64>();
    let (na, nb) = (card(&wa), card(&wb));
    assert_eq!(a.cardinality()?, na, "full: a's cardinality");
    let n = (na + nb) as usize;
    // Read a and b, write the result: three universes of bitmaps.
    let bitmap_bytes = 3 * (chunks * CHUNK_WORDS * 8) as u64;
    let share = |ms: f64| 100.0 * bitmap_bytes as f64 / (ms * 1e-3) / 1e9 / yard.gbs;
    println!("{case}: a holds {na} values, b {nb}; each of their {chunks} chunks a bitmap");
    let mut d = GpuSet::new(ctx)?;
    for op in SetOp::ALL {
        let want = reference::op_bits(&wa, &wb, op);
        let want_bytes = serialize_bitmaps(&want);
        d.assign(SetOperand::Set(&a), SetOperand::Set(&b), op)?;
        for (reserved, suffix) in [(false, ""), (true, "_reserved")] {
            d.reserve_for_op(SetOperand::Set(&a), SetOperand::Set(&b), op)?;
            yard.warm(ctx, timer)?;
            let times = time_op(ctx, timer, reps, pass_times && op == SetOp::And, |cmd| unsafe {
                record_set_op(&mut d, cmd, &a, &b, op, reserved, scratch, status)
            })?;
            let name = format!("{op:?}{suffix}").to_lowercase();
            assert_status_ok(ctx, status, 0, &name)?;
            assert!(d.serialize()? == want_bytes, "{name}: wrong result");
            let ms = median(times);
            result_line(
                &name,
                case,
                n,
                ms,
                &format!("{:.1}%copyBW(bitmap bytes)", share(ms)),
            );
        }
        yard.warm(ctx, timer)?;
        let times = time_op(ctx, timer, reps, pass_times && op == SetOp::And, |cmd| unsafe {
            record_card(cmd, &a, &b, op, scratch, status)
        })?;
        assert_card_status(ctx, status, card(&want), &format!("{op:?}"))?;
        assert_eq!(GpuSet::op_cardinality(&a, &b, op)?, card(&want));
        let ms = median(times);
        // A cardinality reads two of the three universes.
        let extra = format!("{:.1}%copyBW(bitmap bytes)", share(ms) * 2.0 / 3.0);
        result_line(&format!("{op:?}_cardinality").to_lowercase(), case, n, ms, &extra);
    }
    Ok(())
}
