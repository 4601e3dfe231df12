//! Roaring portable serializations of many sets, encoded on the GPU (glsl/set/serialize.comp):
//! every non-empty chunk's container bytes written there in one submission, then the listed
//! chunks, their sizes and the bytes downloaded together; the host writes each set's header
//! and copies its bytes after it.

use super::gpu::GpuSet;
use super::layout::{ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES, CHUNKS};
use super::passes::kernel;
use super::roaring::{header_bytes, NO_OFFSET_THRESHOLD, SERIAL_COOKIE, SERIAL_COOKIE_NO_RUNCONTAINER};
use super::view::SetDeviceView;
use crate::core::runner::finish_submission;
use crate::core::shaders;
use crate::core::spirv::push_constants;
use crate::core::tuning::DeviceClass;
use crate::error::{Error, Result};
use ash::vk;

push_constants! {
    /// Push constants of the kernels over many sets' listed chunks: glsl/set/serialize.comp
    /// (block `SerializePush`) and glsl/set/to_array_many.comp (block `ToArrayManyPush`), whose
    /// `dest` is the container bytes and the values.
    pub(crate) struct ChunkListPush {
        pub(super) views: u64,
        pub(super) table: u64,
        pub(super) results: u64,
        pub(super) list: u64,
        pub(super) offsets: u64,
        pub(super) dest: u64,
        pub(super) count: u32,
        pub(super) mode: u32,
        pub(super) slots: u32,
        pub(super) grid: u32,
    }
}

/// Modes of serialize.comp: list each set's chunks, size each chunk, each chunk's offset in its
/// set's bytes, write each chunk.
const MODE_LIST: u32 = 0;
const MODE_SIZE: u32 = 1;
const MODE_OFFSETS: u32 = 2;
const MODE_WRITE: u32 = 3;

/// A listed chunk's size word: its bytes, and this bit where it is written as runs.
const RUNS_FLAG: u32 = 1 << 31;

/// Workgroups that stride over the listed chunks on a GPU; on CPU drivers one a chunk (their
/// loops end after a fixed number of iterations: docs/driver-bugs.md#lavapipe-loop-limit).
const GPU_SLOT_GROUPS: u32 = 4096;

/// Workgroups of a pass a workgroup a list slot over `slots` slots (serialize.comp,
/// to_array_many.comp): [`GPU_SLOT_GROUPS`] at most on GPUs, one a slot on CPU drivers.
pub(super) fn slot_grid(class: DeviceClass, slots: u32) -> u32 {
    if class == DeviceClass::Cpu {
        slots
    } else {
        slots.min(GPU_SLOT_GROUPS)
    }
    .max(1)
}

/// Where each set's part of the work lies: its list slots and its bytes (on the GPU, a bound).
struct Placement {
    /// First list slot of each set, then the total (one entry more than sets).
    slot_base: Vec<u32>,
    /// First 4-byte word of each set's bytes in the data range, then the total.
    data_base: Vec<u32>,
}

/// Bounds on the chunks and bytes of each set: its non-empty chunks (exact for a packed
/// directory, the host's bound otherwise) and its pools' bytes plus 6 a chunk (a container is
/// written in no more bytes than its blocks hold, or 6 for a chunk held in its entry).
fn placement(sets: &[&GpuSet]) -> Result<Placement> {
    let too_many = || Error::OutOfMemory("set serialize_many: too many chunks or bytes".into());
    let mut slot_base = Vec::with_capacity(sets.len() + 1);
    let mut data_base = Vec::with_capacity(sets.len() + 1);
    let (mut slots, mut words) = (0u64, 0u64);
    for s in sets {
        slot_base.push(u32::try_from(slots).map_err(|_| too_many())?);
        data_base.push(u32::try_from(words).map_err(|_| too_many())?);
        let chunks = s.packed.unwrap_or(s.chunk_bound()).min(CHUNKS as u32) as u64;
        let bytes =
            s.bm_blocks as u64 * BITMAP_BLOCK_BYTES + s.ar_blocks as u64 * ARRAY_BLOCK_BYTES + 6 * chunks;
        slots += chunks;
        words += bytes.div_ceil(4);
    }
    slot_base.push(u32::try_from(slots).map_err(|_| too_many())?);
    data_base.push(u32::try_from(words).map_err(|_| too_many())?);
    Ok(Placement { slot_base, data_base })
}

/// Byte offsets of the work buffer's ranges, each 16-aligned: views, table, results, list,
/// offsets, data; and its size.
struct WorkLayout {
    table: u64,
    results: u64,
    list: u64,
    offsets: u64,
    data: u64,
    bytes: u64,
}

impl WorkLayout {
    fn new(sets: u64, slots: u64, data_words: u64) -> Self {
        let table = sets * 16;
        let results = table + sets * 16;
        let list = results + sets * 16;
        let offsets = list + (slots * 8).next_multiple_of(16);
        let data = offsets + (slots * 4).next_multiple_of(16);
        WorkLayout {
            table,
            results,
            list,
            offsets,
            data,
            bytes: data + (data_words * 4).max(16),
        }
    }
}

impl GpuSet {
    /// The Roaring portable serializations of `sets` (one context, checked by the caller) back
    /// to back, and their offsets: the container bytes encoded on the GPU in one submission
    /// (in halves where the sets' bounds pass 2^32 list slots or 16 GiB).
    pub(super) fn serialize_encoded(sets: &[&GpuSet]) -> Result<(Vec<u8>, Vec<u64>)> {
        let Some(first) = sets.first() else {
            return Ok((Vec::new(), vec![0]));
        };
        let ctx = &first.ctx;
        let count = u32::try_from(sets.len())
            .map_err(|_| Error::invalid("set serialize_many: more than 2^32 - 1 sets"))?;
        let place = match placement(sets) {
            // Past the kernel's 32-bit slots and words: half the sets at a time.
            Err(Error::OutOfMemory(_)) if sets.len() > 1 => {
                let (a, b) = sets.split_at(sets.len() / 2);
                let (mut bytes, mut offsets) = Self::serialize_encoded(a)?;
                let (rest, rest_offsets) = Self::serialize_encoded(b)?;
                let base = bytes.len() as u64;
                bytes.extend_from_slice(&rest);
                offsets.extend(rest_offsets[1..].iter().map(|o| o + base));
                return Ok((bytes, offsets));
            }
            other => other?,
        };
        let slots = *place.slot_base.last().unwrap();
        let data_words = *place.data_base.last().unwrap() as u64;
        let n = sets.len() as u64;
        let layout = WorkLayout::new(n, slots as u64, data_words);
        let serialize = kernel(ctx, &shaders::SET_SERIALIZE)?;

        // The views and the table (list base, list capacity, data base in words, data bound).
        let mut head: Vec<u32> = Vec::with_capacity(sets.len() * 8);
        for s in sets {
            let view: SetDeviceView = s.device_view();
            head.extend_from_slice(bytemuck::cast_slice(bytemuck::bytes_of(&view)));
        }
        for i in 0..sets.len() {
            let words = place.data_base[i + 1] - place.data_base[i];
            head.extend_from_slice(&[
                place.slot_base[i],
                place.slot_base[i + 1] - place.slot_base[i],
                place.data_base[i],
                words.saturating_mul(4),
            ]);
        }
        let upload = ctx.staging_from(&head)?;
        let work = ctx.device_buffer(layout.bytes, "vkalgo set serialize")?;
        let listed_bytes = layout.offsets - layout.results;
        let data_bytes = data_words * 4;
        let mut down = ctx.readback_buffer(listed_bytes + data_bytes.max(4))?;
        let slot_groups = slot_grid(ctx.device_class(), slots);
        let base = ctx.address_of(&work.range());
        let push = |mode, grid| ChunkListPush {
            views: base,
            table: base + layout.table,
            results: base + layout.results,
            list: base + layout.list,
            offsets: base + layout.offsets,
            dest: base + layout.data,
            count,
            mode,
            slots,
            grid,
        };
        let done = ctx.submit_and_wait(|cmd| unsafe {
            let d = &ctx.device;
            let head_bytes = head.len() as u64 * 4;
            let region = vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: head_bytes,
            };
            d.cmd_copy_buffer(cmd, upload.buffer(), work.buffer(), &[region]);
            d.cmd_fill_buffer(cmd, work.buffer(), layout.results, n * 16, 0);
            if data_bytes > 0 {
                d.cmd_fill_buffer(cmd, work.buffer(), layout.data, data_bytes, 0);
            }
            ctx.transfer_to_compute(cmd);
            ctx.dispatch(cmd, serialize, &push(MODE_LIST, count), count);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, serialize, &push(MODE_SIZE, slot_groups), slot_groups);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, serialize, &push(MODE_OFFSETS, count), count);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, serialize, &push(MODE_WRITE, slot_groups), slot_groups);
            ctx.compute_to_transfer(cmd);
            let mut regions = vec![vk::BufferCopy {
                src_offset: layout.results,
                dst_offset: 0,
                size: listed_bytes,
            }];
            if data_bytes > 0 {
                regions.push(vk::BufferCopy {
                    src_offset: layout.data,
                    dst_offset: listed_bytes,
                    size: data_bytes,
                });
            }
            d.cmd_copy_buffer(cmd, work.buffer(), down.buffer(), &regions);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, upload, work, down);
        let mapped = down
            .mapped()
            .ok_or_else(|| Error::Internal("readback buffer is not mapped".into()))?;
        let (listed, data) = mapped.split_at(listed_bytes as usize);
        let (results, list) = listed.split_at((layout.list - layout.results) as usize);
        let results: &[u32] = bytemuck::cast_slice(results);
        let list: &[u32] = bytemuck::cast_slice(&list[..slots as usize * 8]);
        assemble(results, list, data, &place)
    }
}

/// Each set's header (from its listed chunks: key, cardinality, written bytes and form) and
/// its container bytes, back to back, with the offsets.
fn assemble(results: &[u32], list: &[u32], data: &[u8], place: &Placement) -> Result<(Vec<u8>, Vec<u64>)> {
    let sets = place.slot_base.len() - 1;
    let mut total = 0u64;
    for s in 0..sets {
        let r = &results[4 * s..4 * s + 4];
        if r[3] != 0 {
            return Err(Error::Internal(format!(
                "set serialize_many: set {s} holds more chunks or bytes than its bounds"
            )));
        }
        total += (header_bytes(r[0] as usize, r[1] != 0) + r[2] as usize) as u64;
    }
    let mut out = Vec::with_capacity(
        usize::try_from(total).map_err(|_| Error::OutOfMemory("set serialize_many".into()))?,
    );
    let mut offsets = Vec::with_capacity(sets + 1);
    offsets.push(0u64);
    for s in 0..sets {
        let r = &results[4 * s..4 * s + 4];
        let (n, any_runs, bytes) = (r[0] as usize, r[1] != 0, r[2] as usize);
        let chunks = &list[2 * place.slot_base[s] as usize..][..2 * n];
        if any_runs {
            out.extend_from_slice(&(SERIAL_COOKIE | ((n as u32 - 1) << 16)).to_le_bytes());
            let at = out.len();
            out.resize(at + n.div_ceil(8), 0);
            for (i, c) in chunks.chunks_exact(2).enumerate() {
                if c[1] & RUNS_FLAG != 0 {
                    out[at + i / 8] |= 1 << (i % 8);
                }
            }
        } else {
            out.extend_from_slice(&SERIAL_COOKIE_NO_RUNCONTAINER.to_le_bytes());
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for c in chunks.chunks_exact(2) {
            out.extend_from_slice(&c[0].to_le_bytes());
        }
        if !any_runs || n >= NO_OFFSET_THRESHOLD {
            let mut offset = header_bytes(n, any_runs) as u32;
            for c in chunks.chunks_exact(2) {
                out.extend_from_slice(&offset.to_le_bytes());
                offset += c[1] & !RUNS_FLAG;
            }
        }
        let from = place.data_base[s] as usize * 4;
        out.extend_from_slice(&data[from..from + bytes]);
        offsets.push(out.len() as u64);
    }
    Ok((out, offsets))
}
