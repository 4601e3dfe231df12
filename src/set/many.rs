//! Many sets in one call, on the blocking host layer: the many-way operation (`sets[0] op
//! sets[1] op ...`), the batch of independent pairs, and sets built, serialized, read,
//! listed and counted many at a time (their values or bytes back to back, with offsets).

use super::bulk::chunks_of_sorted;
use super::gpu::{GpuSet, SetOperand};
use super::host::Destinations;
use super::many_op::SET_MANY_OP_CPU_MAX;
use crate::core::tuning::DeviceClass;
use crate::error::{Error, Result};
use crate::{Context, SetOp};

impl GpuSet {
    /// A new set `sets[0] op sets[1] op ... op sets[n - 1]`, left to right; for
    /// [`SetOp::AndNot`] `sets[0]` minus the union of the others. One set gives a copy of it.
    /// Two or more sets are combined as [`GpuSet::record_op_many`] records it, in one
    /// submission (one more where the pools grow). On CPU drivers, more than
    /// [`SET_MANY_OP_CPU_MAX`](super::SET_MANY_OP_CPU_MAX) sets are combined in rounds of
    /// pairs (a union of small sets: one set built from all their values).
    /// No sets, or sets of different contexts: [`Error::InvalidArgument`].
    pub fn op_many(sets: &[&GpuSet], op: SetOp) -> Result<GpuSet> {
        let first = sets
            .first()
            .ok_or_else(|| Error::invalid("set op_many: no sets"))?;
        let mut dst = GpuSet::new(&first.ctx)?;
        dst.assign_many(sets, op)?;
        Ok(dst)
    }

    /// `self = sets[0] op sets[1] op ... op sets[n - 1]` ([`GpuSet::op_many`]); `self` is not
    /// one of the operands (the borrow rules see to that). On an argument error nothing
    /// changes.
    pub fn assign_many(&mut self, sets: &[&GpuSet], op: SetOp) -> Result<()> {
        if sets.is_empty() {
            return Err(Error::invalid("set op_many: no sets"));
        }
        if sets.iter().any(|s| !s.ctx.same_as(&self.ctx)) {
            return Err(Error::invalid(
                "set op_many: the sets come from different contexts",
            ));
        }
        let cpu = self.ctx.device_class() == DeviceClass::Cpu;
        match (op, sets) {
            (_, [only]) => self.assign(SetOperand::Set(only), SetOperand::Set(only), SetOp::Or),
            _ if !cpu || sets.len() <= SET_MANY_OP_CPU_MAX => self.assign_many_recorded(sets, op),
            (SetOp::AndNot, [head, rest @ ..]) => {
                let union = GpuSet::op_many(rest, SetOp::Or)?;
                self.assign(SetOperand::Set(head), SetOperand::Set(&union), SetOp::AndNot)
            }
            (SetOp::Or, _) if self.union_by_values(sets)? => Ok(()),
            _ => self.reduce_in_rounds(sets, op),
        }
    }

    /// The union of three or more sets of at most [`UNION_BY_VALUES_MAX`] values together, as
    /// one set built from all their values (listed in two submissions, then sorted and
    /// inserted on the GPU): a few submissions instead of a round of operations per halving.
    /// Returns false, changing nothing, where it does not apply (fewer sets, more values, or
    /// `self` on the caller's memory).
    fn union_by_values(&mut self, sets: &[&GpuSet]) -> Result<bool> {
        if sets.len() < 3 || self.on_caller_memory() {
            return Ok(false);
        }
        let total: u64 = GpuSet::cardinalities(sets)?.iter().sum();
        if total > UNION_BY_VALUES_MAX {
            return Ok(false);
        }
        let (values, _) = GpuSet::to_array_many(sets)?;
        *self = GpuSet::from_values(&self.ctx, &values)?;
        Ok(true)
    }

    /// AND, OR or XOR of two or more sets: each round combines neighbouring pairs (an odd last
    /// one goes on alone), all pairs of a round in one submission, the last pair into `self`.
    fn reduce_in_rounds(&mut self, sets: &[&GpuSet], op: SetOp) -> Result<()> {
        // Owned intermediate results of the rounds so far, with the operands not yet combined.
        let mut level: Vec<Operand> = sets.iter().map(|s| Operand::Borrowed(s)).collect();
        while level.len() > 2 {
            let pairs: Vec<(&GpuSet, &GpuSet)> =
                level.chunks_exact(2).map(|p| (p[0].get(), p[1].get())).collect();
            let results = GpuSet::op_batch(&pairs, op)?;
            let odd = (level.len() % 2 == 1).then(|| level.pop()).flatten();
            level = results
                .into_iter()
                .map(|r| Operand::Owned(Box::new(r)))
                .chain(odd)
                .collect();
        }
        let (a, b) = (level[0].get(), level[1].get());
        self.assign(SetOperand::Set(a), SetOperand::Set(b), op)
    }

    /// New sets `a_i op b_i`, one per pair, every operation in one submission
    /// ([`GpuSet::assign_batch`]; two more where results needed blocks). Pairs may share
    /// sets. Sets of different contexts: [`Error::InvalidArgument`], nothing
    /// made.
    pub fn op_batch(pairs: &[(&GpuSet, &GpuSet)], op: SetOp) -> Result<Vec<GpuSet>> {
        let Some((first, _)) = pairs.first() else {
            return Ok(Vec::new());
        };
        let ctx = &first.ctx;
        if pairs
            .iter()
            .any(|(a, b)| !a.ctx.same_as(ctx) || !b.ctx.same_as(ctx))
        {
            return Err(Error::invalid(
                "set op_batch: the sets come from different contexts",
            ));
        }
        // Empty results, initialized in the batch's submission (their directories zeroed on
        // the GPU); the short ones are made again with the blocks they need and their
        // operations run again, in one more submission (sizing them first from a download of
        // the operands' directories measured slower on real data).
        let (mut results, init) = GpuSet::empty_many_staged(ctx, &vec![(0, 0); pairs.len()])?;
        let mut jobs: Vec<_> = results
            .iter_mut()
            .zip(pairs)
            .map(|(d, (a, b))| (d, SetOperand::Set(a), SetOperand::Set(b), op))
            .collect();
        GpuSet::run_batch(&mut jobs, Destinations::Fresh(init))?;
        Ok(results)
    }
}

impl GpuSet {
    /// One set per part of `values`: set `i` holds `values[offsets[i]..offsets[i + 1]]` (any
    /// order, duplicates allowed), so `offsets` has one entry more than there are sets, starts
    /// at 0 and ends at `values.len()` without decreasing (CSR). The chunks are made on the host
    /// and every set uploaded in one submission; a set of few chunks gets a packed directory
    /// ([`GpuSet::pack`]). Bad offsets: [`Error::InvalidArgument`], no set made.
    pub fn from_values_many(ctx: &Context, values: &[u32], offsets: &[u64]) -> Result<Vec<GpuSet>> {
        let parts = csr_parts(offsets, values.len() as u64, "set from_values_many")?;
        let mut chunks = Vec::with_capacity(parts.len());
        for (begin, end) in parts {
            let part = &values[begin..end];
            if part.windows(2).all(|w| w[0] < w[1]) {
                chunks.push(chunks_of_sorted(part));
            } else {
                let mut sorted = part.to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                chunks.push(chunks_of_sorted(&sorted));
            }
        }
        GpuSet::from_chunks_many(ctx, chunks)
    }

    /// The Roaring portable serializations of the sets ([`GpuSet::serialize`]'s bytes), back to
    /// back, and their offsets (one entry more than sets: set `i`'s bytes are
    /// `bytes[offsets[i]..offsets[i + 1]]`). The containers are encoded on the GPU in one
    /// submission, the headers on the host. Sets of different contexts:
    /// [`Error::InvalidArgument`].
    pub fn serialize_many(sets: &[&GpuSet]) -> Result<(Vec<u8>, Vec<u64>)> {
        if let Some(first) = sets.first() {
            for s in sets {
                first.check_same_context(s, "set serialize_many")?;
            }
        }
        GpuSet::serialize_encoded(sets)
    }

    /// Sets from Roaring portable serializations back to back: set `i` from
    /// `data[offsets[i]..offsets[i + 1]]` (offsets as [`GpuSet::from_values_many`]'s): every
    /// byte checked on the host, the bytes uploaded and every container written into its set
    /// on the GPU, in one submission (a set of few chunks gets a packed directory, as
    /// [`GpuSet::pack`] makes it). Malformed offsets or serializations (as
    /// [`GpuSet::deserialize`]): [`Error::InvalidArgument`] naming the set, no set made.
    pub fn deserialize_many(ctx: &Context, data: &[u8], offsets: &[u64]) -> Result<Vec<GpuSet>> {
        let parts = csr_parts(offsets, data.len() as u64, "set deserialize_many")?;
        GpuSet::deserialize_on_gpu(ctx, data, &parts)
    }

    /// The values of every set in ascending order, back to back, and their offsets (set `i`'s
    /// values are `values[offsets[i]..offsets[i + 1]]`): the cardinalities (one submission where
    /// the host does not know them), then every set's values written on the GPU and downloaded
    /// in one more, three dispatches whatever the number of sets. Sets of different contexts:
    /// [`Error::InvalidArgument`].
    pub fn to_array_many(sets: &[&GpuSet]) -> Result<(Vec<u32>, Vec<u64>)> {
        let cards = GpuSet::cardinality_many(sets)?;
        let mut offsets = Vec::with_capacity(sets.len() + 1);
        offsets.push(0u64);
        for &c in &cards {
            offsets.push(offsets.last().unwrap() + c);
        }
        let total = *offsets.last().unwrap();
        if total > isize::MAX as u64 / 4 {
            return Err(Error::OutOfMemory("set to_array_many: too many values".into()));
        }
        let values = GpuSet::values_many(sets, &cards, &offsets)?;
        Ok((values, offsets))
    }

    /// The cardinality of each set: those the host knows at once, the others counted in one
    /// submission. Sets of different contexts: [`Error::InvalidArgument`].
    pub fn cardinalities(sets: &[&GpuSet]) -> Result<Vec<u64>> {
        GpuSet::cardinality_many(sets)
    }
}

/// The `[begin, end)` of each part of a CSR offsets array over `len` elements: one entry more
/// than parts, starting at 0, ending at `len`, never decreasing.
fn csr_parts(offsets: &[u64], len: u64, what: &str) -> Result<Vec<(usize, usize)>> {
    if offsets.first() != Some(&0) || offsets.last() != Some(&len) {
        return Err(Error::invalid(format!(
            "{what}: offsets must start at 0 and end at the length ({len}), one more than the sets"
        )));
    }
    if offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(Error::invalid(format!("{what}: offsets decrease")));
    }
    Ok(offsets
        .windows(2)
        .map(|w| (w[0] as usize, w[1] as usize))
        .collect())
}

/// Most values [`GpuSet::op_many`] unions by listing them all (their u32 on the host, twice).
const UNION_BY_VALUES_MAX: u64 = 1 << 24;

/// An operand of a round: a caller's set or an earlier round's result.
enum Operand<'a> {
    Borrowed(&'a GpuSet),
    Owned(Box<GpuSet>),
}

impl Operand<'_> {
    fn get(&self) -> &GpuSet {
        match self {
            Operand::Borrowed(s) => s,
            Operand::Owned(s) => s,
        }
    }
}
