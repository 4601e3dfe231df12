//! GPU hash map: lock-free insert, insert-or-apply (group-by), find, contains, erase, exact
//! size, retrieve-all, clear and rehash, with u32 or u64 keys and u32 or u64 values, usable from the host, from the record
//! layer (your command buffers and buffers), and from your own shaders
//! (`glsl/public/vkalgo_hash_map.glsl`). A multimap over the same table, storing every pair
//! (duplicate keys included), is [`HashMultimap`] ([`multimap`]).
//!
//! ```
//! use vkalgo::{Context, HashKeyType, HashMapDesc, HashValueType};
//! let ctx = Context::new()?;
//! let mut map = ctx.hash_map(&HashMapDesc::new(HashKeyType::U64, HashValueType::U32, 1 << 20))?;
//! map.insert(&[7u64, 8, 9], &[70u32, 80, 90])?;
//! let mut values = [0u32; 2];
//! let mut found = [false; 2];
//! map.find(&[8u64, 1], &mut values, Some(&mut found))?;
//! assert_eq!((values, found), ([80, 0], [true, false]));
//! assert_eq!(map.erase(&[7u64, 1])?, 1);
//! assert_eq!(map.size()?, 2);
//! let (keys, values): (Vec<u64>, Vec<u32>) = map.retrieve_all()?;
//! map.rehash(1 << 21)?;
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Scheme
//! Open addressing over **buckets of 32 bytes** (one memory sector: 4 slots of a u32/u32 map, 2
//! of 16 bytes otherwise; 64-byte buckets on request, [`HashMapDesc::bucket_bytes`]), with
//! **double hashing over buckets**: a key's probe sequence is bucket `h1 mod n`, then
//! `+ step`, `+ 2 step`, ... (mod n) with `1 <= step < n` from a second hash and `n` a prime,
//! so the sequence visits every bucket once. An invocation handles one key at a time (2 per
//! invocation by default on GPUs, [`HashTuning`]) and reads a whole bucket per probe with
//! vector loads. This is the windowed double-hashing layout of cuCollections
//! (NVIDIA/cuCollections, `double_hashing` with bucket storage); the seed
//! (seeds/003, "A Simple GPU Hash Table") used plain linear probing over single slots, whose
//! probe lengths explode with primary clustering at high load (docs/tuning/hash.md#scheme).
//! Buckets absorb most collisions, and double hashing keeps the chains of full buckets
//! short: at load 0.95 a key still finds a free slot within a few buckets.
//!
//! As in the seed, a slot's key is claimed with a compare-and-swap and does not move while
//! other operations run (only the reclaim below moves keys, in dispatches of its own), so
//! concurrent inserts and erases stay correct without locks. No key is ever placed beyond a bucket that
//! holds an EMPTY slot, so a search (lookup, erase, or an insert looking for its key) ends at
//! the first bucket that holds the key or an EMPTY slot. Erase frees the key's slot: EMPTY
//! when its bucket holds an EMPTY slot, else ERASED (a tombstone). Inserts reuse both kinds of
//! free slot: if the key is absent, an insert claims the first free slot (EMPTY or ERASED) in
//! probe order, as cuCollections does. Every erase first records a **reclaim**
//! (glsl/hash/reclaim.comp: five dispatches that return at once unless earlier erases left
//! tombstones in 1/32 of the slots since the last one): stored keys move back into the first
//! tombstone of their probe sequence, and the tombstones that no stored key then passes on its
//! way to its own bucket become EMPTY slots, in place. Long churn keeps the probe sequences of
//! a fresh map, and the storage is the buckets alone (as cuCollections').
//! u32/u32 maps claim a slot with one 64-bit CAS of the whole `{key, value}` pair where the
//! device has 64-bit buffer atomics (cuCollections' packed CAS), else with a key CAS and a
//! value store. How inserts of one key meet at one slot (no duplicates, exact counting) is
//! explained in `glsl/hash/hash_common.glsl`.
//!
//! # Guarantees
//! - **Reserved keys**: the two largest values of the key type (all ones: empty, all ones
//!   minus one: erased). Host calls refuse a batch holding one with
//!   [`Error::InvalidArgument`](crate::Error) before any GPU work; the record layer skips such
//!   keys and reports them ([`InsertStatus::Reserved`], counted as failed). Lookups and erases
//!   of reserved keys find nothing.
//! - **Duplicates in one insert batch**: exactly one slot holds the key afterwards, and its
//!   value is the value of *one of* the batch's occurrences, unspecified which (as in the
//!   seed): split the batch, or deduplicate it, where the last one must win. One occurrence
//!   reports [`InsertStatus::Inserted`] if the key was new, the others `Updated`.
//! - **Insert-or-apply** ([`HashMap::insert_or_apply`], [`HashMap::record_insert_or_apply`];
//!   [`ReduceOp`](crate::ReduceOp) sum, min or max of unsigned values, sums wrapping): each
//!   distinct key of a batch ends with op over its values in the batch, combined with the value
//!   it held before; the result does not depend on the order within the batch. A found key's
//!   value is combined by an atomic operation. u32/u32 maps with the packed claim take one
//!   pass (a new key's slot gets key and value in one CAS, so no update comes before its
//!   value); the other layouts take two: absent keys are claimed with the operation's identity
//!   (0 for sum and max, all ones for min), then every value is applied. A subgroup whose lanes
//!   all hold one key combines their u32 values first and updates the slot once.
//! - **Bounded, never hangs**: every operation visits at most
//!   `min(buckets, 4096)` buckets ([`PROBE_LIMIT`]) per phase (an insert: search and claim;
//!   an erase: search; a reclaim: each stored key's walk). An insert that finds no free
//!   slot there does not store its key and reports it ([`InsertStatus::Full`], the failure
//!   counter, and [`Error::TableFull`](crate::Error) from host calls); everything stored stays
//!   stored and findable, and the size stays exact. Maps of up to 4096 buckets are scanned
//!   whole, so an insert fails there only when no slot at all is free.
//! - **Exact size**: a counter updated by the kernels (new keys add, successful erases
//!   subtract), exact after any sequence of operations.
//! - **Churn**: erased slots are reused by later inserts, so a map whose live load stays at or
//!   below ~0.9 survives any number of erase/insert rounds without [`Error::TableFull`](crate::Error)
//!   and without a rehash (the tests churn maps at loads 0.8 and 0.9 for many rounds).
//!   Tombstones ([`HashMap::stats`]) do not take room from new keys, and the reclaim moves
//!   keys back and keeps only the tombstones that stored keys pass
//!   (docs/tuning/hash.md#reclaim), so absent keys' probe sequences stay as short as in a
//!   fresh map. Lookups see the tombstones of the erases since the last reclaim; a
//!   [`HashMap::rehash`] (to any capacity, the same one included) drops them all.
//! - **Capacity rounding**: a map asked for `capacity` slots gets `s * p` slots, `s` the slots
//!   per bucket and `p` the smallest prime `>= max(2, ceil(capacity / s))` (default buckets:
//!   u32/u32 maps 100 -> 116 and 2^27 -> 2^27 + 140; other layouts 100 -> 106).
//!   [`HashMap::capacity`] returns it. At most [`MAX_SLOTS`] = 2^31 slots after rounding: the
//!   largest accepted capacities ([`max_capacity`]) are 2,147,483,578 (2-slot buckets: 16-byte
//!   slots, 32-byte buckets), 2,147,483,636 (4-slot buckets) and 2,147,483,192 (8-slot
//!   buckets); larger ones are refused with [`Error::InvalidArgument`](crate::Error). The
//!   storage (8 bytes per slot for u32/u32, else 16, and 256 bytes of counters) must also fit
//!   one device allocation.
//! - **Batches**: at most [`MAX_BATCH`] = 2^32 - 1 keys per insert, find, contains or erase
//!   (direct counts and indirect `max_count`); larger ones are refused with
//!   [`Error::InvalidArgument`](crate::Error), nothing recorded. The kernels address every
//!   key, value and output element with 64-bit byte addresses, so indices past 2^31 work.
//! - **Features**: u64 keys or u64 values need `shaderBufferInt64Atomics`
//!   ([`Error::Unsupported`](crate::Error) without it); u32/u32 maps work on any vkalgo device.
//!
//! # Synchronization contract (record layer)
//! Every operation reads its inputs (keys, values, indirect count) in the `COMPUTE_SHADER`
//! stage (`SHADER_READ`) and writes its outputs in `COMPUTE_SHADER` (`SHADER_WRITE`).
//! The map's own storage is read and written in `COMPUTE_SHADER`, and by `TRANSFER` fills in
//! [`HashMap::record_clear`]. vkalgo records the barriers between the passes of one operation;
//! between two operations on one map (and between your writes of the inputs and the operation)
//! record a barrier: [`HashMap::record_barrier`] covers map-to-map ordering. Lookups from your
//! own shaders need the map's writes made visible to their stage first.
//!
//! The host calls (and [`HashMap::new`], which clears the new storage) submit to the context's
//! queue and wait: do not call them from inside [`Context::submit_and_wait`](crate::Context)'s
//! closure, which holds the context's submission lock.

mod apply;
mod geometry;
mod host;
mod map;
pub mod multimap;
mod reclaim;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
pub(crate) mod table;
mod tuning;

pub use geometry::{max_capacity, MAX_BATCH, MAX_SLOTS, PROBE_LIMIT};
#[cfg(test)]
pub(crate) use map::push_layouts;
pub use map::HashMap;
pub use multimap::{
    HashMultimap, HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets,
    HashMultimapRetrieveArgs, HashMultimapTags,
};

use crate::core::buffer::{BufferRange, ElementCount};

/// Key type of a map (the values equal the C constants `VKALGO_KEY_U32` / `VKALGO_KEY_U64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum HashKeyType {
    /// 32-bit unsigned keys; 0xFFFFFFFF and 0xFFFFFFFE are reserved.
    U32 = 0,
    /// 64-bit unsigned keys; the two largest values are reserved.
    U64 = 3,
}

impl HashKeyType {
    /// Bytes per key.
    pub fn bytes(self) -> u64 {
        match self {
            HashKeyType::U32 => 4,
            HashKeyType::U64 => 8,
        }
    }

    /// The smallest reserved key (ERASED; the largest value is EMPTY). Keys at or above it
    /// cannot be stored.
    pub fn first_reserved(self) -> u64 {
        match self {
            HashKeyType::U32 => u32::MAX as u64 - 1,
            HashKeyType::U64 => u64::MAX - 1,
        }
    }
}

/// Value type of a map (the values equal the C constants `VKALGO_VALUE_U32` /
/// `VKALGO_VALUE_U64`). Every value is storable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum HashValueType {
    /// 32-bit values.
    U32 = 1,
    /// 64-bit values.
    U64 = 2,
}

impl HashValueType {
    /// Bytes per value.
    pub fn bytes(self) -> u64 {
        match self {
            HashValueType::U32 => 4,
            HashValueType::U64 => 8,
        }
    }
}

/// What map to create.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashMapDesc {
    /// Key type.
    pub key_type: HashKeyType,
    /// Value type.
    pub value_type: HashValueType,
    /// Slots wanted (> 0); rounded up as the `vkalgo::hash` module docs say. A map holds at most this
    /// many keys; keep the load under ~0.95 for speed.
    pub capacity: u64,
    /// u32/u32 maps only: claim slots with one 64-bit CAS of the `{key, value}` pair
    /// (`Some(true)`, needs `shaderBufferInt64Atomics`) or with a 32-bit key CAS plus a value
    /// store (`Some(false)`). `None`: packed where the device allows. Ignored for other layouts.
    pub packed_insert: Option<bool>,
    /// Bytes per bucket, 32 or 64 (`None`: [`HashMapDesc::default_bucket_bytes`], 32). A lookup
    /// reads one bucket per probe; 64-byte buckets hold twice the slots, so probe sequences
    /// are shorter (fewer dependent memory round trips, especially for absent keys and at high
    /// load) for one more (adjacent) 32-byte sector per probe.
    pub bucket_bytes: Option<u32>,
    /// Kernel tuning (`None`: vkalgo's choice for the device).
    pub tuning: Option<HashTuning>,
}

/// Tuning of the per-key kernels (insert, find, erase): a workgroup handles
/// `workgroup_size * keys_per_invocation` keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HashTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit (at most 1024).
    pub workgroup_size: u32,
    /// Keys each invocation handles (1..=8), one after the other.
    pub keys_per_invocation: u32,
}

impl HashTuning {
    /// The tuning vkalgo uses on this device: 256 invocations x 3 keys on GPUs (the best insert
    /// rate, erases within 1% of their best, lookups equal), 256 x 1 on CPU drivers
    /// (`src/hash/tuning.rs`).
    ///
    /// CPU drivers such as lavapipe end every loop of an invocation after a fixed number of
    /// iterations in total (counting the iterations of inner loops they do not unroll): keep
    /// `keys_per_invocation` at 1 there, so that a key probing the whole bound stays below it
    /// (an insert walks at most 2 x 4096 buckets: search and claim; an erase 4096; the slot
    /// loops inside have no early exit, so they unroll).
    pub fn for_device(ctx: &crate::Context) -> Self {
        tuning::default_tuning(ctx.device_class())
    }
}

impl HashMapDesc {
    /// A map of `capacity` slots (rounded up) with vkalgo's default insert.
    pub fn new(key_type: HashKeyType, value_type: HashValueType, capacity: u64) -> Self {
        HashMapDesc {
            key_type,
            value_type,
            capacity,
            packed_insert: None,
            bucket_bytes: None,
            tuning: None,
        }
    }

    /// The bucket size vkalgo uses when none is given: 32 bytes (4 slots of a u32/u32 map, 2 of
    /// 16 bytes). A probe's second sector costs nearly as much as another random access, more
    /// than the shorter probe sequences of 64-byte buckets save.
    pub fn default_bucket_bytes(_key_type: HashKeyType, _value_type: HashValueType) -> u32 {
        tuning::BUCKET_BYTES.choice
    }
}

/// Per-key outcome of an insert (the u32 codes of the record layer's status output; C:
/// `VKALGO_HASH_STATUS_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum InsertStatus {
    /// The key was not in the map and is now.
    Inserted = 0,
    /// The key was in the map (or another occurrence of it in the batch inserted it): its
    /// value was overwritten.
    Updated = 1,
    /// No free slot within the probe bound: the key was not stored (counted as failed).
    Full = 2,
    /// A reserved key: not stored (counted as failed).
    Reserved = 3,
}

impl InsertStatus {
    /// The status for a u32 code, if it is one.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(InsertStatus::Inserted),
            1 => Some(InsertStatus::Updated),
            2 => Some(InsertStatus::Full),
            3 => Some(InsertStatus::Reserved),
            _ => None,
        }
    }

    /// Whether the key is in the map afterwards.
    pub fn stored(self) -> bool {
        matches!(self, InsertStatus::Inserted | InsertStatus::Updated)
    }
}

/// A key type of the host layer: `u32` or `u64`.
pub trait HashKey: bytemuck::Pod + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync {
    /// The map key type this is.
    const TYPE: HashKeyType;
    /// The key as u64.
    fn to_u64(self) -> u64;
    /// Whether this is one of the two reserved keys.
    fn is_reserved(self) -> bool {
        self.to_u64() >= Self::TYPE.first_reserved()
    }
}

impl HashKey for u32 {
    const TYPE: HashKeyType = HashKeyType::U32;
    fn to_u64(self) -> u64 {
        self as u64
    }
}

impl HashKey for u64 {
    const TYPE: HashKeyType = HashKeyType::U64;
    fn to_u64(self) -> u64 {
        self
    }
}

/// A value type of the host layer: `u32` or `u64`.
pub trait HashValue: bytemuck::Pod + PartialEq + std::fmt::Debug + Send + Sync {
    /// The map value type this is.
    const TYPE: HashValueType;
}

impl HashValue for u32 {
    const TYPE: HashValueType = HashValueType::U32;
}

impl HashValue for u64 {
    const TYPE: HashValueType = HashValueType::U64;
}

/// What a shader needs to look keys up in a map (glsl/public/vkalgo_hash_map.glsl:
/// `VkalgoHashMapView`; C: `VkalgoHashMapDeviceView`). 32 bytes, the same layout in push
/// constants, std140 and std430. Valid until the map is destroyed or rehashed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct HashMapDeviceView {
    /// Device address of bucket 0.
    pub buckets: u64,
    /// Number of buckets (a prime, or 2).
    pub num_buckets: u32,
    /// Buckets a lookup visits at most.
    pub max_probes: u32,
    /// 32 or 64.
    pub key_bits: u32,
    /// 32 or 64.
    pub value_bits: u32,
    /// Bytes per slot: 8 (u32 keys and values) or 16.
    pub slot_bytes: u32,
    /// Slots per bucket (bucket bytes / slot bytes).
    pub bucket_slots: u32,
}

/// Counters of a map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HashMapStats {
    /// Live keys.
    pub size: u64,
    /// Tombstones: erased slots of buckets that were full when erased (inserts reuse them; the
    /// reclaim a later erase starts empties those no stored key needs; a rehash drops them).
    pub tombstones: u64,
    /// Slots of the map.
    pub capacity: u64,
}

/// Buffers of a recorded insert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashInsertArgs {
    /// Keys (the map's key type; offset a multiple of the key size).
    pub keys: BufferRange,
    /// Values (the map's value type), one per key.
    pub values: BufferRange,
    /// How many keys.
    pub count: ElementCount,
    /// For an indirect count: the most it can be (sizes the dispatch and the range checks;
    /// larger GPU counts are clamped to it). Ignored for a direct count.
    pub max_count: u64,
    /// Optional per-key u32 [`InsertStatus`] codes.
    pub status: Option<BufferRange>,
    /// Optional u32 that the number of keys not stored (full or reserved) is ADDED to: zero it
    /// first (e.g. `vkCmdFillBuffer` and a barrier) to read the count of this call alone.
    pub failed_count: Option<BufferRange>,
}

/// Buffers of a recorded find or contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashFindArgs {
    /// Keys to look up.
    pub keys: BufferRange,
    /// Optional output values, one per key (0 for absent keys).
    pub values: Option<BufferRange>,
    /// Optional output u32 flags, one per key: 1 found, 0 not.
    pub found: Option<BufferRange>,
    /// How many keys.
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
}

/// Buffers of a recorded erase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashEraseArgs {
    /// Keys to erase (absent and reserved keys are no error).
    pub keys: BufferRange,
    /// Optional output u32 flags, one per key: 1 if this key erased an entry (of duplicates in
    /// the batch, one reports 1).
    pub erased: Option<BufferRange>,
    /// How many keys.
    pub count: ElementCount,
    /// For an indirect count: the most it can be. Ignored for a direct count.
    pub max_count: u64,
}

/// The destination of a recorded rehash ([`HashMap::record_rehash_into`]).
#[derive(Clone, Copy)]
pub struct HashRehashArgs<'a> {
    /// An empty map of the same key and value types, on memory apart from the source's.
    pub dst: &'a HashMap,
    /// Optional u32 the number of keys that found no slot in `dst` is ADDED to.
    pub failed_count: Option<BufferRange>,
}

/// Where a recorded size goes ([`HashMap::record_size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSizeArgs {
    /// A u32 receiving the number of live keys.
    pub out: BufferRange,
}

/// Buffers of a recorded retrieve_all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashRetrieveArgs {
    /// Output keys (room for `capacity` keys).
    pub keys: BufferRange,
    /// Optional output values (room for `capacity` values).
    pub values: Option<BufferRange>,
    /// Entries the outputs can take; entries past it are not written.
    pub capacity: u64,
    /// A u32 receiving the number of live entries (also when it exceeds `capacity`: then only
    /// `capacity` of them were written).
    pub count_out: BufferRange,
}
