//! What a map and a multimap share: the table a desc describes (its checks: device features,
//! the packed claim, the tuning, the bucket size, the capacity).

use super::geometry::{self, HEADER_BYTES};
use super::map::slot_bytes;
use super::{HashKeyType, HashMapDesc, HashTuning, HashValueType};
use crate::error::{Error, Result};
use crate::Context;

/// A checked desc: the table's types and geometry.
pub(super) struct TableShape {
    pub(super) num_buckets: u32,
    pub(super) bucket_slots: u32,
    pub(super) bucket_bytes: u32,
    pub(super) packed: bool,
    pub(super) tuning: HashTuning,
    /// Bytes of the storage: counters, buckets, one u32 overflow counter per bucket.
    pub(super) bytes: u64,
}

impl TableShape {
    /// Checks `desc` for the table of a `what` ("hash map", "hash multimap"): 64-bit atomics
    /// for u64 keys or values and for a packed claim, a workgroup size and keys per invocation
    /// in range, 32- or 64-byte buckets, a capacity of 1..=2^31 slots after rounding.
    pub(super) fn checked(ctx: &Context, desc: &HashMapDesc, what: &str) -> Result<Self> {
        let int64_atomics = ctx.profile.int64_atomics;
        let wide = desc.key_type == HashKeyType::U64 || desc.value_type == HashValueType::U64;
        if wide && !int64_atomics {
            return Err(Error::unsupported(format!(
                "{what} with {:?} keys and {:?} values needs shaderBufferInt64Atomics, which {} lacks",
                desc.key_type, desc.value_type, ctx.profile.device_name
            )));
        }
        let packed = match desc.packed_insert {
            _ if wide => false,
            None => int64_atomics,
            Some(true) if !int64_atomics => {
                return Err(Error::unsupported(format!(
                    "packed {what} insert needs shaderBufferInt64Atomics, which {} lacks",
                    ctx.profile.device_name
                )))
            }
            Some(p) => p,
        };
        let tuning = desc.tuning.unwrap_or_else(|| HashTuning::for_device(ctx));
        let wg = tuning.workgroup_size;
        if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
            return Err(Error::invalid(format!(
                "{what}: workgroup size {wg} is not a power of two in 32..=device limit"
            )));
        }
        if !(1..=8).contains(&tuning.keys_per_invocation) {
            return Err(Error::invalid(format!(
                "{what}: keys_per_invocation {} not in 1..=8",
                tuning.keys_per_invocation
            )));
        }
        let bucket_bytes = desc
            .bucket_bytes
            .unwrap_or_else(|| HashMapDesc::default_bucket_bytes(desc.key_type, desc.value_type));
        if bucket_bytes != 32 && bucket_bytes != 64 {
            return Err(Error::invalid(format!(
                "{what}: bucket_bytes {bucket_bytes} is neither 32 nor 64"
            )));
        }
        let bucket_slots = bucket_bytes as u64 / slot_bytes(desc.key_type, desc.value_type);
        let buckets = geometry::buckets_for_capacity(desc.capacity, bucket_slots).ok_or_else(|| {
            Error::invalid(format!(
                "{what} capacity {} is not in 1..={}",
                desc.capacity,
                geometry::MAX_SLOTS
            ))
        })?;
        Ok(TableShape {
            num_buckets: buckets as u32,
            bucket_slots: bucket_slots as u32,
            bucket_bytes,
            packed,
            tuning,
            bytes: HEADER_BYTES + buckets * bucket_bytes as u64 + buckets * 4,
        })
    }
}

/// The host calls' error when `failed` of `n` items (`items`: "keys", "pairs") found no free
/// slot within `max_probes` buckets of a table of `capacity` slots; `Ok` when none failed.
pub(crate) fn check_failed(
    what: &str,
    items: &str,
    failed: u32,
    n: u64,
    max_probes: u32,
    capacity: u64,
) -> Result<()> {
    if failed == 0 {
        return Ok(());
    }
    Err(Error::TableFull(format!(
        "{what}: {failed} of {n} {items} found no free slot within {max_probes} buckets and were \
         not stored (capacity {capacity}); the other {items} are stored"
    )))
}
