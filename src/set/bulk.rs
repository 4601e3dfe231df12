//! Sets in bulk, each step one submission whatever their number (the 64-bit sets of
//! src/set64/ keep one set per high key): sets made from host chunks, sets downloaded as
//! chunks, copies made on the GPU, empty sets with free blocks, the block bounds of their
//! operations and their cardinalities.

use super::arena::SetShape;
use super::blocks::op_block_bound;
use super::gpu::{GpuSet, UNKNOWN_CARDINALITY};
use super::image::chunks_shape;
use super::layout::{
    control_bytes, meta_bytes, part_sizes, ring_capacity, CONTROL_BYTES, META_DIR, PACK_MAX_CHUNKS,
};
use super::passes::{check_pool_blocks, prepare_kernels};
use super::roaring::{Chunks, Container, ARRAY_MAX, CHUNK_VALUES};
use super::transfer::StagedUpload;
use super::GpuSetRangeCardinalityArgs;
use crate::core::buffer::ObjectStorage;
use crate::core::runner::{finish_submission, read_back};
use crate::error::{Error, Result};
use crate::{Context, SetOp};
use ash::vk;

/// Directory bytes one download of [`GpuSet::op_bounds_many`] holds at most (a flat directory
/// takes 512 KiB): host-visible memory stays bounded for any number of pairs.
const BOUND_DOWNLOAD_BYTES: u64 = 256 << 20;

/// The chunks of ascending distinct values, in vkalgo's normal form (an array up to 4096
/// values, full at 65536, else a bitmap): one step a value, and a bitmap only for chunks of
/// more than 4096 values (sparse values cost no 8 KiB a chunk).
pub(crate) fn chunks_of_sorted(values: &[u32]) -> Chunks {
    let mut chunks = Chunks::new();
    let mut i = 0;
    while i < values.len() {
        let key = values[i] >> 16;
        let n = values[i..].partition_point(|&v| v >> 16 == key);
        let lows = values[i..i + n].iter().map(|&v| v as u16);
        let container = if n as u32 == CHUNK_VALUES {
            Container::Full
        } else if n as u32 <= ARRAY_MAX {
            Container::Array(lows.collect())
        } else {
            let mut bits = vec![0u64; 1024];
            for low in lows {
                bits[low as usize / 64] |= 1 << (low % 64);
            }
            Container::Bitmap(bits)
        };
        chunks.push((key as u16, container));
        i += n;
    }
    chunks
}

impl GpuSet {
    /// Sets holding `chunks[i]` each (in its [`Container::gpu_form`]), uploaded in one
    /// submission, small ones sharing allocations ([`GpuSet::buffers_many`]). A set of at most
    /// [`PACK_MAX_CHUNKS`] non-empty chunks gets a packed directory ([`GpuSet::pack`]: read by
    /// every call, unpacked by the first write), a larger or empty one a flat directory.
    pub(crate) fn from_chunks_many(ctx: &Context, mut chunks: Vec<Chunks>) -> Result<Vec<GpuSet>> {
        for c in chunks.iter_mut() {
            for (_, container) in c.iter_mut() {
                *container = std::mem::replace(container, Container::Full).gpu_form();
            }
        }
        let packed = |c: &Chunks| !c.is_empty() && c.len() <= PACK_MAX_CHUNKS as usize;
        let shapes: Vec<SetShape> = chunks.iter().map(|c| chunks_shape(c, packed(c))).collect();
        let storage = Self::buffers_many(ctx, &shapes)?;
        let mut made = Vec::with_capacity(chunks.len());
        for (c, parts) in chunks.iter().zip(storage) {
            made.push(Self::prepare_from_chunks(ctx, c, packed(c), parts)?);
        }
        let parts: Vec<_> = made
            .iter()
            .flat_map(|(set, image)| set.image_parts(image))
            .collect();
        if !parts.is_empty() {
            Self::upload(ctx, &parts)?;
        }
        Ok(made.into_iter().map(|(set, _)| set).collect())
    }

    /// The chunks of each set, downloaded in one submission. The sets must come from one
    /// context.
    pub(crate) fn to_chunks_many(sets: &[&GpuSet]) -> Result<Vec<Chunks>> {
        let Some(first) = sets.first() else {
            return Ok(Vec::new());
        };
        for s in sets {
            first.check_same_context(s, "set download")?;
        }
        let parts: Vec<_> = sets.iter().flat_map(|s| s.chunk_parts()).collect();
        Self::download_with(&first.ctx, &parts, |bytes| {
            sets.iter()
                .zip(bytes.chunks_exact(3))
                .map(|(s, b)| s.decode_chunks(b))
                .collect()
        })
    }

    /// Copies of the sets, made on the GPU in one submission: each part (directory, pools,
    /// rings) copied buffer to buffer, then the copy's own addresses written over the header's
    /// first 64 bytes. A copy owns its memory and has its source's directory form, pools (free
    /// blocks included), cursors and host bookkeeping. The sets must come from one context.
    pub(crate) fn duplicate_many(sets: &[&GpuSet]) -> Result<Vec<GpuSet>> {
        let Some(first) = sets.first() else {
            return Ok(Vec::new());
        };
        let ctx = &first.ctx;
        for s in sets {
            first.check_same_context(s, "set copy")?;
        }
        let shapes: Vec<SetShape> = sets
            .iter()
            .map(|s| SetShape {
                bm_blocks: s.bm_blocks,
                ar_blocks: s.ar_blocks,
                control_bytes: control_bytes(s.packed),
            })
            .collect();
        let storage = Self::buffers_many(ctx, &shapes)?;
        let mut copies = Vec::with_capacity(sets.len());
        // Each copy's header addresses, 64 bytes a set, in one staging buffer.
        let mut meta_image = Vec::with_capacity(64 * sets.len());
        for (s, [control, bm_pool, ar_pool, bm_ring, ar_ring]) in sets.iter().zip(storage) {
            let meta = meta_bytes(
                [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
                s.bm_blocks,
                s.ar_blocks,
                [0; 4],
            );
            meta_image.extend_from_slice(&meta[..64]);
            copies.push(GpuSet::from_parts(
                ctx,
                [control, bm_pool, ar_pool, bm_ring, ar_ring],
                (s.bm_blocks, s.ar_blocks),
                s.packed,
                s.chunk_bound(),
                s.known_cardinality().unwrap_or(UNKNOWN_CARDINALITY),
            ));
        }
        let metas = ctx.staging_from(&meta_image)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.compute_to_transfer(cmd);
            for (s, c) in sets.iter().zip(&copies) {
                let sizes = part_sizes(s.bm_blocks, s.ar_blocks);
                let parts = [
                    (&s.control, &c.control, control_bytes(s.packed)),
                    (&s.bm_pool, &c.bm_pool, sizes[1]),
                    (&s.ar_pool, &c.ar_pool, sizes[2]),
                    (&s.bm_ring, &c.bm_ring, sizes[3]),
                    (&s.ar_ring, &c.ar_ring, sizes[4]),
                ];
                for (src, dst, size) in parts {
                    if size > 0 {
                        let region = [vk::BufferCopy {
                            src_offset: src.offset(),
                            dst_offset: dst.offset(),
                            size,
                        }];
                        ctx.device
                            .cmd_copy_buffer(cmd, src.buffer(), dst.buffer(), &region);
                    }
                }
            }
            // The headers' addresses over the copied ones (a second write of those bytes).
            ctx.transfer_to_transfer(cmd);
            for (i, c) in copies.iter().enumerate() {
                let region = [vk::BufferCopy {
                    src_offset: 64 * i as u64,
                    dst_offset: c.control.offset(),
                    size: 64,
                }];
                ctx.device
                    .cmd_copy_buffer(cmd, metas.buffer(), c.control.buffer(), &region);
            }
            ctx.transfer_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            for c in copies {
                for part in [c.control, c.bm_pool, c.ar_pool, c.bm_ring, c.ar_ring] {
                    part.leak();
                }
            }
            metas.leak();
            return Err(Error::Timeout(m));
        }
        done?;
        Ok(copies)
    }

    /// Empty sets with flat directories and `blocks[i]` = (bitmap, array) blocks free in their
    /// pools, made in one submission: destinations whose operations need no pool growth.
    pub(crate) fn empty_many(ctx: &Context, blocks: &[(u32, u32)]) -> Result<Vec<GpuSet>> {
        let (sets, init) = Self::empty_many_staged(ctx, blocks)?;
        if let Some(init) = init {
            init.run(ctx)?;
        }
        Ok(sets)
    }

    /// [`GpuSet::empty_many`] with the sets' initialization (headers and rings uploaded,
    /// directories zeroed) staged, for the caller to record before any use of the sets (`None`
    /// when there are no sets).
    pub(super) fn empty_many_staged(
        ctx: &Context,
        blocks: &[(u32, u32)],
    ) -> Result<(Vec<GpuSet>, Option<StagedUpload>)> {
        prepare_kernels(ctx)?;
        for &(bm, ar) in blocks {
            check_pool_blocks(bm, ar)?;
        }
        let shapes: Vec<SetShape> = blocks
            .iter()
            .map(|&(bm_blocks, ar_blocks)| SetShape {
                bm_blocks,
                ar_blocks,
                control_bytes: CONTROL_BYTES,
            })
            .collect();
        let storage = Self::buffers_many(ctx, &shapes)?;
        let sets: Vec<GpuSet> = blocks
            .iter()
            .zip(storage)
            .map(|(&blocks, parts)| GpuSet::from_parts(ctx, parts, blocks, None, 0, 0))
            .collect();
        if sets.is_empty() {
            return Ok((sets, None));
        }
        let init = Self::stage_empty(ctx, &sets.iter().collect::<Vec<_>>())?;
        Ok((sets, Some(init)))
    }

    /// The initialization of new sets as empty sets with flat directories and every pool block
    /// free, staged for the caller to record: their headers and rings uploaded over zeroed
    /// control buffers.
    pub(super) fn stage_empty(ctx: &Context, sets: &[&GpuSet]) -> Result<StagedUpload> {
        let images: Vec<[Vec<u8>; 3]> = sets
            .iter()
            .map(|s| {
                let (bm, ar) = (s.bm_blocks, s.ar_blocks);
                let parts = [&s.bm_pool, &s.ar_pool, &s.bm_ring, &s.ar_ring];
                let free = |n: u32| -> Vec<u8> {
                    let mut ids: Vec<u32> = (0..n).collect();
                    ids.resize(ring_capacity(n) as usize, 0);
                    bytemuck::cast_slice(&ids).to_vec()
                };
                [meta_bytes(parts, bm, ar, [0, bm, 0, ar]), free(bm), free(ar)]
            })
            .collect();
        let parts: Vec<(&ObjectStorage, u64, &[u8])> = sets
            .iter()
            .zip(&images)
            .flat_map(|(s, [meta, bm, ar])| {
                [
                    (&s.control, 0, meta.as_slice()),
                    (&s.bm_ring, 0, bm.as_slice()),
                    (&s.ar_ring, 0, ar.as_slice()),
                ]
            })
            .collect();
        let zeros: Vec<(&ObjectStorage, u64, u64)> =
            sets.iter().map(|s| (&s.control, 0, CONTROL_BYTES)).collect();
        StagedUpload::new(ctx, &parts, &zeros)
    }

    /// For each pair, the (bitmap, array) blocks `a op b` written into an empty set needs at
    /// most ([`GpuSet::reserve_for_op`]'s bound: with that many free, the operation takes the
    /// one-pass path and never grows the pools). Downloads the directories, one submission per
    /// 256 MiB of them. The sets must come from one context.
    pub(crate) fn op_bounds_many(pairs: &[(&GpuSet, &GpuSet)], op: SetOp) -> Result<Vec<(u32, u32)>> {
        let Some(&(first, _)) = pairs.first() else {
            return Ok(Vec::new());
        };
        let mut bounds = Vec::with_capacity(pairs.len());
        let mut start = 0;
        while start < pairs.len() {
            let mut end = start;
            let mut bytes = 0u64;
            while end < pairs.len() && (end == start || bytes < BOUND_DOWNLOAD_BYTES) {
                bytes += pairs[end].0.dir_bytes() + pairs[end].1.dir_bytes();
                end += 1;
            }
            let mut parts = Vec::with_capacity(2 * (end - start));
            for (a, b) in &pairs[start..end] {
                first.check_same_context(a, "set op bounds")?;
                first.check_same_context(b, "set op bounds")?;
                parts.push((&a.control, META_DIR, a.dir_bytes()));
                parts.push((&b.control, META_DIR, b.dir_bytes()));
            }
            let dirs = Self::download(&first.ctx, &parts)?;
            for ((a, b), d) in pairs[start..end].iter().zip(dirs.chunks_exact(2)) {
                let entries = |set: &GpuSet, bytes: &[u8]| -> Result<Vec<u32>> {
                    Ok(set.flat_directory(bytes)?.iter().step_by(2).copied().collect())
                };
                let (bm, ar) = op_block_bound(op, &entries(a, &d[0])?, &entries(b, &d[1])?, false, false);
                let fit = |n: u64| {
                    u32::try_from(n).map_err(|_| Error::invalid("set op: a pool would exceed 2^31 blocks"))
                };
                bounds.push((fit(bm)?, fit(ar)?));
            }
            start = end;
        }
        Ok(bounds)
    }

    /// The cardinality of each set: where the host knows it, with no GPU work; the others
    /// counted in one submission (and remembered, as [`GpuSet::cardinality`] does). Sets of
    /// different contexts: [`Error::InvalidArgument`], whatever the host knows.
    pub(crate) fn cardinality_many(sets: &[&GpuSet]) -> Result<Vec<u64>> {
        if let Some(first) = sets.first() {
            for s in sets {
                first.check_same_context(s, "set cardinality")?;
            }
        }
        let mut out = vec![0u64; sets.len()];
        let mut unknown = Vec::new();
        for (i, s) in sets.iter().enumerate() {
            match s.known_cardinality() {
                Some(c) => out[i] = c,
                None => unknown.push(i),
            }
        }
        let Some(&i0) = unknown.first() else {
            return Ok(out);
        };
        let ctx = &sets[i0].ctx;
        let bytes = 8 * unknown.len() as u64;
        let mut counts = ctx.readback_buffer(bytes.max(16))?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            for (j, &i) in unknown.iter().enumerate() {
                sets[i].record_range_cardinality(
                    cmd,
                    &GpuSetRangeCardinalityArgs {
                        begin: 0,
                        end: 1 << 32,
                        out: counts.sub_range(8 * j as u64, 8),
                    },
                )?;
            }
            ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, counts);
        let mut words = vec![0u32; 2 * unknown.len()];
        read_back(&mut counts, &mut words)?;
        for (j, &i) in unknown.iter().enumerate() {
            let c = words[2 * j] as u64 | (words[2 * j + 1] as u64) << 32;
            sets[i].remember_cardinality(c);
            out[i] = c;
        }
        Ok(out)
    }

    /// The cardinality where the host knows it without GPU work ([`GpuSet::cardinality`]).
    pub(crate) fn host_cardinality(&self) -> Option<u64> {
        self.known_cardinality()
    }

    /// Whether [`GpuSet::pack`] would pack the set: flat, with at most [`PACK_MAX_CHUNKS`]
    /// non-empty chunks by the host's bound (exact after every blocking write).
    pub(crate) fn packable(&self) -> bool {
        self.packed.is_none() && self.chunk_bound() <= PACK_MAX_CHUNKS
    }

    /// Whether the host knows the set to be empty: its bound on non-empty chunks is 0 (exact
    /// after every blocking write, which reads the count back) or its known cardinality is 0.
    pub(crate) fn known_empty(&self) -> bool {
        self.chunk_bound() == 0 || self.known_cardinality() == Some(0)
    }
}
