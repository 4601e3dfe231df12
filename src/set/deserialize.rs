//! Sets read from Roaring portable serializations on the GPU (glsl/set/deserialize.comp): the
//! host checks every byte and places every container (its form on the GPU and its blocks, as
//! the host-built image would hold them), then one submission copies the bytes to the GPU,
//! writes each set's control block (header, packed index or zeroed flat directory) and every
//! container into its set's pools and directory.

use super::arena::SetShape;
use super::blocks::array_blocks;
use super::gpu::GpuSet;
use super::layout::{control_bytes, ring_capacity, PACK_MAX_CHUNKS};
use super::passes::{kernel, prepare_kernels, prepare_packed_kernels};
use super::roaring::{chunks_of, scan_prefix, ContainerKind, ContainerRef, GpuForm};
use crate::core::buffer::ObjectStorage;
use crate::core::shaders;
use crate::core::spirv::push_constants;
use crate::core::tuning::DeviceClass;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of glsl/set/deserialize.comp (block `DeserializePush`).
    pub(crate) struct DeserializePush {
        pub(super) data: u64,
        pub(super) containers: u64,
        pub(super) sets: u64,
        pub(super) count: u32,
        pub(super) set_count: u32,
        pub(super) mode: u32,
        pub(super) grid: u32,
    }
}

/// Modes of deserialize.comp.
const MODE_CONTAINERS: u32 = 0;
const MODE_CONTROL: u32 = 1;

/// Workgroups that stride over the containers on a GPU; on CPU drivers one a container (their
/// loops end after a fixed number of iterations: docs/driver-bugs.md#lavapipe-loop-limit).
const GPU_CONTAINER_GROUPS: u32 = 4096;

/// Bytes readable past the data (the kernel reads 4-byte words around any byte).
const DATA_PAD: usize = 8;

/// One set's containers, placed: their forms and first blocks (or run words), and its shape.
struct PlacedSet {
    containers: Vec<ContainerRef>,
    /// Per container: its form and its first block (array and bitmap), run block (flat) or
    /// first run word (packed).
    places: Vec<(GpuForm, u32)>,
    packed: bool,
    shape: SetShape,
    cardinality: u64,
}

/// Places `containers` as [`GpuSet::prepare_from_chunks`] lays a set out: in chunk order the
/// array chunks' blocks (and, flat, a block for each run chunk of several runs) and the
/// bitmap chunks' blocks; packed, the runs of run chunks as words after the arrays' blocks.
fn place(containers: Vec<ContainerRef>) -> PlacedSet {
    let packed = !containers.is_empty() && containers.len() <= PACK_MAX_CHUNKS as usize;
    let forms: Vec<GpuForm> = containers.iter().map(ContainerRef::gpu_form).collect();
    let array_chunk_blocks: u32 = containers
        .iter()
        .zip(&forms)
        .map(|(c, f)| match f {
            GpuForm::Array => array_blocks(c.card),
            GpuForm::Runs if !packed && c.runs > 1 => 1,
            _ => 0,
        })
        .sum();
    let (mut next_ar, mut next_bm, mut run_words) = (0u32, 0u32, 0u32);
    let mut places = Vec::with_capacity(containers.len());
    for (c, &form) in containers.iter().zip(&forms) {
        let at = match form {
            GpuForm::Full => 0,
            GpuForm::Runs if c.runs == 1 => 0,
            GpuForm::Runs if packed => {
                run_words += c.runs;
                array_chunk_blocks * 48 + run_words - c.runs
            }
            GpuForm::Runs => {
                next_ar += 1;
                next_ar - 1
            }
            GpuForm::Array => {
                next_ar += array_blocks(c.card);
                next_ar - array_blocks(c.card)
            }
            GpuForm::Bitmap => {
                next_bm += 1;
                next_bm - 1
            }
        };
        places.push((form, at));
    }
    let shape = SetShape {
        bm_blocks: next_bm,
        ar_blocks: array_chunk_blocks + run_words.div_ceil(48),
        control_bytes: control_bytes(packed.then_some(containers.len() as u32)),
    };
    let cardinality = containers.iter().map(|c| c.card as u64).sum();
    PlacedSet {
        containers,
        places,
        packed,
        shape,
        cardinality,
    }
}

impl GpuSet {
    /// Sets from the serializations `data[begin..end]` of `parts`, written on the GPU in one
    /// submission (see the module docs). Malformed input: [`Error::InvalidArgument`] naming
    /// the set, nothing made.
    pub(super) fn deserialize_on_gpu(
        ctx: &Context,
        data: &[u8],
        parts: &[(usize, usize)],
    ) -> Result<Vec<GpuSet>> {
        let mut scanned = Vec::with_capacity(parts.len());
        for (i, &(begin, end)) in parts.iter().enumerate() {
            let named = |e: Error| Error::invalid(format!("set deserialize_many: set {i}: {e}"));
            let (mut found, read) = scan_prefix(&data[begin..end]).map_err(named)?;
            if read != end - begin {
                return Err(named(Error::invalid(format!(
                    "set deserialize: {} trailing bytes after the last container",
                    end - begin - read
                ))));
            }
            for c in &mut found {
                c.at += begin;
            }
            scanned.push(found);
        }
        Self::from_scanned(ctx, data, scanned)
    }

    /// Sets of the containers of checked serializations in `data` (their `at` offsets into
    /// `data`, as [`scan_prefix`] lists them), written on the GPU in one submission. Data of
    /// 4 GiB or more (past the kernel's 32-bit offsets) is decoded on the host and uploaded.
    pub(crate) fn from_scanned(
        ctx: &Context,
        data: &[u8],
        scanned: Vec<Vec<ContainerRef>>,
    ) -> Result<Vec<GpuSet>> {
        if data.len() > (u32::MAX as usize) - DATA_PAD {
            let chunks = scanned
                .iter()
                .map(|found| chunks_of(data, found))
                .collect::<Result<Vec<_>>>()?;
            return GpuSet::from_chunks_many(ctx, chunks);
        }
        let placed: Vec<PlacedSet> = scanned.into_iter().map(place).collect();
        let parts_len = placed.len();
        let containers: usize = placed.iter().map(|p| p.containers.len()).sum();
        let count = u32::try_from(containers)
            .map_err(|_| Error::OutOfMemory("set deserialize_many: too many containers".into()))?;
        let set_count = u32::try_from(parts_len)
            .map_err(|_| Error::invalid("set deserialize_many: more than 2^32 - 1 sets"))?;
        prepare_kernels(ctx)?;
        if placed.iter().any(|p| p.packed) {
            prepare_packed_kernels(ctx)?;
        }
        let shapes: Vec<SetShape> = placed.iter().map(|p| p.shape).collect();
        let storage = Self::buffers_many(ctx, &shapes)?;

        // One upload: the data, the placements (32 bytes a container), the set records (64
        // bytes a set: control, bitmap pool and array pool addresses; packed, first container;
        // containers and the rings' masks; the rings' addresses).
        let data_bytes = data.len().next_multiple_of(16) + 16;
        let records_at = data_bytes + containers * 32;
        let mut staged = vec![0u8; records_at + parts_len * 64];
        staged[..data.len()].copy_from_slice(data);
        let mut at = data_bytes;
        let mut first = 0u32;
        for (s, (p, parts)) in placed.iter().zip(&storage).enumerate() {
            for (k, (c, &(form, dst))) in p.containers.iter().zip(&p.places).enumerate() {
                let kind = match c.kind {
                    ContainerKind::Array => 0u32,
                    ContainerKind::Bitmap => 1,
                    ContainerKind::Runs => 2,
                };
                let form_bits = match form {
                    GpuForm::Full => 0u32,
                    GpuForm::Runs => 1,
                    GpuForm::Array => 2,
                    GpuForm::Bitmap => 3,
                };
                let src_count = match c.kind {
                    ContainerKind::Array => c.card,
                    ContainerKind::Bitmap => 0,
                    ContainerKind::Runs => (c.len / 4) as u32,
                };
                let words = [
                    c.at as u32,
                    c.key as u32 | kind << 16 | form_bits << 20,
                    c.card,
                    src_count,
                    dst,
                    c.runs,
                    s as u32,
                    k as u32,
                ];
                staged[at..at + 32].copy_from_slice(bytemuck::cast_slice(&words));
                at += 32;
            }
            let [control, bm, ar, bm_ring, ar_ring] = parts;
            let mask = |blocks: u32| (ring_capacity(blocks) - 1) as u32;
            let addresses: [u64; 3] = [control.address(), bm.address(), ar.address()];
            let words = [
                u32::from(p.packed),
                first,
                p.containers.len() as u32,
                mask(p.shape.bm_blocks),
                mask(p.shape.ar_blocks),
                0,
            ];
            let rings: [u64; 2] = [bm_ring.address(), ar_ring.address()];
            let r = records_at + s * 64;
            staged[r..r + 24].copy_from_slice(bytemuck::cast_slice(&addresses));
            staged[r + 24..r + 48].copy_from_slice(bytemuck::cast_slice(&words));
            staged[r + 48..r + 64].copy_from_slice(bytemuck::cast_slice(&rings));
            first += p.containers.len() as u32;
        }
        let upload = ctx.staging_from(&staged)?;
        let work = ctx.device_buffer(staged.len() as u64, "vkalgo set deserialize")?;

        let deserialize = kernel(ctx, &shaders::SET_DESERIALIZE)?;
        let base = ctx.address_of(&work.range());
        let cpu = ctx.device_class() == DeviceClass::Cpu;
        let groups = if cpu {
            count
        } else {
            count.min(GPU_CONTAINER_GROUPS)
        }
        .max(1);
        let push = |mode, grid| DeserializePush {
            data: base,
            containers: base + data_bytes as u64,
            sets: base + records_at as u64,
            count,
            set_count,
            mode,
            grid,
        };
        let done = ctx.submit_and_wait(|cmd| unsafe {
            let region = vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: staged.len() as u64,
            };
            ctx.device
                .cmd_copy_buffer(cmd, upload.buffer(), work.buffer(), &[region]);
            ctx.transfer_to_compute(cmd);
            if set_count > 0 {
                ctx.dispatch(cmd, deserialize, &push(MODE_CONTROL, set_count), set_count);
                // Flat directories zeroed before their entries are written.
                ctx.compute_to_compute(cmd);
            }
            if count > 0 {
                ctx.dispatch(cmd, deserialize, &push(MODE_CONTAINERS, groups), groups);
            }
            ctx.compute_to_compute(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = done {
            upload.leak();
            work.leak();
            for parts in storage {
                parts.into_iter().for_each(ObjectStorage::leak);
            }
            return Err(Error::Timeout(m));
        }
        done?;
        Ok(placed
            .into_iter()
            .zip(storage)
            .map(|(p, parts)| {
                let n = p.containers.len() as u32;
                let blocks = (p.shape.bm_blocks, p.shape.ar_blocks);
                GpuSet::from_parts(ctx, parts, blocks, p.packed.then_some(n), n, p.cardinality)
            })
            .collect())
    }
}
