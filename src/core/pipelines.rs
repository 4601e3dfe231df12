//! Compute pipelines: one layout (push constants only, no descriptor sets) shared by every
//! pass, and pipelines created once per context for each (shader, specialization) pair.

use super::buffer::BufferRange;
use super::shaders::ShaderSource;
use super::tuning::{tile_tickets, DeviceClass};
use crate::error::{Error, Result, VkResultExt};
use crate::Context;
use ash::vk;
use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};

/// Bytes of push constants every pipeline layout declares (the Vulkan minimum guarantee).
pub(crate) const PUSH_CONSTANT_BYTES: u32 = 128;

/// The specialization constants of one pipeline by id, as glsl/common/vkalgo.glsl declares
/// them. Each algorithm fills them from its own struct (a `From` impl in its module), whose
/// fields say what its kernels read; ids 3 and 4 always carry the device's minimum and maximum
/// subgroup size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Specialization {
    /// Invocations per workgroup (constant_id 0, local_size_x_id).
    pub workgroup_size: u32,
    /// constant_id 1 (VECS_PER_THREAD in vkalgo.glsl).
    pub id1: u32,
    /// constant_id 2 (SPIN_LIMIT in vkalgo.glsl).
    pub id2: u32,
    /// constant_id 5 (declared by the algorithm's own GLSL; 1 where it is not).
    pub id5: u32,
    /// constant_id 6 (declared by the algorithm's own GLSL; 0 where it is not).
    pub id6: u32,
    /// constant_id 8 (SELF_CLEANING in glsl/common/last_workgroup.glsl: 1 for a look-back
    /// kernel that clears its kept-zeroed state itself; 0 elsewhere).
    pub id8: u32,
}

/// A pipeline ready to dispatch, with the layout its push constants go through.
#[derive(Clone, Copy)]
pub(crate) struct Kernel {
    pub pipeline: vk::Pipeline,
    pub layout: vk::PipelineLayout,
    /// The shader's name (algorithm and pass, e.g. `sort_onesweep_k32_v1`): the debug label.
    pub name: &'static str,
}

pub(crate) struct Pipelines {
    layout: vk::PipelineLayout,
    cache: vk::PipelineCache,
    /// vkalgo created `cache` (and destroys it).
    own_cache: bool,
    /// Why saved cache data was not used (None: used, or none given).
    cache_note: Option<String>,
    full_subgroups: bool,
    created: RwLock<HashMap<(&'static str, Specialization), vk::Pipeline>>,
    /// Pipelines that had to be created while a pass was recorded (plans and objects create
    /// theirs up front, so this stays 0; the tests check it).
    created_while_recording: AtomicU64,
    /// Debug labels recorded around dispatches (diagnostics for the tests).
    pub(crate) labels_recorded: AtomicU64,
    /// The benchmark's pipeline statistics (src/bench.rs).
    #[cfg(feature = "bench")]
    pub(crate) statistics: crate::bench::PipelineStatistics,
    /// Diagnostics: VK_KHR_shader_clock is enabled (kernels may use clock-instrumented
    /// permutations; only src/bench.rs sets it).
    pub(crate) shader_clock: bool,
    /// Benchmarks: while set, a timestamp after every dispatch (Context::begin_dispatch_marks).
    dispatch_marks: Mutex<Option<DispatchMarks>>,
}

/// Timestamps written after dispatches (Context::begin_dispatch_marks).
struct DispatchMarks {
    pool: vk::QueryPool,
    next: u32,
    end: u32,
    names: Vec<&'static str>,
}

impl Pipelines {
    pub(crate) unsafe fn new(
        device: &ash::Device,
        cache: vk::PipelineCache,
        own_cache: bool,
        cache_note: Option<String>,
        full_subgroups: bool,
    ) -> Result<Self> {
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(PUSH_CONSTANT_BYTES)];
        let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
        let layout = match device.create_pipeline_layout(&info, None) {
            Ok(layout) => layout,
            Err(e) => {
                if own_cache {
                    device.destroy_pipeline_cache(cache, None);
                }
                return Err(Error::vk("vkCreatePipelineLayout", e));
            }
        };
        Ok(Pipelines {
            layout,
            cache,
            own_cache,
            cache_note,
            full_subgroups,
            created: RwLock::new(HashMap::new()),
            created_while_recording: AtomicU64::new(0),
            labels_recorded: AtomicU64::new(0),
            dispatch_marks: Mutex::new(None),
            #[cfg(feature = "bench")]
            statistics: Default::default(),
            shader_clock: false,
        })
    }

    pub(crate) unsafe fn destroy(&self, device: &ash::Device) {
        if let Ok(mut created) = self.created.write() {
            for (_, p) in created.drain() {
                device.destroy_pipeline(p, None);
            }
        }
        device.destroy_pipeline_layout(self.layout, None);
        if self.own_cache {
            device.destroy_pipeline_cache(self.cache, None);
        }
    }
}

/// Creates vkalgo's own pipeline cache, from `data` when it was made by this device and
/// driver (the header's vendor, device and pipelineCacheUUID match; else it is ignored and
/// the note says why). Returns the cache, `true` (owned) and the note.
pub(crate) unsafe fn create_own_cache(
    device: &ash::Device,
    properties: &vk::PhysicalDeviceProperties,
    data: Option<&[u8]>,
) -> Result<(vk::PipelineCache, bool, Option<String>)> {
    let mut note = None;
    let usable = data.filter(|d| match cache_header_mismatch(d, properties) {
        None => true,
        Some(why) => {
            note = Some(format!("pipeline cache data ignored: {why}"));
            false
        }
    });
    if let Some(d) = usable {
        let info = vk::PipelineCacheCreateInfo::default().initial_data(d);
        match device.create_pipeline_cache(&info, None) {
            Ok(cache) => return Ok((cache, true, None)),
            Err(e) => {
                note = Some(format!(
                    "pipeline cache data ignored: the driver refused it ({e})"
                ))
            }
        }
    }
    let cache = device
        .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
        .during("vkCreatePipelineCache")?;
    Ok((cache, true, note))
}

/// Why cache data does not belong to this device and driver (None: it does). The header is
/// Vulkan's VkPipelineCacheHeaderVersionOne: u32 length (32), u32 version (1), u32 vendorID,
/// u32 deviceID, u8 pipelineCacheUUID[16].
fn cache_header_mismatch(data: &[u8], properties: &vk::PhysicalDeviceProperties) -> Option<String> {
    if data.len() < 32 {
        return Some(format!("{} bytes, shorter than a cache header", data.len()));
    }
    let word =
        |i: usize| u32::from_le_bytes([data[4 * i], data[4 * i + 1], data[4 * i + 2], data[4 * i + 3]]);
    if word(0) < 32 || word(1) != vk::PipelineCacheHeaderVersion::ONE.as_raw() as u32 {
        return Some("not a Vulkan pipeline cache (bad header)".into());
    }
    if word(2) != properties.vendor_id || word(3) != properties.device_id {
        return Some(format!(
            "made for device {:04x}:{:04x}, this is {:04x}:{:04x}",
            word(2),
            word(3),
            properties.vendor_id,
            properties.device_id
        ));
    }
    if data[16..32] != properties.pipeline_cache_uuid {
        return Some("made by another driver version (pipelineCacheUUID differs)".into());
    }
    None
}

impl Context {
    /// The pipeline for `shader` with `spec`, for recording. Plans and objects create their
    /// pipelines when they are made ([`Context::prepare_kernels`]), so this is a lookup under
    /// a shared lock; a pipeline missing here is created (and counted, see
    /// [`Context::pipelines_created_while_recording`]).
    pub(crate) fn kernel(&self, shader: &ShaderSource, spec: impl Into<Specialization>) -> Result<Kernel> {
        let spec = spec.into();
        let pipelines = &self.pipelines;
        {
            let created = pipelines
                .created
                .read()
                .map_err(|_| Error::Internal("pipeline map poisoned".into()))?;
            if let Some(&pipeline) = created.get(&(shader.name, spec)) {
                return Ok(Kernel {
                    pipeline,
                    layout: pipelines.layout,
                    name: shader.name,
                });
            }
        }
        pipelines.created_while_recording.fetch_add(1, Ordering::Relaxed);
        log::warn!("vkalgo: pipeline {} created while recording", shader.name);
        self.prepare_kernels(&[(shader, spec)])?;
        self.kernel(shader, spec)
    }

    /// Creates the pipelines of `list` that do not exist yet (when a plan or object is made,
    /// or by [`Context::warm_up`]), through the context's pipeline cache.
    pub(crate) fn prepare_kernels<S>(&self, list: &[(&ShaderSource, S)]) -> Result<()>
    where
        S: Into<Specialization> + Copy,
    {
        let pipelines = &self.pipelines;
        let mut created = pipelines
            .created
            .write()
            .map_err(|_| Error::Internal("pipeline map poisoned".into()))?;
        for &(shader, spec) in list {
            let spec = spec.into();
            if let std::collections::hash_map::Entry::Vacant(slot) = created.entry((shader.name, spec)) {
                slot.insert(unsafe { self.create_pipeline(shader, spec)? });
            }
        }
        Ok(())
    }

    /// How many pipelines had to be created while a pass was being recorded (0 unless a plan
    /// failed to create one of its pipelines up front: a defect the tests check for).
    pub fn pipelines_created_while_recording(&self) -> u64 {
        self.pipelines.created_while_recording.load(Ordering::Relaxed)
    }

    /// The data of the context's pipeline cache (to save, and pass back as
    /// [`crate::ContextOptions::pipeline_cache_data`] or [`crate::ExternalContextDesc::pipeline_cache_data`]
    /// next time, so pipelines are created from the cache instead of compiled).
    pub fn pipeline_cache_data(&self) -> Result<Vec<u8>> {
        unsafe { self.device.get_pipeline_cache_data(self.pipelines.cache) }.during("vkGetPipelineCacheData")
    }

    /// Why the saved pipeline cache data given at creation was not used (another device or
    /// driver, or not a cache at all); `None` when it was used or none was given.
    pub fn pipeline_cache_note(&self) -> Option<&str> {
        self.pipelines.cache_note.as_deref()
    }

    unsafe fn create_pipeline(&self, shader: &ShaderSource, spec: Specialization) -> Result<vk::Pipeline> {
        let code = shader.spirv()?;
        let module_info = vk::ShaderModuleCreateInfo::default().code(&code);
        let module = self
            .device
            .create_shader_module(&module_info, None)
            .during("vkCreateShaderModule")?;
        // Ids 3 and 4 (the device's subgroup size range) and 7 (look-back tiles by ticket) are
        // the same for every pipeline; id 8 follows id 7.
        let values = [
            spec.workgroup_size,
            spec.id1,
            spec.id2,
            self.profile.min_subgroup_size.max(1),
            self.profile.max_subgroup_size.max(1),
            spec.id5,
            spec.id6,
            tile_tickets(DeviceClass::of(&self.profile)) as u32,
            spec.id8,
        ];
        let entries: Vec<vk::SpecializationMapEntry> = (0..values.len() as u32)
            .map(|i| vk::SpecializationMapEntry {
                constant_id: i,
                offset: i * 4,
                size: 4,
            })
            .collect();
        let spec_info = vk::SpecializationInfo::default()
            .map_entries(&entries)
            .data(bytemuck::cast_slice(&values));
        let mut flags = vk::PipelineShaderStageCreateFlags::empty();
        if self.pipelines.full_subgroups {
            flags |= vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS;
        }
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .flags(flags)
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main")
            .specialization_info(&spec_info);
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(self.pipelines.layout);
        #[cfg(feature = "bench")]
        let info = info.flags(self.pipelines.statistics.create_flags());
        let info = [info];
        let result = self
            .device
            .create_compute_pipelines(self.pipelines.cache, &info, None);
        self.device.destroy_shader_module(module, None);
        let pipeline = result.map_err(|(_, e)| Error::vk("vkCreateComputePipelines", e))?[0];
        #[cfg(feature = "bench")]
        self.pipelines
            .statistics
            .collect(pipeline, shader.name, spec.workgroup_size, spec.id1);
        if let Some(debug) = &self.debug_utils {
            let name = format!("vkalgo:{} wg{} v{}\0", shader.name, spec.workgroup_size, spec.id1);
            let name = std::ffi::CStr::from_bytes_with_nul(name.as_bytes()).unwrap_or(c"vkalgo");
            let info = vk::DebugUtilsObjectNameInfoEXT::default()
                .object_handle(pipeline)
                .object_name(name);
            let _ = debug.set_debug_utils_object_name(&info);
        }
        Ok(pipeline)
    }

    /// The most workgroups in x of a dispatch vkalgo records (the device's limit, at most
    /// 65535): larger ones go in rows ([`Context::dispatch`]), as GPU-written sizes must too.
    pub(crate) fn max_dispatch_x(&self) -> u32 {
        self.profile.max_workgroup_count[0].clamp(1, 65535)
    }

    /// Records a dispatch of `groups` workgroups (split over y when beyond the x limit) with
    /// `push` as push constants.
    pub(crate) unsafe fn dispatch<P: bytemuck::Pod>(
        &self,
        cmd: vk::CommandBuffer,
        kernel: Kernel,
        push: &P,
        groups: u32,
    ) {
        self.dispatch_layers(cmd, kernel, push, groups, 1);
    }

    /// Records a dispatch of `layers` layers (z, at most the device's limit) of `groups`
    /// workgroups each, as [`Context::dispatch`] lays one out: a batch's jobs, one a layer.
    pub(crate) unsafe fn dispatch_layers<P: bytemuck::Pod>(
        &self,
        cmd: vk::CommandBuffer,
        kernel: Kernel,
        push: &P,
        groups: u32,
        layers: u32,
    ) {
        debug_assert!(layers <= self.profile.max_workgroup_count[2]);
        if groups == 0 || layers == 0 {
            return;
        }
        let max_x = self.max_dispatch_x();
        // Beyond the x limit: as few rows as needed, split evenly (x * y >= groups, the
        // excess under one row; kernels skip linear ids past their work).
        let (x, y) = if groups <= max_x {
            (groups, 1)
        } else {
            let y = groups.div_ceil(max_x);
            (groups.div_ceil(y), y)
        };
        self.record_dispatch(cmd, kernel, push, |d| d.cmd_dispatch(cmd, x, y, layers));
    }

    /// Records a dispatch whose workgroup counts the GPU reads from the
    /// `VkDispatchIndirectCommand` at `args` (a buffer with `INDIRECT_BUFFER` usage), written
    /// by an earlier pass behind [`Context::compute_to_indirect`]; x at most 65535, y and z 1.
    pub(crate) unsafe fn dispatch_indirect<P: bytemuck::Pod>(
        &self,
        cmd: vk::CommandBuffer,
        kernel: Kernel,
        push: &P,
        args: BufferRange,
    ) {
        self.record_dispatch(cmd, kernel, push, |d| {
            d.cmd_dispatch_indirect(cmd, args.buffer, args.offset)
        });
    }

    /// Binds `kernel`, pushes `push`, records `dispatch` and, where asked for, its debug label
    /// and timestamp.
    unsafe fn record_dispatch<P: bytemuck::Pod>(
        &self,
        cmd: vk::CommandBuffer,
        kernel: Kernel,
        push: &P,
        dispatch: impl FnOnce(&ash::Device),
    ) {
        debug_assert!(std::mem::size_of::<P>() <= PUSH_CONSTANT_BYTES as usize);
        let d = &self.device;
        // A VK_EXT_debug_utils label around every dispatch, naming the algorithm and pass
        // ("vkalgo scan_lookback_vec4"), for RenderDoc, Nsight and the validation layer.
        if let Some(debug) = &self.debug_utils {
            let mut text = [0u8; 96];
            let label = format!("vkalgo {}", kernel.name);
            let n = label.len().min(text.len() - 1);
            text[..n].copy_from_slice(&label.as_bytes()[..n]);
            let name = CStr::from_bytes_until_nul(&text).unwrap_or(c"vkalgo");
            let info = vk::DebugUtilsLabelEXT::default()
                .label_name(name)
                .color([0.2, 0.6, 0.9, 1.0]);
            debug.cmd_begin_debug_utils_label(cmd, &info);
            self.pipelines.labels_recorded.fetch_add(1, Ordering::Relaxed);
        }
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, kernel.pipeline);
        d.cmd_push_constants(
            cmd,
            kernel.layout,
            vk::ShaderStageFlags::COMPUTE,
            0,
            bytemuck::bytes_of(push),
        );
        dispatch(d);
        if let Some(marks) = self
            .pipelines
            .dispatch_marks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            if marks.next < marks.end {
                d.cmd_write_timestamp(
                    cmd,
                    vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                    marks.pool,
                    marks.next,
                );
                marks.next += 1;
                marks.names.push(kernel.name);
            }
        }
        if let Some(debug) = &self.debug_utils {
            debug.cmd_end_debug_utils_label(cmd);
        }
    }

    /// Benchmarks: from now until [`Context::end_dispatch_marks`], every dispatch vkalgo
    /// records (on any thread) is followed by a timestamp into `pool` (a timestamp pool of
    /// this device), at queries `first`, `first + 1`, ... below `end` (later dispatches are
    /// not marked). The differences between consecutive marks are the passes' GPU times.
    ///
    /// # Safety
    /// `pool` must be a live timestamp query pool of this device whose queries `first..end`
    /// the caller has reset, and every command buffer recorded meanwhile must be able to
    /// write timestamps.
    #[doc(hidden)]
    pub unsafe fn begin_dispatch_marks(&self, pool: vk::QueryPool, first: u32, end: u32) {
        *self
            .pipelines
            .dispatch_marks
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(DispatchMarks {
            pool,
            next: first,
            end,
            names: Vec::new(),
        });
    }

    /// Ends [`Context::begin_dispatch_marks`]: the marked dispatches' shader names, in order.
    #[doc(hidden)]
    pub fn end_dispatch_marks(&self) -> Vec<&'static str> {
        self.pipelines
            .dispatch_marks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .map_or_else(Vec::new, |m| m.names)
    }

    /// Debug labels recorded around dispatches so far (0 without VK_EXT_debug_utils).
    #[doc(hidden)]
    pub fn debug_labels_recorded(&self) -> u64 {
        self.pipelines.labels_recorded.load(Ordering::Relaxed)
    }
}
