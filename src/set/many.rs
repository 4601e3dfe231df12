//! Many sets in one call: the many-way operation (`sets[0] op sets[1] op ...`) and the batch
//! of independent pairs, on the blocking host layer.

use super::gpu::{GpuSet, SetOperand};
use crate::error::{Error, Result};
use crate::SetOp;

impl GpuSet {
    /// A new set `sets[0] op sets[1] op ... op sets[n - 1]`, left to right; for
    /// [`SetOp::AndNot`] `sets[0]` minus the union of the others. One set gives a copy of it.
    /// AND, OR and XOR combine pairs in rounds (each round's pairs in one submission, about
    /// log2 n rounds); ANDNOT is the union of `sets[1..]` that way, then one operation.
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
        match (op, sets) {
            (_, [only]) => self.assign(SetOperand::Set(only), SetOperand::Set(only), SetOp::Or),
            (SetOp::AndNot, [head, rest @ ..]) => {
                let union = GpuSet::op_many(rest, SetOp::Or)?;
                self.assign(SetOperand::Set(head), SetOperand::Set(&union), SetOp::AndNot)
            }
            _ => self.reduce_in_rounds(sets, op),
        }
    }

    /// AND, OR or XOR of two or more sets: each round combines neighbouring pairs (an odd last
    /// one goes on alone), all pairs of a round in one submission, the last pair into `self`.
    fn reduce_in_rounds(&mut self, sets: &[&GpuSet], op: SetOp) -> Result<()> {
        // Owned intermediate results of the rounds so far, with the operands not yet combined.
        let mut level: Vec<Operand> = sets.iter().map(|s| Operand::Borrowed(s)).collect();
        while level.len() > 2 {
            let pairs = level.len() / 2;
            let mut results = (0..pairs)
                .map(|_| GpuSet::new(&self.ctx))
                .collect::<Result<Vec<_>>>()?;
            {
                let mut jobs: Vec<_> = results
                    .iter_mut()
                    .zip(level.chunks_exact(2))
                    .map(|(d, p)| (d, SetOperand::Set(p[0].get()), SetOperand::Set(p[1].get()), op))
                    .collect();
                GpuSet::assign_batch(&mut jobs)?;
            }
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

    /// New sets `a_i op b_i`, one per pair, all in one submission ([`GpuSet::assign_batch`]).
    /// Pairs may share sets. Sets of different contexts: [`Error::InvalidArgument`], nothing
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
        let mut results = pairs
            .iter()
            .map(|_| GpuSet::new(ctx))
            .collect::<Result<Vec<_>>>()?;
        let mut jobs: Vec<_> = results
            .iter_mut()
            .zip(pairs)
            .map(|(d, (a, b))| (d, SetOperand::Set(a), SetOperand::Set(b), op))
            .collect();
        GpuSet::assign_batch(&mut jobs)?;
        Ok(results)
    }
}

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
