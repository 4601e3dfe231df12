//! Building and writing 64-bit sets from values: the values sorted on the host and cut by high
//! key, each key's low halves made into a 32-bit set on the host (one upload for all keys),
//! merged into the set's existing 32-bit sets by one batched GPU operation (copy-on-write).

use super::ops::pairwise;
use super::{high, GpuSet64};
use crate::error::{Error, Result};
use crate::set::{chunks_of_sorted, GpuSet};
use crate::{Context, SetOp};

/// The distinct values, ascending, cut by high key: (high key, its low halves ascending).
fn buckets_of(values: &[u64]) -> Result<Vec<(u32, Vec<u32>)>> {
    let mut sorted = Vec::new();
    sorted
        .try_reserve_exact(values.len())
        .map_err(|_| Error::OutOfMemory(format!("set64: no host memory to sort {} values", values.len())))?;
    sorted.extend_from_slice(values);
    sorted.sort_unstable();
    sorted.dedup();
    let mut buckets = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let key = high(sorted[i]);
        let n = sorted[i..].partition_point(|&v| high(v) == key);
        buckets.push((key, sorted[i..i + n].iter().map(|&v| v as u32).collect()));
        i += n;
    }
    Ok(buckets)
}

/// A 32-bit set per bucket, made on the host and uploaded in one submission.
fn bucket_sets(ctx: &Context, buckets: &[(u32, Vec<u32>)]) -> Result<Vec<(u32, GpuSet)>> {
    let chunks: Vec<_> = buckets.iter().map(|(_, lows)| chunks_of_sorted(lows)).collect();
    let sets = GpuSet::from_chunks_many(ctx, chunks)?;
    Ok(buckets.iter().map(|(k, _)| *k).zip(sets).collect())
}

impl GpuSet64 {
    /// A set of `values` (any order, duplicates allowed): sorted on the host, one 32-bit set
    /// per high key made on the host with a packed directory, all uploaded in one submission.
    pub fn from_values(ctx: &Context, values: &[u64]) -> Result<Self> {
        let buckets = buckets_of(values)?;
        Ok(GpuSet64 {
            ctx: ctx.clone(),
            sets: bucket_sets(ctx, &buckets)?.into_iter().collect(),
        })
    }

    /// Inserts `values` (any order, duplicates allowed). High keys the set lacks get new 32-bit
    /// sets (made on the host, one upload); the 32-bit sets of the keys it has are replaced by
    /// their union with the new values, all written by the GPU in one submission (after one
    /// download of their directories that sizes the new sets). On an error the set is
    /// unchanged.
    pub fn insert(&mut self, values: &[u64]) -> Result<()> {
        self.write(values, SetOp::Or)
    }

    /// Removes `values` (any order, duplicates and absent values allowed): the 32-bit sets of
    /// the high keys they touch are replaced by their difference with them, as
    /// [`GpuSet64::insert`] does; 32-bit sets left empty are dropped. On an error the set is
    /// unchanged.
    pub fn remove(&mut self, values: &[u64]) -> Result<()> {
        self.write(values, SetOp::AndNot)
    }

    /// `self = self op values` for OR (insert) or ANDNOT (remove), copy-on-write.
    fn write(&mut self, values: &[u64], op: SetOp) -> Result<()> {
        let mut buckets = buckets_of(values)?;
        if op == SetOp::AndNot {
            // Values of high keys the set lacks remove nothing.
            buckets.retain(|(k, _)| self.sets.contains_key(k));
        }
        if buckets.is_empty() {
            return Ok(());
        }
        let made = bucket_sets(&self.ctx, &buckets)?;
        let (merge, fresh): (Vec<_>, Vec<_>) = made.into_iter().partition(|(k, _)| self.sets.contains_key(k));
        let pairs: Vec<(&GpuSet, &GpuSet)> = merge.iter().map(|(k, s)| (&self.sets[k], s)).collect();
        let merged = pairwise(&self.ctx, &pairs, op)?;
        // Everything is computed: the set changes now, and nothing below can fail.
        for ((k, _), s) in merge.iter().zip(merged) {
            if s.known_empty() {
                self.sets.remove(k);
            } else {
                self.sets.insert(*k, s);
            }
        }
        self.sets.extend(fresh);
        Ok(())
    }
}
