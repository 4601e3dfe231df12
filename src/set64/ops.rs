//! Operations of two 64-bit sets: AND / OR / ANDNOT / XOR into a new set, their cardinalities,
//! equality and inclusion. The high keys of both operands pair up; all pairs run in one
//! submission, and a key of one operand only is decided without a GPU pass.

use super::GpuSet64;
use crate::error::Result;
use crate::set::{GpuSet, SetOperand};
use crate::{Context, SetOp};
use std::collections::BTreeMap;

/// `pairs[i].0 op pairs[i].1` for every pair, each into a new set: one download of the
/// operands' directories sizes each destination's pools for the bound of its operation, one
/// upload makes them, and [`GpuSet::assign_batch`] writes every result in one submission
/// (growing a pool and going on in another submission only if the bound fell short).
pub(super) fn pairwise(ctx: &Context, pairs: &[(&GpuSet, &GpuSet)], op: SetOp) -> Result<Vec<GpuSet>> {
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let bounds = GpuSet::op_bounds_many(pairs, op)?;
    let mut dsts = GpuSet::empty_many(ctx, &bounds)?;
    let mut jobs: Vec<_> = dsts
        .iter_mut()
        .zip(pairs)
        .map(|(d, &(a, b))| (d, SetOperand::Set(a), SetOperand::Set(b), op))
        .collect();
    GpuSet::assign_batch(&mut jobs)?;
    drop(jobs);
    Ok(dsts)
}

/// Where a high key is: in both operands, in the first only, or in the second only.
enum Side<'a> {
    Both(&'a GpuSet, &'a GpuSet),
    First(&'a GpuSet),
    Second(&'a GpuSet),
}

/// Every high key of `a` or `b` (ascending) with its 32-bit sets.
fn sides<'a>(a: &'a GpuSet64, b: &'a GpuSet64) -> Vec<(u32, Side<'a>)> {
    let mut keys: BTreeMap<u32, Side<'a>> = a.sets.iter().map(|(&k, s)| (k, Side::First(s))).collect();
    for (&k, y) in &b.sets {
        match keys.get(&k) {
            Some(Side::First(x)) => {
                let x = *x;
                keys.insert(k, Side::Both(x, y));
            }
            _ => {
                keys.insert(k, Side::Second(y));
            }
        }
    }
    keys.into_iter().collect()
}

/// Whether `op` keeps the values of a key that only the first (`first`) or only the second
/// operand has.
fn keeps_one_sided(op: SetOp, first: bool) -> bool {
    match op {
        SetOp::And => false,
        SetOp::Or | SetOp::Xor => true,
        SetOp::AndNot => first,
    }
}

impl GpuSet64 {
    /// A new set `a op b`. The pairs of 32-bit sets of the keys both operands have run in one
    /// submission (results that come out empty are dropped); the 32-bit sets of keys that one
    /// operand has and the operation keeps are copied buffer to buffer (one more submission for
    /// all of them), the others dropped with no work. Sets of different contexts:
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument).
    pub fn op(a: &GpuSet64, b: &GpuSet64, op: SetOp) -> Result<GpuSet64> {
        a.check_same_context(b, "set64 op")?;
        let (mut pair_keys, mut pairs) = (Vec::new(), Vec::new());
        let (mut copy_keys, mut copies) = (Vec::new(), Vec::new());
        for (k, side) in sides(a, b) {
            match side {
                Side::Both(x, y) => {
                    pair_keys.push(k);
                    pairs.push((x, y));
                }
                Side::First(x) if keeps_one_sided(op, true) => {
                    copy_keys.push(k);
                    copies.push(x);
                }
                Side::Second(y) if keeps_one_sided(op, false) => {
                    copy_keys.push(k);
                    copies.push(y);
                }
                _ => {}
            }
        }
        let results = pairwise(&a.ctx, &pairs, op)?;
        let copied = GpuSet::duplicate_many(&copies)?;
        let mut sets: BTreeMap<u32, GpuSet> = copy_keys.into_iter().zip(copied).collect();
        sets.extend(
            pair_keys
                .into_iter()
                .zip(results)
                .filter(|(_, s)| !s.known_empty()),
        );
        Ok(GpuSet64 {
            ctx: a.ctx.clone(),
            sets,
        })
    }

    /// The cardinality of `a op b` without materializing it: the pairs of 32-bit sets counted
    /// in one submission ([`GpuSet::op_cardinality_batch`]), the 32-bit sets of one-sided keys
    /// that `op` keeps added with their cardinalities (known on the host, or counted in one more
    /// submission). Sets of different contexts:
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument).
    pub fn op_cardinality(a: &GpuSet64, b: &GpuSet64, op: SetOp) -> Result<u64> {
        a.check_same_context(b, "set64 op cardinality")?;
        let (mut pairs, mut kept) = (Vec::new(), Vec::new());
        for (_, side) in sides(a, b) {
            match side {
                Side::Both(x, y) => pairs.push((x, y)),
                Side::First(x) if keeps_one_sided(op, true) => kept.push(x),
                Side::Second(y) if keeps_one_sided(op, false) => kept.push(y),
                _ => {}
            }
        }
        let paired: u64 = GpuSet::op_cardinality_batch(&pairs, op)?.iter().sum();
        let one_sided: u64 = GpuSet::cardinality_many(&kept)?.iter().sum();
        Ok(paired + one_sided)
    }

    /// Whether `self` and `other` hold the same values: the same high keys (no GPU work when
    /// they differ, nor where known cardinalities of a key differ), then `|x XOR y| = 0` for
    /// every key's pair, counted in one submission. Sets of different contexts:
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument).
    pub fn equals(&self, other: &GpuSet64) -> Result<bool> {
        self.check_same_context(other, "set64 equals")?;
        if !self.sets.keys().eq(other.sets.keys()) {
            return Ok(false);
        }
        let pairs: Vec<(&GpuSet, &GpuSet)> = self.sets.values().zip(other.sets.values()).collect();
        let differ = |(x, y): &(&GpuSet, &GpuSet)| matches!((x.host_cardinality(), y.host_cardinality()), (Some(p), Some(q)) if p != q);
        if pairs.iter().any(differ) {
            return Ok(false);
        }
        Ok(GpuSet::op_cardinality_batch(&pairs, SetOp::Xor)?
            .iter()
            .all(|&c| c == 0))
    }

    /// Whether every value of `self` is in `other` (equal sets included): every high key of
    /// `self` in `other` (no GPU work otherwise, nor where a known cardinality of `self`'s
    /// 32-bit set exceeds `other`'s), then `|x ANDNOT y| = 0` for every key's pair, counted in
    /// one submission. Sets of different contexts:
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument).
    pub fn is_subset(&self, other: &GpuSet64) -> Result<bool> {
        self.check_same_context(other, "set64 is_subset")?;
        let mut pairs = Vec::with_capacity(self.sets.len());
        for (k, x) in &self.sets {
            let Some(y) = other.sets.get(k) else {
                return Ok(false);
            };
            if matches!((x.host_cardinality(), y.host_cardinality()), (Some(p), Some(q)) if p > q) {
                return Ok(false);
            }
            pairs.push((x, y));
        }
        Ok(GpuSet::op_cardinality_batch(&pairs, SetOp::AndNot)?
            .iter()
            .all(|&c| c == 0))
    }
}
