//! Reading 64-bit sets: contains (every query in one submission), cardinality, the values in
//! order (every 32-bit set downloaded in one submission), minimum and maximum.

use super::{high, GpuSet64};
use crate::core::buffer::ElementCount;
use crate::core::runner::{finish_submission, read_back};
use crate::error::{Error, Result};
use crate::set::roaring::Chunks;
use crate::set::{GpuSet, GpuSetContainsArgs};

/// Queries per submission of [`GpuSet64::contains`] (the most one recorded contains takes).
const QUERIES_PER_SUBMISSION: usize = 1 << 24;

impl GpuSet64 {
    /// Whether each value is in the set (`found` as long as `values`). The queries are sorted
    /// by high key on the host (a counting pass); those of keys the set has are looked up in
    /// their 32-bit sets, all in one submission per 2^24 queries; the others are absent with no
    /// GPU work. On an error `found` is unchanged.
    pub fn contains(&self, values: &[u64], found: &mut [bool]) -> Result<()> {
        if found.len() != values.len() {
            return Err(Error::invalid(
                "set64 contains: values and found differ in length",
            ));
        }
        let mut result = Vec::new();
        result
            .try_reserve_exact(values.len())
            .map_err(|_| Error::OutOfMemory("set64 contains: too many values".into()))?;
        for part in values.chunks(QUERIES_PER_SUBMISSION) {
            let start = result.len();
            result.resize(start + part.len(), false);
            self.contains_part(part, &mut result[start..])?;
        }
        found.copy_from_slice(&result);
        Ok(())
    }

    /// [`GpuSet64::contains`] of at most [`QUERIES_PER_SUBMISSION`] values, in one submission.
    fn contains_part(&self, values: &[u64], found: &mut [bool]) -> Result<()> {
        let keys: Vec<u32> = self.sets.keys().copied().collect();
        let sets: Vec<&GpuSet> = self.sets.values().collect();
        // Each query's key index (or none), the queries per key and where each key's start.
        let slots: Vec<Option<usize>> = values
            .iter()
            .map(|&v| keys.binary_search(&high(v)).ok())
            .collect();
        let mut starts = vec![0usize; keys.len() + 1];
        for &j in slots.iter().flatten() {
            starts[j + 1] += 1;
        }
        for j in 0..keys.len() {
            starts[j + 1] += starts[j];
        }
        let n = starts[keys.len()];
        found.fill(false);
        if n == 0 {
            return Ok(());
        }
        // The low halves grouped by key; `owner[p]` is the query at position p.
        let mut next = starts.clone();
        let (mut lows, mut owner) = (vec![0u32; n], vec![0usize; n]);
        for (i, (&v, slot)) in values.iter().zip(&slots).enumerate() {
            if let Some(j) = *slot {
                lows[next[j]] = v as u32;
                owner[next[j]] = i;
                next[j] += 1;
            }
        }
        let ctx = &self.ctx;
        let bytes = n as u64 * 4;
        let upload = ctx.staging_from(&lows)?;
        let dev_in = ctx.device_buffer(bytes, "vkalgo set64 queries")?;
        let dev_out = ctx.device_buffer(bytes, "vkalgo set64 flags")?;
        let mut down = ctx.readback_buffer(bytes)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &upload, &dev_in, bytes);
            ctx.transfer_to_compute(cmd);
            for (j, set) in sets.iter().enumerate() {
                let (at, count) = (starts[j] as u64, (starts[j + 1] - starts[j]) as u64);
                if count == 0 {
                    continue;
                }
                set.record_contains(
                    cmd,
                    &GpuSetContainsArgs {
                        values: dev_in.sub_range(4 * at, 4 * count),
                        count: ElementCount::Direct(count),
                        max_count: count,
                        flags: dev_out.sub_range(4 * at, 4 * count),
                    },
                )?;
            }
            ctx.compute_to_transfer(cmd);
            ctx.record_copy(cmd, &dev_out, &down, bytes);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, upload, dev_in, dev_out, down);
        let mut flags = vec![0u32; n];
        read_back(&mut down, &mut flags)?;
        for (&i, &f) in owner.iter().zip(&flags) {
            found[i] = f != 0;
        }
        Ok(())
    }

    /// The number of values (the whole universe, 2^64 values, reports 2^64 - 1). The 32-bit
    /// sets' cardinalities where the host knows them (built from values or read from a
    /// serialization, or counted before), the others counted in one submission.
    pub fn cardinality(&self) -> Result<u64> {
        let sets: Vec<&GpuSet> = self.sets.values().collect();
        Ok(GpuSet::cardinality_many(&sets)?
            .iter()
            .fold(0u64, |sum, &c| sum.saturating_add(c)))
    }

    /// Every 32-bit set's chunks, downloaded in one submission, with their high keys.
    pub(super) fn buckets(&self) -> Result<Vec<(u32, Chunks)>> {
        let sets: Vec<&GpuSet> = self.sets.values().collect();
        let chunks = GpuSet::to_chunks_many(&sets)?;
        Ok(self.sets.keys().copied().zip(chunks).collect())
    }

    /// The values in ascending order into `out`; returns how many. When `out` is too small,
    /// [`Error::InvalidArgument`] naming the cardinality, and nothing is written. One download
    /// of every 32-bit set.
    pub fn to_array(&self, out: &mut [u64]) -> Result<usize> {
        let buckets = self.buckets()?;
        let total = values_in(&buckets);
        if total > out.len() as u64 {
            return Err(Error::invalid(format!(
                "set64 to_array: the set holds {total} values, the output has room for {}",
                out.len()
            )));
        }
        Ok(write_values(&buckets, out))
    }

    /// The values in ascending order (one download of every 32-bit set).
    pub fn to_vec(&self) -> Result<Vec<u64>> {
        let buckets = self.buckets()?;
        let total = values_in(&buckets);
        let mut out = Vec::new();
        usize::try_from(total)
            .ok()
            .and_then(|n| out.try_reserve_exact(n).ok())
            .ok_or_else(|| Error::OutOfMemory(format!("set64 to_vec: no host memory for {total} values")))?;
        out.resize(total as usize, 0);
        write_values(&buckets, &mut out);
        Ok(out)
    }

    /// The smallest value, `None` when the set is empty (one submission: the first 32-bit
    /// set's minimum).
    pub fn minimum(&self) -> Result<Option<u64>> {
        let Some((&k, s)) = self.sets.first_key_value() else {
            return Ok(None);
        };
        let low = s.minimum()?.ok_or_else(|| stored_empty(k))?;
        Ok(Some((k as u64) << 32 | low as u64))
    }

    /// The largest value, `None` when the set is empty (one submission: the last 32-bit set's
    /// maximum).
    pub fn maximum(&self) -> Result<Option<u64>> {
        let Some((&k, s)) = self.sets.last_key_value() else {
            return Ok(None);
        };
        let low = s.maximum()?.ok_or_else(|| stored_empty(k))?;
        Ok(Some((k as u64) << 32 | low as u64))
    }
}

/// The error of a kept 32-bit set found empty (none should be).
fn stored_empty(key: u32) -> Error {
    Error::Internal(format!("set64: the 32-bit set of high key {key} is empty"))
}

/// The number of values in downloaded buckets.
fn values_in(buckets: &[(u32, Chunks)]) -> u64 {
    buckets
        .iter()
        .flat_map(|(_, chunks)| chunks.iter().map(|(_, c)| c.cardinality() as u64))
        .sum()
}

/// Writes the values of downloaded buckets, ascending, into `out` (room for all); returns
/// how many.
fn write_values(buckets: &[(u32, Chunks)], out: &mut [u64]) -> usize {
    let mut n = 0;
    for (k, chunks) in buckets {
        let base = (*k as u64) << 32;
        for low in crate::set::reference::values_from_chunks(chunks) {
            out[n] = base | low as u64;
            n += 1;
        }
    }
    n
}
