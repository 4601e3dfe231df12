//! The vkalgo context: a Vulkan device (vkalgo's own, or the caller's), its profile, memory
//! allocator and pipelines.

use super::device_select::{select_device, DeviceSelector};
use super::features::{create_logical_device, LogicalDevice};
use super::instance::VkalgoInstance;
use super::pipelines::Pipelines;
use super::profile::{self, query_capabilities, DeviceProfile, DeviceType};
use super::recycle::{Kept, Recycler};
use super::runner::HostRunner;
use super::validation::{messenger_callback, ValidationState};
use crate::error::{Error, Result};
use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Options of the default context. [`ContextOptions::from_env`] reads the `VKALGO_*`
/// environment variables; [`Default`] does too.
#[derive(Debug, Clone)]
pub struct ContextOptions {
    /// Which device to use (`VKALGO_DEVICE`: index or name substring).
    pub device: DeviceSelector,
    /// Enable the Khronos validation layer with synchronization validation
    /// (`VKALGO_VALIDATION=1`). Fails if the layer is not installed.
    pub validation: bool,
    /// Force single-pass look-back algorithms on or off (`None`: the device profile decides).
    /// `VKALGO_LOOKBACK=on|off` overrides this.
    pub lookback: Option<bool>,
    /// Longest blocking wait of the host convenience calls (`VKALGO_TIMEOUT_MS`).
    pub timeout: Duration,
    /// Pipeline cache data saved from an earlier run ([`Context::pipeline_cache_data`]). Data
    /// made by another device or driver is ignored ([`Context::pipeline_cache_note`] says so).
    pub pipeline_cache_data: Option<Vec<u8>>,
}

impl ContextOptions {
    /// Options from the environment: `VKALGO_DEVICE`, `VKALGO_VALIDATION`, `VKALGO_TIMEOUT_MS`.
    pub fn from_env() -> Self {
        let env = |k: &str| std::env::var(k).ok();
        ContextOptions {
            device: env("VKALGO_DEVICE")
                .map(|s| DeviceSelector::parse(&s))
                .unwrap_or(DeviceSelector::Best),
            validation: env("VKALGO_VALIDATION").is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("on")),
            lookback: None,
            timeout: env("VKALGO_TIMEOUT_MS")
                .and_then(|v| v.parse().ok())
                .map(Duration::from_millis)
                .unwrap_or(Duration::from_secs(120)),
            pipeline_cache_data: None,
        }
    }
}

impl Default for ContextOptions {
    fn default() -> Self {
        Self::from_env()
    }
}

/// What [`Context::memory_usage`] reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryUsage {
    /// Bytes in live allocations (objects' storage, host-call staging).
    pub allocated_bytes: u64,
    /// Bytes of Vulkan memory vkalgo holds (its memory blocks, allocated or not).
    pub reserved_bytes: u64,
}

/// Locks (`true`) or unlocks (`false`) the caller's queue: vkalgo calls it around each
/// `vkQueueSubmit` of a host call on an external context, since Vulkan requires the
/// application to synchronize access to a queue.
pub type QueueLock = Arc<dyn Fn(bool) + Send + Sync>;

/// The caller's Vulkan objects for [`Context::from_external`]. vkalgo never destroys them.
///
/// The device must have been created with Vulkan 1.2+, `bufferDeviceAddress` and `shaderInt64`
/// enabled. Vulkan cannot report which optional features a device was created with, so the
/// caller says it: vkalgo uses `shaderBufferInt64Atomics` (look-back scan, Onesweep, 64-bit
/// hash maps) and `computeFullSubgroups` only when declared enabled here (and supported).
#[derive(Clone)]
pub struct ExternalContextDesc {
    /// The caller's instance.
    pub instance: vk::Instance,
    /// The physical device `device` was created from.
    pub physical_device: vk::PhysicalDevice,
    /// The caller's device.
    pub device: vk::Device,
    /// A queue family of `device` with compute support (used by the host convenience calls).
    pub queue_family_index: u32,
    /// A queue of that family for host convenience calls (null: the context makes no host
    /// calls). vkalgo submits to it only while holding `queue_lock`.
    pub queue: vk::Queue,
    /// The caller's lock for `queue` (the same one its own submissions take). Host calls on an
    /// external context need both `queue` and `queue_lock`; without them they fail with
    /// [`Error::InvalidArgument`] and record-layer calls still work.
    pub queue_lock: Option<QueueLock>,
    /// The loader entry point the caller used (no second loader is opened).
    pub get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    /// The caller's pipeline cache to create vkalgo's pipelines with (null: vkalgo creates its
    /// own, from `pipeline_cache_data` when given). Either way
    /// [`Context::pipeline_cache_data`] returns the cache's data.
    pub pipeline_cache: vk::PipelineCache,
    /// Saved cache data for vkalgo's own cache (used only when `pipeline_cache` is null; data
    /// from another device or driver is ignored, see [`Context::pipeline_cache_note`]).
    pub pipeline_cache_data: Option<Vec<u8>>,
    /// Whether the caller enabled VK_EXT_debug_utils on the instance (vkalgo then names its
    /// pipelines).
    pub debug_utils: bool,
    /// Force look-back on or off (`None`: device profile).
    pub lookback: Option<bool>,
    /// Longest blocking wait of host convenience calls.
    pub timeout: Duration,
    /// The caller enabled `shaderBufferInt64Atomics` on `device`.
    pub shader_buffer_int64_atomics: bool,
    /// The caller enabled `subgroupSizeControl` and `computeFullSubgroups` (Vulkan 1.3 or
    /// VK_EXT_subgroup_size_control) on `device`.
    pub compute_full_subgroups: bool,
    /// The caller enabled `shaderInt16` on `device` (the sets' small array pairs then keep
    /// their lists as 16-bit values, which speeds up sparse set operations).
    pub shader_int16: bool,
    /// The caller enabled `shaderFloat64` on `device` (sums of f64 keys and GLSL bucket
    /// functions of f64 keys need it; without it they are refused as unsupported).
    pub shader_float64: bool,
}

struct Messenger {
    loader: ash::ext::debug_utils::Instance,
    handle: vk::DebugUtilsMessengerEXT,
}

/// A Vulkan device ready for vkalgo: profile, allocator and pipelines. Create it once and reuse
/// it.
///
/// A `Context` is a shared handle: cloning it is cheap (a reference count), every clone refers
/// to the same device, and every object created from it (hash maps, plans, buffers) holds a
/// clone, so the device and its pipelines live until the last of them is dropped, whatever the
/// order. Its state ([`ContextState`]) is reached through `Deref`.
///
/// # Threads
/// `Context` is `Send + Sync`. Every method may be called from several threads at once: the
/// allocator, the pipeline caches and the host runner are behind locks, and host calls on one
/// context are serialized on its queue (see [`Context::from_external`] for the caller's queue).
#[derive(Clone)]
pub struct Context(Arc<ContextState>);

impl std::ops::Deref for Context {
    type Target = ContextState;
    fn deref(&self) -> &ContextState {
        &self.0
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("device", &self.profile.device_name)
            .field("handles", &self.handle_count())
            .finish()
    }
}

impl Context {
    /// Whether two handles refer to the same context.
    pub fn same_as(&self, other: &Context) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Number of handles (this one included, and objects holding one) keeping the context alive.
    pub fn handle_count(&self) -> usize {
        Arc::strong_count(&self.0)
    }
}

/// The state behind a [`Context`] (its device, profile, allocator and pipelines), shared by
/// every clone. Reached through the context's `Deref`; it cannot be created on its own.
pub struct ContextState {
    // Field order matters for Drop: see `impl Drop`.
    pub(crate) pipelines: Pipelines,
    pub(crate) runner: Mutex<Option<HostRunner>>,
    pub(crate) allocator: Mutex<Option<Allocator>>,
    /// Freed host-call buffers kept for reuse (src/core/recycle.rs); freed before the allocator.
    pub(crate) recycler: Mutex<Recycler>,
    pub(crate) profile: DeviceProfile,
    pub(crate) device: ash::Device,
    pub(crate) instance: ash::Instance,
    pub(crate) physical_device: vk::PhysicalDevice,
    pub(crate) queue: vk::Queue,
    pub(crate) queue_family_index: u32,
    pub(crate) timeout: Duration,
    pub(crate) debug_utils: Option<ash::ext::debug_utils::Device>,
    /// The caller's queue lock (external contexts).
    pub(crate) queue_lock: Option<QueueLock>,
    /// Set when a host call timed out: the GPU may still use what vkalgo allocated, so nothing
    /// is freed any more and later host calls fail.
    pub(crate) lost: std::sync::atomic::AtomicBool,
    messenger: Option<Messenger>,
    validation: Option<Box<ValidationState>>,
    owns_device: bool,
    /// A validation context's own instance, destroyed with it (the others share one that
    /// stays: [`VkalgoInstance`]).
    owns_instance: bool,
    _entry: Option<ash::Entry>,
}

/// Compile-time proof that contexts move and share between threads without an `unsafe impl`.
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Context>();
    send_sync::<ContextState>();
};

impl Context {
    /// Creates vkalgo's own device with options from the environment ([`Context::with_options`]).
    pub fn new() -> Result<Self> {
        Self::with_options(&ContextOptions::from_env())
    }

    /// Creates vkalgo's own device (the Vulkan loader is found at run time). Without
    /// validation it goes on the instance that every such context of the process shares, made
    /// by the first and never destroyed (NVIDIA's driver refuses new instances after a few dozen
    /// made and destroyed in a process); with validation on an instance of its own, whose
    /// messages it alone receives.
    pub fn with_options(options: &ContextOptions) -> Result<Self> {
        let ctx = unsafe { ContextState::create_default(options) }.map(|s| Context(Arc::new(s)))?;
        ctx.prepare_core_kernels()?;
        Ok(ctx)
    }

    /// Creates the pipelines of the context's own record calls (the compute copy, fill and
    /// scatter).
    fn prepare_core_kernels(&self) -> Result<()> {
        let spec = super::copy::COPY_SPEC;
        self.prepare_kernels(&[
            (&super::shaders::COPY_U32X4, spec),
            (&super::shaders::FILL_U32, spec),
            (&super::shaders::SCATTER_U32, spec),
        ])
    }

    /// Wraps the caller's instance and device. No loader is opened: every function is fetched
    /// through `desc.get_instance_proc_addr`. The caller keeps ownership of its objects and must
    /// keep them alive until the last handle of the context (and of every object created from
    /// it) is dropped.
    ///
    /// # Safety
    /// The handles must be valid, `device` must come from `physical_device` of `instance`, and
    /// the device must have the features listed on [`ExternalContextDesc`] enabled.
    pub unsafe fn from_external(desc: &ExternalContextDesc) -> Result<Self> {
        let ctx = ContextState::from_external(desc).map(|s| Context(Arc::new(s)))?;
        ctx.prepare_core_kernels()?;
        Ok(ctx)
    }
}

impl ContextState {
    unsafe fn create_default(options: &ContextOptions) -> Result<Self> {
        let validation_state = options.validation.then(|| Box::new(ValidationState::default()));
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                    | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR
                    | vk::DebugUtilsMessageSeverityFlagsEXT::INFO,
            )
            .message_type(
                vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                    | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
            )
            .pfn_user_callback(Some(messenger_callback));
        if let Some(state) = &validation_state {
            messenger_info = messenger_info.user_data(&**state as *const ValidationState as *mut _);
        }
        let owns_instance = options.validation;
        let VkalgoInstance {
            entry,
            instance,
            debug_utils: debug_utils_available,
        } = if owns_instance {
            VkalgoInstance::create(true, Some(&mut messenger_info))?
        } else {
            VkalgoInstance::shared()?
        };
        let result = Self::create_default_device(
            &entry,
            &instance,
            options,
            debug_utils_available,
            validation_state,
            &messenger_info,
        );
        if result.is_err() && owns_instance {
            instance.destroy_instance(None);
        }
        result.map(|mut ctx| {
            ctx._entry = Some(entry);
            ctx.owns_instance = owns_instance;
            ctx
        })
    }

    unsafe fn create_default_device(
        entry: &ash::Entry,
        instance: &ash::Instance,
        options: &ContextOptions,
        debug_utils_available: bool,
        validation_state: Option<Box<ValidationState>>,
        messenger_info: &vk::DebugUtilsMessengerCreateInfoEXT<'_>,
    ) -> Result<Self> {
        let (pd, cap) = select_device(instance, &options.device)?;
        let queue_family_index = cap.queue_family.unwrap();
        let mut profile = cap.profile.clone();
        profile.lookback = resolve_lookback(&profile, options.lookback)?;
        profile.int16 &= profile::int16_allowed_by_env()?;

        let LogicalDevice {
            device,
            queue,
            #[cfg(feature = "bench")]
            diagnostics,
        } = create_logical_device(instance, pd, &cap, &profile, queue_family_index)?;

        let messenger = match &validation_state {
            Some(state) => {
                let loader = ash::ext::debug_utils::Instance::new(entry, instance);
                let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
                    .message_severity(messenger_info.message_severity)
                    .message_type(messenger_info.message_type)
                    .pfn_user_callback(messenger_info.pfn_user_callback)
                    .user_data(&**state as *const ValidationState as *mut _);
                match loader.create_debug_utils_messenger(&info, None) {
                    Ok(handle) => Some(Messenger { loader, handle }),
                    Err(e) => {
                        device.destroy_device(None);
                        return Err(Error::vk("vkCreateDebugUtilsMessengerEXT", e));
                    }
                }
            }
            None => None,
        };
        let debug_utils =
            debug_utils_available.then(|| ash::ext::debug_utils::Device::new(instance, &device));
        let ctx = Self::finish(
            instance.clone(),
            pd,
            device,
            queue,
            queue_family_index,
            profile,
            vk::PipelineCache::null(),
            options.pipeline_cache_data.as_deref(),
            debug_utils,
            options.timeout,
            true,
        );
        match ctx {
            Ok(mut ctx) => {
                ctx.messenger = messenger;
                ctx.validation = validation_state;
                #[cfg(feature = "bench")]
                crate::bench::attach(&mut ctx, instance, diagnostics);
                Ok(ctx)
            }
            Err(e) => {
                if let Some(m) = messenger {
                    m.loader.destroy_debug_utils_messenger(m.handle, None);
                }
                Err(e)
            }
        }
    }

    unsafe fn from_external(desc: &ExternalContextDesc) -> Result<Self> {
        if desc.instance == vk::Instance::null()
            || desc.physical_device == vk::PhysicalDevice::null()
            || desc.device == vk::Device::null()
        {
            return Err(Error::invalid(
                "external context: instance, physical device and device must not be null",
            ));
        }
        let static_fn = ash::StaticFn {
            get_instance_proc_addr: desc.get_instance_proc_addr,
        };
        let instance = ash::Instance::load(&static_fn, desc.instance);
        let cap = query_capabilities(&instance, desc.physical_device);
        if !cap.missing.is_empty() {
            return Err(Error::unsupported(format!(
                "device {} lacks {}",
                cap.profile.device_name,
                cap.missing.join(", ")
            )));
        }
        let families = instance.get_physical_device_queue_family_properties(desc.physical_device);
        let family_ok = families
            .get(desc.queue_family_index as usize)
            .is_some_and(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE));
        if !family_ok {
            return Err(Error::invalid(format!(
                "external context: queue family {} does not exist or lacks compute",
                desc.queue_family_index
            )));
        }
        let device = ash::Device::load(instance.fp_v1_0(), desc.device);
        let queue = desc.queue;
        let mut profile = cap.profile;
        profile.timestamps = families[desc.queue_family_index as usize].timestamp_valid_bits > 0;
        // Only what the caller declares enabled (and the device supports) is used.
        profile.int64_atomics &= desc.shader_buffer_int64_atomics;
        profile.full_subgroups &= desc.compute_full_subgroups;
        profile.int16 &= desc.shader_int16 && profile::int16_allowed_by_env()?;
        profile.float64 &= desc.shader_float64;
        profile.lookback = DeviceProfile::default_lookback_policy(
            profile.device_type,
            profile.vendor_id,
            profile.int64_atomics,
        );
        profile.lookback = resolve_lookback(&profile, desc.lookback)?;
        let debug_utils = desc
            .debug_utils
            .then(|| ash::ext::debug_utils::Device::new(&instance, &device));
        let mut state = Self::finish(
            instance,
            desc.physical_device,
            device,
            queue,
            desc.queue_family_index,
            profile,
            desc.pipeline_cache,
            desc.pipeline_cache_data.as_deref(),
            debug_utils,
            desc.timeout,
            false,
        )?;
        state.queue_lock = desc.queue_lock.clone();
        Ok(state)
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn finish(
        instance: ash::Instance,
        physical_device: vk::PhysicalDevice,
        device: ash::Device,
        queue: vk::Queue,
        queue_family_index: u32,
        profile: DeviceProfile,
        pipeline_cache: vk::PipelineCache,
        cache_data: Option<&[u8]>,
        debug_utils: Option<ash::ext::debug_utils::Device>,
        timeout: Duration,
        owns_device: bool,
    ) -> Result<Self> {
        // Memory blocks start at 4 MiB and double per memory type as more are needed, up to
        // gpu-allocator's defaults (256 MiB device, 64 MiB host), so small objects reserve
        // little; allocations larger than a block get their own.
        const MIB: u64 = 1 << 20;
        let allocation_sizes = gpu_allocator::AllocationSizes::new(4 * MIB, 4 * MIB)
            .with_max_device_memblock_size(256 * MIB)
            .with_max_host_memblock_size(64 * MIB);
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.clone(),
            device: device.clone(),
            physical_device,
            debug_settings: Default::default(),
            buffer_device_address: true,
            allocation_sizes,
        });
        let allocator = match allocator {
            Ok(a) => a,
            Err(e) => {
                if owns_device {
                    device.destroy_device(None);
                }
                return Err(e.into());
            }
        };
        let cache = if pipeline_cache == vk::PipelineCache::null() {
            let properties = instance.get_physical_device_properties(physical_device);
            super::pipelines::create_own_cache(&device, &properties, cache_data)
        } else {
            let note = cache_data
                .map(|_| "pipeline cache data ignored: the caller's own VkPipelineCache is used".to_string());
            Ok((pipeline_cache, false, note))
        };
        let pipelines = match cache
            .and_then(|(cache, own, note)| Pipelines::new(&device, cache, own, note, profile.full_subgroups))
        {
            Ok(p) => p,
            Err(e) => {
                drop(allocator);
                if owns_device {
                    device.destroy_device(None);
                }
                return Err(e);
            }
        };
        log::info!(
            "vkalgo: {} ({:?}, Vulkan {}, {}), subgroup {}..{}, look-back {}",
            profile.device_name,
            profile.device_type,
            profile.api_version_string(),
            profile.driver,
            profile.min_subgroup_size,
            profile.max_subgroup_size,
            if profile.lookback { "on" } else { "off" }
        );
        Ok(ContextState {
            pipelines,
            runner: Mutex::new(None),
            allocator: Mutex::new(Some(allocator)),
            recycler: Mutex::new(Recycler::default()),
            profile,
            device,
            instance,
            physical_device,
            queue,
            queue_family_index,
            timeout,
            debug_utils,
            queue_lock: None,
            lost: std::sync::atomic::AtomicBool::new(false),
            messenger: None,
            validation: None,
            owns_device,
            owns_instance: false,
            _entry: None,
        })
    }
}

impl Context {
    /// The device profile (limits, subgroup sizes, look-back policy).
    pub fn profile(&self) -> &DeviceProfile {
        &self.profile
    }

    /// The device's name.
    pub fn device_name(&self) -> &str {
        &self.profile.device_name
    }

    /// The `ash` device table (to record the caller's own commands around vkalgo's).
    pub fn device(&self) -> &ash::Device {
        &self.device
    }

    /// The `ash` instance table.
    pub fn instance(&self) -> &ash::Instance {
        &self.instance
    }

    /// The physical device.
    pub fn physical_device(&self) -> vk::PhysicalDevice {
        self.physical_device
    }

    /// The queue family used by host convenience calls.
    pub fn queue_family_index(&self) -> u32 {
        self.queue_family_index
    }

    /// Whether the validation layer is on (default context with validation requested).
    pub fn validation_enabled(&self) -> bool {
        self.validation.is_some()
    }

    /// Number of validation-layer warnings and errors received so far (0 without validation).
    pub fn validation_message_count(&self) -> u64 {
        self.validation
            .as_ref()
            .map_or(0, |v| v.count.load(Ordering::SeqCst))
    }

    /// The first validation messages received (at most 64).
    pub fn validation_messages(&self) -> Vec<String> {
        self.validation.as_ref().map_or_else(Vec::new, |v| {
            v.messages.lock().map(|m| m.clone()).unwrap_or_default()
        })
    }

    /// Whether the device is a CPU implementation (lavapipe and the like).
    pub fn is_cpu_device(&self) -> bool {
        self.profile.device_type == DeviceType::Cpu
    }

    /// Whether vkalgo created the device (default context) rather than the caller.
    pub(crate) fn owns_device(&self) -> bool {
        self.owns_device
    }

    /// Whether a host call timed out on this context (it is then unusable for host calls and
    /// frees nothing, since the GPU may still use it).
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Bytes of device and host memory vkalgo has allocated for its objects and buffers, and
    /// the bytes it holds from Vulkan for them (memory blocks, allocated or not).
    /// Buffers the host calls freed and the context keeps for reuse count as held, not
    /// allocated ([`Context::release_kept_memory`] frees them).
    pub fn memory_usage(&self) -> MemoryUsage {
        let kept = self.recycler().bytes();
        match self.allocator().as_ref() {
            Some(a) => {
                let report = a.generate_report();
                MemoryUsage {
                    allocated_bytes: report.total_allocated_bytes.saturating_sub(kept),
                    reserved_bytes: report.total_capacity_bytes,
                }
            }
            None => MemoryUsage::default(),
        }
    }

    /// Frees the buffers the context keeps for reuse: host calls free their working, staging
    /// and readback buffers (and the storage of sets made by one call) into a cache of up to
    /// 256 MiB, so that the next call of a like size allocates no memory. Call it to give that
    /// memory back, e.g. after a burst of host calls; later calls fill the cache again.
    pub fn release_kept_memory(&self) {
        let kept = self.recycler().drain();
        self.free_kept(kept);
    }

    /// The kept-buffer cache (src/core/recycle.rs).
    pub(crate) fn recycler(&self) -> MutexGuard<'_, Recycler> {
        self.recycler.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Frees buffers taken out of the cache.
    pub(crate) fn free_kept(&self, kept: Vec<Kept>) {
        if kept.is_empty() {
            return;
        }
        let mut guard = self.allocator();
        for k in kept {
            unsafe { self.device.destroy_buffer(k.buffer, None) };
            if let Some(a) = guard.as_mut() {
                let _ = a.free(k.allocation);
            }
        }
    }

    pub(crate) fn allocator(&self) -> MutexGuard<'_, Option<Allocator>> {
        self.allocator.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn resolve_lookback(profile: &DeviceProfile, requested: Option<bool>) -> Result<bool> {
    let wanted = profile::lookback_from_env()?
        .or(requested)
        .unwrap_or(profile.lookback);
    if wanted && !profile.int64_atomics {
        return Err(Error::unsupported(format!(
            "look-back requested, but {} lacks shaderBufferInt64Atomics",
            profile.device_name
        )));
    }
    Ok(wanted)
}

impl Drop for ContextState {
    fn drop(&mut self) {
        if self.lost.load(Ordering::SeqCst) {
            // A host call timed out: the GPU may still run work that uses the pipelines and
            // memory, so everything is left as it is (leaked) rather than freed under it.
            log::warn!("vkalgo: a lost context is dropped; its Vulkan objects are leaked");
            if let Ok(mut allocator) = self.allocator.lock() {
                // The allocator would free every memory block on drop.
                std::mem::forget(allocator.take());
            }
            if let Ok(mut kept) = self.recycler.lock() {
                std::mem::forget(kept.drain());
            }
            return;
        }
        unsafe {
            if self.owns_device {
                let _ = self.device.device_wait_idle();
            }
            if let Ok(mut runner) = self.runner.lock() {
                if let Some(r) = runner.take() {
                    r.destroy(&self.device);
                }
            }
            self.pipelines.destroy(&self.device);
            let kept = self.recycler.lock().map(|mut r| r.drain()).unwrap_or_default();
            if let Ok(mut a) = self.allocator.lock() {
                for k in kept {
                    self.device.destroy_buffer(k.buffer, None);
                    if let Some(a) = a.as_mut() {
                        let _ = a.free(k.allocation);
                    }
                }
                a.take();
            }
            if self.owns_device {
                self.device.destroy_device(None);
                if let Some(m) = self.messenger.take() {
                    m.loader.destroy_debug_utils_messenger(m.handle, None);
                }
                if self.owns_instance {
                    self.instance.destroy_instance(None);
                }
            }
        }
    }
}
