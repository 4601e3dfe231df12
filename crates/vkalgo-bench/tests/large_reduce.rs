//! Large-count check of the reduce: 2^31 + 5 u32 elements (sum, min and max), verified
//! exactly (see `vkalgo_bench::large` for the environment; `--ignored` runs it).

use std::time::Instant;
use vkalgo::reduce::REDUCE_MAX_COUNT;
use vkalgo::{Context, ElementCount, KeyType, ReduceArgs, ReduceDesc, ReduceOp, Result};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

/// `op` over `input` on `threads` threads (sums wrap).
fn reference(input: &[u32], op: ReduceOp, threads: usize) -> u32 {
    let per = input.len().div_ceil(threads).max(1);
    let fold = |c: &[u32]| match op {
        ReduceOp::Sum => c.iter().fold(0u32, |a, &x| a.wrapping_add(x)),
        ReduceOp::Min => c.iter().copied().min().unwrap_or(u32::MAX),
        _ => c.iter().copied().max().unwrap_or(0),
    };
    let parts: Vec<u32> = std::thread::scope(|s| {
        let handles: Vec<_> = input.chunks(per).map(|c| s.spawn(move || fold(c))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    fold(&parts)
}

fn reduce_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    if n > REDUCE_MAX_COUNT {
        let refused = ctx.reduce_plan(&ReduceDesc::new(KeyType::U32, ReduceOp::Sum, n));
        rows.push(Row {
            what: "reduce".into(),
            n,
            ms: None,
            timing: "-",
            verdict: match refused {
                Err(vkalgo::Error::InvalidArgument(m)) => {
                    Verdict::Refused(format!("refused as documented: {m}"))
                }
                other => Verdict::Wrong(format!(
                    "a count over REDUCE_MAX_COUNT was not refused: {other:?}"
                )),
            },
        });
        return Ok(());
    }
    let mut input = par_random(n, 91, o.threads);
    // The extremes at the far end, past 2^31: a min and a max only the last tiles hold.
    let last = input.len() - 1;
    input[last] = 0;
    input[last - 1] = u32::MAX;
    let bytes = n * 4;
    let (in_buf, out_buf) = match (
        RawBuffer::new(ctx, OFFSET + bytes, "reduce input"),
        RawBuffer::new(ctx, OFFSET + 1024, "reduce result and scratch"),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(m), _) | (_, Err(m)) => {
            rows.push(Row {
                what: "reduce".into(),
                n,
                ms: None,
                timing: "-",
                verdict: Verdict::Refused(m),
            });
            return Ok(());
        }
    };
    let t = Instant::now();
    upload_u32(ctx, in_buf.buffer, OFFSET, &input, o.threads)?;
    println!("reduce: uploaded in {:.0} ms", ms_since(t));
    let timer = Timer::new(ctx)?;
    for op in ReduceOp::ALL {
        let plan = ctx.reduce_plan(&ReduceDesc::new(KeyType::U32, op, n))?;
        let scratch = plan.memory_requirements().scratch.size;
        let scratch_buf = match RawBuffer::new(ctx, OFFSET + scratch, "reduce scratch") {
            Ok(b) => b,
            Err(m) => {
                rows.push(Row {
                    what: format!("reduce {op:?}"),
                    n,
                    ms: None,
                    timing: "-",
                    verdict: Verdict::Refused(m),
                });
                continue;
            }
        };
        let args = ReduceArgs {
            input: in_buf.range(OFFSET, bytes),
            result: out_buf.range(OFFSET, 4),
            scratch: scratch_buf.range(OFFSET, scratch),
            count: ElementCount::Direct(n),
        };
        let times = timer.regions(|cmd, mark| {
            unsafe { full_barrier(ctx, cmd) };
            mark(cmd);
            unsafe { plan.record(cmd, &args)? };
            mark(cmd);
            Ok(())
        })?;
        let mut got = download_u32(ctx, out_buf.buffer, OFFSET, 1, o.threads)?[0];
        if o.corrupt {
            got ^= 1;
        }
        let want = reference(&input, op, o.threads);
        rows.push(Row {
            what: format!("reduce {op:?} (record layer)"),
            n,
            ms: Some(times[0]),
            timing: "GPU",
            verdict: if got == want {
                Verdict::Exact
            } else {
                Verdict::Wrong(format!("got {got}, expected {want}"))
            },
        });
    }
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_reduce() {
    run("reduce", &|ctx, o, rows| reduce_check(ctx, o, o.count(), rows));
}

#[test]
fn large_reduce_self_test() {
    self_test("reduce", &|ctx, o, rows| reduce_check(ctx, o, o.count(), rows));
}
