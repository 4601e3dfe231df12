//! Core: context (vkalgo's own device or the caller's), device profile, pipelines, buffers,
//! barriers and the host runner shared by every algorithm.

pub(crate) mod barrier;
pub(crate) mod buffer;
pub(crate) mod context;
pub(crate) mod copy;
pub(crate) mod device_select;
pub(crate) mod features;
pub(crate) mod instance;
pub(crate) mod lookback_state;
pub(crate) mod pipelines;
pub(crate) mod profile;
pub(crate) mod recycle;
pub(crate) mod runner;
pub(crate) mod set_op;
pub(crate) mod shaders;
pub(crate) mod spirv;
pub(crate) mod tuning;
pub(crate) mod types;
pub(crate) mod validation;

pub use buffer::{
    BufferRange, BufferRequirements, ElementCount, GpuBuffer, MemoryLocation, MemoryRequirements,
    BUFFER_USAGE,
};
pub use context::{Context, ContextOptions, ContextState, ExternalContextDesc, MemoryUsage, QueueLock};
pub use device_select::DeviceSelector;
pub use profile::{DeviceProfile, DeviceType};
pub use set_op::SetOp;
pub use types::{KeyType, ReduceOp, ValueType};
