//! GPU sets of 64-bit integers ([`GpuSet64`]), built as CRoaring's Roaring64 builds them: the
//! high 32 bits of a value select a 32-bit set ([`GpuSet`], kept in a map sorted by high key),
//! the low 32 bits go into it. Insert, remove, contains, cardinality, to-array, minimum and
//! maximum, equality and inclusion, AND / OR / ANDNOT / XOR into a new set or counted only, and
//! the Roaring64 portable format both ways (byte for byte what CRoaring's
//! `roaring64_bitmap_portable_serialize` writes and pyroaring's `BitMap64.serialize` gives).
//!
//! ```
//! use vkalgo::{Context, GpuSet64, SetOp};
//! let ctx = Context::new()?;
//! let a = GpuSet64::from_values(&ctx, &[7, 1 << 40, u64::MAX, 7])?;
//! let b = GpuSet64::from_values(&ctx, &[7, 3 << 32])?;
//! assert_eq!(GpuSet64::op_cardinality(&a, &b, SetOp::And)?, 1);
//! let c = GpuSet64::op(&a, &b, SetOp::Or)?;
//! assert_eq!(c.to_vec()?, vec![7, 3 << 32, 1 << 40, u64::MAX]);
//! let bytes = c.serialize()?; // Roaring64 portable format
//! assert!(GpuSet64::deserialize(&ctx, &bytes)?.equals(&c)?);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # 64-bit sets
//! A [`GpuSet64`] holds a [`GpuSet`] for each high key that has values (none is kept empty:
//! a 32-bit set that an operation or a removal empties is dropped), so its cost follows the
//! number of distinct high keys: each takes a 32-bit set's directory (a packed one, at least
//! 16 KiB, for sets made from host data; a flat one, 512 KiB, for results of operations until
//! [`GpuSet64::pack`]). Values clustered in a few high keys (the usual case: ids, row numbers,
//! offsets below 2^40) cost about what 32-bit sets cost; uniformly random u64 values make one
//! 32-bit set per value and suit CRoaring's tree better.
//!
//! Every call takes a fixed number of submissions whatever the number of high keys. An
//! operation runs the pairs of every key both operands have in ONE submission
//! ([`GpuSet::assign_batch`]), into new sets whose pools were sized first for the bound of
//! their operation (from the operands' directories, one download; the new sets made in one
//! upload), so that no pair has to grow them; a key of one operand only costs no GPU pass:
//! dropped, or its 32-bit set copied buffer to buffer (one submission for all) where the
//! operation keeps it. Cardinality-only operations, equality and inclusion count all pairs in
//! one [`GpuSet::op_cardinality_batch`]; contains looks every query up in one submission;
//! to-array and serialization download every 32-bit set in one. Writes
//! ([`GpuSet64::insert`], [`GpuSet64::remove`]) are copy-on-write: the values are sorted on
//! the host, a high key the set lacks gets a new 32-bit set made on the host, and the 32-bit
//! sets of the keys it has are replaced by `old OR new` (`old ANDNOT new`) written by the GPU
//! into new sets as an operation's pairs, so that a failed call changes nothing.
//!
//! # Format
//! The Roaring64 portable format (RoaringFormatSpec's extension for 64-bit implementations):
//! a little-endian u64 count of 32-bit bitmaps, then for each, in strictly ascending high-key
//! order, its high key as a little-endian u32 and the 32-bit bitmap's Roaring portable
//! serialization ([`GpuSet::serialize`]: runs where CRoaring's `run_optimize` picks them).
//! [`GpuSet64::deserialize`] checks everything: the count against the bytes that follow
//! (each bitmap takes at least 12 bytes, so a count the bytes cannot hold is refused before
//! anything is allocated), strictly ascending keys, every 32-bit bitmap as
//! [`GpuSet::deserialize`] checks it, and no trailing bytes;
//! [`GpuSet64::deserialize_prefix`] reads one serialization from the front of a longer buffer
//! and reports the bytes it took (as CRoaring's `roaring64_bitmap_portable_deserialize_safe`
//! with `roaring64_bitmap_portable_deserialize_size`). Empty 32-bit bitmaps are read (CRoaring
//! reads them too) and hold no value. Reading takes time and host memory linear in the input;
//! the device memory of the sets it makes is linear too, but each non-empty 32-bit bitmap
//! (at least 15 bytes of input) becomes a packed 32-bit set of more than 16 KiB.

mod ops;
mod query;
pub mod reference;
mod roaring64;
mod values;

use crate::error::{Error, Result};
use crate::set::GpuSet;
use crate::Context;
use std::collections::BTreeMap;

/// A set of u64 values on the GPU: a 32-bit [`GpuSet`] per high key (see the
/// [`set64`](crate::set64) module). Holds its [`Context`] alive. Every call blocks until its
/// GPU work is done; the sets of one operation must come from one context.
pub struct GpuSet64 {
    ctx: Context,
    /// The 32-bit set of the values whose high 32 bits are the key; none is empty, none is
    /// written in place (writes replace them).
    sets: BTreeMap<u32, GpuSet>,
}

/// The high 32 bits of a value.
fn high(v: u64) -> u32 {
    (v >> 32) as u32
}

impl GpuSet64 {
    /// An empty set (no GPU work).
    pub fn new(ctx: &Context) -> Result<Self> {
        Ok(GpuSet64 {
            ctx: ctx.clone(),
            sets: BTreeMap::new(),
        })
    }

    /// The context the set lives on.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// Whether the set holds no value (no GPU work: no 32-bit set is kept empty).
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The high keys (high 32 bits) of the set's values, ascending: one 32-bit set each.
    pub fn high_keys(&self) -> Vec<u32> {
        self.sets.keys().copied().collect()
    }

    /// Bytes of device memory the set's 32-bit sets hold ([`GpuSet::memory_bytes`]).
    pub fn memory_bytes(&self) -> u64 {
        self.sets.values().map(GpuSet::memory_bytes).sum()
    }

    /// Gives every 32-bit set its smallest form for reading: written again from the host with
    /// a packed directory ([`GpuSet::pack`]) and no free block (a 32-bit set of more than
    /// [`PACK_MAX_CHUNKS`](crate::set::PACK_MAX_CHUNKS) chunks is left as it is).
    /// The results of operations, inserts and removals are flat with the free blocks their
    /// operation reserved; sets made from values or read from a serialization are packed
    /// already (and left alone). Two submissions (a download and an upload) whatever the number
    /// of high keys; on an error the set is unchanged.
    pub fn pack(&mut self) -> Result<()> {
        let keys: Vec<u32> = self
            .sets
            .iter()
            .filter(|(_, s)| s.packable())
            .map(|(&k, _)| k)
            .collect();
        if keys.is_empty() {
            return Ok(());
        }
        let sets: Vec<&GpuSet> = keys.iter().map(|k| &self.sets[k]).collect();
        let chunks = GpuSet::to_chunks_many(&sets)?;
        let packed = GpuSet::from_chunks_many(&self.ctx, chunks)?;
        for (k, s) in keys.into_iter().zip(packed) {
            self.sets.insert(k, s);
        }
        Ok(())
    }

    /// Refuses sets of different contexts before anything is decided.
    fn check_same_context(&self, other: &GpuSet64, what: &str) -> Result<()> {
        if !self.ctx.same_as(&other.ctx) {
            return Err(Error::invalid(format!(
                "{what}: the sets come from different contexts"
            )));
        }
        Ok(())
    }
}
