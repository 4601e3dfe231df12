//! A set's host images: the chunks as the directory, pools and rings hold them (uploaded by
//! [`GpuSet::from_chunks`], decoded after a download by [`GpuSet::to_chunks`]), and the packed
//! directory's index.

use super::arena::SetShape;
use super::blocks::array_blocks;
use super::gpu::{le_words, GpuSet};
use super::layout::{
    control_bytes, meta_bytes, ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES, CARD_MASK, CHUNKS, DIR_GROUPS,
    META_DIR, RUN_SHIFT,
};
use super::passes::{prepare_kernels, prepare_packed_kernels};
use super::roaring::{Chunks, Container, ARRAY_MAX, CHUNK_VALUES, RUN_MAX};
use crate::core::buffer::ObjectStorage;
use crate::error::{Error, Result};
use crate::Context;

/// The bytes a set made on the host uploads ([`GpuSet::prepare_from_chunks`]): its control
/// buffer (header and directory) and both pools.
pub(super) struct SetImage {
    control: Vec<u8>,
    bm: Vec<u64>,
    ar: Vec<u32>,
}

/// A packed directory's words (index, then `entries` entries) as a flat one. Errors: an index
/// that does not match its entries (a corrupt set).
fn unpack_directory(words: &[u32], entries: u32) -> Result<Vec<u32>> {
    let mut dir = vec![0u32; 2 * CHUNKS as usize];
    for (c, x, id) in packed_entries(words, entries)? {
        dir[2 * c] = x;
        dir[2 * c + 1] = id;
    }
    Ok(dir)
}

/// The non-empty chunks of a downloaded packed directory of `entries` entries, as
/// (chunk, entry word 0, entry word 1) in chunk order.
fn packed_entries(words: &[u32], entries: u32) -> Result<Vec<(usize, u32, u32)>> {
    let corrupt = |m: String| Error::Internal(format!("set download: packed directory {m}"));
    let mut found = Vec::with_capacity(entries as usize);
    let list = &words[DIR_GROUPS * 4..];
    let mut next = 0u32;
    for g in 0..DIR_GROUPS {
        let w = &words[g * 4..g * 4 + 4];
        if w[2] != next {
            return Err(corrupt(format!("group {g} starts at {}, expected {next}", w[2])));
        }
        let mut mask = w[0] as u64 | (w[1] as u64) << 32;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let k = next as usize;
            if next >= entries {
                return Err(corrupt(format!("more than its {entries} entries")));
            }
            let c = g * 64 + i;
            if list[2 * k] == 0 {
                return Err(corrupt(format!("chunk {c} marked non-empty, entry empty")));
            }
            found.push((c, list[2 * k], list[2 * k + 1]));
            next += 1;
        }
    }
    if next != entries {
        return Err(corrupt(format!("{next} chunks marked, {entries} entries")));
    }
    Ok(found)
}

/// The pool blocks and directory form a set of `chunks` (each in its [`Container::gpu_form`])
/// takes ([`GpuSet::prepare_from_chunks`]).
pub(super) fn chunks_shape(chunks: &Chunks, packed: bool) -> SetShape {
    let mut bm_blocks = 0u32;
    let mut array_chunk_blocks = 0u32;
    let mut packed_run_words = 0usize;
    for (_, c) in chunks {
        match c {
            Container::Bitmap(_) => bm_blocks += 1,
            Container::Array(a) => array_chunk_blocks += array_blocks(a.len() as u32),
            Container::Runs(r) if r.len() > 1 => {
                if packed {
                    packed_run_words += r.len();
                } else {
                    array_chunk_blocks += 1;
                }
            }
            _ => {}
        }
    }
    SetShape {
        bm_blocks,
        ar_blocks: array_chunk_blocks + packed_run_words.div_ceil(48) as u32,
        control_bytes: control_bytes(packed.then_some(chunks.len() as u32)),
    }
}

/// The directory's words for `entries` (chunk, word 0, word 1) in ascending chunk order: flat
/// (two words for each of the 65536 chunks) or packed (the index, a uvec4 per 64 chunks: the
/// mask of the non-empty ones, the non-empty chunks before the group, 0; then the entries of
/// the non-empty chunks in chunk order).
fn directory_words(entries: &[(u16, u32, u32)], packed: bool) -> Vec<u32> {
    if !packed {
        let mut dir = vec![0u32; 2 * CHUNKS as usize];
        for &(c, x, id) in entries {
            dir[2 * c as usize] = x;
            dir[2 * c as usize + 1] = id;
        }
        return dir;
    }
    let mut words = vec![0u32; DIR_GROUPS * 4 + 2 * entries.len()];
    let mut at = 0usize;
    for g in 0..DIR_GROUPS {
        let base = at;
        let mut mask = 0u64;
        while at < entries.len() && entries[at].0 as usize / 64 == g {
            mask |= 1 << (entries[at].0 % 64);
            at += 1;
        }
        words[g * 4..g * 4 + 4].copy_from_slice(&[mask as u32, (mask >> 32) as u32, base as u32, 0]);
    }
    for (i, &(_, x, id)) in entries.iter().enumerate() {
        words[DIR_GROUPS * 4 + 2 * i] = x;
        words[DIR_GROUPS * 4 + 2 * i + 1] = id;
    }
    words
}

impl GpuSet {
    /// [`GpuSet::from_chunks`] with a flat or a packed directory (`packed`: the runs of run
    /// chunks of several runs as consecutive words of the array pool, after the arrays'
    /// blocks).
    pub(super) fn from_chunks_in(ctx: &Context, chunks: &Chunks, packed: bool) -> Result<Self> {
        let chunks: Chunks = chunks.iter().map(|(k, c)| (*k, c.clone().gpu_form())).collect();
        let shape = chunks_shape(&chunks, packed);
        let storage = Self::buffers(ctx, shape.bm_blocks, shape.ar_blocks, shape.control_bytes)?;
        let (set, image) = Self::prepare_from_chunks(ctx, &chunks, packed, storage)?;
        Self::upload(ctx, &set.image_parts(&image))?;
        Ok(set)
    }

    /// The parts of [`GpuSet::upload`] that write `image` into this set's buffers.
    pub(super) fn image_parts<'a>(&'a self, image: &'a SetImage) -> [(&'a ObjectStorage, u64, &'a [u8]); 3] {
        [
            (&self.control, 0, &image.control),
            (&self.bm_pool, 0, bytemuck::cast_slice(&image.bm)),
            (&self.ar_pool, 0, bytemuck::cast_slice(&image.ar)),
        ]
    }

    /// A set over `storage` (parts of [`chunks_shape`]'s sizes) for `chunks`, each in its
    /// [`Container::gpu_form`] (flat or packed directory, as [`GpuSet::from_chunks_in`]), and
    /// the image to upload into it ([`GpuSet::image_parts`]): the set holds nothing until it
    /// is uploaded.
    pub(super) fn prepare_from_chunks(
        ctx: &Context,
        chunks: &Chunks,
        packed: bool,
        storage: [ObjectStorage; 5],
    ) -> Result<(Self, SetImage)> {
        prepare_kernels(ctx)?;
        if packed {
            prepare_packed_kernels(ctx)?;
        }
        let SetShape {
            bm_blocks,
            ar_blocks,
            control_bytes,
        } = chunks_shape(chunks, packed);
        let array_chunk_blocks: u32 = chunks
            .iter()
            .map(|(_, c)| match c {
                Container::Array(a) => array_blocks(a.len() as u32),
                Container::Runs(r) if !packed => (r.len() > 1) as u32,
                _ => 0,
            })
            .sum();
        let [control, bm_pool, ar_pool, bm_ring, ar_ring] = storage;
        let mut run_words: Vec<u32> = Vec::new();
        let mut entries: Vec<(u16, u32, u32)> = Vec::with_capacity(chunks.len());
        let mut bm = Vec::<u64>::with_capacity(bm_blocks as usize * 1024);
        let mut ar = Vec::<u32>::with_capacity(ar_blocks as usize * 48);
        let (mut next_bm, mut next_ar) = (0u32, 0u32);
        for (key, c) in chunks {
            let mut x = c.cardinality();
            let id = match c {
                Container::Full => 0,
                Container::Runs(runs) => {
                    let word = |&(first, last): &(u16, u16)| first as u32 | (last as u32) << 16;
                    x |= (runs.len() as u32) << RUN_SHIFT;
                    if runs.len() == 1 {
                        word(&runs[0])
                    } else if packed {
                        let at = array_chunk_blocks * 48 + run_words.len() as u32;
                        run_words.extend(runs.iter().map(word));
                        at
                    } else {
                        let start = ar.len();
                        ar.extend(runs.iter().map(word));
                        ar.resize(start + 48, 0);
                        next_ar += 1;
                        next_ar - 1
                    }
                }
                Container::Bitmap(b) => {
                    bm.extend_from_slice(b);
                    next_bm += 1;
                    next_bm - 1
                }
                Container::Array(a) => {
                    let blocks = array_blocks(a.len() as u32);
                    let start = ar.len();
                    ar.resize(start + blocks as usize * 48, 0);
                    let stream = &mut ar[start..];
                    for i in 1..blocks {
                        stream[i as usize - 1] = next_ar + i;
                    }
                    let h = blocks as usize - 1;
                    for (j, pair) in a.chunks(2).enumerate() {
                        let hi = if pair.len() > 1 { pair[1] as u32 } else { 0 };
                        stream[h + j] = pair[0] as u32 | (hi << 16);
                    }
                    next_ar += blocks;
                    next_ar - blocks
                }
            };
            entries.push((*key, x, id));
        }
        let meta = meta_bytes(
            [&bm_pool, &ar_pool, &bm_ring, &ar_ring],
            bm_blocks,
            ar_blocks,
            [0; 4],
        );
        ar.extend_from_slice(&run_words);
        let mut control_image = vec![0u8; control_bytes as usize];
        control_image[..80].copy_from_slice(&meta);
        control_image[80..84].copy_from_slice(&(chunks.len() as u32).to_le_bytes());
        control_image[META_DIR as usize..]
            .copy_from_slice(bytemuck::cast_slice(&directory_words(&entries, packed)));
        let image = SetImage {
            control: control_image,
            bm,
            ar,
        };
        let set = GpuSet::from_parts(
            ctx,
            [control, bm_pool, ar_pool, bm_ring, ar_ring],
            (bm_blocks, ar_blocks),
            packed.then_some(chunks.len() as u32),
            chunks.len() as u32,
            chunks.iter().map(|(_, c)| c.cardinality() as u64).sum(),
        );
        Ok((set, image))
    }

    /// The set's chunks, downloaded and decoded.
    pub(crate) fn to_chunks(&self) -> Result<Chunks> {
        Self::download_with(&self.ctx, &self.chunk_parts(), |parts| self.decode_chunks(parts))
    }

    /// The parts of [`GpuSet::download`] that [`GpuSet::decode_chunks`] reads: the directory
    /// and both pools.
    pub(super) fn chunk_parts(&self) -> [(&ObjectStorage, u64, u64); 3] {
        [
            (&self.control, META_DIR, self.dir_bytes()),
            (&self.bm_pool, 0, self.bm_blocks as u64 * BITMAP_BLOCK_BYTES),
            (&self.ar_pool, 0, self.ar_blocks as u64 * ARRAY_BLOCK_BYTES),
        ]
    }

    /// The chunks of the downloaded [`GpuSet::chunk_parts`] (directory, bitmap pool, array
    /// pool).
    pub(super) fn decode_chunks(&self, parts: &[&[u8]]) -> Result<Chunks> {
        // The non-empty chunks only (most of a small set's 65536 are empty).
        let words = le_words(parts[0]);
        let nonempty = match self.packed {
            Some(n) => packed_entries(&words, n)?,
            None => (0..CHUNKS as usize)
                .filter(|&c| words[2 * c] != 0)
                .map(|c| (c, words[2 * c], words[2 * c + 1]))
                .collect(),
        };
        let bm = parts[1];
        let ar = le_words(parts[2]);
        let corrupt = |m: String| Error::Internal(format!("set download: {m}"));
        let mut chunks = Chunks::new();
        for (c, x, id) in nonempty {
            let (card, runs) = (x & CARD_MASK, (x >> RUN_SHIFT) as usize);
            let container = match card {
                _ if runs > 0 => {
                    // Several runs: a block (flat) or the index of their first word in the
                    // array pool (packed).
                    let first = if self.packed.is_some() {
                        id as usize
                    } else {
                        id as usize * 48
                    };
                    if runs > RUN_MAX || (runs > 1 && first + runs > ar.len()) {
                        return Err(corrupt(format!("chunk {c}: {runs} runs at {id}")));
                    }
                    let word = |i: usize| if runs == 1 { id } else { ar[first + i] };
                    let list: Vec<(u16, u16)> = (0..runs)
                        .map(|i| (word(i) as u16, (word(i) >> 16) as u16))
                        .collect();
                    if list.iter().any(|&(first, last)| first > last) {
                        return Err(corrupt(format!("chunk {c}: a run ends before it starts")));
                    }
                    let container = Container::Runs(list);
                    let held = container.cardinality();
                    if held != card {
                        return Err(corrupt(format!(
                            "chunk {c}: runs hold {held} values, entry says {card}"
                        )));
                    }
                    container
                }
                0 => continue,
                CHUNK_VALUES => Container::Full,
                n if n > CHUNK_VALUES => return Err(corrupt(format!("chunk {c} cardinality {n}"))),
                n if n > ARRAY_MAX => {
                    if id >= self.bm_blocks {
                        return Err(corrupt(format!("chunk {c} bitmap block {id}")));
                    }
                    let block =
                        &bm[id as usize * BITMAP_BLOCK_BYTES as usize..][..BITMAP_BLOCK_BYTES as usize];
                    Container::Bitmap(
                        block
                            .chunks_exact(8)
                            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
                            .collect(),
                    )
                }
                n => {
                    let k = array_blocks(n);
                    let word = |blk: u32, off: u32| -> Result<u32> {
                        let b = if blk == 0 {
                            id
                        } else {
                            ar[id as usize * 48 + blk as usize - 1]
                        };
                        if b >= self.ar_blocks {
                            return Err(corrupt(format!("chunk {c} array block {b}")));
                        }
                        Ok(ar[b as usize * 48 + off as usize])
                    };
                    if id >= self.ar_blocks {
                        return Err(corrupt(format!("chunk {c} array block {id}")));
                    }
                    let mut values = Vec::with_capacity(n as usize);
                    for j in 0..n {
                        let w = k - 1 + j / 2;
                        let x = word(w / 48, w % 48)?;
                        values.push(if j % 2 == 0 { x as u16 } else { (x >> 16) as u16 });
                    }
                    Container::Array(values)
                }
            };
            chunks.push((c as u16, container));
        }
        Ok(chunks)
    }

    /// Bytes of the directory at META_DIR in the control buffer.
    pub(super) fn dir_bytes(&self) -> u64 {
        control_bytes(self.packed) - META_DIR
    }

    /// The directory downloaded from META_DIR ([`GpuSet::dir_bytes`]) as a flat one (two words
    /// per chunk).
    pub(super) fn flat_directory(&self, bytes: &[u8]) -> Result<Vec<u32>> {
        let words = le_words(bytes);
        match self.packed {
            None => Ok(words),
            Some(n) => unpack_directory(&words, n),
        }
    }
}
