//! Large-count check of the compute copy: 2^31 + 5 uvec4 vectors (32 GiB), verified exactly
//! (see `vkalgo_bench::large` for the environment; `--ignored` runs it).

use std::time::Instant;
use vkalgo::{Context, Result};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

/// The u32 word `w` of the copy check's source.
fn copy_word(w: u64) -> u32 {
    random_at(w, 5) ^ (w >> 32) as u32
}

fn copy_check(ctx: &Context, o: &Options, vectors: u64, rows: &mut Vec<Row>) -> Result<()> {
    let what = "compute copy of uvec4 vectors".to_string();
    let bytes = vectors * 16;
    if bytes > u32::MAX as u64 * 16 {
        rows.push(Row {
            what,
            n: vectors,
            ms: None,
            timing: "-",
            verdict: Verdict::Refused("over the copy's maximum of 2^32 - 1 vectors".into()),
        });
        return Ok(());
    }
    let buffers = (|| -> std::result::Result<_, String> {
        Ok((
            RawBuffer::new(ctx, OFFSET + bytes, "copy source")?,
            RawBuffer::new(ctx, OFFSET + bytes, "copy destination")?,
        ))
    })();
    let (src, dst) = match buffers {
        Ok(b) => b,
        Err(m) => {
            println!("copy: {m}");
            rows.push(Row {
                what,
                n: vectors,
                ms: None,
                timing: "-",
                verdict: Verdict::Refused(m),
            });
            return Ok(());
        }
    };
    let (threads, corrupt) = (o.threads, o.corrupt);
    let t = Instant::now();
    upload_with(ctx, src.buffer, OFFSET, bytes, |first, chunk| {
        let words: &mut [u32] = bytemuck::cast_slice_mut(chunk);
        let per = words.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            for (c, part) in words.chunks_mut(per).enumerate() {
                s.spawn(move || {
                    let w0 = first / 4 + (c * per) as u64;
                    for (j, x) in part.iter_mut().enumerate() {
                        *x = copy_word(w0 + j as u64);
                    }
                });
            }
        });
    })?;
    println!("copy: uploaded {bytes} bytes in {:.0} ms", ms_since(t));
    let timer = Timer::new(ctx)?;
    let (from, to) = (src.range(OFFSET, bytes), dst.range(OFFSET, bytes));
    let times = timer.regions(|cmd, mark| {
        unsafe { full_barrier(ctx, cmd) };
        mark(cmd);
        unsafe { ctx.record_compute_copy(cmd, &from, &to)? };
        mark(cmd);
        Ok(())
    })?;
    let t = Instant::now();
    let wrong =
        download_compare(ctx, dst.buffer, OFFSET, bytes / 4, threads, corrupt, copy_word)?.map(|(w, ..)| w);
    println!("copy: downloaded and checked in {:.0} ms", ms_since(t));
    let ms = times[0];
    println!(
        "copy: {:.0} GB/s (read + write)",
        2.0 * bytes as f64 / (ms * 1e-3) / 1e9
    );
    rows.push(Row {
        what: format!("{what} (record layer)"),
        n: vectors,
        ms: Some(ms),
        timing: "GPU",
        verdict: match wrong {
            None => Verdict::Exact,
            Some(w) => Verdict::Wrong(format!("first wrong u32 word {w} (vector {})", w / 4)),
        },
    });
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_copy() {
    run("copy", &|ctx, o, rows| copy_check(ctx, o, o.count(), rows));
}

#[test]
fn large_copy_self_test() {
    self_test("copy", &|ctx, o, rows| copy_check(ctx, o, o.count(), rows));
}
