//! vkalgo benchmark: times every algorithm on the best Vulkan device with GPU timestamps
//! (warm-up, median of repeats, fresh random data, every result verified against the CPU
//! reference) and prints a table per algorithm, with the device's copy bandwidth measured by a
//! compute-shader copy as the yardstick.
//!
//! Usage: vkalgo-bench [--sizes 20,24,28] [--reps 20] [--tuning 256x4,256x6] [--paths lookback,rts]
//! Each measurement is also printed as a tab-separated `RESULT` line (see bench/compare.py).

use ash::vk;
use std::time::Instant;
use vkalgo::scan::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, MemoryLocation, Result, ScanArgs, ScanDesc, ScanOp, ScanPath,
    ScanTuning,
};

struct Options {
    sizes: Vec<u32>,
    reps: usize,
    tunings: Vec<Option<ScanTuning>>,
    paths: Vec<ScanPath>,
    spins: Vec<u32>,
}

fn parse_options(ctx: &Context) -> Options {
    let gpu = !ctx.is_cpu_device();
    let mut options = Options {
        sizes: if gpu { vec![20, 24, 28] } else { vec![16, 20, 22] },
        reps: if gpu { 20 } else { 5 },
        tunings: vec![None],
        paths: vec![ScanPath::Lookback, ScanPath::ReduceThenScan],
        spins: vec![0],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--sizes" => options.sizes = value.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
            "--reps" => options.reps = value.parse().unwrap_or(options.reps).max(1),
            "--tuning" => {
                options.tunings = value
                    .split(',')
                    .filter_map(|t| {
                        let (wg, v) = t.split_once('x')?;
                        Some(Some(ScanTuning {
                            workgroup_size: wg.parse().ok()?,
                            vecs_per_thread: v.parse().ok()?,
                            lookback_spins: 0,
                        }))
                    })
                    .collect()
            }
            "--spins" => options.spins = value.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
            "--paths" => {
                options.paths = value
                    .split(',')
                    .filter_map(|p| match p {
                        "lookback" => Some(ScanPath::Lookback),
                        "rts" | "reduce_then_scan" => Some(ScanPath::ReduceThenScan),
                        _ => None,
                    })
                    .collect()
            }
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    options
}

/// GPU timing of recorded work: a two-entry timestamp query pool.
/// Most repetitions timed back to back in one submission.
const MAX_BATCH: u32 = 64;

struct Timer<'a> {
    ctx: &'a Context,
    pool: vk::QueryPool,
}

impl<'a> Timer<'a> {
    fn new(ctx: &'a Context) -> Result<Self> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(MAX_BATCH + 1);
        let pool = unsafe { ctx.device().create_query_pool(&info, None) }
            .map_err(|e| vkalgo::Error::vk("vkCreateQueryPool", e))?;
        Ok(Timer { ctx, pool })
    }

    /// Records `reps` repetitions back to back in one submission (a full barrier between
    /// them, so each starts after the previous one ends, as stream-ordered CUDA launches do)
    /// and returns each repetition's GPU milliseconds.
    fn time_batch(
        &self,
        reps: u32,
        mut record: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        assert!((1..=MAX_BATCH).contains(&reps));
        let d = self.ctx.device();
        self.ctx.submit_and_wait(|cmd| unsafe {
            d.cmd_reset_query_pool(cmd, self.pool, 0, reps + 1);
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::TOP_OF_PIPE, self.pool, 0);
            for rep in 0..reps {
                if rep > 0 {
                    let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
                    let all_stages = vk::PipelineStageFlags::ALL_COMMANDS;
                    self.ctx.memory_barrier(cmd, all_stages, all, all_stages, all);
                }
                record(cmd, rep)?;
                d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, self.pool, rep + 1);
            }
            Ok(())
        })?;
        let mut stamps = vec![0u64; reps as usize + 1];
        unsafe {
            d.get_query_pool_results(
                self.pool,
                0,
                &mut stamps,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .map_err(|e| vkalgo::Error::vk("vkGetQueryPoolResults", e))?;
        let period = self.ctx.profile().timestamp_period as f64 / 1e6;
        Ok(stamps
            .windows(2)
            .map(|w| w[1].wrapping_sub(w[0]) as f64 * period)
            .collect())
    }
}

impl Drop for Timer<'_> {
    fn drop(&mut self) {
        unsafe { self.ctx.device().destroy_query_pool(self.pool, None) };
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Bytes moved per staging round trip: big host-visible allocations can fragment device memory
/// and leave later large buffers on small pages (seen on an H200: copies at 1.5 TB/s instead of
/// 4 TB/s), so uploads and downloads go through one modest staging buffer.
const STAGING_BYTES: u64 = 64 << 20;

/// Fills the start of a device buffer with `data` through a staging buffer.
fn upload(ctx: &Context, dst: &GpuBuffer, data: &[u32]) -> Result<()> {
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

/// Reads the first `n` u32 of a device buffer.
fn download(ctx: &Context, src: &GpuBuffer, n: usize) -> Result<Vec<u32>> {
    let mut out = vec![0u32; n];
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::GpuToCpu, "bench download")?;
    for (i, chunk) in bytemuck::cast_slice_mut::<u32, u8>(&mut out)
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

fn random_u32(n: usize, seed: u64) -> Vec<u32> {
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

/// Copy bandwidth (bytes read + written per second) of the compute-shader copy of `bytes`
/// bytes from `src` to `dst`.
fn copy_bandwidth(
    ctx: &Context,
    timer: &Timer,
    src: &GpuBuffer,
    dst: &GpuBuffer,
    bytes: u64,
    reps: usize,
) -> Result<(f64, f64)> {
    let data = random_u32((bytes / 4) as usize, 7);
    upload(ctx, src, &data)?;
    let (from, to) = (src.sub_range(0, bytes), dst.sub_range(0, bytes));
    timer.time_batch(3, |cmd, _| ctx.record_compute_copy(cmd, &from, &to))?;
    let times = timer.time_batch(reps.clamp(1, MAX_BATCH as usize) as u32, |cmd, _| {
        ctx.record_compute_copy(cmd, &from, &to)
    })?;
    let check = download(ctx, dst, data.len())?;
    assert!(check == data, "compute copy produced wrong data");
    let ms = median(times);
    Ok((ms, 2.0 * bytes as f64 / (ms * 1e-3) / 1e9))
}

fn main() -> Result<()> {
    let ctx = Context::new()?;
    let options = parse_options(&ctx);
    let p = ctx.profile();
    println!(
        "device: {} ({:?}), Vulkan {}, driver {}",
        p.device_name,
        p.device_type,
        p.api_version_string(),
        p.driver
    );
    println!(
        "subgroup {}..{}, shared memory {} KiB, look-back policy {}",
        p.min_subgroup_size,
        p.max_subgroup_size,
        p.max_shared_memory / 1024,
        if p.lookback { "on" } else { "off" }
    );
    if !p.timestamps {
        return Err(vkalgo::Error::Unsupported("the queue has no timestamps".into()));
    }
    let timer = Timer::new(&ctx)?;
    // The large buffers are allocated once, first, and reused for every size (as an engine
    // would): no large allocation comes after other traffic has fragmented device memory.
    let max_n = 1u64 << options.sizes.iter().copied().max().unwrap_or(20);
    let copy_bytes: u64 = if ctx.is_cpu_device() { 64 << 20 } else { 1 << 30 };
    let buffer_bytes = (max_n * 4).max(copy_bytes);
    let in_buf = GpuBuffer::new(&ctx, buffer_bytes, MemoryLocation::GpuOnly, "bench in")?;
    let out_buf = GpuBuffer::new(&ctx, buffer_bytes, MemoryLocation::GpuOnly, "bench out")?;
    let (copy_ms, copy_gbs) = copy_bandwidth(&ctx, &timer, &in_buf, &out_buf, copy_bytes, options.reps)?;
    println!(
        "copy bandwidth (compute shader, uvec4, {} MiB): {copy_gbs:.0} GB/s (read + write), {copy_ms:.3} ms",
        copy_bytes >> 20
    );
    println!(
        "RESULT\tvkalgo\tcopy_u32x4\tshader\t{}\t{copy_ms:.6}\t{copy_gbs:.1}\t0",
        copy_bytes / 4
    );

    println!("\nscan_exclusive_u32 (bytes moved per element: 8)");
    println!("| path | tuning | N | ms | G elements/s | GB/s | % of copy | scratch bytes | verified |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    for &log2 in &options.sizes {
        let n = 1usize << log2;
        let input = random_u32(n, log2 as u64 * 1000 + 1);
        let expected = reference::scan_u32(&input, ScanOp::Exclusive);
        let (scan_in, scan_out) = (
            in_buf.sub_range(0, n as u64 * 4),
            out_buf.sub_range(0, n as u64 * 4),
        );
        upload(&ctx, &in_buf, &input)?;
        let copy_ms = median(
            timer.time_batch(options.reps.clamp(3, MAX_BATCH as usize) as u32, |cmd, _| {
                ctx.record_compute_copy(cmd, &scan_in, &scan_out)
            })?,
        );
        println!(
            "| copy on the scan buffers | - | 2^{log2} | {copy_ms:.4} | {:.1} | {:.0} | - | - | - |",
            n as f64 / copy_ms / 1e6,
            8.0 * n as f64 / copy_ms / 1e6
        );
        let tunings: Vec<Option<ScanTuning>> = options
            .tunings
            .iter()
            .flat_map(|t| {
                options.spins.iter().map(move |&spins| match (t, spins) {
                    (t, 0) => *t,
                    (Some(t), spins) => Some(ScanTuning {
                        lookback_spins: spins,
                        ..*t
                    }),
                    (None, spins) => Some(ScanTuning {
                        workgroup_size: 256,
                        vecs_per_thread: 4,
                        lookback_spins: spins,
                    }),
                })
            })
            .collect();
        for &path in &options.paths {
            for &tuning in &tunings {
                let desc = ScanDesc {
                    op: ScanOp::Exclusive,
                    path,
                    max_count: n as u64,
                    tuning,
                };
                let plan = match ctx.scan_plan(&desc) {
                    Ok(plan) => plan,
                    Err(e) => {
                        println!("| {path:?} | - | 2^{log2} | skipped: {e} |");
                        continue;
                    }
                };
                let scratch = GpuBuffer::new(
                    &ctx,
                    plan.memory_requirements().scratch_size,
                    MemoryLocation::GpuOnly,
                    "bench scratch",
                )?;
                let args = ScanArgs {
                    input: scan_in,
                    output: scan_out,
                    scratch: scratch.range(),
                    count: ElementCount::Direct(n as u64),
                };
                let wall = Instant::now();
                // Warm-up: ~50 ms of back-to-back work, so clocks and memory are in their busy
                // state; then the timed repetitions back to back in one submission.
                let warm_reps = ((50.0 / copy_ms.max(1e-3)) as u32).clamp(1, MAX_BATCH);
                timer.time_batch(warm_reps, |cmd, _| {
                    ctx.record_compute_copy(cmd, &scan_in, &scan_out)
                })?;
                timer.time_batch(3, |cmd, _| plan.record(&ctx, cmd, &args))?;
                let times = timer.time_batch(options.reps.min(MAX_BATCH as usize) as u32, |cmd, _| {
                    plan.record(&ctx, cmd, &args)
                })?;
                let got = download(&ctx, &out_buf, n)?;
                let verified = got == expected;
                let ms = median(times);
                let gelems = n as f64 / (ms * 1e-3) / 1e9;
                let gbs = 8.0 * n as f64 / (ms * 1e-3) / 1e9;
                let variant = match plan.path() {
                    ScanPath::Lookback => "lookback",
                    _ => "reduce_then_scan",
                };
                let tuning_text = desc.tuning.map_or("default".to_string(), |t| {
                    if t.lookback_spins == 0 {
                        format!("{}x{}", t.workgroup_size, t.vecs_per_thread)
                    } else {
                        format!("{}x{}s{}", t.workgroup_size, t.vecs_per_thread, t.lookback_spins)
                    }
                });
                rows.push(format!(
                    "| {variant} | {tuning_text} | 2^{log2} | {ms:.4} | {gelems:.1} | {gbs:.0} | {:.0}% | {} | {} |",
                    100.0 * gbs / copy_gbs,
                    plan.memory_requirements().scratch_size,
                    if verified { "yes" } else { "NO" }
                ));
                println!("{}", rows.last().unwrap());
                println!(
                    "RESULT\tvkalgo\tscan_exclusive_u32\t{variant}{}\t{n}\t{ms:.6}\t{gelems:.2}\t{}",
                    desc.tuning.map_or(String::new(), |_| format!("_{tuning_text}")),
                    plan.memory_requirements().scratch_size
                );
                if !verified {
                    eprintln!(
                        "MISMATCH: {variant} {tuning_text} n={n} (wall {:?})",
                        wall.elapsed()
                    );
                    std::process::exit(1);
                }
            }
        }
    }
    println!("\nsummary: device {}, copy {copy_gbs:.0} GB/s", p.device_name);
    println!("| path | tuning | N | ms | G elements/s | GB/s | % of copy | scratch bytes | verified |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        println!("{r}");
    }
    Ok(())
}
