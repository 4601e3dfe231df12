//! Support of the large-count checks (`tests/large_*.rs`): each sorts, scans, copies,
//! multisplits, merges or looks up more than 2^31 elements (by default 2^31 + 5) through the
//! record layer or the host API and verifies the result EXACTLY against a CPU reference. The
//! checks are `#[ignore]`d tests: the GPU machine runs them with `--ignored`, CI at 2^16 + 5.
//!
//! The record-layer checks run on buffers they allocate themselves: one VkBuffer of more than
//! 8 GiB may exceed the device's maxMemoryAllocationSize, so each buffer gets a dedicated
//! `vkAllocateMemory` (with `VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT`) on a device-local memory
//! type ([`RawBuffer`]); where the device refuses, the row says so (refused, not failed). Data
//! moves in chunks through one modest staging buffer.
//!
//! Environment of the checks ([`Options::from_env`]):
//! - `VKALGO_LARGE_COUNT`: the element count, `2^N+E` or a number (default `2^31+5`; CI:
//!   `2^16+5`).
//! - `VKALGO_LARGE_HASH_LOG2` (default: N of the count): the hash map asks for 2^N + 2^(N-3)
//!   slots first, then smaller capacities until the device accepts one;
//!   `VKALGO_LARGE_HASH_LOAD` (default 0.5): keys inserted per slot.
//! - `VKALGO_LARGE_THREADS` (default: the machine's cores): CPU threads of the reference checks.
//!
//! Each check also has a self-test ([`self_test`], a normal test): the check at 2^16 + 5 with
//! one bit of every GPU result flipped before it is compared must report every row wrong.

use crate::harness::{Timer, STAGING_BYTES};
use ash::vk;
use std::sync::OnceLock;
use std::time::Instant;
use vkalgo::{BufferRange, Context, GpuBuffer, MemoryLocation, Result, BUFFER_USAGE};

/// Bytes in front of every range of the record-layer checks: ranges start at a non-zero offset.
pub const OFFSET: u64 = 256;

/// One row of the final table.
pub struct Row {
    pub what: String,
    pub n: u64,
    pub ms: Option<f64>,
    pub timing: &'static str,
    pub verdict: Verdict,
}

pub enum Verdict {
    Exact,
    Wrong(String),
    Refused(String),
}

impl Row {
    /// A check that ran through the record layer and was timed on the GPU after a warm-up
    /// (`wrong`: what differed from the CPU, if anything).
    pub fn gpu(what: &str, n: u64, ms: f64, wrong: Option<String>) -> Row {
        Row {
            what: format!("{what} (record layer)"),
            n,
            ms: Some(ms),
            timing: "GPU, warm",
            verdict: wrong.map_or(Verdict::Exact, Verdict::Wrong),
        }
    }

    /// A check that could not run (`why`: the device refused memory or the plan).
    pub fn refused(what: &str, n: u64, why: &str) -> Row {
        Row {
            what: what.into(),
            n,
            ms: None,
            timing: "-",
            verdict: Verdict::Refused(why.into()),
        }
    }
}

/// Says what download_compare found wrong: the first wrong `part` (key, value, ...).
pub fn wrong_at(part: &'static str) -> impl Fn((u64, u32, u32)) -> String {
    move |(p, got, want)| format!("first wrong {part} at {p}: got {got} want {want}")
}

impl Verdict {
    /// The verdict as the table prints it.
    pub fn text(&self) -> String {
        match self {
            Verdict::Exact => "yes (exact)".into(),
            Verdict::Wrong(m) => format!("NO: {m}"),
            Verdict::Refused(m) => format!("not run: {m}"),
        }
    }
}

/// What the checks run at (see the module docs).
pub struct Options {
    /// The count is 2^log2 + extra.
    pub log2: u32,
    pub extra: u64,
    pub hash_log2: u32,
    pub hash_load: f64,
    pub threads: usize,
    /// Flip one bit of every GPU result before it is checked (the self-test).
    pub corrupt: bool,
}

fn env_value<T: std::str::FromStr>(name: &str) -> Option<T> {
    let text = std::env::var(name).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text} is not a valid value")),
    )
}

/// Parses a count written `2^N+E`, `2^N` or as a number into (N, E).
pub fn parse_count(text: &str) -> Option<(u32, u64)> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(rest) = text.strip_prefix("2^") {
        let (log2, extra) = rest.split_once('+').unwrap_or((rest, "0"));
        return Some((log2.parse().ok()?, extra.parse().ok()?));
    }
    let n: u64 = text.parse().ok()?;
    (n > 0).then(|| {
        let log2 = 63 - n.leading_zeros();
        (log2, n - (1u64 << log2))
    })
}

impl Options {
    /// The options of the environment (see the module docs).
    pub fn from_env() -> Options {
        let (log2, extra) = match std::env::var("VKALGO_LARGE_COUNT") {
            Ok(text) => parse_count(&text)
                .unwrap_or_else(|| panic!("VKALGO_LARGE_COUNT={text}: write 2^N+E or a number")),
            Err(_) => (31, 5),
        };
        let o = Options {
            log2,
            extra,
            hash_log2: env_value("VKALGO_LARGE_HASH_LOG2").unwrap_or(log2),
            hash_load: env_value("VKALGO_LARGE_HASH_LOAD").unwrap_or(0.5),
            threads: env_value::<usize>("VKALGO_LARGE_THREADS")
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(4, |n| n.get()))
                .max(1),
            corrupt: false,
        };
        assert!(
            (4..=33).contains(&o.log2),
            "the count must be 2^N + E with N in 4..=33"
        );
        assert!(
            (4..=33).contains(&o.hash_log2),
            "VKALGO_LARGE_HASH_LOG2 must be in 4..=33"
        );
        assert!(
            o.hash_load > 0.0 && o.hash_load <= 0.9,
            "VKALGO_LARGE_HASH_LOAD must be in (0, 0.9]"
        );
        o
    }

    /// The self-test's options: 2^16 + 5 elements, every result corrupted.
    pub fn self_test() -> Options {
        Options {
            log2: 16,
            extra: 5,
            hash_log2: 16,
            corrupt: true,
            ..Options::from_env()
        }
    }

    /// The element count, 2^log2 + extra.
    pub fn count(&self) -> u64 {
        (1u64 << self.log2) + self.extra
    }
}

/// The context every check of the process shares (the harness's yardstick belongs to it).
pub fn context() -> &'static Context {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    CONTEXT.get_or_init(|| Context::new().expect("a Vulkan device"))
}

/// A check: runs on the context with the options, adds its rows.
pub type Check<'a> = &'a dyn Fn(&Context, &Options, &mut Vec<Row>) -> Result<()>;

/// Prints the rows as a table, each also as a tab-separated `RESULT\tlarge` line.
fn print_rows(rows: &[Row]) {
    println!();
    println!(
        "{:<60} {:>14} {:>10} {:<10} verified",
        "what", "N", "ms", "timing"
    );
    for r in rows {
        let ms = r.ms.map_or("-".to_string(), |m| format!("{m:.2}"));
        println!(
            "{:<60} {:>14} {:>10} {:<10} {}",
            r.what,
            r.n,
            ms,
            r.timing,
            r.verdict.text()
        );
        println!(
            "RESULT\tlarge\t{}\t{}\t{ms}\t{}",
            r.what,
            r.n,
            match r.verdict {
                Verdict::Exact => "exact",
                Verdict::Wrong(_) => "WRONG",
                Verdict::Refused(_) => "refused",
            }
        );
    }
}

/// Runs `check` at the environment's count ([`Options::from_env`]), prints its table and
/// panics when a check ran and failed (a refused allocation is reported, not failed).
pub fn run(name: &str, check: Check) {
    let o = Options::from_env();
    let ctx = context();
    println!(
        "large-count check {name}: N = 2^{} + {} = {}; maxMemoryAllocationSize {} bytes; {} CPU threads",
        o.log2,
        o.extra,
        o.count(),
        ctx.profile().max_memory_allocation_size,
        o.threads
    );
    for (heap, size) in device_local_heaps(ctx) {
        println!(
            "device-local heap {heap}: {:.1} GiB",
            size as f64 / (1u64 << 30) as f64
        );
    }
    let mut rows = Vec::new();
    check(ctx, &o, &mut rows).expect("the check ran");
    print_rows(&rows);
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Wrong(_)))
        .map(|r| r.what.as_str())
        .collect();
    assert!(failed.is_empty(), "large-count check {name} FAILED: {failed:?}");
}

/// The self-test of `check`: at 2^16 + 5 with one bit of every GPU result flipped, every row
/// that ran must say wrong (and at least one must have run).
pub fn self_test(name: &str, check: Check) {
    let o = Options::self_test();
    let mut rows = Vec::new();
    check(context(), &o, &mut rows).expect("the check ran");
    print_rows(&rows);
    let exact: Vec<&str> = rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Exact))
        .map(|r| r.what.as_str())
        .collect();
    assert!(exact.is_empty(), "{name}: passed a corrupted result: {exact:?}");
    assert!(
        rows.iter().any(|r| matches!(r.verdict, Verdict::Wrong(_))),
        "{name}: no check ran"
    );
}

// ---------------------------------------------------------------------------------------------
// Buffers with their own dedicated device-local memory.

/// A buffer bound to its own `vkAllocateMemory` allocation (device-local, device-address
/// capable), so it may be larger than what the allocator hands out.
pub struct RawBuffer {
    ctx: Context,
    pub buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
}

pub fn device_local_heaps(ctx: &Context) -> Vec<(u32, u64)> {
    let props = unsafe {
        ctx.instance()
            .get_physical_device_memory_properties(ctx.physical_device())
    };
    (0..props.memory_heap_count)
        .filter(|&h| {
            props.memory_heaps[h as usize]
                .flags
                .contains(vk::MemoryHeapFlags::DEVICE_LOCAL)
        })
        .map(|h| (h, props.memory_heaps[h as usize].size))
        .collect()
}

impl RawBuffer {
    /// A device-local buffer of `size` bytes; Err(message) when the device refuses it.
    pub fn new(ctx: &Context, size: u64, name: &str) -> std::result::Result<Self, String> {
        let device = ctx.device();
        let info = vk::BufferCreateInfo::default()
            .size(size.max(16))
            .usage(BUFFER_USAGE)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let buffer = unsafe { device.create_buffer(&info, None) }
            .map_err(|e| format!("{name}: vkCreateBuffer({size} bytes) failed: {e:?}"))?;
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let props = unsafe {
            ctx.instance()
                .get_physical_device_memory_properties(ctx.physical_device())
        };
        // Device-local types the buffer may use; host-visible ones last (resizable BAR memory
        // is precious).
        let mut types: Vec<u32> = (0..props.memory_type_count)
            .filter(|&t| {
                requirements.memory_type_bits & (1 << t) != 0
                    && props.memory_types[t as usize]
                        .property_flags
                        .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
            })
            .collect();
        types.sort_by_key(|&t| {
            props.memory_types[t as usize]
                .property_flags
                .contains(vk::MemoryPropertyFlags::HOST_VISIBLE)
        });
        let mut errors = Vec::new();
        for t in types {
            let mut flags =
                vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(requirements.size)
                .memory_type_index(t)
                .push_next(&mut flags)
                .push_next(&mut dedicated);
            match unsafe { device.allocate_memory(&alloc, None) } {
                Ok(memory) => {
                    if let Err(e) = unsafe { device.bind_buffer_memory(buffer, memory, 0) } {
                        unsafe {
                            device.free_memory(memory, None);
                            device.destroy_buffer(buffer, None);
                        }
                        return Err(format!("{name}: vkBindBufferMemory failed: {e:?}"));
                    }
                    return Ok(RawBuffer {
                        ctx: ctx.clone(),
                        buffer,
                        memory,
                        size,
                    });
                }
                Err(e) => errors.push(format!("type {t}: {e:?}")),
            }
        }
        unsafe { device.destroy_buffer(buffer, None) };
        Err(format!(
            "{name}: the device refused {} bytes of device-local memory ({}; maxMemoryAllocationSize {})",
            requirements.size,
            if errors.is_empty() {
                "no device-local memory type".to_string()
            } else {
                errors.join(", ")
            },
            ctx.profile().max_memory_allocation_size
        ))
    }

    /// `len` bytes from `offset`.
    pub fn range(&self, offset: u64, len: u64) -> BufferRange {
        assert!(offset + len <= self.size);
        BufferRange::new(self.buffer, offset, len)
    }
}

impl Drop for RawBuffer {
    fn drop(&mut self) {
        let device = self.ctx.device();
        unsafe {
            device.destroy_buffer(self.buffer, None);
            device.free_memory(self.memory, None);
        }
    }
}

/// Everything earlier in the queue is complete and visible before what follows.
///
/// # Safety
/// `cmd` is recording on `ctx`'s device.
pub unsafe fn full_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::ALL_COMMANDS,
        all,
        vk::PipelineStageFlags::ALL_COMMANDS,
        all,
    );
}

/// Writes `bytes` bytes at `offset` of `dst`, chunk by chunk: `fill(first_byte, chunk)` fills
/// each chunk of the staging buffer on the host first.
pub fn upload_with(
    ctx: &Context,
    dst: vk::Buffer,
    offset: u64,
    bytes: u64,
    mut fill: impl FnMut(u64, &mut [u8]),
) -> Result<()> {
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::CpuToGpu, "large upload")?;
    let mut done = 0u64;
    while done < bytes {
        let len = (bytes - done).min(STAGING_BYTES);
        fill(done, &mut staging.mapped().expect("mapped")[..len as usize]);
        let region = [vk::BufferCopy {
            src_offset: 0,
            dst_offset: offset + done,
            size: len,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            full_barrier(ctx, cmd);
            ctx.device().cmd_copy_buffer(cmd, staging.buffer(), dst, &region);
            full_barrier(ctx, cmd);
            Ok(())
        })?;
        done += len;
    }
    Ok(())
}

/// Uploads `data` to `offset` of `dst`.
pub fn upload_u32(ctx: &Context, dst: vk::Buffer, offset: u64, data: &[u32], threads: usize) -> Result<()> {
    let bytes: &[u8] = bytemuck::cast_slice(data);
    upload_with(ctx, dst, offset, bytes.len() as u64, |first, chunk| {
        par_copy(
            chunk,
            &bytes[first as usize..first as usize + chunk.len()],
            threads,
        )
    })
}

/// Reads `bytes` bytes from `offset` of `src` chunk by chunk: `take(first_byte, chunk)`.
pub fn download_with(
    ctx: &Context,
    src: vk::Buffer,
    offset: u64,
    bytes: u64,
    mut take: impl FnMut(u64, &[u8]),
) -> Result<()> {
    let mut staging = GpuBuffer::new(ctx, STAGING_BYTES, MemoryLocation::GpuToCpu, "large download")?;
    let mut done = 0u64;
    while done < bytes {
        let len = (bytes - done).min(STAGING_BYTES);
        let region = [vk::BufferCopy {
            src_offset: offset + done,
            dst_offset: 0,
            size: len,
        }];
        ctx.submit_and_wait(|cmd| unsafe {
            full_barrier(ctx, cmd);
            ctx.device().cmd_copy_buffer(cmd, src, staging.buffer(), &region);
            ctx.memory_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::HOST,
                vk::AccessFlags::HOST_READ,
            );
            Ok(())
        })?;
        take(done, &staging.mapped().expect("mapped")[..len as usize]);
        done += len;
    }
    Ok(())
}

/// Reads `n` u32 from `offset` of `src`.
pub fn download_u32(ctx: &Context, src: vk::Buffer, offset: u64, n: u64, threads: usize) -> Result<Vec<u32>> {
    let mut out = vec![0u32; n as usize];
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
    download_with(ctx, src, offset, n * 4, |first, chunk| {
        par_copy(
            &mut bytes[first as usize..first as usize + chunk.len()],
            chunk,
            threads,
        )
    })?;
    Ok(out)
}

/// Downloads `n` u32 from `offset` of `src` chunk by chunk and compares element `p` with
/// `want(p)` on several threads (`corrupt`: the last element's lowest bit flipped first, a
/// self-test). Returns the first wrong element as (index, got, wanted).
pub fn download_compare(
    ctx: &Context,
    src: vk::Buffer,
    offset: u64,
    n: u64,
    threads: usize,
    corrupt: bool,
    want: impl Fn(u64) -> u32 + Sync,
) -> Result<Option<(u64, u32, u32)>> {
    let mut wrong: Option<(u64, u32, u32)> = None;
    let want = &want;
    download_with(ctx, src, offset, n * 4, |first, chunk| {
        if wrong.is_some() {
            return;
        }
        let mut words: Vec<u32> = bytemuck::cast_slice(chunk).to_vec();
        if corrupt && first + chunk.len() as u64 >= n * 4 {
            *words.last_mut().expect("a chunk is never empty") ^= 1;
        }
        let e0 = first / 4;
        let per = words.len().div_ceil(threads).max(1);
        let words = &words;
        wrong = std::thread::scope(|s| {
            let handles: Vec<_> = words
                .chunks(per)
                .enumerate()
                .map(|(c, part)| {
                    s.spawn(move || {
                        let p0 = e0 + (c * per) as u64;
                        part.iter().enumerate().find_map(|(j, &got)| {
                            let p = p0 + j as u64;
                            let w = want(p);
                            (got != w).then_some((p, got, w))
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().unwrap())
                .min_by_key(|w| w.0)
        });
    })?;
    Ok(wrong)
}

/// Times `record` on the GPU after sustained copies, so that the GPU has left its post-idle
/// slow state (see [`crate::harness::Yardstick`]; the CPU references leave it idle for
/// seconds); with `again` a second time (the first run touches fresh buffers first).
/// Returns the last run's milliseconds.
pub fn time_warm(
    ctx: &Context,
    timer: &Timer,
    again: bool,
    mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<f64> {
    let yardstick = crate::harness::yardstick(ctx, timer)?;
    let mut ms = 0.0;
    for _ in 0..1 + again as usize {
        yardstick.warm(ctx, timer)?;
        let times = timer.regions(|cmd, mark| {
            unsafe { full_barrier(ctx, cmd) };
            mark(cmd);
            record(cmd)?;
            mark(cmd);
            Ok(())
        })?;
        ms = times[0];
    }
    Ok(ms)
}

/// A shared pointer for threads that write disjoint elements of one slice.
#[derive(Clone, Copy)]
pub struct SharedSlice(pub *mut u32);
unsafe impl Send for SharedSlice {}
unsafe impl Sync for SharedSlice {}

impl SharedSlice {
    /// Writes `value` at element `i`.
    ///
    /// # Safety
    /// `i` is within the slice and no other thread touches element `i` meanwhile.
    pub unsafe fn write(&self, i: usize, value: u32) {
        *self.0.add(i) = value;
    }
}

// ---------------------------------------------------------------------------------------------
// CPU helpers on scoped threads.

/// `dst.copy_from_slice(src)` on several threads.
pub fn par_copy(dst: &mut [u8], src: &[u8], threads: usize) {
    let per = dst.len().div_ceil(threads).max(1 << 20);
    std::thread::scope(|s| {
        for (d, c) in dst.chunks_mut(per).zip(src.chunks(per)) {
            s.spawn(move || d.copy_from_slice(c));
        }
    });
}

/// A bijective mix of a u32 (xorshift-multiply steps, each invertible).
pub fn mix32(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9E37_79B1);
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^= x >> 13;
    x = x.wrapping_mul(0xC2B2_AE35);
    x ^ (x >> 16)
}

/// A pseudo-random u32 of element `i` (splitmix64 finalizer of i and the seed).
pub fn random_at(i: u64, seed: u64) -> u32 {
    let mut z = i.wrapping_add(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

/// `n` pseudo-random u32 (element i is random_at(i, seed)), generated on several threads.
pub fn par_random(n: u64, seed: u64, threads: usize) -> Vec<u32> {
    let mut v = vec![0u32; n as usize];
    let per = (n as usize).div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, chunk) in v.chunks_mut(per).enumerate() {
            s.spawn(move || {
                let first = (c * per) as u64;
                for (j, x) in chunk.iter_mut().enumerate() {
                    *x = random_at(first + j as u64, seed);
                }
            });
        }
    });
    v
}

/// `keys` sorted ascending: bucketed on several threads by `top(key)` (0..256, monotonic in
/// the key), then each bucket sorted with the standard library.
pub fn cpu_sort<T>(keys: &[T], top: fn(T) -> usize, threads: usize) -> Vec<T>
where
    T: Copy + Ord + Send + Sync + Default,
{
    let per = keys.len().div_ceil(threads).max(1);
    // Each thread splits its part of the input into 256 buckets.
    let parts: Vec<Vec<Vec<T>>> = std::thread::scope(|s| {
        let handles: Vec<_> = keys
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    let mut buckets: Vec<Vec<T>> = (0..256)
                        .map(|_| Vec::with_capacity(chunk.len() / 256 * 11 / 10))
                        .collect();
                    for &k in chunk {
                        buckets[top(k)].push(k);
                    }
                    buckets
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut out = vec![T::default(); keys.len()];
    // The output slice of every bucket, dealt round-robin to the threads.
    let mut slices: Vec<Vec<(usize, &mut [T])>> = (0..threads).map(|_| Vec::new()).collect();
    let mut rest: &mut [T] = &mut out;
    for b in 0..256 {
        let len: usize = parts.iter().map(|p| p[b].len()).sum();
        let (head, tail) = rest.split_at_mut(len);
        slices[b % threads].push((b, head));
        rest = tail;
    }
    let parts = &parts;
    std::thread::scope(|s| {
        for mine in slices {
            s.spawn(move || {
                for (b, slice) in mine {
                    let mut at = 0;
                    for p in parts {
                        slice[at..at + p[b].len()].copy_from_slice(&p[b]);
                        at += p[b].len();
                    }
                    slice.sort_unstable();
                }
            });
        }
    });
    out
}

/// The first index where `a` and `b` differ (several threads), or None.
pub fn first_difference(a: &[u32], b: &[u32], threads: usize) -> Option<usize> {
    if a.len() != b.len() {
        return Some(a.len().min(b.len()));
    }
    let per = a.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = a
            .chunks(per)
            .zip(b.chunks(per))
            .enumerate()
            .map(|(c, (x, y))| {
                s.spawn(move || x.iter().zip(y).position(|(p, q)| p != q).map(|i| c * per + i))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().unwrap()).min()
    })
}

pub fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
