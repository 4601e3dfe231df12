//! Device-to-device copy with a compute shader (glsl/util/copy.comp): on some drivers far
//! faster than `vkCmdCopyBuffer` (docs/tuning/core.md#compute-copy), and the benchmark's
//! bandwidth yardstick.

use super::buffer::BufferRange;
use super::pipelines::Specialization;
use super::shaders;
use super::spirv::push_constants;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of glsl/util/copy.comp (block `CopyPush`).
    pub(crate) struct CopyPush {
        src_addr: u64,
        dst_addr: u64,
        vec_count: u32,
        _pad0: u32,
    }
}

push_constants! {
    /// Push constants of glsl/util/fill.comp (block `FillPush`).
    pub(crate) struct FillPush {
        dst_addr: u64,
        word_count: u32,
        value: u32,
        dst2_addr: u64,
        word_count2: u32,
        pad: u32,
    }
}

push_constants! {
    /// Push constants of glsl/util/scatter.comp (block `ScatterPush`).
    pub(crate) struct ScatterPush {
        src_addr: u64,
        table: u64,
        count: u32,
        grid: u32,
    }
}

pub(crate) const COPY_WORKGROUP: u32 = 256;

/// Workgroups of a scatter on GPUs (striding over the ranges); CPU drivers get one a range
/// (their loops end after a fixed number of iterations: docs/driver-bugs.md#lavapipe-loop-limit).
const SCATTER_GPU_GROUPS: u32 = 1024;

/// The specialization of the copy and fill kernels: their workgroup size (they read no other
/// constant; the others are fixed so that each kernel has one pipeline).
pub(crate) const COPY_SPEC: Specialization = Specialization {
    workgroup_size: COPY_WORKGROUP,
    id1: 1,
    id2: 1,
    id5: 1,
    id6: 0,
    id8: 0,
};

/// The largest compute-shader copy: 2^32 - 1 vectors of 16 bytes (the vector count is a u32;
/// glsl/util/copy.comp addresses each workgroup's vectors from a 64-bit byte address, so
/// copies beyond 32 GiB are right).
pub(crate) const COPY_MAX_BYTES: u64 = (u32::MAX as u64) * 16;

impl Context {
    /// Records a compute-shader copy of `src` into `dst` (same size, a multiple of 16 bytes and
    /// at most 64 GiB - 16, that is 2^32 - 1 vectors; device addresses 16-byte aligned; no
    /// overlap). Synchronization: like a compute pass that reads `src` and writes `dst`
    /// (`COMPUTE_SHADER`, `SHADER_READ` / `SHADER_WRITE`).
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_compute_copy(
        &self,
        cmd: vk::CommandBuffer,
        src: &BufferRange,
        dst: &BufferRange,
    ) -> Result<()> {
        src.check(self, "copy source", src.size, 16)?;
        dst.check(self, "copy destination", src.size, 16)?;
        if src.size % 16 != 0 || src.size > COPY_MAX_BYTES {
            return Err(Error::invalid(format!(
                "copy: size {} must be a multiple of 16 bytes and at most {COPY_MAX_BYTES} (64 GiB - 16)",
                src.size
            )));
        }
        if src.overlaps(dst) {
            return Err(Error::invalid("copy: source and destination overlap"));
        }
        let vec_count = (src.size / 16) as u32;
        let kernel = self.kernel(&shaders::COPY_U32X4, COPY_SPEC)?;
        let push = CopyPush {
            src_addr: self.address_of(src),
            dst_addr: self.address_of(dst),
            vec_count,
            _pad0: 0,
        };
        if push.src_addr % 16 != 0 || push.dst_addr % 16 != 0 {
            return Err(Error::invalid("copy: device addresses must be 16-byte aligned"));
        }
        unsafe { self.dispatch(cmd, kernel, &push, vec_count.div_ceil(COPY_WORKGROUP)) };
        Ok(())
    }
}

impl Context {
    /// Records a compute-shader fill of `words` u32 words at `dst` with `value` (`dst` 4-byte
    /// aligned, at least `words * 4` bytes). Synchronization: like a compute pass that writes
    /// `dst`. Internal: the scratch clears of the scan, sort, multisplit and set passes.
    ///
    /// # Safety
    /// As [`Context::record_compute_copy`].
    pub(crate) unsafe fn record_compute_fill(
        &self,
        cmd: vk::CommandBuffer,
        dst: &BufferRange,
        words: u32,
        value: u32,
    ) -> Result<()> {
        dst.check(self, "fill destination", words as u64 * 4, 4)?;
        self.record_compute_fill_at(cmd, self.address_of(dst), words, value)
    }

    /// Makes the compute fill's pipeline now, so that a fill recorded after other commands
    /// cannot fail.
    pub(crate) fn prepare_compute_fill(&self) -> Result<()> {
        self.kernel(&shaders::FILL_U32, COPY_SPEC).map(|_| ())
    }

    /// [`Context::record_compute_fill`] at a device address (4-byte aligned, `words` words
    /// of a live buffer: the caller checked them).
    pub(crate) unsafe fn record_compute_fill_at(
        &self,
        cmd: vk::CommandBuffer,
        dst_addr: u64,
        words: u32,
        value: u32,
    ) -> Result<()> {
        self.record_compute_fill_two_at(cmd, (dst_addr, words), (0, 0), value)
    }

    /// [`Context::record_compute_fill_at`] of two ranges (device address, u32 words) in one
    /// dispatch, where one barrier follows both: one launch less than two fills (the set
    /// cardinalities clear their scratch counters and their status together).
    pub(crate) unsafe fn record_compute_fill_two_at(
        &self,
        cmd: vk::CommandBuffer,
        first: (u64, u32),
        second: (u64, u32),
        value: u32,
    ) -> Result<()> {
        let words = first.1 as u64 + second.1 as u64;
        let groups = u32::try_from(words.div_ceil(COPY_WORKGROUP as u64))
            .map_err(|_| Error::Internal("compute fill: too many words".into()))?;
        let kernel = self.kernel(&shaders::FILL_U32, COPY_SPEC)?;
        let push = FillPush {
            dst_addr: first.0,
            word_count: first.1,
            value,
            dst2_addr: second.0,
            word_count2: second.1,
            pad: 0,
        };
        unsafe { self.dispatch(cmd, kernel, &push, groups) };
        Ok(())
    }
}

impl Context {
    /// Records a compute-shader copy of `count` ranges of u32 words: `table` (a device address,
    /// 16-byte aligned) holds a uvec4 a range (source byte offset from `src_addr`, destination
    /// address low and high words, words), each range 4-byte aligned on both sides.
    /// Synchronization: like a compute pass that reads the sources and the table and writes the
    /// destinations.
    ///
    /// # Safety
    /// As [`Context::record_compute_copy`]; every range lies in live buffers.
    pub(crate) unsafe fn record_compute_scatter(
        &self,
        cmd: vk::CommandBuffer,
        src_addr: u64,
        table: u64,
        count: u32,
    ) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        let kernel = self.kernel(&shaders::SCATTER_U32, COPY_SPEC)?;
        let grid = if self.device_class() == super::tuning::DeviceClass::Cpu {
            count
        } else {
            count.min(SCATTER_GPU_GROUPS)
        };
        let push = ScatterPush {
            src_addr,
            table,
            count,
            grid,
        };
        unsafe { self.dispatch(cmd, kernel, &push, grid) };
        Ok(())
    }
}

#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<super::spirv::PushCheck> {
    use super::spirv::PushLayout;
    vec![
        (
            shaders::COPY_U32X4,
            CopyPush::FIELDS,
            std::mem::size_of::<CopyPush>(),
        ),
        (
            shaders::FILL_U32,
            FillPush::FIELDS,
            std::mem::size_of::<FillPush>(),
        ),
        (
            shaders::SCATTER_U32,
            ScatterPush::FIELDS,
            std::mem::size_of::<ScatterPush>(),
        ),
    ]
}
