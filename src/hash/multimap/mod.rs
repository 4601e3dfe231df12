//! GPU hash multimap: every inserted pair is stored, duplicate keys and duplicate pairs
//! included; count and retrieve every value of a batch of keys. u32 or u64 keys and values,
//! usable from the host, from the record layer (your command buffers and buffers) and from your
//! own shaders (`glsl/public/vkalgo_hash_map.glsl`: `vkalgo_hash_multimap_count_*` and a
//! first/next walk).
//!
//! ```
//! use vkalgo::{Context, HashKeyType, HashMapDesc, HashValueType};
//! let ctx = Context::new()?;
//! let mm = ctx.hash_multimap(&HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 1 << 16))?;
//! mm.insert(&[7u32, 8, 7, 7], &[70u32, 80, 71, 70])?;
//! assert_eq!(mm.size()?, 4);
//! let mut counts = [0u32; 3];
//! mm.count(&[7u32, 9, 8], &mut counts)?;
//! assert_eq!(counts, [3, 0, 1]);
//! let (offsets, mut values): (Vec<u64>, Vec<u32>) = mm.retrieve(&[7u32, 9, 8])?;
//! assert_eq!(offsets, [0, 3, 3, 4]);
//! values[..3].sort();
//! assert_eq!(values, [70, 70, 71, 80]);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Scheme
//! The hash map's table ([`crate::hash`]): buckets of 32 bytes (64 on request), the same slots,
//! reserved keys, hashes and **double hashing over a prime number of buckets**, the same
//! capacity rounding, so a multimap's device view is a [`HashMapDeviceView`](crate::hash::HashMapDeviceView). What differs is
//! cuCollections' `static_multimap` over that layout: there is no erase, so a slot only goes
//! from empty to a pair and keeps it, and an insert does not look for its key; it claims the
//! first empty slot of its key's probe sequence with a compare-and-swap (u32/u32 multimaps: one
//! 64-bit CAS of the whole pair where the device has 64-bit buffer atomics, else a key CAS and
//! a value store). Every pair therefore lies before the first empty slot of its key's
//! sequence, and a walk over a key's pairs ends at the first bucket holding an empty slot:
//! **count** walks it counting matches, **retrieve** walks it again writing the values from the
//! query's offset on, each bucket read once with vector loads, one invocation per key
//! ([`HashTuning`](crate::hash::HashTuning) keys per invocation). The host retrieve counts on the GPU, takes the
//! exclusive prefix of the counts in u64, checks the room, then retrieves. The map's overflow
//! counters are kept (all ones, never changed), so the map's own lookups
//! (`vkalgo_hash_map_find_*`) on a multimap's view give one of the key's values.
//!
//! # Guarantees
//! - **Every pair**: `n` inserts of one pair store it `n` times; count and retrieve report
//!   each stored copy. Within one query the values come in no particular order.
//! - **Reserved keys**: the two largest values of the key type. Host calls refuse a batch
//!   holding one with [`Error::InvalidArgument`](crate::Error) before any GPU work; the record
//!   layer skips them (counted as failed). Counts and retrieves of reserved keys find nothing.
//! - **Bounded, never hangs**: every operation visits at most `min(buckets, 4096)` buckets
//!   ([`PROBE_LIMIT`](crate::hash::PROBE_LIMIT)) per key. A pair that finds no empty slot
//!   there is not stored and counted as failed ([`Error::TableFull`](crate::Error) from host
//!   calls); everything stored stays stored. So one key holds at most `4096 * slots per bucket`
//!   pairs in a multimap of more than 4096 buckets (and fewer where other keys share its
//!   buckets); multimaps of up to 4096 buckets are walked whole, so an insert fails there only
//!   when no slot at all is empty.
//! - **Exact size**: a counter of the pairs stored, updated by the insert kernel.
//! - **Capacity, batches, features**: as for [`HashMap`](crate::HashMap): `s * p` slots for a
//!   requested capacity, at most [`MAX_SLOTS`](crate::hash::MAX_SLOTS); at most
//!   [`MAX_BATCH`](crate::hash::MAX_BATCH) keys per insert, count or retrieve; u64 keys or
//!   values need `shaderBufferInt64Atomics`. A key's count is a u32; retrieve offsets may be
//!   u32 (what vkalgo's scan of the counts gives) or u64, and positions are u64 on the GPU.
//!
//! # Synchronization contract (record layer)
//! Every operation reads its inputs (keys, values, offsets, indirect count) in the
//! `COMPUTE_SHADER` stage (`SHADER_READ`) and writes its outputs in `COMPUTE_SHADER`
//! (`SHADER_WRITE`); the multimap's storage is read and written in `COMPUTE_SHADER`, and by
//! `TRANSFER` fills in [`HashMultimap::record_clear`]. Between two operations on a multimap
//! (an insert and a count, a count and a retrieve that uses its counts, ...) record a barrier:
//! [`HashMultimap::record_barrier`] covers multimap-to-multimap ordering; between your writes of
//! the inputs and the operation (and between a count and your scan of its counts) record your
//! own. Inserts must not run concurrently with counts, retrieves or your shaders' reads.
//!
//! The host calls submit to the context's queue and wait: do not call them from inside
//! [`Context::submit_and_wait`](crate::Context)'s closure. A host retrieve takes two
//! submissions (count, then retrieve); host inserts and clears from other threads wait for it,
//! and should recorded work change the multimap between the two, it starts over (a few
//! times, then [`Error::InvalidArgument`](crate::Error)).

mod host;
mod object;
mod push;
mod record;
pub mod reference;

pub(crate) use object::prepare_kernels;
pub use object::HashMultimap;
#[cfg(test)]
pub(crate) use push::push_layouts;

use crate::core::buffer::{BufferRange, ElementCount};

/// Buffers of a recorded multimap insert ([`HashMultimap::record_insert`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashMultimapInsertArgs {
    /// Keys (the multimap's key type; offset a multiple of the key size).
    pub keys: BufferRange,
    /// Values (the multimap's value type), one per key.
    pub values: BufferRange,
    /// How many pairs.
    pub count: ElementCount,
    /// For an indirect count: the most it can be (sizes the dispatch and the range checks;
    /// larger GPU counts are clamped to it). Ignored for a direct count.
    pub max_count: u64,
    /// Optional u32 that the number of pairs not stored (no empty slot within the probe bound,
    /// or a reserved key) is ADDED to: zero it first to read the count of this call alone.
    pub failed_count: Option<BufferRange>,
}

/// Buffers of a recorded count ([`HashMultimap::record_count`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashMultimapCountArgs {
    /// Keys to count.
    pub keys: BufferRange,
    /// Output u32 per key: the number of stored pairs with that key.
    pub counts_out: BufferRange,
    /// How many keys.
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
}

/// Where each key's values start in a recorded retrieve: one offset per key, in values (for
/// example the exclusive scan of a count's output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashMultimapOffsets {
    /// u32 offsets (what vkalgo's u32 scan of the counts gives).
    U32(BufferRange),
    /// u64 offsets (totals past 2^32 - 1 values).
    U64(BufferRange),
}

impl HashMultimapOffsets {
    /// The offsets' buffer range.
    pub fn range(&self) -> BufferRange {
        match *self {
            HashMultimapOffsets::U32(r) | HashMultimapOffsets::U64(r) => r,
        }
    }

    /// Bytes per offset.
    pub fn bytes(&self) -> u64 {
        match self {
            HashMultimapOffsets::U32(_) => 4,
            HashMultimapOffsets::U64(_) => 8,
        }
    }
}

/// The tags of a recorded retrieve ([`HashMultimapRetrieveArgs::tags`]): key i's tag, `tags`
/// element i, is written at every position of `tags_out` where one of key i's values is
/// written in `values_out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashMultimapTags {
    /// One u32 per key.
    pub tags: BufferRange,
    /// Room for `capacity` u32, written at the positions of the values.
    pub tags_out: BufferRange,
}

/// Buffers of a recorded retrieve ([`HashMultimap::record_retrieve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashMultimapRetrieveArgs {
    /// Keys to retrieve.
    pub keys: BufferRange,
    /// Per key, the position in `values_out` where its values start.
    pub offsets: HashMultimapOffsets,
    /// Output values (room for `capacity` values of the multimap's value type).
    pub values_out: BufferRange,
    /// Values `values_out` can take: positions at or past it are not written.
    pub capacity: u64,
    /// Optional tags: a u32 per key, written beside each of its values (a join's probe
    /// payloads, so that one retrieve writes the joined pairs).
    pub tags: Option<HashMultimapTags>,
    /// How many keys.
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
}
