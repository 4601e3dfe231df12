//! Shared helpers of the integration tests: a context on whatever Vulkan device exists
//! (lavapipe in CI), with the validation layer on, and deterministic adversarial data.
#![allow(dead_code)]

use vkalgo::{Context, ContextOptions};

/// A context with Khronos validation + synchronization validation, unless
/// `VKALGO_TEST_NO_VALIDATION=1` (for machines without the layer, e.g. the GPU box).
pub fn context() -> Context {
    let _ = env_logger_init();
    let mut options = ContextOptions::from_env();
    options.validation = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    options.timeout = std::time::Duration::from_secs(300);
    Context::with_options(&options).expect("a Vulkan device (lavapipe in CI) with the validation layer")
}

/// Context with an explicit look-back policy.
pub fn context_with_lookback(lookback: bool) -> Context {
    let mut options = ContextOptions::from_env();
    options.validation = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    options.lookback = Some(lookback);
    options.timeout = std::time::Duration::from_secs(300);
    Context::with_options(&options).expect("a Vulkan device")
}

fn env_logger_init() -> Option<()> {
    None
}

/// Fails the test if the validation layer reported anything.
pub fn assert_no_validation_messages(ctx: &Context) {
    let n = ctx.validation_message_count();
    assert_eq!(n, 0, "validation messages: {:#?}", ctx.validation_messages());
    // Plans and objects create their pipelines when they are made, never while recording.
    assert_eq!(
        ctx.pipelines_created_while_recording(),
        0,
        "pipelines created while recording"
    );
}

/// A small, fast, deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    pub fn vec_u32(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.next_u32()).collect()
    }
}

use vkalgo::ash::vk;
use vkalgo::{ElementCount, GpuBuffer, MemoryLocation, ScanArgs, ScanPlan};

/// Poison written around and after outputs: anything the GPU should not touch keeps it.
pub const POISON: u32 = 0xA5A5_5A5A;

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

/// A C context (`vkalgo_context_create_external`) over `ctx`'s instance and device, for
/// record-layer calls through the C ABI on buffers made with `ctx` (no queue: host calls on it
/// are refused). Destroy it with `vkalgo_context_destroy`.
pub unsafe fn c_context_over(ctx: &Context) -> *mut vkalgo_ffi::VkalgoContext {
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let entry = vkalgo::ash::Entry::load().expect("Vulkan loader");
    let gipa = entry.static_fn().get_instance_proc_addr;
    let desc = VkalgoExternalContextDesc {
        instance: VkInstance(ctx.instance().handle().as_raw() as *mut std::ffi::c_void),
        physical_device: VkPhysicalDevice(ctx.physical_device().as_raw() as *mut std::ffi::c_void),
        device: VkDevice(ctx.device().handle().as_raw() as *mut std::ffi::c_void),
        queue_family_index: ctx.queue_family_index(),
        queue: VkQueue(std::ptr::null_mut()),
        get_instance_proc_addr: Some(std::mem::transmute::<
            vk::PFN_vkGetInstanceProcAddr,
            unsafe extern "system" fn(VkInstance, *const std::ffi::c_char) -> *const std::ffi::c_void,
        >(gipa)),
        pipeline_cache: VkPipelineCache(0),
        flags: if ctx.profile().int64_atomics {
            VKALGO_CONTEXT_INT64_ATOMICS_ENABLED
        } else {
            0
        } | if ctx.profile().int16 {
            VKALGO_CONTEXT_INT16_ENABLED
        } else {
            0
        },
        timeout_ns: 0,
        queue_lock: None, // record-layer calls only
        queue_lock_user_data: std::ptr::null_mut(),
        pipeline_cache_data: std::ptr::null(),
        pipeline_cache_data_size: 0,
        ..Default::default()
    };
    let mut cctx = std::ptr::null_mut();
    assert_eq!(
        vkalgo_context_create_external(&desc, &mut cctx),
        VkalgoResult::VkalgoSuccess
    );
    cctx
}

/// The Python that can import pyroaring (CRoaring's binding; `PYTHON`, default python3), for
/// the tests that compare with CRoaring; `None` when it cannot, which fails the caller's test
/// when `VKALGO_REQUIRE_PYROARING=1` (scripts/test.sh installs pyroaring and sets it).
pub fn python_with_pyroaring() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let have = std::process::Command::new(&python)
        .args(["-c", "import pyroaring"])
        .status()
        .is_ok_and(|s| s.success());
    if have {
        return Some(python);
    }
    assert!(
        std::env::var("VKALGO_REQUIRE_PYROARING").map_or(true, |v| v != "1"),
        "pyroaring is required (VKALGO_REQUIRE_PYROARING=1) but {python} cannot import it"
    );
    eprintln!("pyroaring not importable: the comparison with CRoaring did not run");
    None
}
