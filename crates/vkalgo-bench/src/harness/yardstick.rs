//! The copy-bandwidth yardstick, the warm-up before every timed measurement, and the copy
//! checks on each algorithm's own buffers.

use std::sync::Mutex;
use std::time::{Duration, Instant};
use vkalgo::{BufferRange, Context, GpuBuffer, MemoryLocation, Result};

use super::{download, median, random_u32, report, upload, Timer, MAX_BATCH};

/// The bandwidth yardstick and the warm-up every timed measurement starts with.
///
/// Why the warm-up: after about a second without GPU work (the CPU verifying a result,
/// generating data, staging uploads), the first ~100 ms of work ran at 57% of the copy speed on
/// an H100 (1734 against 3025 GB/s; `vkalgo-bench memory` measures it: the same two buffers,
/// fast before a 2 s sleep, slow for ~128 copies after it, fast again after). Neither the
/// buffers nor their allocation history changed anything (every history the probe tried copied
/// at 3021-3029 GB/s once warm). So every timed measurement is preceded by sustained copies
/// until the copy runs at the yardstick's speed again.
pub struct Yardstick {
    src: GpuBuffer,
    dst: GpuBuffer,
    bytes: u64,
    /// Steady-state copy bandwidth of `bytes` bytes (read + written), GB/s.
    pub gbs: f64,
    /// Milliseconds of that copy.
    pub ms: f64,
}

/// Copy checks of every algorithm's buffers: (algorithm, N, own GB/s, yardstick GB/s).
static COPY_CHECKS: Mutex<Vec<(String, u64, f64, f64)>> = Mutex::new(Vec::new());

fn gbs_of(bytes: u64, ms: f64) -> f64 {
    2.0 * bytes as f64 / (ms * 1e-3) / 1e9
}

impl Yardstick {
    /// Allocates the yardstick's two buffers (1 GiB each on GPUs, 64 MiB on CPU devices; call
    /// this first, before the algorithms allocate), warms the GPU up and measures the copy.
    pub fn new(ctx: &Context, timer: &Timer) -> Result<Self> {
        let bytes: u64 = if ctx.is_cpu_device() { 64 << 20 } else { 1 << 30 };
        let src = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "yardstick src")?;
        let dst = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "yardstick dst")?;
        let data = random_u32((bytes / 4) as usize, 7);
        upload(ctx, &src, &data)?;
        let mut y = Yardstick {
            src,
            dst,
            bytes,
            gbs: 0.0,
            ms: 0.0,
        };
        y.warm(ctx, timer)?;
        let (from, to) = (y.src.range(), y.dst.range());
        let times = timer.time_batch(20, |cmd, _| unsafe { ctx.record_compute_copy(cmd, &from, &to) })?;
        y.ms = median(times);
        y.gbs = gbs_of(bytes, y.ms);
        let check: Vec<u32> = download(ctx, &y.dst, data.len())?;
        assert!(check == data, "compute copy produced wrong data");
        report::note(&format!(
            "copy bandwidth (compute shader, uvec4, {} MiB): {:.0} GB/s (read + write), {:.3} ms",
            bytes >> 20,
            y.gbs,
            y.ms
        ));
        report::result("copy_u32x4", "shader", bytes / 4, y.ms, y.gbs, "0");
        Ok(y)
    }

    /// Sustained copies (at least 100 ms of GPU work, 300 ms before the first measurement)
    /// until a batch runs at 97% of the yardstick's speed, for at most 3 s. No-op on CPU
    /// devices.
    pub fn warm(&self, ctx: &Context, timer: &Timer) -> Result<()> {
        if ctx.is_cpu_device() {
            return Ok(());
        }
        let (from, to) = (self.src.range(), self.dst.range());
        let started = Instant::now();
        let least_ms = if self.gbs > 0.0 { 100.0 } else { 300.0 };
        let mut work_ms = 0.0;
        loop {
            let times = timer.time_batch(16, |cmd, _| unsafe { ctx.record_compute_copy(cmd, &from, &to) })?;
            work_ms += times.iter().sum::<f64>();
            let steady = gbs_of(self.bytes, median(times)) >= 0.97 * self.gbs;
            if (work_ms >= least_ms && steady) || started.elapsed() > Duration::from_secs(3) {
                return Ok(());
            }
        }
    }

    /// Warms up, then times the copy of `src` into `dst` (an algorithm's own buffers) and the
    /// yardstick's copy of as many bytes, interleaved in one submission; prints both and keeps
    /// them for [`print_copy_checks`]. Returns (own ms, own GB/s).
    pub fn check_buffers(
        &self,
        ctx: &Context,
        timer: &Timer,
        algorithm: &str,
        n: u64,
        src: &BufferRange,
        dst: &BufferRange,
    ) -> Result<(f64, f64)> {
        let bytes = (src.size.min(dst.size).min(self.bytes) / 16) * 16;
        let own = (
            BufferRange { size: bytes, ..*src },
            BufferRange { size: bytes, ..*dst },
        );
        let yard = (self.src.sub_range(0, bytes), self.dst.sub_range(0, bytes));
        self.warm(ctx, timer)?;
        let times = timer.time_batch(MAX_BATCH, |cmd, rep| unsafe {
            let (a, b) = if rep % 2 == 0 { &own } else { &yard };
            ctx.record_compute_copy(cmd, a, b)
        })?;
        let pick = |parity: usize| median(times.iter().skip(parity).step_by(2).copied().collect());
        let (own_ms, yard_ms) = (pick(0), pick(1));
        let (own_gbs, yard_gbs) = (gbs_of(bytes, own_ms), gbs_of(bytes, yard_ms));
        // Console only: the page has these in the copy checks' table at the end.
        println!(
            "copy on the {algorithm} buffers, N = {n}: {own_gbs:.0} GB/s, yardstick copy of the same bytes {yard_gbs:.0} GB/s ({:.0}%)",
            100.0 * own_gbs / yard_gbs
        );
        report::result(
            &format!("copy_on_{algorithm}"),
            "own",
            n,
            own_ms,
            own_gbs,
            &format!("{yard_gbs:.1}"),
        );
        COPY_CHECKS
            .lock()
            .unwrap()
            .push((algorithm.to_string(), n, own_gbs, yard_gbs));
        Ok((own_ms, own_gbs))
    }
}

/// The process's yardstick: made on first use (the first algorithm benchmarked makes it before
/// allocating its own buffers) and shared by every algorithm of the run.
pub fn yardstick(ctx: &Context, timer: &Timer) -> Result<&'static Yardstick> {
    static YARDSTICK: std::sync::OnceLock<Yardstick> = std::sync::OnceLock::new();
    if let Some(y) = YARDSTICK.get() {
        return Ok(y);
    }
    let y = Yardstick::new(ctx, timer)?;
    Ok(YARDSTICK.get_or_init(|| y))
}

/// Prints every copy check of the run as one table (the last table of the benchmark).
pub fn print_copy_checks() {
    let checks = COPY_CHECKS.lock().unwrap();
    if checks.is_empty() {
        return;
    }
    let table = report::table(
        "copy on each algorithm's own buffers beside the yardstick copy of as many bytes (one process)",
        &["algorithm", "N", "own buffers GB/s", "yardstick GB/s", "ratio"],
    );
    for (algorithm, n, own, yard) in checks.iter() {
        let label = if n.is_power_of_two() {
            format!("2^{}", n.trailing_zeros())
        } else {
            n.to_string()
        };
        table.row(&[
            algorithm.clone(),
            label,
            format!("{own:.0}"),
            format!("{yard:.0}"),
            format!("{:.3}", own / yard),
        ]);
    }
}
