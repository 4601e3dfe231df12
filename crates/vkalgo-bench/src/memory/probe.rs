//! The memory probe's histories: raw pairs after allocation histories, vkalgo's allocator
//! through the benchmark's transfers, and recovery curves after idle time and transfers.

use super::{copy_gbs, RawBuffer, Types};
use ash::vk;
use vkalgo::{BufferRange, Context, GpuBuffer, Result};
use vkalgo_bench::harness::{median, Timer, MAX_BATCH};

/// The probe: the context, the timer, the bytes of each buffer of a pair, the allocations per
/// history step, and the rows measured so far (history, copy GB/s).
pub(super) struct Probe<'a> {
    pub(super) ctx: &'a Context,
    pub(super) timer: Timer<'a>,
    pub(super) bytes: u64,
    pub(super) churn: usize,
    pub(super) rows: Vec<(String, f64)>,
}

impl Probe<'_> {
    /// Measures the copy between `src` and `dst`; prints and keeps it as a row.
    pub(super) fn row(&mut self, label: &str, src: &BufferRange, dst: &BufferRange) -> Result<()> {
        let gbs = copy_gbs(self.ctx, &self.timer, src, dst)?;
        println!("{label:<60} {gbs:8.0} GB/s");
        self.rows.push((label.to_string(), gbs));
        Ok(())
    }

    /// A fresh pair of raw device-local buffers (`dedicated` allocations or not) and its copy.
    fn raw_pair(&mut self, label: &str, t: &Types, dedicated: bool) -> Result<()> {
        let a = RawBuffer::new(self.ctx, self.bytes, t.device_only, dedicated, false)?;
        let b = RawBuffer::new(self.ctx, self.bytes, t.device_only, dedicated, false)?;
        self.row(label, &a.range(), &b.range())
    }

    /// Raw pairs after histories of staging-sized and small allocations.
    pub(super) fn raw_histories(&mut self, t: &Types) -> Result<()> {
        let (ctx, churn, staging) = (self.ctx, self.churn, 64u64 << 20);
        self.raw_pair("fresh pair, dedicated", t, true)?;
        self.raw_pair("fresh pair, not dedicated", t, false)?;
        if let Some(h) = t.host_only {
            for _ in 0..churn {
                drop(RawBuffer::new(ctx, staging, h, false, true)?);
            }
            self.raw_pair("after host-only staging churn, dedicated", t, true)?;
        }
        {
            let keep: Vec<_> = (0..churn)
                .map(|i| RawBuffer::new(ctx, (1 + i as u64 % 7) << 20, t.device_only, false, false))
                .collect::<Result<_>>()?;
            drop(keep);
            self.raw_pair("after device-local small alloc/free churn, dedicated", t, true)?;
        }
        if let Some(bar) = t.bar {
            for _ in 0..churn {
                drop(RawBuffer::new(ctx, staging, bar, false, true)?);
            }
            self.raw_pair(
                "after device-local+host-visible staging churn, dedicated",
                t,
                true,
            )?;
            self.raw_pair("  same history, not dedicated", t, false)?;
            drop(RawBuffer::new(ctx, self.bytes, bar, false, true)?);
            self.raw_pair(
                "after one big device-local+host-visible buffer, dedicated",
                t,
                true,
            )?;
        }
        Ok(())
    }

    /// vkalgo's own allocator, as the library allocates today, then the benchmark's sequence
    /// on the pair `a`, `b`: upload, copy, download, upload, copy. Returns the random data
    /// uploaded.
    pub(super) fn allocator_history(&mut self, a: &GpuBuffer, b: &GpuBuffer) -> Result<Vec<u32>> {
        let (ctx, n) = (self.ctx, (self.bytes / 4) as usize);
        let (ar, br) = (a.range(), b.range());
        self.row("GpuBuffer pair, fresh", &ar, &br)?;
        let zeros = vec![0u32; n];
        let random = vkalgo_bench::harness::random_u32(n, 3);
        vkalgo_bench::harness::upload(ctx, a, &zeros)?;
        self.row("GpuBuffer pair, after upload of zeros", &ar, &br)?;
        vkalgo_bench::harness::upload(ctx, a, &random)?;
        self.row("GpuBuffer pair, after upload of random data", &ar, &br)?;
        self.row("  again", &ar, &br)?;
        let _: Vec<u32> = vkalgo_bench::harness::download(ctx, b, n)?;
        self.row("GpuBuffer pair, after download", &ar, &br)?;
        vkalgo_bench::harness::upload(ctx, a, &random)?;
        self.row("GpuBuffer pair, after download + upload", &ar, &br)?;
        self.row("  again", &ar, &br)?;
        for _ in 0..5 {
            self.timer.time_batch(MAX_BATCH, |cmd, _| unsafe {
                ctx.record_compute_copy(cmd, &ar, &br)
            })?;
        }
        self.row("  after 320 more copies", &ar, &br)?;
        Ok(random)
    }

    /// A recovery curve: after an event, copies of `a` into `b` timed one by one in batches of
    /// 64, printed as one line.
    fn curve(&self, a: &GpuBuffer, b: &GpuBuffer, label: &str) -> Result<()> {
        let (ctx, bytes) = (self.ctx, self.bytes);
        let mut text = String::new();
        for batch in 0..5 {
            let t = self.timer.time_batch(MAX_BATCH, |cmd, _| unsafe {
                ctx.record_compute_copy(cmd, &a.range(), &b.range())
            })?;
            let gbs = |ms: f64| 2.0 * bytes as f64 / (ms * 1e-3) / 1e9;
            if batch == 0 {
                text += &format!(
                    "first {:.0}, 1-7 {:.0}, ",
                    gbs(t[0]),
                    gbs(median(t[1..8].to_vec()))
                );
            }
            text += &format!("b{batch} {:.0} ", gbs(median(t[8..].to_vec())));
        }
        println!("curve | {label} | {text}");
        Ok(())
    }

    /// Recovery curves after idle time, a download, an upload and GPU copies into host-visible
    /// memory.
    pub(super) fn curves(&self, a: &GpuBuffer, b: &GpuBuffer, t: &Types, random: &[u32]) -> Result<()> {
        let (ctx, bytes) = (self.ctx, self.bytes);
        self.curve(a, b, "warm")?;
        std::thread::sleep(std::time::Duration::from_millis(500));
        self.curve(a, b, "after 500 ms idle")?;
        std::thread::sleep(std::time::Duration::from_millis(2000));
        self.curve(a, b, "after 2 s idle")?;
        let _: Vec<u32> = vkalgo_bench::harness::download(ctx, b, (bytes / 4) as usize)?;
        self.curve(a, b, "after download (GpuToCpu staging, 16 x 64 MiB)")?;
        vkalgo_bench::harness::upload(ctx, a, random)?;
        self.curve(a, b, "after upload (CpuToGpu staging)")?;
        for (label, ty) in [("host-only", t.host_only), ("device-local+host-visible", t.bar)] {
            let Some(ty) = ty else { continue };
            let staging = RawBuffer::new(ctx, 64 << 20, ty, false, false)?;
            // b in 64 MiB chunks (16 of them at the default 1024 MiB; fewer, never past its
            // end, for smaller --mib).
            for i in 0..(bytes >> 26).max(1) {
                let region = [vk::BufferCopy {
                    src_offset: i << 26,
                    dst_offset: 0,
                    size: bytes.min(64 << 20),
                }];
                ctx.submit_and_wait(|cmd| unsafe {
                    ctx.device()
                        .cmd_copy_buffer(cmd, b.buffer(), staging.buffer, &region);
                    Ok(())
                })?;
            }
            drop(staging);
            self.curve(
                a,
                b,
                &format!("after GPU copies into {label} memory, no CPU reads"),
            )?;
        }
        Ok(())
    }
}
