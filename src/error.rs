//! The one error type of vkalgo.

use ash::vk;
use std::fmt;

/// Everything that can go wrong in vkalgo. Each variant maps to one negative `VkalgoResult`
/// in the C ABI.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An argument is wrong (null handle, size, alignment, overlap, count over the maximum...).
    /// Nothing was recorded or written.
    InvalidArgument(String),
    /// The device or driver lacks something vkalgo needs (the message names it).
    Unsupported(String),
    /// Host or device memory ran out.
    OutOfMemory(String),
    /// The Vulkan device was lost; the context cannot be used for GPU work any more.
    DeviceLost,
    /// A GPU wait did not finish within the context's timeout.
    Timeout(String),
    /// A hash table or pool has no room left (reported, never looped on).
    TableFull(String),
    /// A shader compiled at run time failed to compile.
    CompileError(String),
    /// A Vulkan call failed with another error code.
    Vulkan {
        /// The Vulkan call that failed.
        call: &'static str,
        /// Its result code.
        result: vk::Result,
    },
    /// A bug inside vkalgo (for example a panic caught at the C boundary).
    Internal(String),
}

/// Shorthand for `Result<T, vkalgo::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Builds an [`Error`] from a failed Vulkan call, mapping the well-known codes.
    pub fn vk(call: &'static str, result: vk::Result) -> Self {
        match result {
            vk::Result::ERROR_DEVICE_LOST => Error::DeviceLost,
            vk::Result::ERROR_OUT_OF_HOST_MEMORY | vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => {
                Error::OutOfMemory(format!("{call}: {result:?}"))
            }
            vk::Result::TIMEOUT => Error::Timeout(format!("{call} timed out")),
            _ => Error::Vulkan { call, result },
        }
    }

    /// An [`Error::InvalidArgument`] with this message.
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::InvalidArgument(message.into())
    }

    /// An [`Error::Unsupported`] with this message.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Error::Unsupported(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidArgument(m) => write!(f, "invalid argument: {m}"),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
            Error::OutOfMemory(m) => write!(f, "out of memory: {m}"),
            Error::DeviceLost => write!(f, "the Vulkan device was lost"),
            Error::Timeout(m) => write!(f, "timeout: {m}"),
            Error::TableFull(m) => write!(f, "table full: {m}"),
            Error::CompileError(m) => write!(f, "shader compile error: {m}"),
            Error::Vulkan { call, result } => write!(f, "{call} failed: {result:?}"),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<gpu_allocator::AllocationError> for Error {
    fn from(e: gpu_allocator::AllocationError) -> Self {
        match e {
            gpu_allocator::AllocationError::OutOfMemory => {
                Error::OutOfMemory("device memory allocation failed".into())
            }
            other => Error::OutOfMemory(format!("allocation failed: {other}")),
        }
    }
}

/// Adds the Vulkan call name to an `ash` result.
pub(crate) trait VkResultExt<T> {
    fn during(self, call: &'static str) -> Result<T>;
}

impl<T> VkResultExt<T> for std::result::Result<T, vk::Result> {
    fn during(self, call: &'static str) -> Result<T> {
        self.map_err(|r| Error::vk(call, r))
    }
}
