//! Poisoned buffers, their readers and writers, barriers, and the record-layer scan harness.

use vkalgo::ash::vk;
use vkalgo::{Context, ElementCount, GpuBuffer, MemoryLocation, ScanArgs, ScanPlan};

/// Poison written around and after outputs: anything the GPU should not touch keeps it.
pub const POISON: u32 = 0xA5A5_5A5A;

/// A host-visible buffer of `words` words, all [`POISON`] but `data` at word `at`.
pub fn poisoned(ctx: &Context, words: usize, at: usize, data: &[u32]) -> GpuBuffer {
    let mut buf = GpuBuffer::new(ctx, words as u64 * 4, MemoryLocation::CpuToGpu, "test").unwrap();
    let w: &mut [u32] = bytemuck::cast_slice_mut(buf.mapped().unwrap());
    w.fill(POISON);
    w[at..at + data.len()].copy_from_slice(data);
    buf
}

/// The buffer's words (its size; the mapping may be longer, the allocation is rounded up).
pub fn read(b: &mut GpuBuffer) -> Vec<u32> {
    let size = b.size() as usize;
    bytemuck::cast_slice(&b.mapped().expect("mapped")[..size]).to_vec()
}

/// Every word of the buffer's mapping.
pub fn words(buf: &mut GpuBuffer) -> Vec<u32> {
    bytemuck::cast_slice(buf.mapped().unwrap()).to_vec()
}

/// The buffer's first `n` words.
pub fn read_words(buf: &mut GpuBuffer, n: usize) -> Vec<u32> {
    buf.mapped().unwrap()[..4 * n]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Where the record-layer harness puts the data.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    /// Byte offset of the input range in its buffer.
    pub input_offset: u64,
    /// Byte offset of the output range in its buffer (ignored in place).
    pub output_offset: u64,
    /// Scan in place (output range = input range).
    pub in_place: bool,
    /// Pass the count through a GPU buffer.
    pub indirect: bool,
}

/// Runs `plan` through the record layer on `input` (the plan's max_count elements are
/// allocated; `count` are scanned) and returns the whole output range (max_count elements),
/// poisoned beforehand so unwritten elements show.
pub fn record_scan(
    ctx: &Context,
    plan: &ScanPlan,
    input: &[u32],
    count: u64,
    layout: Layout,
) -> vkalgo::Result<Vec<u32>> {
    record_scan_counted(ctx, plan, input, count, layout).map(|(output, _)| output)
}

/// [`record_scan`], also returning the look-back fallbacks the scan counted in its scratch
/// (meaningful on the look-back path).
pub fn record_scan_counted(
    ctx: &Context,
    plan: &ScanPlan,
    input: &[u32],
    count: u64,
    layout: Layout,
) -> vkalgo::Result<(Vec<u32>, u32)> {
    let max = plan.desc().max_count.max(input.len() as u64);
    let bytes = max * 4;
    let data_buf = GpuBuffer::new(
        ctx,
        layout.input_offset + bytes,
        MemoryLocation::CpuToGpu,
        "test input",
    )?;
    let out_buf = GpuBuffer::new(
        ctx,
        layout.output_offset + bytes,
        MemoryLocation::CpuToGpu,
        "test output",
    )?;
    let mut scratch = GpuBuffer::new(
        ctx,
        64 + plan.memory_requirements().scratch.size,
        MemoryLocation::GpuToCpu,
        "test scratch",
    )?;
    let mut count_buf = GpuBuffer::new(ctx, 16, MemoryLocation::CpuToGpu, "test count")?;
    let mut data_buf = data_buf;
    let mut out_buf = out_buf;
    {
        let m = data_buf.mapped().unwrap();
        let words: &mut [u32] = bytemuck::cast_slice_mut(m);
        words.fill(POISON);
        let start = (layout.input_offset / 4) as usize;
        words[start..start + input.len()].copy_from_slice(input);
        let m = out_buf.mapped().unwrap();
        bytemuck::cast_slice_mut::<u8, u32>(m).fill(POISON);
        let c = count_buf.mapped().unwrap();
        c[..4].copy_from_slice(&(count as u32).to_le_bytes());
    }
    let input_range = data_buf.sub_range(layout.input_offset, bytes);
    let output_range = if layout.in_place {
        input_range
    } else {
        out_buf.sub_range(layout.output_offset, bytes)
    };
    let args = ScanArgs {
        input: input_range,
        output: output_range,
        scratch: scratch.sub_range(16, plan.memory_requirements().scratch.size),
        count: if layout.indirect {
            ElementCount::Indirect(count_buf.sub_range(0, 4))
        } else {
            ElementCount::Direct(count)
        },
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })?;
    let (buf, offset) = if layout.in_place {
        (&mut data_buf, layout.input_offset)
    } else {
        (&mut out_buf, layout.output_offset)
    };
    let words: &[u32] = bytemuck::cast_slice(buf.mapped().unwrap());
    let start = (offset / 4) as usize;
    // Nothing before the range may change.
    assert!(
        words[..start].iter().all(|&w| w == POISON),
        "bytes before the output range were written"
    );
    let output = words[start..start + max as usize].to_vec();
    let at = (16 + vkalgo::scan::LOOKBACK_FALLBACKS_OFFSET) as usize;
    let fallbacks = u32::from_le_bytes(scratch.mapped().unwrap()[at..at + 4].try_into().unwrap());
    Ok((output, fallbacks))
}

/// Barrier: host writes visible to compute shaders.
pub unsafe fn host_to_compute(ctx: &Context, cmd: vk::CommandBuffer) {
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::HOST,
        vk::AccessFlags::HOST_WRITE,
        vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
    );
}

/// Barrier: one recorded call's compute and transfer writes (and reads) before the next call's.
pub unsafe fn compute_to_compute(ctx: &Context, cmd: vk::CommandBuffer) {
    let stages = vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
    let access =
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE;
    ctx.memory_barrier(cmd, stages, access, stages, access);
}

/// Barrier: compute shader writes visible to the host.
pub unsafe fn compute_to_host(ctx: &Context, cmd: vk::CommandBuffer) {
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::AccessFlags::SHADER_WRITE,
        vk::PipelineStageFlags::HOST,
        vk::AccessFlags::HOST_READ,
    );
}
