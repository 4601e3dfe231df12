//! Large-count check of the merges: merges of two sorted runs of 2^31 + 5
//! u32 keys each (keys alone and u32 -> u32 pairs: 2^32 + 10 outputs), the four set operations
//! on sorted runs of 2^31 + 5 and 2^31 - 6 keys (2^32 - 1 together, the most a set operation
//! takes), and merge sorts of 2^31 + 5 keys and pairs, all through the record layer and checked
//! EXACTLY against the CPU. The runs hold about eight copies of each key (2^28 distinct keys
//! at 2^31 elements: `key_step`), so the merges prove stability (the values differ) and the set
//! operations their multiset rules. Peak device memory: about 64 GiB (the merge of pairs); host memory: about 64 GiB.

use std::time::Instant;
use vkalgo::{
    Context, ElementCount, KeyType, MergeArgs, MergeDesc, MergeSortArgs, MergeSortDesc, Result, SetOp,
    SetOpArgs, SetOpDesc, SortResult, ValueType,
};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

/// The keys of runs of `n` elements: multiples of this power of two (2^4 at 2^31 elements),
/// so that each key has about eight copies in a run (at most 2^24 distinct keys).
fn key_step(n: u64) -> u32 {
    let distinct_bits = (63 - n.max(1).leading_zeros()).saturating_sub(3).clamp(8, 28);
    1 << (32 - distinct_bits)
}

/// The sorted run of `n` keys (multiples of `step`) with seed `seed`.
fn sorted_run(n: u64, step: u32, seed: u64, threads: usize) -> Vec<u32> {
    let mut keys = par_random(n, seed, threads);
    for k in keys.iter_mut() {
        *k &= !(step - 1);
    }
    cpu_sort(&keys, |k| (k >> 24) as usize, threads)
}

/// The value ranges [lo, hi) the CPU references are cut into (each key's copies in one part):
/// per part, the ranges of A and B it covers.
fn value_parts(a: &[u32], b: &[u32], parts: usize) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let bound = |t: usize| -> u64 { ((1u64 << 32) * t as u64) / parts as u64 };
    (0..parts)
        .map(|t| {
            let (lo, hi) = (bound(t), bound(t + 1));
            let ra = a.partition_point(|&k| (k as u64) < lo)..a.partition_point(|&k| (k as u64) < hi);
            let rb = b.partition_point(|&k| (k as u64) < lo)..b.partition_point(|&k| (k as u64) < hi);
            (ra, rb)
        })
        .collect()
}

/// The stable merge of (a, av) and (b, bv) (A first among equal keys) into (keys, values), on
/// several threads.
fn cpu_merge(a: &[u32], av: &[u32], b: &[u32], bv: &[u32], threads: usize) -> (Vec<u32>, Vec<u32>) {
    let total = a.len() + b.len();
    let mut keys = vec![0u32; total];
    let mut values = vec![0u32; total];
    let (ko, vo) = (SharedSlice(keys.as_mut_ptr()), SharedSlice(values.as_mut_ptr()));
    let parts = value_parts(a, b, threads * 4);
    std::thread::scope(|s| {
        for chunk in parts.chunks(4) {
            s.spawn(move || {
                for (ra, rb) in chunk {
                    let mut p = ra.start + rb.start;
                    let (mut i, mut j) = (ra.start, rb.start);
                    while i < ra.end || j < rb.end {
                        let take_a = j == rb.end || (i < ra.end && a[i] <= b[j]);
                        let (k, v) = if take_a {
                            i += 1;
                            (a[i - 1], av[i - 1])
                        } else {
                            j += 1;
                            (b[j - 1], bv[j - 1])
                        };
                        // SAFETY: the parts' output ranges are disjoint and within `total`.
                        unsafe {
                            ko.write(p, k);
                            vo.write(p, v);
                        }
                        p += 1;
                    }
                }
            });
        }
    });
    (keys, values)
}

/// std::set_* on one part: calls `emit` with each output key in order.
fn set_walk(op: SetOp, a: &[u32], b: &[u32], mut emit: impl FnMut(u32)) {
    let keep_a = matches!(op, SetOp::Or | SetOp::AndNot | SetOp::Xor);
    let keep_b = matches!(op, SetOp::Or | SetOp::Xor);
    let keep_pair = matches!(op, SetOp::And | SetOp::Or);
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            if keep_a {
                emit(a[i]);
            }
            i += 1;
        } else if b[j] < a[i] {
            if keep_b {
                emit(b[j]);
            }
            j += 1;
        } else {
            if keep_pair {
                emit(a[i]);
            }
            i += 1;
            j += 1;
        }
    }
    if keep_a {
        a[i..].iter().for_each(|&k| emit(k));
    }
    if keep_b {
        b[j..].iter().for_each(|&k| emit(k));
    }
}

/// The output of `op` on the sorted runs a and b, written into `out` (room for a.len() +
/// b.len()) on several threads; returns its count.
fn cpu_set_op(op: SetOp, a: &[u32], b: &[u32], out: &mut [u32], threads: usize) -> usize {
    let parts = value_parts(a, b, threads * 4);
    let counts: Vec<usize> = std::thread::scope(|s| {
        let handles: Vec<_> = parts
            .iter()
            .map(|(ra, rb)| {
                s.spawn(move || {
                    let mut c = 0;
                    set_walk(op, &a[ra.clone()], &b[rb.clone()], |_| c += 1);
                    c
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let o = SharedSlice(out.as_mut_ptr());
    std::thread::scope(|s| {
        let mut start = 0;
        for ((ra, rb), &c) in parts.iter().zip(&counts) {
            let mut p = start;
            s.spawn(move || {
                set_walk(op, &a[ra.clone()], &b[rb.clone()], |k| {
                    // SAFETY: the parts' output ranges are disjoint and within `out`.
                    unsafe { o.write(p, k) };
                    p += 1;
                })
            });
            start += c;
        }
    });
    counts.iter().sum()
}

fn refused_rows(rows: &mut Vec<Row>, whats: &[String], n: u64, m: &str) {
    println!("{m}");
    for what in whats {
        rows.push(Row::refused(what, n, m));
    }
}

/// The merges (keys, then pairs) and the set operations, on runs of 2^31 + 5 keys.
fn merge_check(
    ctx: &Context,
    o: &Options,
    n: u64,
    set_ops: bool,
    merges: bool,
    rows: &mut Vec<Row>,
) -> Result<()> {
    let (na, nb) = (n, n);
    // The set operations take at most 2^32 - 1 keys together: B's first keys.
    let nb_set = (u32::MAX as u64 - na).min(nb);
    let total = na + nb;
    let t = Instant::now();
    let step = key_step(na);
    let a = sorted_run(na, step, 101, o.threads);
    let b = sorted_run(nb, step, 102, o.threads);
    let av = par_random(na, 103, o.threads);
    let bv = par_random(nb, 104, o.threads);
    println!(
        "merge: runs of {na} and {nb} keys generated and sorted in {:.0} ms",
        ms_since(t)
    );
    let merge_whats: Vec<String> = ["keys", "-> u32 pairs"]
        .iter()
        .map(|p| format!("merge u32 {p}, A + B = {na} + {nb}"))
        .collect();
    let ops = [SetOp::And, SetOp::Or, SetOp::AndNot, SetOp::Xor];
    let set_whats: Vec<String> = ops
        .iter()
        .map(|op| format!("sorted set op {op:?} u32, A + B = {na} + {nb_set}"))
        .collect();
    let buffers = (|| -> std::result::Result<_, String> {
        Ok((
            RawBuffer::new(ctx, OFFSET + na * 4, "merge a_keys")?,
            RawBuffer::new(ctx, OFFSET + nb * 4, "merge b_keys")?,
            RawBuffer::new(ctx, OFFSET + total * 4, "merge out_keys")?,
        ))
    })();
    let (a_buf, b_buf, out_buf) = match buffers {
        Ok(b) => b,
        Err(m) => {
            refused_rows(rows, &merge_whats, total, &m);
            refused_rows(rows, &set_whats, na + nb_set, &m);
            return Ok(());
        }
    };
    upload_u32(ctx, a_buf.buffer, OFFSET, &a, o.threads)?;
    upload_u32(ctx, b_buf.buffer, OFFSET, &b, o.threads)?;
    let timer = Timer::new(ctx)?;

    if set_ops {
        let mut want = vec![0u32; (na + nb_set) as usize];
        let count_buf = RawBuffer::new(ctx, OFFSET + 16, "set op count").map_err(vkalgo::Error::Internal)?;
        for (op, what) in ops.iter().zip(&set_whats) {
            let plan = ctx.set_op_plan(&SetOpDesc::new(KeyType::U32, *op, na, nb_set))?;
            let scratch_size = plan.memory_requirements().scratch.size;
            let scratch = match RawBuffer::new(ctx, OFFSET + scratch_size, "set op scratch") {
                Ok(s) => s,
                Err(m) => {
                    refused_rows(rows, std::slice::from_ref(what), na + nb_set, &m);
                    continue;
                }
            };
            let t = Instant::now();
            let count = cpu_set_op(*op, &a, &b[..nb_set as usize], &mut want, o.threads) as u64;
            println!("{what}: CPU reference ({count} keys) in {:.0} ms", ms_since(t));
            let args = SetOpArgs {
                a: a_buf.range(OFFSET, na * 4),
                b: b_buf.range(OFFSET, nb_set * 4),
                out: out_buf.range(OFFSET, (na + nb_set) * 4),
                out_count: count_buf.range(OFFSET, 4),
                scratch: scratch.range(OFFSET, scratch_size),
                a_count: ElementCount::Direct(na),
                b_count: ElementCount::Direct(nb_set),
            };
            let ms = time_warm(ctx, &timer, true, |cmd| {
                unsafe { plan.record(cmd, &args)? };
                Ok(())
            })?;
            let t = Instant::now();
            let got_count = download_u32(ctx, count_buf.buffer, OFFSET, 1, 1)?[0] as u64 ^ o.corrupt as u64;
            let wrong = if got_count != count {
                Some(format!("count {got_count} (want {count})"))
            } else {
                let want = &want;
                download_compare(ctx, out_buf.buffer, OFFSET, count, o.threads, o.corrupt, |p| {
                    want[p as usize]
                })?
                .map(wrong_at("key"))
            };
            println!(
                "{what} ({:?}): GPU {:.2} ms; downloaded and compared in {:.0} ms",
                plan.path(),
                ms,
                ms_since(t)
            );
            rows.push(Row::gpu(
                &format!("{what} -> {count} keys"),
                na + nb_set,
                ms,
                wrong,
            ));
        }
    }

    if merges {
        let t = Instant::now();
        let (want_keys, want_values) = cpu_merge(&a, &av, &b, &bv, o.threads);
        println!("merge: CPU reference in {:.0} ms", ms_since(t));
        for (pairs, what) in [false, true].into_iter().zip(&merge_whats) {
            let value_type = if pairs { ValueType::U32 } else { ValueType::None };
            let plan = ctx.merge_plan(&MergeDesc::new(KeyType::U32, value_type, na, nb))?;
            let scratch_size = plan.memory_requirements().scratch.size;
            let buffers = (|| -> std::result::Result<_, String> {
                let scratch = RawBuffer::new(ctx, OFFSET + scratch_size, "merge scratch")?;
                let values = if pairs {
                    Some((
                        RawBuffer::new(ctx, OFFSET + na * 4, "merge a_values")?,
                        RawBuffer::new(ctx, OFFSET + nb * 4, "merge b_values")?,
                        RawBuffer::new(ctx, OFFSET + total * 4, "merge out_values")?,
                    ))
                } else {
                    None
                };
                Ok((scratch, values))
            })();
            let (scratch, values) = match buffers {
                Ok(b) => b,
                Err(m) => {
                    refused_rows(rows, std::slice::from_ref(what), total, &m);
                    continue;
                }
            };
            if let Some((avb, bvb, _)) = &values {
                upload_u32(ctx, avb.buffer, OFFSET, &av, o.threads)?;
                upload_u32(ctx, bvb.buffer, OFFSET, &bv, o.threads)?;
            }
            let args = MergeArgs {
                a_keys: a_buf.range(OFFSET, na * 4),
                a_values: values.as_ref().map(|v| v.0.range(OFFSET, na * 4)),
                b_keys: b_buf.range(OFFSET, nb * 4),
                b_values: values.as_ref().map(|v| v.1.range(OFFSET, nb * 4)),
                out_keys: out_buf.range(OFFSET, total * 4),
                out_values: values.as_ref().map(|v| v.2.range(OFFSET, total * 4)),
                scratch: scratch.range(OFFSET, scratch_size),
                a_count: ElementCount::Direct(na),
                b_count: ElementCount::Direct(nb),
            };
            let ms = time_warm(ctx, &timer, true, |cmd| {
                unsafe { plan.record(cmd, &args)? };
                Ok(())
            })?;
            let t = Instant::now();
            let (wk, wv) = (&want_keys, &want_values);
            let mut wrong =
                download_compare(ctx, out_buf.buffer, OFFSET, total, o.threads, o.corrupt, |p| {
                    wk[p as usize]
                })?
                .map(wrong_at("key"));
            if let (None, Some((_, _, ovb))) = (&wrong, &values) {
                wrong = download_compare(ctx, ovb.buffer, OFFSET, total, o.threads, o.corrupt, |p| {
                    wv[p as usize]
                })?
                .map(wrong_at("value"));
            }
            println!(
                "{what}: GPU {:.2} ms; downloaded and compared in {:.0} ms",
                ms,
                ms_since(t)
            );
            rows.push(Row::gpu(what, total, ms, wrong));
        }
    }
    Ok(())
}

/// Merge sorts of `n` random u32 keys, alone and with their indices as values (stability).
fn merge_sort_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    let t = Instant::now();
    let keys = par_random(n, 111, o.threads);
    // The stable order: (key, index) pairs sorted as u64.
    let tagged: Vec<u64> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (k as u64) << 32 | i as u64)
        .collect();
    let want = cpu_sort(&tagged, |x| (x >> 56) as usize, o.threads);
    drop(tagged);
    println!(
        "merge sort: {n} keys generated and sorted on the CPU in {:.0} ms",
        ms_since(t)
    );
    let bytes = n * 4;
    for pairs in [false, true] {
        let what = format!("merge sort u32 {}", if pairs { "-> u32 pairs" } else { "keys" });
        let value_type = if pairs { ValueType::U32 } else { ValueType::None };
        let plan = ctx.merge_sort_plan(&MergeSortDesc::new(KeyType::U32, value_type, n))?;
        let scratch_size = plan.memory_requirements().scratch.size;
        let buffers = (|| -> std::result::Result<_, String> {
            let main = (
                RawBuffer::new(ctx, OFFSET + bytes, "merge sort keys")?,
                RawBuffer::new(ctx, OFFSET + bytes, "merge sort keys_alt")?,
                RawBuffer::new(ctx, OFFSET + scratch_size, "merge sort scratch")?,
            );
            let values = if pairs {
                Some((
                    RawBuffer::new(ctx, OFFSET + bytes, "merge sort values")?,
                    RawBuffer::new(ctx, OFFSET + bytes, "merge sort values_alt")?,
                ))
            } else {
                None
            };
            Ok((main, values))
        })();
        let ((keys_buf, alt_buf, scratch), values) = match buffers {
            Ok(b) => b,
            Err(m) => {
                refused_rows(rows, &[what], n, &m);
                continue;
            }
        };
        upload_u32(ctx, keys_buf.buffer, OFFSET, &keys, o.threads)?;
        if let Some((vb, _)) = &values {
            let index: Vec<u32> = (0..n as u32).collect();
            upload_u32(ctx, vb.buffer, OFFSET, &index, o.threads)?;
        }
        let args = MergeSortArgs {
            keys: keys_buf.range(OFFSET, bytes),
            values: values.as_ref().map(|v| v.0.range(OFFSET, bytes)),
            keys_alt: alt_buf.range(OFFSET, bytes),
            values_alt: values.as_ref().map(|v| v.1.range(OFFSET, bytes)),
            scratch: scratch.range(OFFSET, scratch_size),
            count: n,
        };
        let timer = Timer::new(ctx)?;
        let mut location = SortResult::InPlace;
        let ms = time_warm(ctx, &timer, false, |cmd| {
            location = unsafe { plan.record(cmd, &args)? };
            Ok(())
        })?;
        let t = Instant::now();
        let (result_keys, result_values) = match location {
            SortResult::InPlace => (&keys_buf, values.as_ref().map(|v| &v.0)),
            SortResult::Alternate => (&alt_buf, values.as_ref().map(|v| &v.1)),
        };
        let want = &want;
        let mut wrong = download_compare(ctx, result_keys.buffer, OFFSET, n, o.threads, o.corrupt, |p| {
            (want[p as usize] >> 32) as u32
        })?
        .map(wrong_at("key"));
        if let (None, Some(vb)) = (&wrong, result_values) {
            wrong = download_compare(ctx, vb.buffer, OFFSET, n, o.threads, o.corrupt, |p| {
                want[p as usize] as u32
            })?
            .map(wrong_at("value"));
        }
        println!(
            "{what}: GPU {:.2} ms ({} rounds); downloaded and compared in {:.0} ms",
            ms,
            plan.rounds(n),
            ms_since(t)
        );
        rows.push(Row::gpu(&what, n, ms, wrong));
    }
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_merge() {
    run("merge", &|ctx, o, rows| {
        merge_check(ctx, o, o.count(), false, true, rows)
    });
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_set_ops() {
    run("setops", &|ctx, o, rows| {
        merge_check(ctx, o, o.count(), true, false, rows)
    });
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_merge_sort() {
    run("mergesort", &|ctx, o, rows| {
        merge_sort_check(ctx, o, o.count(), rows)
    });
}

#[test]
fn large_merge_self_test() {
    self_test("merge and setops", &|ctx, o, rows| {
        merge_check(ctx, o, o.count(), true, true, rows)
    });
    self_test("mergesort", &|ctx, o, rows| {
        merge_sort_check(ctx, o, o.count(), rows)
    });
}
