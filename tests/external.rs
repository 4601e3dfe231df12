//! The external-device path: vkalgo on a VkDevice the test creates itself (as an engine
//! would), recording into the test's own command buffer.

mod common;
use common::*;
use std::time::Duration;
use vkalgo::ash::{self, vk};
use vkalgo::scan::reference;
use vkalgo::{
    Context, ElementCount, ExternalContextDesc, GpuBuffer, MemoryLocation, ScanArgs, ScanDesc, ScanOp,
    ScanPath,
};

#[test]
fn scan_on_a_caller_created_device() {
    unsafe {
        let entry = ash::Entry::load().expect("Vulkan loader");
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let instance = entry
            .create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
            .unwrap();
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
        {
            let ctx = Context::from_external(&ExternalContextDesc {
                instance: instance.handle(),
                physical_device: pd,
                device: device.handle(),
                queue_family_index: family,
                queue,
                get_instance_proc_addr: entry.static_fn().get_instance_proc_addr,
                pipeline_cache: vk::PipelineCache::null(),
                debug_utils: false,
                lookback: None,
                timeout: Duration::from_secs(120),
                shader_buffer_int64_atomics: int64_atomics,
                compute_full_subgroups: false,
            })
            .unwrap();
            assert_eq!(ctx.profile().int64_atomics, int64_atomics);
            assert!(!ctx.profile().full_subgroups, "not declared enabled: never used");
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
                plan.memory_requirements().scratch_size,
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
            plan.record(&ctx, cmd, &args).unwrap();
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
}
