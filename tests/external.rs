//! The external-device path: vkalgo on a VkDevice the test creates itself (as an engine
//! would), recording into the test's own command buffer.

mod common;
use common::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use vkalgo::ash::{self, vk};
use vkalgo::scan::reference;
use vkalgo::{
    Context, ElementCount, ExternalContextDesc, GpuBuffer, MemoryLocation, ScanArgs, ScanDesc, ScanOp,
    ScanPath,
};

/// Validation messages the caller's messenger received (every test of this file).
static VALIDATION_MESSAGES: AtomicU64 = AtomicU64::new(0);

unsafe extern "system" fn count_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _kind: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    if severity.intersects(
        vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
    ) {
        VALIDATION_MESSAGES.fetch_add(1, Ordering::SeqCst);
        if let Some(d) = data.as_ref() {
            if !d.p_message.is_null() {
                eprintln!(
                    "validation: {}",
                    std::ffi::CStr::from_ptr(d.p_message).to_string_lossy()
                );
            }
        }
    }
    vk::FALSE
}

/// The caller's instance, with the Khronos validation layer and synchronization validation on
/// (unless VKALGO_TEST_NO_VALIDATION=1) and a messenger counting warnings and errors.
unsafe fn caller_instance(entry: &ash::Entry) -> ash::Instance {
    let validate = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
    let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
    let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
    let mut features = vk::ValidationFeaturesEXT::default().enabled_validation_features(&enables);
    let mut messenger = vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(count_message));
    let mut info = vk::InstanceCreateInfo::default().application_info(&app);
    if validate {
        // The messenger chained into instance creation reports for the instance's lifetime.
        info = info
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions)
            .push_next(&mut features)
            .push_next(&mut messenger);
    }
    entry
        .create_instance(&info, None)
        .expect("an instance (with VK_LAYER_KHRONOS_validation unless VKALGO_TEST_NO_VALIDATION=1)")
}

/// A queue lock as an engine keeps one: a flag taken before and released after each submit
/// (vkalgo's and the test's), counting how often vkalgo took it.
struct TestQueueLock {
    held: AtomicBool,
    taken: AtomicU64,
}

impl TestQueueLock {
    fn new() -> Arc<Self> {
        Arc::new(TestQueueLock {
            held: AtomicBool::new(false),
            taken: AtomicU64::new(0),
        })
    }

    fn callback(self: &Arc<Self>) -> vkalgo::QueueLock {
        let me = self.clone();
        Arc::new(move |lock: bool| {
            if lock {
                while me.held.swap(true, Ordering::Acquire) {
                    std::hint::spin_loop();
                }
                me.taken.fetch_add(1, Ordering::SeqCst);
            } else {
                assert!(me.held.swap(false, Ordering::Release), "unlock without lock");
            }
        })
    }
}

#[test]
fn scan_on_a_caller_created_device() {
    unsafe {
        let entry = ash::Entry::load().expect("Vulkan loader");
        let instance = caller_instance(&entry);
        let pd = instance.enumerate_physical_devices().unwrap()[0];
        let family = instance
            .get_physical_device_queue_family_properties(pd)
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .unwrap() as u32;
        let mut supported12 = vk::PhysicalDeviceVulkan12Features::default();
        instance.get_physical_device_features2(
            pd,
            &mut vk::PhysicalDeviceFeatures2::default().push_next(&mut supported12),
        );
        let int64_atomics = supported12.shader_buffer_int64_atomics != 0;
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let features = vk::PhysicalDeviceFeatures::default().shader_int64(true);
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default()
            .buffer_device_address(true)
            .shader_buffer_int64_atomics(int64_atomics);
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&features)
            .push_next(&mut f12);
        let device = instance.create_device(pd, &info, None).unwrap();
        let queue = device.get_device_queue(family, 0);
        let queue_lock = TestQueueLock::new();
        {
            let desc = ExternalContextDesc {
                instance: instance.handle(),
                physical_device: pd,
                device: device.handle(),
                queue_family_index: family,
                queue,
                queue_lock: None,
                get_instance_proc_addr: entry.static_fn().get_instance_proc_addr,
                pipeline_cache: vk::PipelineCache::null(),
                pipeline_cache_data: None,
                debug_utils: false,
                lookback: None,
                timeout: Duration::from_secs(120),
                shader_buffer_int64_atomics: int64_atomics,
                compute_full_subgroups: false,
                shader_int16: false,
                shader_float64: false,
            };
            // Without the caller's queue lock, host calls refuse (record-layer calls work).
            let unlocked = Context::from_external(&desc).unwrap();
            let mut out = [0u32; 3];
            let refused = unlocked.scan_u32(&[1, 2, 3], &mut out, ScanOp::Exclusive);
            assert!(
                matches!(&refused, Err(vkalgo::Error::InvalidArgument(m)) if m.contains("queue lock")),
                "{refused:?}"
            );
            assert_eq!(out, [0, 0, 0], "nothing written");
            drop(unlocked);
            let ctx = Context::from_external(&ExternalContextDesc {
                queue_lock: Some(queue_lock.callback()),
                ..desc
            })
            .unwrap();
            // Host calls take the caller's lock around their submissions.
            let mut keys = vec![5u32, 1, 4, 1, 3];
            ctx.sort(&mut keys).unwrap();
            assert_eq!(keys, [1, 1, 3, 4, 5]);
            assert!(
                queue_lock.taken.load(Ordering::SeqCst) > 0,
                "the queue lock was taken"
            );
            assert!(!queue_lock.held.load(Ordering::SeqCst), "and released");
            assert_eq!(ctx.profile().int64_atomics, int64_atomics);
            assert!(!ctx.profile().full_subgroups, "not declared enabled: never used");
            // shaderFloat64 was not enabled on this device: sums of f64 keys are refused
            // (no module with 64-bit float arithmetic is made), f64 minima still work.
            assert!(!ctx.profile().float64, "not declared enabled: never used");
            assert!(matches!(
                ctx.reduce(&[1.0f64, 2.0], vkalgo::ReduceOp::Sum),
                Err(vkalgo::Error::Unsupported(_))
            ));
            assert_eq!(ctx.reduce(&[1.0f64, -2.0], vkalgo::ReduceOp::Min).unwrap(), -2.0);
            let n = 200_001usize;
            let data = Rng(42).vec_u32(n);
            for path in [ScanPath::ReduceThenScan, ScanPath::Lookback] {
                if path == ScanPath::Lookback && !int64_atomics {
                    continue;
                }
                let plan = ctx
                    .scan_plan(&ScanDesc {
                        op: ScanOp::Inclusive,
                        path,
                        max_count: n as u64,
                        tuning: None,
                        keep_scratch_zeroed: false,
                        ..Default::default()
                    })
                    .unwrap();
                let got = record_scan(
                    &ctx,
                    &plan,
                    &data,
                    n as u64,
                    Layout {
                        input_offset: 32,
                        output_offset: 4,
                        ..Default::default()
                    },
                )
                .unwrap();
                assert!(got == reference::scan_u32(&data, ScanOp::Inclusive), "{path:?}");
            }
            // The caller's own command buffer, pool and fence.
            let pool = device
                .create_command_pool(
                    &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                    None,
                )
                .unwrap();
            let cmd = device
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(pool)
                        .command_buffer_count(1),
                )
                .unwrap()[0];
            let plan = ctx
                .scan_plan(&ScanDesc::new(ScanOp::Exclusive, n as u64))
                .unwrap();
            let mut io = GpuBuffer::new(&ctx, n as u64 * 4, MemoryLocation::CpuToGpu, "io").unwrap();
            let scratch = GpuBuffer::new(
                &ctx,
                plan.memory_requirements().scratch.size,
                MemoryLocation::GpuOnly,
                "s",
            )
            .unwrap();
            bytemuck::cast_slice_mut::<u8, u32>(io.mapped().unwrap())[..n].copy_from_slice(&data);
            device
                .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
                .unwrap();
            host_to_compute(&ctx, cmd);
            let args = ScanArgs {
                input: io.range(),
                output: io.range(),
                scratch: scratch.range(),
                count: ElementCount::Direct(n as u64),
            };
            plan.record(cmd, &args).unwrap();
            compute_to_host(&ctx, cmd);
            device.end_command_buffer(cmd).unwrap();
            let fence = device
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .unwrap();
            let cmds = [cmd];
            device
                .queue_submit(queue, &[vk::SubmitInfo::default().command_buffers(&cmds)], fence)
                .unwrap();
            device
                .wait_for_fences(&[fence], true, 120_000_000_000)
                .expect("GPU work finished in time");
            let got: Vec<u32> = bytemuck::cast_slice(io.mapped().unwrap())[..n].to_vec();
            assert!(
                got == reference::scan_u32(&data, ScanOp::Exclusive),
                "caller's command buffer, in place"
            );
            device.destroy_fence(fence, None);
            device.destroy_command_pool(pool, None);
        }
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
    assert_eq!(
        VALIDATION_MESSAGES.load(Ordering::SeqCst),
        0,
        "validation messages (printed above)"
    );
}
