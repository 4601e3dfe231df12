//! Large-count check of the prefix scan: 2^31 + 5 u32 elements (look-back and
//! reduce-then-scan, exclusive, inclusive and in place), verified exactly (see
//! `vkalgo_bench::large` for the environment; `--ignored` runs it).

use std::time::Instant;
use vkalgo::scan::SCAN_MAX_COUNT;
use vkalgo::{Context, ElementCount, Result, ScanArgs, ScanDesc, ScanOp, ScanPath};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

/// Checks `got` against the exclusive or inclusive scan of `input` (wrapping sums): the sum of
/// each part first, then every part on its own thread. Returns the first wrong index.
fn check_scan(input: &[u32], got: &[u32], inclusive: bool, threads: usize) -> Option<usize> {
    if input.len() != got.len() {
        return Some(0);
    }
    let per = input.len().div_ceil(threads).max(1);
    let sums: Vec<u32> = std::thread::scope(|s| {
        let handles: Vec<_> = input
            .chunks(per)
            .map(|c| s.spawn(move || c.iter().fold(0u32, |a, &x| a.wrapping_add(x))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut carry = 0u32;
    let carries: Vec<u32> = sums
        .iter()
        .map(|&s| {
            let c = carry;
            carry = carry.wrapping_add(s);
            c
        })
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = input
            .chunks(per)
            .zip(got.chunks(per))
            .zip(carries)
            .enumerate()
            .map(|(c, ((x, y), mut run))| {
                s.spawn(move || {
                    for (i, (&v, &g)) in x.iter().zip(y).enumerate() {
                        let want = if inclusive { run.wrapping_add(v) } else { run };
                        if g != want {
                            return Some(c * per + i);
                        }
                        run = run.wrapping_add(v);
                    }
                    None
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().unwrap()).min()
    })
}

fn scan_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    // (what, path, op, in place)
    let mut cases = vec![
        (
            "scan exclusive, ReduceThenScan",
            ScanPath::ReduceThenScan,
            ScanOp::Exclusive,
            false,
        ),
        (
            "scan inclusive, ReduceThenScan",
            ScanPath::ReduceThenScan,
            ScanOp::Inclusive,
            false,
        ),
    ];
    if ctx.profile().int64_atomics {
        cases.insert(
            0,
            (
                "scan inclusive, Lookback",
                ScanPath::Lookback,
                ScanOp::Inclusive,
                false,
            ),
        );
        cases.insert(
            0,
            (
                "scan exclusive, Lookback",
                ScanPath::Lookback,
                ScanOp::Exclusive,
                false,
            ),
        );
    }
    // In place last: it overwrites the input.
    cases.push((
        "scan exclusive in place, ReduceThenScan",
        ScanPath::ReduceThenScan,
        ScanOp::Exclusive,
        true,
    ));
    if n > SCAN_MAX_COUNT {
        let refused = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, n));
        rows.push(Row {
            what: "scan".into(),
            n,
            ms: None,
            timing: "-",
            verdict: match refused {
                Err(vkalgo::Error::InvalidArgument(m)) => {
                    Verdict::Refused(format!("refused as documented: {m}"))
                }
                other => Verdict::Wrong(format!("a count over SCAN_MAX_COUNT was not refused: {other:?}")),
            },
        });
        return Ok(());
    }
    let input = par_random(n, 77, o.threads);
    let bytes = n * 4;
    let plans: Vec<_> = cases
        .iter()
        .map(|&(_, path, op, _)| {
            ctx.scan_plan(&ScanDesc {
                path,
                ..ScanDesc::new(op, n)
            })
        })
        .collect::<Result<_>>()?;
    let scratch_bytes = plans
        .iter()
        .map(|p| p.memory_requirements().scratch.size)
        .max()
        .unwrap_or(16);
    let buffers = (|| -> std::result::Result<_, String> {
        Ok((
            RawBuffer::new(ctx, OFFSET + bytes, "scan input")?,
            RawBuffer::new(ctx, OFFSET + bytes, "scan output")?,
            RawBuffer::new(ctx, OFFSET + scratch_bytes, "scan scratch")?,
        ))
    })();
    let (in_buf, out_buf, scratch_buf) = match buffers {
        Ok(b) => b,
        Err(m) => {
            println!("scan: {m}");
            for (what, ..) in cases {
                rows.push(Row {
                    what: what.into(),
                    n,
                    ms: None,
                    timing: "-",
                    verdict: Verdict::Refused(m.clone()),
                });
            }
            return Ok(());
        }
    };
    let t = Instant::now();
    upload_u32(ctx, in_buf.buffer, OFFSET, &input, o.threads)?;
    println!("scan: uploaded in {:.0} ms", ms_since(t));
    let timer = Timer::new(ctx)?;
    for ((what, _, op, in_place), plan) in cases.iter().zip(&plans) {
        let output = if *in_place { &in_buf } else { &out_buf };
        let args = ScanArgs {
            input: in_buf.range(OFFSET, bytes),
            output: output.range(OFFSET, bytes),
            scratch: scratch_buf.range(OFFSET, plan.memory_requirements().scratch.size),
            count: ElementCount::Direct(n),
        };
        let times = timer.regions(|cmd, mark| {
            unsafe { full_barrier(ctx, cmd) };
            mark(cmd);
            unsafe { plan.record(cmd, &args)? };
            mark(cmd);
            Ok(())
        })?;
        let t = Instant::now();
        let mut got = download_u32(ctx, output.buffer, OFFSET, n, o.threads)?;
        if o.corrupt {
            got[(n - 1) as usize] ^= 1 << 31;
        }
        let verdict = match check_scan(&input, &got, *op == ScanOp::Inclusive, o.threads) {
            None => Verdict::Exact,
            Some(i) => Verdict::Wrong(format!("first wrong element {i}: got {}", got[i])),
        };
        println!("{what}: downloaded and checked in {:.0} ms", ms_since(t));
        rows.push(Row {
            what: format!("{what} (record layer)"),
            n,
            ms: Some(times[0]),
            timing: "GPU",
            verdict,
        });
    }
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_scan() {
    run("scan", &|ctx, o, rows| scan_check(ctx, o, o.count(), rows));
}

#[test]
fn large_scan_self_test() {
    self_test("scan", &|ctx, o, rows| scan_check(ctx, o, o.count(), rows));
}
