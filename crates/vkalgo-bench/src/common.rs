//! Shared benchmark machinery: GPU timestamps, staging uploads and downloads, random data, and
//! the compute-copy bandwidth yardstick.

use ash::vk;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use vkalgo::{BufferRange, Context, GpuBuffer, MemoryLocation, Result};

/// Most repetitions timed back to back in one submission.
pub const MAX_BATCH: u32 = 64;
/// Timestamps one submission can write.
const TIMESTAMPS: u32 = 256;

/// GPU timing of recorded work with timestamp queries: every measurement of the benchmark
/// goes through [`Timer::timestamps`].
pub struct Timer<'a> {
    ctx: &'a Context,
    pool: vk::QueryPool,
}

impl<'a> Timer<'a> {
    pub fn new(ctx: &'a Context) -> Result<Self> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(TIMESTAMPS);
        let pool = unsafe { ctx.device().create_query_pool(&info, None) }
            .map_err(|e| vkalgo::Error::vk("vkCreateQueryPool", e))?;
        Ok(Timer { ctx, pool })
    }

    /// Records `body` in one submission; `body` gets the query pool and writes timestamps into
    /// it from query 0 on, returning how many. Returns each timestamp in milliseconds after
    /// the first.
    pub fn timestamps(
        &self,
        body: impl FnOnce(vk::CommandBuffer, vk::QueryPool) -> Result<u32>,
    ) -> Result<Vec<f64>> {
        let d = self.ctx.device();
        let mut used = 0;
        self.ctx.submit_and_wait(|cmd| unsafe {
            d.cmd_reset_query_pool(cmd, self.pool, 0, TIMESTAMPS);
            used = body(cmd, self.pool)?;
            Ok(())
        })?;
        assert!(used <= TIMESTAMPS, "too many timestamps");
        let mut stamps = vec![0u64; used as usize];
        if used > 0 {
            unsafe {
                d.get_query_pool_results(
                    self.pool,
                    0,
                    &mut stamps,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            }
            .map_err(|e| vkalgo::Error::vk("vkGetQueryPoolResults", e))?;
        }
        let period = self.ctx.profile().timestamp_period as f64 / 1e6;
        Ok(stamps
            .iter()
            .map(|&t| t.wrapping_sub(stamps[0]) as f64 * period)
            .collect())
    }

    /// Records `body` in one submission; `body` calls `mark` to start and to end each timed
    /// region (a timestamp once everything before it has completed). Returns each region's
    /// milliseconds.
    pub fn regions(
        &self,
        mut body: impl FnMut(vk::CommandBuffer, &mut dyn FnMut(vk::CommandBuffer)) -> Result<()>,
    ) -> Result<Vec<f64>> {
        let d = self.ctx.device();
        let times = self.timestamps(|cmd, pool| {
            let mut used = 0u32;
            let mut mark = |cmd: vk::CommandBuffer| {
                assert!(used < TIMESTAMPS, "too many timestamps");
                unsafe { d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, used) };
                used += 1;
            };
            body(cmd, &mut mark)?;
            Ok(used)
        })?;
        assert!(times.len() % 2 == 0, "unbalanced timed regions");
        Ok(times.chunks(2).map(|w| w[1] - w[0]).collect())
    }

    /// Records `reps` repetitions back to back in one submission (a full barrier between
    /// them, so each starts after the previous one ends, as stream-ordered CUDA launches do)
    /// and returns each repetition's GPU milliseconds.
    pub fn time_batch(
        &self,
        reps: u32,
        mut record: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        self.time_each(reps, |_, _| Ok(()), &mut record)
    }

    /// Records `reps` repetitions of `setup` then `work` in one submission (full barriers
    /// between all of them) and returns each repetition's GPU milliseconds of `work` alone
    /// (e.g. a sort timed without the copy that restores its unsorted input).
    pub fn time_each(
        &self,
        reps: u32,
        mut setup: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
        mut work: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        assert!((1..=MAX_BATCH).contains(&reps));
        let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
        let stages = vk::PipelineStageFlags::ALL_COMMANDS;
        self.regions(|cmd, mark| {
            for rep in 0..reps {
                setup(cmd, rep)?;
                unsafe { self.ctx.memory_barrier(cmd, stages, all, stages, all) };
                mark(cmd);
                work(cmd, rep)?;
                mark(cmd);
                unsafe { self.ctx.memory_barrier(cmd, stages, all, stages, all) };
            }
            Ok(())
        })
    }
}

/// The passes of `record`'s recording, each as (shader name, GPU milliseconds: from the end of
/// the dispatch before it), the median of `reps` recordings, each in its own submission.
pub fn pass_times(
    ctx: &Context,
    timer: &Timer,
    reps: usize,
    mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<Vec<(&'static str, f64)>> {
    let mut names = Vec::new();
    let mut runs: Vec<Vec<f64>> = Vec::new();
    for _ in 0..reps.max(1) {
        let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
        let stages = vk::PipelineStageFlags::ALL_COMMANDS;
        let stamps = timer.timestamps(|cmd, pool| {
            // SAFETY: the pool's queries were reset in this submission; the marks end below.
            unsafe {
                ctx.memory_barrier(cmd, stages, all, stages, all);
                ctx.device()
                    .cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 0);
                ctx.begin_dispatch_marks(pool, 1, TIMESTAMPS);
            }
            let recorded = record(cmd);
            names = ctx.end_dispatch_marks();
            recorded?;
            Ok(1 + names.len() as u32)
        })?;
        runs.push(stamps.windows(2).map(|w| w[1] - w[0]).collect());
    }
    Ok(names
        .iter()
        .enumerate()
        .map(|(i, &name)| (name, median(runs.iter().map(|r| r[i]).collect())))
        .collect())
}

/// Prints each pass of `record`'s recording with its GPU time (the benchmarks' `--pass-times`),
/// the median of 5 recordings, as rows under the case's row.
pub fn print_pass_times(
    ctx: &Context,
    timer: &Timer,
    record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<()> {
    for (name, ms) in pass_times(ctx, timer, 5, record)? {
        println!("|   pass | {name} | {ms:.4} ms |");
    }
    Ok(())
}

impl Drop for Timer<'_> {
    fn drop(&mut self) {
        unsafe { self.ctx.device().destroy_query_pool(self.pool, None) };
    }
}

/// Parses a `--tuning` list such as `512x8,256x16` into (workgroup size, per-invocation count)
/// pairs; malformed entries are skipped.
pub fn parse_tunings(value: &str) -> Vec<(u32, u32)> {
    value
        .split(',')
        .filter_map(|t| {
            let (wg, per) = t.trim().split_once('x')?;
            Some((wg.parse().ok()?, per.parse().ok()?))
        })
        .collect()
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Bytes moved per staging round trip: big host-visible allocations can fragment device memory
/// and leave later large buffers on small pages (seen on an H200: copies at 1.5 TB/s instead of
/// 4 TB/s), so uploads and downloads go through one modest staging buffer.
pub const STAGING_BYTES: u64 = 64 << 20;

/// Fills the start of a device buffer with `data` through a staging buffer.
pub fn upload<T: bytemuck::Pod>(ctx: &Context, dst: &GpuBuffer, data: &[T]) -> Result<()> {
    let bytes: &[u8] = bytemuck::cast_slice(data);
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::CpuToGpu, "bench upload")?;
    for (i, chunk) in bytes.chunks(STAGING_BYTES as usize).enumerate() {
        staging.mapped().expect("mapped")[..chunk.len()].copy_from_slice(chunk);
        let region = [vk::BufferCopy {
            src_offset: 0,
            dst_offset: i as u64 * STAGING_BYTES,
            size: chunk.len() as u64,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            ctx.device()
                .cmd_copy_buffer(cmd, staging.buffer(), dst.buffer(), &region);
            Ok(())
        })?;
    }
    Ok(())
}

/// Reads the first `n` elements of a device buffer.
pub fn download<T: bytemuck::Pod>(ctx: &Context, src: &GpuBuffer, n: usize) -> Result<Vec<T>> {
    let mut out = vec![T::zeroed(); n];
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::GpuToCpu, "bench download")?;
    for (i, chunk) in bytemuck::cast_slice_mut::<T, u8>(&mut out)
        .chunks_mut(STAGING_BYTES as usize)
        .enumerate()
    {
        let region = [vk::BufferCopy {
            src_offset: i as u64 * STAGING_BYTES,
            dst_offset: 0,
            size: chunk.len() as u64,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            ctx.device()
                .cmd_copy_buffer(cmd, src.buffer(), staging.buffer(), &region);
            ctx.memory_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::HOST,
                vk::AccessFlags::HOST_READ,
            );
            Ok(())
        })?;
        chunk.copy_from_slice(&staging.mapped().expect("mapped")[..chunk.len()]);
    }
    Ok(out)
}

/// Deterministic xorshift data, different for every seed.
pub fn random_u32(n: usize, seed: u64) -> Vec<u32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 16) as u32
        })
        .collect()
}

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
        println!(
            "copy bandwidth (compute shader, uvec4, {} MiB): {:.0} GB/s (read + write), {:.3} ms",
            bytes >> 20,
            y.gbs,
            y.ms
        );
        println!(
            "RESULT\tvkalgo\tcopy_u32x4\tshader\t{}\t{:.6}\t{:.1}\t0",
            bytes / 4,
            y.ms,
            y.gbs
        );
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
        println!(
            "copy on the {algorithm} buffers, N = {n}: {own_gbs:.0} GB/s, yardstick copy of the same bytes {yard_gbs:.0} GB/s ({:.0}%)",
            100.0 * own_gbs / yard_gbs
        );
        println!("RESULT\tvkalgo\tcopy_on_{algorithm}\town\t{n}\t{own_ms:.6}\t{own_gbs:.1}\t{yard_gbs:.1}");
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
    println!(
        "\ncopy on each algorithm's own buffers beside the yardstick copy of as many bytes (one process)"
    );
    println!("| algorithm | N | own buffers GB/s | yardstick GB/s | ratio |");
    println!("|---|---|---|---|---|");
    for (algorithm, n, own, yard) in checks.iter() {
        let label = if n.is_power_of_two() {
            format!("2^{}", n.trailing_zeros())
        } else {
            n.to_string()
        };
        println!(
            "| {algorithm} | {label} | {own:.0} | {yard:.0} | {:.3} |",
            own / yard
        );
    }
}
