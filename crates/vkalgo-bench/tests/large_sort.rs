//! Large-count check of the radix sort: 2^31 + 5 u32 keys and u32 -> u32 pairs on every sort
//! path the device runs (Onesweep where it has 64-bit atomics, and the safe path), verified
//! exactly (see `vkalgo_bench::large` for the environment; `--ignored` runs it).

use std::time::Instant;
use vkalgo::sort::SORT_MAX_COUNT;
use vkalgo::{Context, ElementCount, KeyType, Result, SortArgs, SortDesc, SortPath, SortResult, ValueType};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

fn sort_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    let mut paths = vec![SortPath::Safe];
    if ctx.profile().int64_atomics {
        paths.insert(0, SortPath::Onesweep);
    }
    if n > SORT_MAX_COUNT {
        for path in paths {
            let refused = ctx.sort_plan(&SortDesc {
                path,
                ..SortDesc::new(KeyType::U32, ValueType::None, n)
            });
            let verdict = match refused {
                Err(vkalgo::Error::InvalidArgument(m)) => {
                    Verdict::Refused(format!("refused as documented: {m}"))
                }
                other => Verdict::Wrong(format!("a count over SORT_MAX_COUNT was not refused: {other:?}")),
            };
            rows.push(Row {
                what: format!("sort u32 keys, {path:?}"),
                n,
                ms: None,
                timing: "-",
                verdict,
            });
        }
        return Ok(());
    }
    let t = Instant::now();
    let keys = par_random(n, 31, o.threads);
    println!("sort: {n} random keys generated in {:.0} ms", ms_since(t));
    let t = Instant::now();
    let want = cpu_sort(&keys, |k| (k >> 24) as usize, o.threads);
    println!("sort: CPU reference sorted in {:.0} ms", ms_since(t));
    let bytes = n * 4;
    let plans: Vec<_> = paths
        .iter()
        .map(|&path| {
            ctx.sort_plan(&SortDesc {
                path,
                ..SortDesc::new(KeyType::U32, ValueType::None, n)
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
            RawBuffer::new(ctx, OFFSET + bytes, "sort keys")?,
            RawBuffer::new(ctx, OFFSET + bytes, "sort keys_alt")?,
            RawBuffer::new(ctx, OFFSET + scratch_bytes, "sort scratch")?,
        ))
    })();
    let (keys_buf, alt_buf, scratch_buf) = match buffers {
        Ok(b) => b,
        Err(m) => {
            println!("sort: {m}");
            for path in paths {
                rows.push(Row {
                    what: format!("sort u32 keys, {path:?}"),
                    n,
                    ms: None,
                    timing: "-",
                    verdict: Verdict::Refused(m.clone()),
                });
            }
            return Ok(());
        }
    };
    let timer = Timer::new(ctx)?;
    for (path, plan) in paths.iter().zip(&plans) {
        let t = Instant::now();
        upload_u32(ctx, keys_buf.buffer, OFFSET, &keys, o.threads)?;
        println!("sort {path:?}: uploaded in {:.0} ms", ms_since(t));
        let args = SortArgs {
            keys: keys_buf.range(OFFSET, bytes),
            values: None,
            keys_alt: alt_buf.range(OFFSET, bytes),
            values_alt: None,
            scratch: scratch_buf.range(OFFSET, plan.memory_requirements().scratch.size),
            count: ElementCount::Direct(n),
        };
        let mut location = SortResult::InPlace;
        let times = timer.regions(|cmd, mark| {
            unsafe { full_barrier(ctx, cmd) };
            mark(cmd);
            location = unsafe { plan.record(cmd, &args)? };
            mark(cmd);
            Ok(())
        })?;
        let result = match location {
            SortResult::InPlace => &keys_buf,
            SortResult::Alternate => &alt_buf,
        };
        let t = Instant::now();
        let mut got = download_u32(ctx, result.buffer, OFFSET, n, o.threads)?;
        if o.corrupt {
            got[(n / 2) as usize] ^= 1;
        }
        let verdict = match first_difference(&got, &want, o.threads) {
            None => Verdict::Exact,
            Some(i) => Verdict::Wrong(format!(
                "first difference at {i}: got {} want {}",
                got[i], want[i]
            )),
        };
        println!("sort {path:?}: downloaded and compared in {:.0} ms", ms_since(t));
        rows.push(Row {
            what: format!("sort u32 keys, {path:?} (record layer)"),
            n,
            ms: Some(times[0]),
            timing: "GPU",
            verdict,
        });
    }
    Ok(())
}

/// Sorts `n` u32 -> u32 pairs (random keys, values = input index) on every sort path and
/// compares keys and values exactly with the stable CPU sort (of `key << 32 | index`).
fn pairs_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    let mut paths = vec![SortPath::Safe];
    if ctx.profile().int64_atomics {
        paths.insert(0, SortPath::Onesweep);
    }
    let what = |path: SortPath| format!("sort u32 -> u32 pairs, {path:?} (record layer)");
    if n > SORT_MAX_COUNT || n > u32::MAX as u64 {
        // (The count refusal is checked by sort_check.)
        return Ok(());
    }
    let t = Instant::now();
    let keys = par_random(n, 32, o.threads);
    let mut packed = vec![0u64; n as usize];
    let per = (n as usize).div_ceil(o.threads).max(1);
    std::thread::scope(|s| {
        for (c, (p, k)) in packed.chunks_mut(per).zip(keys.chunks(per)).enumerate() {
            s.spawn(move || {
                for (j, (x, &key)) in p.iter_mut().zip(k).enumerate() {
                    *x = (key as u64) << 32 | (c * per + j) as u64;
                }
            });
        }
    });
    let want = cpu_sort(&packed, |p| (p >> 56) as usize, o.threads);
    drop(packed);
    println!("pairs: data and CPU reference in {:.0} ms", ms_since(t));
    let bytes = n * 4;
    let plans: Vec<_> = paths
        .iter()
        .map(|&path| {
            ctx.sort_plan(&SortDesc {
                path,
                ..SortDesc::new(KeyType::U32, ValueType::U32, n)
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
            RawBuffer::new(ctx, OFFSET + bytes, "pairs keys")?,
            RawBuffer::new(ctx, OFFSET + bytes, "pairs keys_alt")?,
            RawBuffer::new(ctx, OFFSET + bytes, "pairs values")?,
            RawBuffer::new(ctx, OFFSET + bytes, "pairs values_alt")?,
            RawBuffer::new(ctx, OFFSET + scratch_bytes, "pairs scratch")?,
        ))
    })();
    let (keys_buf, alt_buf, values_buf, values_alt_buf, scratch_buf) = match buffers {
        Ok(b) => b,
        Err(m) => {
            println!("pairs: {m}");
            for path in paths {
                rows.push(Row {
                    what: what(path),
                    n,
                    ms: None,
                    timing: "-",
                    verdict: Verdict::Refused(m.clone()),
                });
            }
            return Ok(());
        }
    };
    let timer = Timer::new(ctx)?;
    let (threads, corrupt) = (o.threads, o.corrupt);
    for (path, plan) in paths.iter().zip(&plans) {
        upload_u32(ctx, keys_buf.buffer, OFFSET, &keys, threads)?;
        upload_with(ctx, values_buf.buffer, OFFSET, bytes, |first, chunk| {
            let words: &mut [u32] = bytemuck::cast_slice_mut(chunk);
            for (j, x) in words.iter_mut().enumerate() {
                *x = (first / 4) as u32 + j as u32;
            }
        })?;
        let args = SortArgs {
            keys: keys_buf.range(OFFSET, bytes),
            values: Some(values_buf.range(OFFSET, bytes)),
            keys_alt: alt_buf.range(OFFSET, bytes),
            values_alt: Some(values_alt_buf.range(OFFSET, bytes)),
            scratch: scratch_buf.range(OFFSET, plan.memory_requirements().scratch.size),
            count: ElementCount::Direct(n),
        };
        let mut location = SortResult::InPlace;
        let times = timer.regions(|cmd, mark| {
            unsafe { full_barrier(ctx, cmd) };
            mark(cmd);
            location = unsafe { plan.record(cmd, &args)? };
            mark(cmd);
            Ok(())
        })?;
        let (result_keys, result_values) = match location {
            SortResult::InPlace => (&keys_buf, &values_buf),
            SortResult::Alternate => (&alt_buf, &values_alt_buf),
        };
        let t = Instant::now();
        let mut wrong: Option<String> = None;
        for (buffer, part) in [(result_keys, "key"), (result_values, "value")] {
            let want = &want;
            download_with(ctx, buffer.buffer, OFFSET, bytes, |first, chunk| {
                if wrong.is_some() {
                    return;
                }
                let mut words: Vec<u32> = bytemuck::cast_slice(chunk).to_vec();
                if corrupt && part == "value" && first + chunk.len() as u64 >= bytes {
                    *words.last_mut().unwrap() ^= 1;
                }
                let e0 = (first / 4) as usize;
                let expect = |p: u64| if part == "key" { (p >> 32) as u32 } else { p as u32 };
                if let Some(j) = words
                    .iter()
                    .zip(&want[e0..e0 + words.len()])
                    .position(|(&g, &p)| g != expect(p))
                {
                    wrong = Some(format!(
                        "first wrong {part} at {}: got {} want {}",
                        e0 + j,
                        words[j],
                        expect(want[e0 + j])
                    ));
                }
            })?;
        }
        println!("pairs {path:?}: downloaded and compared in {:.0} ms", ms_since(t));
        rows.push(Row {
            what: what(*path),
            n,
            ms: Some(times[0]),
            timing: "GPU",
            verdict: wrong.map_or(Verdict::Exact, Verdict::Wrong),
        });
    }
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_sort_keys() {
    run("sort", &|ctx, o, rows| sort_check(ctx, o, o.count(), rows));
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_sort_pairs() {
    run("pairs", &|ctx, o, rows| pairs_check(ctx, o, o.count(), rows));
}

#[test]
fn large_sort_self_test() {
    self_test("sort", &|ctx, o, rows| sort_check(ctx, o, o.count(), rows));
    self_test("pairs", &|ctx, o, rows| pairs_check(ctx, o, o.count(), rows));
}
