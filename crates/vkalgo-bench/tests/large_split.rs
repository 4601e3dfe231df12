//! Large-count check of the multisplit: multisplits of 2^31 + 5 u32 keys (and u32 -> u32 pairs)
//! through the record layer, one case per path and bucket function, each checked EXACTLY: the
//! m + 1 offsets, every output key and every output value against a stable counting sort on
//! the CPU (the values are the input indices, so they also prove stability), and the status
//! word. Peak device memory: about 40 GiB plus the Onesweep split's alternates; host memory:
//! about 24 GiB.

use std::time::Instant;
use vkalgo::{
    BucketFn, Context, ElementCount, KeyType, Result, SplitArgs, SplitDesc, SplitPath, SplitPlan, ValueType,
};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

/// One multisplit of the check.
struct Case {
    path: SplitPath,
    pairs: bool,
    bucket_fn: BucketFn,
    m: u32,
    bit_offset: u32,
}

const GLSL: &str =
    "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";

fn cases() -> Vec<Case> {
    let case = |path, pairs, bucket_fn, m, bit_offset| Case {
        path,
        pairs,
        bucket_fn,
        m,
        bit_offset,
    };
    vec![
        case(SplitPath::TileDirect, false, BucketFn::Glsl, 2, 0),
        case(SplitPath::TileDirect, true, BucketFn::Bits, 4, 30),
        case(SplitPath::TileDirect, false, BucketFn::Ids, 3, 0),
        case(SplitPath::TileSubgroupStaged, false, BucketFn::Glsl, 32, 0),
        case(SplitPath::TileSubgroupStaged, true, BucketFn::Glsl, 3, 0),
        case(SplitPath::TileStaged, true, BucketFn::Glsl, 16, 0),
        case(SplitPath::TileStaged, false, BucketFn::Splitters, 64, 0),
        case(SplitPath::Onesweep, false, BucketFn::Bits, 256, 20),
        case(SplitPath::Onesweep, true, BucketFn::Splitters, 1024, 0),
        case(SplitPath::GlobalCounters, false, BucketFn::Splitters, 4096, 0),
    ]
}

impl Case {
    fn what(&self) -> String {
        format!(
            "multisplit u32 {} into {} by {:?}, {:?}",
            if self.pairs { "-> u32 pairs" } else { "keys" },
            self.m,
            self.bucket_fn,
            self.path
        )
    }

    fn plan(&self, ctx: &Context, n: u64) -> Result<SplitPlan> {
        ctx.split_plan(&SplitDesc {
            bit_offset: self.bit_offset,
            glsl: (self.bucket_fn == BucketFn::Glsl).then(|| GLSL.to_string()),
            path: self.path,
            ..SplitDesc::new(
                KeyType::U32,
                if self.pairs {
                    ValueType::U32
                } else {
                    ValueType::None
                },
                self.m,
                self.bucket_fn,
                n,
            )
        })
    }
}

/// `f(i, keys[i])` for every element, on several threads.
fn par_map(keys: &[u32], threads: usize, f: impl Fn(usize, u32) -> u32 + Sync) -> Vec<u32> {
    let mut out = vec![0u32; keys.len()];
    let per = keys.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        for (c, (o, k)) in out.chunks_mut(per).zip(keys.chunks(per)).enumerate() {
            s.spawn(move || {
                for (j, (x, &key)) in o.iter_mut().zip(k).enumerate() {
                    *x = f(c * per + j, key);
                }
            });
        }
    });
    out
}

/// The stable counting sort of the elements by bucket: `order[p]` is the input index of output
/// element p; with the m + 1 offsets.
fn stable_order(buckets: &[u32], m: u32, threads: usize) -> (Vec<u32>, Vec<u32>) {
    let m = m as usize;
    let per = buckets.len().div_ceil(threads).max(1);
    let hists: Vec<Vec<u64>> = std::thread::scope(|s| {
        let handles: Vec<_> = buckets
            .chunks(per)
            .map(|part| {
                s.spawn(move || {
                    let mut h = vec![0u64; m];
                    for &b in part {
                        h[b as usize] += 1;
                    }
                    h
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut offsets = vec![0u32; m + 1];
    let mut starts = vec![vec![0u64; m]; hists.len()];
    let mut run = 0u64;
    for b in 0..m {
        offsets[b] = run as u32;
        for (t, h) in hists.iter().enumerate() {
            starts[t][b] = run;
            run += h[b];
        }
    }
    offsets[m] = run as u32;
    let mut order = vec![0u32; buckets.len()];
    let out = SharedSlice(order.as_mut_ptr());
    std::thread::scope(|s| {
        for (t, (part, mut pos)) in buckets.chunks(per).zip(starts).enumerate() {
            s.spawn(move || {
                for (j, &b) in part.iter().enumerate() {
                    // SAFETY: the threads' positions are disjoint and below buckets.len().
                    unsafe { out.write(pos[b as usize] as usize, (t * per + j) as u32) };
                    pos[b as usize] += 1;
                }
            });
        }
    });
    (order, offsets)
}

fn split_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    let cases = cases();
    let plans: Vec<std::result::Result<SplitPlan, String>> = cases
        .iter()
        .map(|c| c.plan(ctx, n).map_err(|e| e.to_string()))
        .collect();
    let scratch_bytes = plans
        .iter()
        .flatten()
        .map(|p| p.memory_requirements().scratch.size)
        .max()
        .unwrap_or(16);
    let max_m = cases.iter().map(|c| c.m as u64).max().unwrap_or(1);
    let bytes = n * 4;
    let buffers = (|| -> std::result::Result<_, String> {
        Ok((
            RawBuffer::new(ctx, OFFSET + bytes, "split keys")?,
            RawBuffer::new(ctx, OFFSET + bytes, "split keys_out")?,
            RawBuffer::new(ctx, OFFSET + bytes, "split values")?,
            RawBuffer::new(ctx, OFFSET + bytes, "split values_out")?,
            RawBuffer::new(ctx, OFFSET + bytes, "split bucket ids")?,
            RawBuffer::new(ctx, OFFSET + max_m * 4 + 16, "split splitters")?,
            RawBuffer::new(ctx, OFFSET + max_m * 4 + 16, "split offsets")?,
            RawBuffer::new(ctx, OFFSET + scratch_bytes, "split scratch")?,
        ))
    })();
    let (keys_buf, keys_out, values_buf, values_out, ids_buf, splitters_buf, offsets_buf, scratch_buf) =
        match buffers {
            Ok(b) => b,
            Err(m) => {
                println!("split: {m}");
                for c in &cases {
                    rows.push(Row::refused(&c.what(), n, &m));
                }
                return Ok(());
            }
        };
    let t = Instant::now();
    let keys = par_random(n, 61, o.threads);
    upload_u32(ctx, keys_buf.buffer, OFFSET, &keys, o.threads)?;
    // The values are the input indices.
    upload_with(ctx, values_buf.buffer, OFFSET, bytes, |first, chunk| {
        let words: &mut [u32] = bytemuck::cast_slice_mut(chunk);
        for (j, w) in words.iter_mut().enumerate() {
            *w = (first / 4 + j as u64) as u32;
        }
    })?;
    println!(
        "split: {n} keys and values generated and uploaded in {:.0} ms",
        ms_since(t)
    );
    let timer = Timer::new(ctx)?;
    for (case, plan) in cases.iter().zip(&plans) {
        let what = case.what();
        let plan = match plan {
            Ok(p) => p,
            Err(e) => {
                rows.push(Row::refused(&what, n, &format!("plan refused: {e}")));
                continue;
            }
        };
        let m = case.m;
        let t = Instant::now();
        let mut splitters: Vec<u32> = (0..m as u64 - 1).map(|i| random_at(i, 7 + m as u64)).collect();
        splitters.sort_unstable();
        let buckets = match case.bucket_fn {
            BucketFn::Bits => par_map(&keys, o.threads, |_, k| (k >> case.bit_offset) & (m - 1)),
            BucketFn::Glsl => par_map(&keys, o.threads, |_, k| ((k as u64 * m as u64) >> 32) as u32),
            BucketFn::Splitters => par_map(&keys, o.threads, |_, k| {
                splitters.partition_point(|&s| s <= k) as u32
            }),
            _ => par_map(&keys, o.threads, |i, _| random_at(i as u64, 91) % m),
        };
        match case.bucket_fn {
            BucketFn::Ids => upload_u32(ctx, ids_buf.buffer, OFFSET, &buckets, o.threads)?,
            BucketFn::Splitters => upload_u32(ctx, splitters_buf.buffer, OFFSET, &splitters, 1)?,
            _ => {}
        }
        let (order, want_offsets) = stable_order(&buckets, m, o.threads);
        drop(buckets);
        println!("{what}: CPU reference in {:.0} ms", ms_since(t));
        let requirements = plan.memory_requirements();
        let args = SplitArgs {
            keys: keys_buf.range(OFFSET, bytes),
            values: case.pairs.then(|| values_buf.range(OFFSET, bytes)),
            keys_out: keys_out.range(OFFSET, bytes),
            values_out: case.pairs.then(|| values_out.range(OFFSET, bytes)),
            splitters: (case.bucket_fn == BucketFn::Splitters)
                .then(|| splitters_buf.range(OFFSET, (m as u64 - 1).max(1) * 4)),
            bucket_ids: (case.bucket_fn == BucketFn::Ids).then(|| ids_buf.range(OFFSET, bytes)),
            offsets: offsets_buf.range(OFFSET, requirements.offsets.size),
            scratch: scratch_buf.range(OFFSET, requirements.scratch.size),
            count: ElementCount::Direct(n),
            params: [m, 0, 0, 0],
        };
        let ms = time_warm(ctx, &timer, true, |cmd| {
            unsafe { plan.record(cmd, &args)? };
            Ok(())
        })?;
        let t = Instant::now();
        let status = download_u32(ctx, scratch_buf.buffer, OFFSET, 1, 1)?[0];
        let mut got_offsets = download_u32(ctx, offsets_buf.buffer, OFFSET, m as u64 + 1, 1)?;
        if o.corrupt {
            got_offsets[0] ^= 1;
        }
        let mut wrong = None;
        if status != 0 {
            wrong = Some(format!("status word {status}"));
        } else if let Some(b) = (0..=m as usize).find(|&b| got_offsets[b] != want_offsets[b]) {
            wrong = Some(format!(
                "offsets[{b}] = {} (want {})",
                got_offsets[b], want_offsets[b]
            ));
        }
        if wrong.is_none() {
            let bad = download_compare(ctx, keys_out.buffer, OFFSET, n, o.threads, o.corrupt, |p| {
                keys[order[p as usize] as usize]
            })?;
            wrong = bad.map(wrong_at("key"));
        }
        if wrong.is_none() && case.pairs {
            let bad = download_compare(ctx, values_out.buffer, OFFSET, n, o.threads, o.corrupt, |p| {
                order[p as usize]
            })?;
            wrong = bad.map(wrong_at("value"));
        }
        println!(
            "{what} ({:?} planned): GPU {:.2} ms; downloaded and compared in {:.0} ms",
            plan.path(),
            ms,
            ms_since(t)
        );
        rows.push(Row::gpu(&what, n, ms, wrong));
    }
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_split() {
    run("split", &|ctx, o, rows| split_check(ctx, o, o.count(), rows));
}

#[test]
fn large_split_self_test() {
    self_test("split", &|ctx, o, rows| split_check(ctx, o, o.count(), rows));
}
