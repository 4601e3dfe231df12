//! The values of many sets on the GPU in one submission of three dispatches whatever the
//! number of sets (glsl/set/to_array_many.comp: each set's chunks listed, their first values'
//! positions scanned, every chunk's values written), for [`GpuSet::to_array_many`].

use super::gpu::GpuSet;
use super::layout::CHUNKS;
use super::passes::kernel;
use super::serialize::{slot_grid, ChunkListPush};
use super::view::SetDeviceView;
use crate::core::runner::finish_submission;
use crate::core::shaders;
use crate::error::{Error, Result};
use ash::vk;

/// Modes of to_array_many.comp: list each set's chunks, scan their positions, write them.
const MODE_LIST: u32 = 0;
const MODE_OFFSETS: u32 = 1;
const MODE_WRITE: u32 = 2;

/// Byte offsets of the work buffer's ranges, each 16-aligned: views (0), table, results,
/// list, offsets; and its size.
struct WorkLayout {
    table: u64,
    results: u64,
    list: u64,
    offsets: u64,
    bytes: u64,
}

impl WorkLayout {
    fn new(sets: u64, slots: u64) -> Self {
        let table = sets * 16;
        let results = table + sets * 32;
        let list = results + sets * 16;
        let offsets = list + (slots * 8).next_multiple_of(16);
        WorkLayout {
            table,
            results,
            list,
            offsets,
            bytes: offsets + (slots * 4).next_multiple_of(16),
        }
    }
}

impl GpuSet {
    /// The values of `sets` (one context, checked by the caller) whose cardinalities are
    /// `cards`, set `i`'s at `values[offsets[i]..offsets[i + 1]]` (`offsets` from `cards`):
    /// written on the GPU in one submission (in halves where the sets' chunks pass 2^32 list
    /// slots).
    pub(super) fn values_many(sets: &[&GpuSet], cards: &[u64], offsets: &[u64]) -> Result<Vec<u32>> {
        let total = *offsets.last().unwrap_or(&0);
        if total == 0 {
            return Ok(Vec::new());
        }
        if cards.contains(&0) {
            // Empty sets add no values: the others alone go to the GPU.
            let keep: Vec<usize> = (0..sets.len()).filter(|&i| cards[i] > 0).collect();
            let kept_sets: Vec<&GpuSet> = keep.iter().map(|&i| sets[i]).collect();
            let kept_cards: Vec<u64> = keep.iter().map(|&i| cards[i]).collect();
            let kept_offsets: Vec<u64> = std::iter::once(0)
                .chain(kept_cards.iter().scan(0u64, |at, &c| {
                    *at += c;
                    Some(*at)
                }))
                .collect();
            return Self::values_many(&kept_sets, &kept_cards, &kept_offsets);
        }
        // Each set's list capacity: its non-empty chunks (exact for a packed directory, the
        // host's bound otherwise).
        let capacity: Vec<u64> = sets
            .iter()
            .map(|s| s.packed.unwrap_or(s.chunk_bound()).min(CHUNKS as u32) as u64)
            .collect();
        let slots: u64 = capacity.iter().sum();
        if slots > u32::MAX as u64 && sets.len() > 1 {
            let half = sets.len() / 2;
            let mut values = Self::values_many(&sets[..half], &cards[..half], &offsets[..=half])?;
            let rest: Vec<u64> = offsets[half..].iter().map(|o| o - offsets[half]).collect();
            values.extend(Self::values_many(&sets[half..], &cards[half..], &rest)?);
            return Ok(values);
        }
        let slots = u32::try_from(slots)
            .map_err(|_| Error::OutOfMemory("set to_array_many: too many chunks".into()))?;
        let ctx = &sets[0].ctx;
        let count = u32::try_from(sets.len())
            .map_err(|_| Error::invalid("set to_array_many: more than 2^32 - 1 sets"))?;
        // Each set's values start 16-byte aligned on the GPU; the host packs them.
        let starts: Vec<u64> = cards
            .iter()
            .scan(0u64, |at, &c| {
                let start = *at;
                *at += c.div_ceil(4) * 4;
                Some(start)
            })
            .collect();
        let padded = starts.last().unwrap() + cards.last().unwrap().div_ceil(4) * 4;
        let n = sets.len() as u64;
        let layout = WorkLayout::new(n, slots as u64);
        let to_array = kernel(ctx, &shaders::SET_TO_ARRAY_MANY)?;

        // The views, then the table: (list base, list capacity, 0, 0), (first value, capacity).
        let mut head: Vec<u32> = Vec::with_capacity(sets.len() * 12);
        for s in sets {
            let view: SetDeviceView = s.device_view();
            head.extend_from_slice(bytemuck::cast_slice(bytemuck::bytes_of(&view)));
        }
        let mut base = 0u64;
        for ((&cap, &start), &card) in capacity.iter().zip(&starts).zip(cards) {
            head.extend_from_slice(&[
                base as u32,
                cap as u32,
                0,
                0,
                start as u32,
                (start >> 32) as u32,
                card as u32,
                (card >> 32) as u32,
            ]);
            base += cap;
        }
        let upload = ctx.staging_from(&head)?;
        let work = ctx.device_buffer(layout.bytes, "vkalgo set to_array work")?;
        let out = ctx.device_buffer(padded * 4, "vkalgo set values out")?;
        let results_bytes = n * 16;
        let mut down = ctx.readback_buffer(results_bytes + padded * 4)?;
        let slot_groups = slot_grid(ctx.device_class(), slots);
        let work_at = ctx.address_of(&work.range());
        let push = |mode, grid| ChunkListPush {
            views: work_at,
            table: work_at + layout.table,
            results: work_at + layout.results,
            list: work_at + layout.list,
            offsets: work_at + layout.offsets,
            dest: ctx.address_of(&out.range()),
            count,
            mode,
            slots,
            grid,
        };
        let done = ctx.submit_and_wait(|cmd| unsafe {
            let d = &ctx.device;
            let region = vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: head.len() as u64 * 4,
            };
            d.cmd_copy_buffer(cmd, upload.buffer(), work.buffer(), &[region]);
            d.cmd_fill_buffer(cmd, work.buffer(), layout.results, results_bytes, 0);
            ctx.transfer_to_compute(cmd);
            ctx.dispatch(cmd, to_array, &push(MODE_LIST, count), count);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, to_array, &push(MODE_OFFSETS, count), count);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, to_array, &push(MODE_WRITE, slot_groups), slot_groups);
            ctx.compute_to_transfer(cmd);
            let regions = [
                vk::BufferCopy {
                    src_offset: layout.results,
                    dst_offset: 0,
                    size: results_bytes,
                },
                vk::BufferCopy {
                    src_offset: 0,
                    dst_offset: results_bytes,
                    size: padded * 4,
                },
            ];
            d.cmd_copy_buffer(cmd, work.buffer(), down.buffer(), &regions[..1]);
            d.cmd_copy_buffer(cmd, out.buffer(), down.buffer(), &regions[1..]);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, upload, work, out, down);
        let mapped = down
            .mapped()
            .ok_or_else(|| Error::Internal("readback buffer is not mapped".into()))?;
        let (results, all) = mapped.split_at(results_bytes as usize);
        let results: &[u32] = bytemuck::cast_slice(results);
        if let Some(s) = (0..sets.len()).find(|&s| results[4 * s + 2] != 0) {
            return Err(Error::Internal(format!(
                "set to_array_many: set {s} holds more chunks or values than its bounds"
            )));
        }
        // Each set's values straight from the readback memory to their place (one copy).
        let all: &[u32] = bytemuck::try_cast_slice(all)
            .map_err(|_| Error::Internal("readback buffer is not aligned".into()))?;
        let mut values = Vec::with_capacity(total as usize);
        for (&start, &c) in starts.iter().zip(cards) {
            values.extend_from_slice(&all[start as usize..(start + c) as usize]);
        }
        Ok(values)
    }
}
