//! A set's pools after creation: growth ([`GpuSet::reserve`], [`GpuSet::reserve_for_op`], the
//! host layer's retries) and [`GpuSet::shrink_to_fit`], which moves the blocks in use into a
//! pool of exactly their number.

use super::blocks::op_block_bound;
use super::gpu::{GpuSet, SetOpStatus, SetOperand};
use super::layout::{meta_bytes, ring_capacity, ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES, CHUNKS, META_DIR};
use super::passes::{kernel, wg, SetPush};
use crate::core::shaders;
use crate::error::{Error, Result};
use crate::SetOp;
use ash::vk;

impl GpuSet {
    /// The ring cursors (bitmap head, tail, array head, tail) and both rings as the kernels see
    /// them: ring_capacity entries (the buffers may be larger), indexed by cursor & (capacity -
    /// 1).
    pub(super) fn download_rings(&self) -> Result<([u32; 4], [Vec<u8>; 2])> {
        let mut parts = Self::download(
            &self.ctx,
            &[
                (&self.control, 64, 16),
                (&self.bm_ring, 0, ring_capacity(self.bm_blocks) * 4),
                (&self.ar_ring, 0, ring_capacity(self.ar_blocks) * 4),
            ],
        )?;
        let ar = parts.pop().unwrap_or_default();
        let bm = parts.pop().unwrap_or_default();
        let mut cursors = [0u32; 4];
        cursors.copy_from_slice(bytemuck::cast_slice(&parts[0]));
        Ok((cursors, [bm, ar]))
    }

    /// Adds `bitmap_blocks` and `array_blocks` free blocks to the pools (for recorded
    /// operations, which cannot grow them). Blocking: downloads the rings, builds the new pools
    /// and rings (the old contents copied, block ids unchanged), uploads them. Errors: more than
    /// 2^31 blocks in a pool ([`Error::InvalidArgument`]), memory ([`Error::OutOfMemory`]).
    pub fn reserve(&mut self, bitmap_blocks: u32, array_blocks: u32) -> Result<()> {
        if bitmap_blocks == 0 && array_blocks == 0 {
            return Ok(());
        }
        self.unpack()?;
        if self.on_caller_memory() {
            return Err(Error::invalid(
                "set reserve: the set lives on the caller's memory, whose pools are fixed",
            ));
        }
        let new_bm = self.bm_blocks as u64 + bitmap_blocks as u64;
        let new_ar = self.ar_blocks as u64 + array_blocks as u64;
        if new_bm > 1 << 31 || new_ar > 1 << 31 {
            return Err(Error::invalid("set reserve: a pool would exceed 2^31 blocks"));
        }
        let (new_bm, new_ar) = (new_bm as u32, new_ar as u32);
        let ctx = self.ctx.clone();
        let (cursors, old) = self.download_rings()?;
        let free_ids = |ring: &[u8], head: u32, tail: u32, total: u32, new_total: u32| -> Vec<u32> {
            let ring: &[u32] = bytemuck::cast_slice(ring);
            let mask = ring.len() as u32 - 1;
            let mut ids: Vec<u32> = (0..tail.wrapping_sub(head))
                .map(|i| ring[(head.wrapping_add(i) & mask) as usize])
                .collect();
            ids.extend(total..new_total);
            ids.resize(ring_capacity(new_total) as usize, 0);
            ids
        };
        let bm_free = tail_count(cursors[0], cursors[1]) + (new_bm - self.bm_blocks);
        let ar_free = tail_count(cursors[2], cursors[3]) + (new_ar - self.ar_blocks);
        let bm_ring_image = free_ids(&old[0], cursors[0], cursors[1], self.bm_blocks, new_bm);
        let ar_ring_image = free_ids(&old[1], cursors[2], cursors[3], self.ar_blocks, new_ar);
        let [bm_pool, ar_pool, bm_ring, ar_ring] = Self::pool_buffers(&ctx, new_bm, new_ar)?;
        let meta = meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            new_bm,
            new_ar,
            [0, bm_free, 0, ar_free],
        );
        let (old_bm_bytes, old_ar_bytes) = (
            self.bm_blocks as u64 * BITMAP_BLOCK_BYTES,
            self.ar_blocks as u64 * ARRAY_BLOCK_BYTES,
        );
        let copied = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            for (src, dst, bytes) in [
                (&self.bm_pool, &bm_pool, old_bm_bytes),
                (&self.ar_pool, &ar_pool, old_ar_bytes),
            ] {
                if bytes > 0 {
                    let region = [vk::BufferCopy {
                        src_offset: src.offset(),
                        dst_offset: dst.offset(),
                        size: bytes,
                    }];
                    ctx.device
                        .cmd_copy_buffer(cmd, src.buffer(), dst.buffer(), &region);
                }
            }
            ctx.transfer_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = copied {
            bm_pool.leak();
            ar_pool.leak();
            return Err(Error::Timeout(m));
        }
        copied?;
        Self::upload(
            &ctx,
            &[
                (&self.control, 0, &meta),
                (&bm_ring, 0, bytemuck::cast_slice(&bm_ring_image)),
                (&ar_ring, 0, bytemuck::cast_slice(&ar_ring_image)),
            ],
        )?;
        self.bm_pool = bm_pool;
        self.ar_pool = ar_pool;
        self.bm_ring = bm_ring;
        self.ar_ring = ar_ring;
        self.bm_blocks = new_bm;
        self.ar_blocks = new_ar;
        Ok(())
    }

    /// Reserves free blocks so that a recorded `op` of `a` and `b` into this set takes the
    /// one-pass path: its counting pass is skipped when the free blocks cover a bound computed
    /// from the operands' chunk cardinalities. Per chunk that needs work, the result's size
    /// lies in a range known from `|a|` and `|b|` alone (the intersection's from
    /// `|a| + |b| - 65536` to `min(|a|, |b|)`, the union's from `max(|a|, |b|)` to
    /// `|a| + |b|`, ...): a bitmap block if the result may be a bitmap, array blocks for up to
    /// 4096 values if it may be an array. That bound is what the operation's status then
    /// reports as needed; it exceeds the exact need where results may be either kind (up to 43
    /// array blocks, 8 KiB, beside each bitmap). Blocking (downloads the directories); errors
    /// as [`GpuSet::reserve`].
    pub fn reserve_for_op(&mut self, a: SetOperand, b: SetOperand, op: SetOp) -> Result<()> {
        self.operand_meta(a, "set reserve_for_op")?;
        self.operand_meta(b, "set reserve_for_op")?;
        self.unpack()?;
        let control_a = match a {
            SetOperand::This => &self.control,
            SetOperand::Set(s) => &s.control,
        };
        let control_b = match b {
            SetOperand::This => &self.control,
            SetOperand::Set(s) => &s.control,
        };
        let (set_a, set_b) = (self.operand_set(a), self.operand_set(b));
        let parts = Self::download(
            &self.ctx,
            &[
                (control_a, META_DIR, set_a.dir_bytes()),
                (control_b, META_DIR, set_b.dir_bytes()),
                (&self.control, 64, 16),
            ],
        )?;
        let entries = |set: &GpuSet, bytes: &[u8]| -> Result<Vec<u32>> {
            Ok(set.flat_directory(bytes)?.iter().step_by(2).copied().collect())
        };
        let (bm, ar) = op_block_bound(
            op,
            &entries(set_a, &parts[0])?,
            &entries(set_b, &parts[1])?,
            matches!(a, SetOperand::This),
            matches!(b, SetOperand::This),
        );
        let cursors: &[u32] = bytemuck::cast_slice(&parts[2]);
        let free_bm = cursors[1].wrapping_sub(cursors[0]) as u64;
        let free_ar = cursors[3].wrapping_sub(cursors[2]) as u64;
        let short = |need: u64, free: u64| -> Result<u32> {
            u32::try_from(need.saturating_sub(free))
                .map_err(|_| Error::invalid("set reserve_for_op: a pool would exceed 2^31 blocks"))
        };
        self.reserve(short(bm, free_bm)?, short(ar, free_ar)?)
    }

    /// Gives back the pools' free blocks: the set is moved into pools of exactly the blocks it
    /// uses (as a set read from a serialization), so [`GpuSet::memory_bytes`] drops to what
    /// the content needs. Growth leaves free blocks behind (each growth adds an eighth of the
    /// pool beyond the shortfall, and removals free blocks); call this after building a set
    /// that will mostly be read. Blocking: downloads the rings, copies the blocks in use (those
    /// above the new pool size into free ids below it) and rewrites the references on the GPU.
    /// No-op when no block is free. Errors: a set on the caller's memory
    /// ([`Error::InvalidArgument`]: its pools are fixed), memory ([`Error::OutOfMemory`]).
    pub fn shrink_to_fit(&mut self) -> Result<()> {
        if self.packed.is_some() {
            return Ok(()); // a packed set holds no free block
        }
        if self.on_caller_memory() {
            return Err(Error::invalid(
                "set shrink_to_fit: the set lives on the caller's memory, whose pools are fixed",
            ));
        }
        let ctx = self.ctx.clone();
        let (cursors, old) = self.download_rings()?;
        let bm = Relocation::new(&old[0], cursors[0], cursors[1], self.bm_blocks)?;
        let ar = Relocation::new(&old[1], cursors[2], cursors[3], self.ar_blocks)?;
        if bm.used == self.bm_blocks && ar.used == self.ar_blocks {
            return Ok(());
        }
        let [bm_pool, ar_pool, bm_ring, ar_ring] = Self::pool_buffers(&ctx, bm.used, ar.used)?;
        // Every block is in use: the rings hold no free id (head = tail = 0).
        let meta = ctx.staging_from(&meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            bm.used,
            ar.used,
            [0; 4],
        ))?;
        let mut table = bm.new_ids.clone();
        table.extend_from_slice(&ar.new_ids);
        table.push(0);
        let table = ctx.staging_from(&table)?;
        let push = SetPush {
            meta_d: self.meta(),
            values: table.address(),
            count: bm.used,
            max_count: ar.used,
            aux: bm.new_ids.len() as u32,
            grid: (CHUNKS as u32).div_ceil(wg(&ctx)).min(256),
            ..Default::default()
        };
        let compact = kernel(&ctx, &shaders::SET_COMPACT)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            for (src, dst, reloc, block_bytes) in [
                (&self.bm_pool, &bm_pool, &bm, BITMAP_BLOCK_BYTES),
                (&self.ar_pool, &ar_pool, &ar, ARRAY_BLOCK_BYTES),
            ] {
                let mut regions = Vec::new();
                if reloc.used > 0 {
                    regions.push(vk::BufferCopy {
                        src_offset: src.offset(),
                        dst_offset: dst.offset(),
                        size: reloc.used as u64 * block_bytes,
                    });
                }
                for (i, &to) in reloc.new_ids.iter().enumerate() {
                    if to != u32::MAX {
                        regions.push(vk::BufferCopy {
                            src_offset: src.offset() + (reloc.used as u64 + i as u64) * block_bytes,
                            dst_offset: dst.offset() + to as u64 * block_bytes,
                            size: block_bytes,
                        });
                    }
                }
                if !regions.is_empty() {
                    ctx.device
                        .cmd_copy_buffer(cmd, src.buffer(), dst.buffer(), &regions);
                }
            }
            let region = [vk::BufferCopy {
                src_offset: 0,
                dst_offset: self.control.offset(),
                size: 80,
            }];
            ctx.device
                .cmd_copy_buffer(cmd, meta.buffer(), self.control.buffer(), &region);
            ctx.transfer_to_compute(cmd);
            ctx.dispatch(cmd, compact, &push, push.grid);
            ctx.compute_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            for b in [bm_pool, ar_pool, bm_ring, ar_ring] {
                b.leak();
            }
            meta.leak();
            table.leak();
            return Err(Error::Timeout(m));
        }
        done?;
        self.bm_pool = bm_pool;
        self.ar_pool = ar_pool;
        self.bm_ring = bm_ring;
        self.ar_ring = ar_ring;
        self.bm_blocks = bm.used;
        self.ar_blocks = ar.used;
        Ok(())
    }

    /// Grows the pools after a failed operation: the shortfall plus an eighth of the pool.
    pub(super) fn grow_for(&mut self, status: &SetOpStatus) -> Result<()> {
        let short = |need: u32, free: u32, total: u32| -> u32 {
            if need <= free {
                0
            } else {
                (need - free).saturating_add(total / 8)
            }
        };
        let bm = short(
            status.need_bitmap_blocks,
            status.free_bitmap_blocks,
            self.bm_blocks,
        );
        let ar = short(status.need_array_blocks, status.free_array_blocks, self.ar_blocks);
        if self.on_caller_memory() {
            return Err(Error::OutOfMemory(format!(
                "set on the caller's memory: the operation needs {} bitmap and {} array blocks, \
                 its fixed pools have {} and {} free; the operation changed nothing",
                status.need_bitmap_blocks,
                status.need_array_blocks,
                status.free_bitmap_blocks,
                status.free_array_blocks
            )));
        }
        if bm == 0 && ar == 0 {
            return Err(Error::Internal(
                "set: an operation failed with enough free blocks".into(),
            ));
        }
        self.reserve(bm, ar)
    }
}

/// Where [`GpuSet::shrink_to_fit`] moves one pool's blocks: the pool keeps its `used` blocks
/// in use, and each one above that takes a free id below it.
struct Relocation {
    /// Blocks in use (the new pool size).
    used: u32,
    /// For old ids `used..total`: the new id, or `u32::MAX` where the block was free.
    new_ids: Vec<u32>,
}

impl Relocation {
    /// From a pool's ring image (free ids at ring `[head, tail)`, indexed modulo the ring's
    /// capacity) and its block count.
    fn new(ring: &[u8], head: u32, tail: u32, total: u32) -> Result<Self> {
        let ring: &[u32] = bytemuck::cast_slice(ring);
        let free = tail_count(head, tail);
        if free > total {
            return Err(Error::Internal(format!(
                "set shrink_to_fit: {free} free ids in a pool of {total} blocks"
            )));
        }
        let used = total - free;
        let mask = ring.len() as u32 - 1;
        let mut is_free = vec![false; total as usize];
        for i in 0..free {
            let id = ring[(head.wrapping_add(i) & mask) as usize];
            match is_free.get_mut(id as usize) {
                Some(seen @ false) => *seen = true,
                _ => {
                    return Err(Error::Internal(format!(
                        "set shrink_to_fit: free id {id} out of range or listed twice"
                    )))
                }
            }
        }
        // The free ids below `used` are exactly as many as the blocks in use above it.
        let mut targets = (0..used).filter(|&id| is_free[id as usize]);
        let new_ids = (used..total)
            .map(|id| match is_free[id as usize] {
                true => u32::MAX,
                false => targets.next().unwrap_or(u32::MAX),
            })
            .collect();
        Ok(Relocation { used, new_ids })
    }
}

fn tail_count(head: u32, tail: u32) -> u32 {
    tail.wrapping_sub(head)
}
