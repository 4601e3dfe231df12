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

mod data;
mod full;
mod record;
use data::*;
use full::run_full;
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
