//! `vkalgo-bench large`: the large-count check. Sorts 2^31 + 5 u32 keys and 2^31 + 5
//! u32 -> u32 pairs (every sort path the device runs: Onesweep where the device has 64-bit
//! atomics, and the safe path), scans 2^31 + 5 u32 elements (look-back and reduce-then-scan,
//! exclusive, inclusive and in place), copies 2^31 + 5 uvec4 vectors (32 GiB) with the compute
//! copy, and inserts into / finds in a hash map of more than 2^31 slots (or the largest the
//! device allows), each verified EXACTLY against a CPU reference; prints a table (what, N, ms,
//! verified). Peak device memory: 64 GiB (the copy); host memory: about 56 GiB (the pairs'
//! reference sort).
//!
//! The sort, scan and copy run through the record layer on buffers this check allocates itself:
//! one VkBuffer of more than 8 GiB may exceed the device's maxMemoryAllocationSize, so each
//! buffer gets a dedicated `vkAllocateMemory` (with `VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT`) on a
//! device-local memory type; where the device refuses, the row says so. Data moves in chunks
//! through one modest staging buffer. The hash map goes through the public host API
//! (`HashMap::insert`, `HashMap::find`) in batches.
//!
//! `split` (large_split.rs), `merge`, `setops`, `mergesort` (large_merge.rs) and `sets`
//! (large_set.rs) check the multisplit's paths, the merge, the set operations on sorted runs,
//! the merge sort and the sets' `contains` and `to_array` the same way, each past 2^31
//! elements (the merges' outputs past 2^32).
//!
//! Options:
//! - `--log2 N` (default 31) and `--extra E` (default 5): element counts are 2^N + E (use
//!   e.g. `--log2 20` for a smoke test on lavapipe).
//! - `--hash-log2 N` (default: `--log2`): the hash map asks for 2^N + 2^(N-3) slots first,
//!   then smaller capacities until the device accepts one; `--hash-load L` (default 0.5):
//!   keys inserted per slot.
//! - `--only sort,pairs,scan,copy,hash,split,merge,setops,mergesort,sets` (default: all).
//! - `--threads T` (default: the machine's cores): CPU threads of the reference checks.
//! - `--corrupt`: flips one bit of every GPU result before it is checked (a self-test of the
//!   checks: every row must then say NO).
//!
//! Exits with status 1 when a check ran and failed (a refused allocation is reported, not
//! failed).

use crate::common::{Timer, STAGING_BYTES};
use ash::vk;
use std::time::Instant;
use vkalgo::scan::SCAN_MAX_COUNT;
use vkalgo::sort::SORT_MAX_COUNT;
use vkalgo::{
    BufferRange, Context, ElementCount, GpuBuffer, HashKeyType, HashMapDesc, HashValueType, KeyType,
    MemoryLocation, Result, ScanArgs, ScanDesc, ScanOp, ScanPath, SortArgs, SortDesc, SortPath, SortResult,
    ValueType, BUFFER_USAGE,
};

/// Bytes in front of every range of the record-layer checks: ranges start at a non-zero offset.
pub(crate) const OFFSET: u64 = 256;

/// One row of the final table.
pub(crate) struct Row {
    pub what: String,
    pub n: u64,
    pub ms: Option<f64>,
    pub timing: &'static str,
    pub verdict: Verdict,
}

pub(crate) enum Verdict {
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
pub(crate) fn wrong_at(part: &'static str) -> impl Fn((u64, u32, u32)) -> String {
    move |(p, got, want)| format!("first wrong {part} at {p}: got {got} want {want}")
}

impl Verdict {
    fn text(&self) -> String {
        match self {
            Verdict::Exact => "yes (exact)".into(),
            Verdict::Wrong(m) => format!("NO: {m}"),
            Verdict::Refused(m) => format!("not run: {m}"),
        }
    }
}

pub(crate) struct Options {
    pub log2: u32,
    extra: u64,
    hash_log2: u32,
    hash_load: f64,
    only: Vec<String>,
    pub threads: usize,
    pub corrupt: bool,
}

fn parse(args: &[String]) -> Options {
    let mut o = Options {
        log2: 31,
        extra: 5,
        hash_log2: 0,
        hash_load: 0.5,
        only: [
            "sort",
            "pairs",
            "scan",
            "copy",
            "hash",
            "split",
            "merge",
            "setops",
            "mergesort",
            "sets",
        ]
        .map(String::from)
        .to_vec(),
        threads: std::thread::available_parallelism().map_or(4, |n| n.get()),
        corrupt: false,
    };
    let mut hash_log2 = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--log2" => o.log2 = value.parse().expect("--log2 N"),
            "--extra" => o.extra = value.parse().expect("--extra E"),
            "--hash-log2" => hash_log2 = Some(value.parse().expect("--hash-log2 N")),
            "--hash-load" => o.hash_load = value.parse().expect("--hash-load L"),
            "--only" => o.only = value.split(',').map(|s| s.trim().to_string()).collect(),
            "--threads" => o.threads = value.parse().expect("--threads T"),
            "--corrupt" => {
                o.corrupt = true;
                i += 1;
                continue;
            }
            other => {
                eprintln!("large: unknown option {other}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    assert!((4..=33).contains(&o.log2), "--log2 must be in 4..=33");
    o.hash_log2 = hash_log2.unwrap_or(o.log2);
    assert!((4..=33).contains(&o.hash_log2), "--hash-log2 must be in 4..=33");
    assert!(
        o.hash_load > 0.0 && o.hash_load <= 0.9,
        "--hash-load must be in (0, 0.9]"
    );
    o.threads = o.threads.max(1);
    o
}

pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse(args);
    let n = (1u64 << o.log2) + o.extra;
    println!(
        "large-count check: N = 2^{} + {} = {n}; maxMemoryAllocationSize {} bytes; {} CPU threads",
        o.log2,
        o.extra,
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
    if o.only.iter().any(|s| s == "sort") {
        sort_check(ctx, &o, n, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "pairs") {
        pairs_check(ctx, &o, n, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "scan") {
        scan_check(ctx, &o, n, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "copy") {
        copy_check(ctx, &o, n, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "hash") {
        hash_check(ctx, &o, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "split") {
        crate::large_split::split_check(ctx, &o, n, &mut rows)?;
    }
    let set_ops = o.only.iter().any(|s| s == "setops");
    let merges = o.only.iter().any(|s| s == "merge");
    if set_ops || merges {
        crate::large_merge::merge_check(ctx, &o, n, set_ops, merges, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "mergesort") {
        crate::large_merge::merge_sort_check(ctx, &o, n, &mut rows)?;
    }
    if o.only.iter().any(|s| s == "sets") {
        crate::large_set::set_check(ctx, &o, n, &mut rows)?;
    }
    println!();
    println!(
        "{:<60} {:>14} {:>10} {:<10} verified",
        "what", "N", "ms", "timing"
    );
    for r in &rows {
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
    if rows.iter().any(|r| matches!(r.verdict, Verdict::Wrong(_))) {
        eprintln!("large: a check FAILED");
        std::process::exit(1);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Buffers with their own dedicated device-local memory.

/// A buffer bound to its own `vkAllocateMemory` allocation (device-local, device-address
/// capable), so it may be larger than what the allocator hands out.
pub(crate) struct RawBuffer {
    ctx: Context,
    pub buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
}

fn device_local_heaps(ctx: &Context) -> Vec<(u32, u64)> {
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
pub(crate) unsafe fn full_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
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
pub(crate) fn upload_with(
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
pub(crate) fn upload_u32(
    ctx: &Context,
    dst: vk::Buffer,
    offset: u64,
    data: &[u32],
    threads: usize,
) -> Result<()> {
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
pub(crate) fn download_with(
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
pub(crate) fn download_u32(
    ctx: &Context,
    src: vk::Buffer,
    offset: u64,
    n: u64,
    threads: usize,
) -> Result<Vec<u32>> {
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
pub(crate) fn download_compare(
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
/// slow state (docs/benchmarks/2026-11-22-memory-speed.md; the CPU references leave it idle
/// for seconds); with `again` a second time (the first run touches fresh buffers first).
/// Returns the last run's milliseconds.
pub(crate) fn time_warm(
    ctx: &Context,
    timer: &Timer,
    again: bool,
    mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<f64> {
    let yardstick = crate::common::yardstick(ctx, timer)?;
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
pub(crate) struct SharedSlice(pub *mut u32);
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
fn par_copy(dst: &mut [u8], src: &[u8], threads: usize) {
    let per = dst.len().div_ceil(threads).max(1 << 20);
    std::thread::scope(|s| {
        for (d, c) in dst.chunks_mut(per).zip(src.chunks(per)) {
            s.spawn(move || d.copy_from_slice(c));
        }
    });
}

/// A bijective mix of a u32 (xorshift-multiply steps, each invertible).
fn mix32(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9E37_79B1);
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^= x >> 13;
    x = x.wrapping_mul(0xC2B2_AE35);
    x ^ (x >> 16)
}

/// A pseudo-random u32 of element `i` (splitmix64 finalizer of i and the seed).
pub(crate) fn random_at(i: u64, seed: u64) -> u32 {
    let mut z = i.wrapping_add(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

/// `n` pseudo-random u32 (element i is random_at(i, seed)), generated on several threads.
pub(crate) fn par_random(n: u64, seed: u64, threads: usize) -> Vec<u32> {
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
pub(crate) fn cpu_sort<T>(keys: &[T], top: fn(T) -> usize, threads: usize) -> Vec<T>
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
pub(crate) fn first_difference(a: &[u32], b: &[u32], threads: usize) -> Option<usize> {
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

pub(crate) fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

// ---------------------------------------------------------------------------------------------
// The checks.

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

/// Keys of the hash check: key(i) = mix32(i), distinct for distinct i < 2^32; the two reserved
/// keys (u32::MAX - 1, u32::MAX) are left out.
fn hash_keys(first: u64, count: u64, threads: usize) -> Vec<u32> {
    let mut keys = vec![0u32; count as usize];
    let per = keys.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, part) in keys.chunks_mut(per).enumerate() {
            s.spawn(move || {
                for (j, k) in part.iter_mut().enumerate() {
                    *k = mix32((first + (c * per + j) as u64) as u32);
                }
            });
        }
    });
    keys.retain(|&k| k < u32::MAX - 1);
    keys
}

fn hash_value(key: u32) -> u32 {
    key.rotate_left(7) ^ 0x5BD1_E995
}

/// Keys per host call of the hash check.
const HASH_BATCH: u64 = 1 << 26;

fn hash_check(ctx: &Context, o: &Options, rows: &mut Vec<Row>) -> Result<()> {
    let l = o.hash_log2;
    let mut capacities = vec![(1u64 << l) + (1u64 << (l - 3)), 1 << l];
    for shift in [4u32, 3, 2, 1] {
        capacities.push((1u64 << l) - (1u64 << (l - shift)));
    }
    for down in 1..=4u32 {
        capacities.push(1u64 << (l - down));
    }
    let mut map = None;
    let mut refused = 0;
    for &capacity in &capacities {
        match ctx.hash_map(&HashMapDesc::new(HashKeyType::U32, HashValueType::U32, capacity)) {
            Ok(m) => {
                map = Some(m);
                break;
            }
            Err(e) => {
                refused += 1;
                println!("hash: a map of {capacity} slots was refused: {e}");
            }
        }
    }
    let Some(map) = map else {
        rows.push(Row {
            what: "hash map".into(),
            n: 0,
            ms: None,
            timing: "-",
            verdict: Verdict::Refused("no capacity accepted".into()),
        });
        return Ok(());
    };
    let slots = map.capacity();
    let inserted = ((slots as f64 * o.hash_load) as u64).min((1u64 << 32) - 4);
    // Absent keys: the next indices (mix32 is a bijection, so none of them was inserted).
    let absent = inserted.min((1u64 << 32) - inserted);
    println!(
        "hash: map of {slots} slots ({} bytes), {inserted} keys to insert (load {:.2}), {absent} absent keys to look up",
        map.memory_bytes(),
        o.hash_load
    );
    let t = Instant::now();
    let mut stored = 0u64;
    let mut first = 0u64;
    while first < inserted {
        let count = (inserted - first).min(HASH_BATCH);
        let keys = hash_keys(first, count, o.threads);
        let values: Vec<u32> = keys.iter().map(|&k| hash_value(k)).collect();
        map.insert(&keys, &values)?;
        stored += keys.len() as u64;
        first += count;
    }
    let insert_ms = ms_since(t);
    let size = map.size()? ^ o.corrupt as u64;
    let insert_verdict = if size == stored {
        Verdict::Exact
    } else {
        Verdict::Wrong(format!("size {size} after inserting {stored} distinct keys"))
    };
    let t = Instant::now();
    let mut find_verdict = Verdict::Exact;
    let mut first = 0u64;
    while first < inserted + absent {
        let end = if first < inserted {
            inserted
        } else {
            inserted + absent
        };
        let count = (end - first).min(HASH_BATCH);
        let keys = hash_keys(first, count, o.threads);
        let mut values = vec![0u32; keys.len()];
        let mut found = vec![false; keys.len()];
        map.find(&keys, &mut values, Some(&mut found))?;
        if o.corrupt && first == 0 {
            found[0] = !found[0];
        }
        let present = first < inserted;
        let bad = (0..keys.len()).find(|&i| {
            if present {
                !found[i] || values[i] != hash_value(keys[i])
            } else {
                found[i]
            }
        });
        if let Some(i) = bad {
            if matches!(find_verdict, Verdict::Exact) {
                find_verdict = Verdict::Wrong(format!(
                    "key {} ({}): found {} value {}",
                    keys[i],
                    if present { "inserted" } else { "absent" },
                    found[i],
                    values[i]
                ));
            }
        }
        first += count;
    }
    let find_ms = ms_since(t);
    // Says whether the map reached past 2^31 slots (the largest the device allowed if not).
    let reach = match (slots > 1 << 31, refused) {
        (true, _) => "past 2^31",
        (false, 0) => "as asked",
        (false, _) => "largest the device accepted",
    };
    rows.push(Row {
        what: format!("hash insert u32->u32, {slots} slots ({reach})"),
        n: stored,
        ms: Some(insert_ms),
        timing: "host wall",
        verdict: insert_verdict,
    });
    rows.push(Row {
        what: format!("hash find (hits + misses), {slots} slots ({reach})"),
        n: inserted + absent,
        ms: Some(find_ms),
        timing: "host wall",
        verdict: find_verdict,
    });
    Ok(())
}
