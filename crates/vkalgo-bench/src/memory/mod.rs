//! `vkalgo-bench memory`: why a device-local buffer may copy slower than another one in the same
//! process. Allocates a pair of device-local buffers after different histories of other
//! allocations (raw `vkAllocateMemory` on chosen memory types, and vkalgo's own allocator) and
//! measures the compute-shader copy between them.
//!
//! Options: `vkalgo-bench memory --help`.

use ash::vk;
use vkalgo::{BufferRange, Context, GpuBuffer, MemoryLocation, Result, BUFFER_USAGE};
use vkalgo_bench::harness::{axis, median, report, Axis, Options, Timer, MAX_BATCH};

/// A buffer bound to its own `VkDeviceMemory` of a chosen memory type.
struct RawBuffer<'a> {
    ctx: &'a Context,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
}

impl<'a> RawBuffer<'a> {
    fn new(ctx: &'a Context, size: u64, type_index: u32, dedicated: bool, touch: bool) -> Result<Self> {
        let d = ctx.device();
        let info = vk::BufferCreateInfo::default().size(size).usage(BUFFER_USAGE);
        let buffer =
            unsafe { d.create_buffer(&info, None) }.map_err(|e| vkalgo::Error::vk("vkCreateBuffer", e))?;
        let req = unsafe { d.get_buffer_memory_requirements(buffer) };
        let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let mut ded = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
        let mut alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index)
            .push_next(&mut flags);
        if dedicated {
            alloc = alloc.push_next(&mut ded);
        }
        let memory = unsafe { d.allocate_memory(&alloc, None) }
            .map_err(|e| vkalgo::Error::vk("vkAllocateMemory", e))?;
        unsafe { d.bind_buffer_memory(buffer, memory, 0) }
            .map_err(|e| vkalgo::Error::vk("vkBindBufferMemory", e))?;
        if touch {
            let p = unsafe { d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
                .map_err(|e| vkalgo::Error::vk("vkMapMemory", e))?;
            unsafe {
                std::ptr::write_bytes(p as *mut u8, 0x5a, size as usize);
                d.unmap_memory(memory);
            }
        }
        Ok(RawBuffer {
            ctx,
            buffer,
            memory,
            size,
        })
    }

    fn range(&self) -> BufferRange {
        BufferRange::new(self.buffer, 0, self.size)
    }
}

impl Drop for RawBuffer<'_> {
    fn drop(&mut self) {
        unsafe {
            self.ctx.device().destroy_buffer(self.buffer, None);
            self.ctx.device().free_memory(self.memory, None);
        }
    }
}

/// GB/s (read + written) of the compute copy between two ranges.
fn copy_gbs(ctx: &Context, timer: &Timer, src: &BufferRange, dst: &BufferRange) -> Result<f64> {
    timer.time_batch(3, |cmd, _| unsafe { ctx.record_compute_copy(cmd, src, dst) })?;
    let times = timer.time_batch(MAX_BATCH.min(20), |cmd, _| unsafe {
        ctx.record_compute_copy(cmd, src, dst)
    })?;
    Ok(2.0 * src.size as f64 / (median(times) * 1e-3) / 1e9)
}

const AXES: &[Axis] = &[
    axis("mib", "1024", "MiB of each buffer of a pair"),
    axis("churn", "16", "staging-sized allocations per history step"),
];

pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "memory", AXES, args);
    let bytes = o.get("mib", 1024u64) << 20;
    let churn: usize = o.get("churn", 16);
    let timer = Timer::new(ctx)?;
    let props = unsafe {
        ctx.instance()
            .get_physical_device_memory_properties(ctx.physical_device())
    };
    let types = &props.memory_types[..props.memory_type_count as usize];
    for (i, t) in types.iter().enumerate() {
        println!(
            "memory type {i}: heap {} ({} MiB) {:?}",
            t.heap_index,
            props.memory_heaps[t.heap_index as usize].size >> 20,
            t.property_flags
        );
    }
    let find = |want: vk::MemoryPropertyFlags, avoid: vk::MemoryPropertyFlags| {
        types
            .iter()
            .position(|t| t.property_flags.contains(want) && !t.property_flags.intersects(avoid))
            .map(|i| i as u32)
    };
    let dl = vk::MemoryPropertyFlags::DEVICE_LOCAL;
    let hv = vk::MemoryPropertyFlags::HOST_VISIBLE;
    let device_only = find(dl, hv)
        .or(find(dl, vk::MemoryPropertyFlags::empty()))
        .expect("a device-local type");
    let bar = find(dl | hv, vk::MemoryPropertyFlags::empty());
    let host_only = find(hv, dl);
    println!("types: device-local {device_only}, device-local+host-visible {bar:?}, host-only {host_only:?}");
    let mut rows: Vec<(String, f64)> = Vec::new();
    let mut measure = |label: &str, dedicated: bool| -> Result<()> {
        let a = RawBuffer::new(ctx, bytes, device_only, dedicated, false)?;
        let b = RawBuffer::new(ctx, bytes, device_only, dedicated, false)?;
        let gbs = copy_gbs(ctx, &timer, &a.range(), &b.range())?;
        println!("{label:<60} {gbs:8.0} GB/s");
        rows.push((label.to_string(), gbs));
        Ok(())
    };
    measure("fresh pair, dedicated", true)?;
    measure("fresh pair, not dedicated", false)?;
    let staging = 64u64 << 20;
    if let Some(h) = host_only {
        for _ in 0..churn {
            drop(RawBuffer::new(ctx, staging, h, false, true)?);
        }
        measure("after host-only staging churn, dedicated", true)?;
    }
    {
        let keep: Vec<_> = (0..churn)
            .map(|i| RawBuffer::new(ctx, (1 + i as u64 % 7) << 20, device_only, false, false))
            .collect::<Result<_>>()?;
        drop(keep);
        measure("after device-local small alloc/free churn, dedicated", true)?;
    }
    if let Some(bar) = bar {
        for _ in 0..churn {
            drop(RawBuffer::new(ctx, staging, bar, false, true)?);
        }
        measure("after device-local+host-visible staging churn, dedicated", true)?;
        measure("  same history, not dedicated", false)?;
        drop(RawBuffer::new(ctx, bytes, bar, false, true)?);
        measure("after one big device-local+host-visible buffer, dedicated", true)?;
    }
    // vkalgo's own allocator, as the library allocates today, then the benchmark's sequence:
    // upload, copy, download, upload, copy.
    let a = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "probe a")?;
    let b = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "probe b")?;
    let step = |label: &str, rows: &mut Vec<(String, f64)>| -> Result<()> {
        let gbs = copy_gbs(ctx, &timer, &a.range(), &b.range())?;
        println!("{label:<60} {gbs:8.0} GB/s");
        rows.push((label.to_string(), gbs));
        Ok(())
    };
    step("GpuBuffer pair, fresh", &mut rows)?;
    let n = (bytes / 4) as usize;
    let zeros = vec![0u32; n];
    let random = vkalgo_bench::harness::random_u32(n, 3);
    vkalgo_bench::harness::upload(ctx, &a, &zeros)?;
    step("GpuBuffer pair, after upload of zeros", &mut rows)?;
    vkalgo_bench::harness::upload(ctx, &a, &random)?;
    step("GpuBuffer pair, after upload of random data", &mut rows)?;
    step("  again", &mut rows)?;
    let _: Vec<u32> = vkalgo_bench::harness::download(ctx, &b, n)?;
    step("GpuBuffer pair, after download", &mut rows)?;
    vkalgo_bench::harness::upload(ctx, &a, &random)?;
    step("GpuBuffer pair, after download + upload", &mut rows)?;
    step("  again", &mut rows)?;
    for _ in 0..5 {
        timer.time_batch(MAX_BATCH, |cmd, _| unsafe {
            ctx.record_compute_copy(cmd, &a.range(), &b.range())
        })?;
    }
    step("  after 320 more copies", &mut rows)?;
    let c = GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, "probe c")?;
    let gbs = copy_gbs(ctx, &timer, &b.range(), &c.range())?;
    println!("{:<60} {gbs:8.0} GB/s", "new buffer c <- b");
    rows.push(("new buffer c <- b".into(), gbs));
    let gbs = copy_gbs(ctx, &timer, &c.range(), &b.range())?;
    rows.push(("b <- new buffer c".into(), gbs));
    let gbs = copy_gbs(ctx, &timer, &c.range(), &a.range())?;
    rows.push(("a <- new buffer c".into(), gbs));
    // Recovery curves: after each event, copies timed one by one in batches of 64.
    let curve = |label: &str| -> Result<()> {
        let mut text = String::new();
        for batch in 0..5 {
            let t = timer.time_batch(MAX_BATCH, |cmd, _| unsafe {
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
    };
    curve("warm")?;
    std::thread::sleep(std::time::Duration::from_millis(500));
    curve("after 500 ms idle")?;
    std::thread::sleep(std::time::Duration::from_millis(2000));
    curve("after 2 s idle")?;
    let _: Vec<u32> = vkalgo_bench::harness::download(ctx, &b, n)?;
    curve("after download (GpuToCpu staging, 16 x 64 MiB)")?;
    vkalgo_bench::harness::upload(ctx, &a, &random)?;
    curve("after upload (CpuToGpu staging)")?;
    for (label, ty) in [("host-only", host_only), ("device-local+host-visible", bar)] {
        let Some(ty) = ty else { continue };
        let staging = RawBuffer::new(ctx, 64 << 20, ty, false, false)?;
        // b in 64 MiB chunks (16 of them at the default 1024 MiB; fewer, never past its end, for
        // smaller --mib).
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
        curve(&format!("after GPU copies into {label} memory, no CPU reads"))?;
    }
    let table = report::table(
        "copy of a pair after each history",
        &["history before the pair", "copy GB/s"],
    );
    for (label, gbs) in rows {
        table.row(&[label, format!("{gbs:.0}")]);
    }
    Ok(())
}
