//! The updates a set's operations describe ([`Update`]: the push constants that differ, the
//! bounds that size the passes' grids), as the record layer and the host layer build them.

use super::gpu::{dir_forms, GpuSet, SetOperand};
use super::layout::CHUNKS;
use super::passes::{Update, MODE_CARD, MODE_OP, MODE_OPTIMIZE, MODE_RANGE, MODE_VALUES};
use super::paths::OpPath;
use crate::core::buffer::ElementCount;
use crate::error::Result;
use crate::SetOp;

impl GpuSet {
    pub(super) fn operand_meta(&self, x: SetOperand, what: &str) -> Result<u64> {
        match x {
            SetOperand::This => Ok(self.meta()),
            SetOperand::Set(s) => {
                self.check_same_context(s, what)?;
                Ok(s.meta())
            }
        }
    }

    /// The set an operand names.
    pub(super) fn operand_set<'s>(&'s self, x: SetOperand<'s>) -> &'s GpuSet {
        match x {
            SetOperand::This => self,
            SetOperand::Set(s) => s,
        }
    }

    /// The update of `self = a op b` on `path`.
    pub(super) fn op_update(&self, a: SetOperand, b: SetOperand, op: SetOp, path: OpPath) -> Result<Update> {
        let (sa, sb) = (self.operand_set(a), self.operand_set(b));
        let (ba, bb) = (sa.chunk_bound(), sb.chunk_bound());
        let result = match op {
            SetOp::And => ba.min(bb),
            SetOp::AndNot => ba,
            _ => ba.saturating_add(bb).min(CHUNKS as u32),
        };
        Ok(Update {
            bound: ba
                .saturating_add(bb)
                .saturating_add(self.chunk_bound())
                .min(CHUNKS as u32),
            bitmap_pair_bound: sa.bm_blocks.min(sb.bm_blocks),
            block_chunk_bound: sa.pool_block_total().saturating_add(sb.pool_block_total()),
            result_bound: result,
            one_kernel: path.one_kernel(self.ctx.device_class(), op, Self::one_pass_suits(sa, sb)),
            dest_empty: self.chunk_bound() == 0,
            forms: dir_forms(None, Some(sa), Some(sb)),
            d: self.meta(),
            a: self.operand_meta(a, "set op")?,
            b: self.operand_meta(b, "set op")?,
            op: op as u32,
            mode: MODE_OP,
            range: (0, 0),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        })
    }

    pub(super) fn card_update(a: &GpuSet, b: &GpuSet, op: SetOp) -> Result<Update> {
        a.check_same_context(b, "set op cardinality")?;
        Ok(Update {
            bound: a.chunk_bound().saturating_add(b.chunk_bound()).min(CHUNKS as u32),
            bitmap_pair_bound: a.bm_blocks.min(b.bm_blocks),
            block_chunk_bound: a.pool_block_total().saturating_add(b.pool_block_total()),
            result_bound: 0,
            one_kernel: false,
            dest_empty: false,
            forms: dir_forms(None, Some(a), Some(b)),
            d: 0,
            a: a.meta(),
            b: b.meta(),
            op: op as u32,
            mode: MODE_CARD,
            range: (0, 0),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        })
    }

    pub(super) fn range_update(&self, begin: u64, end: u64) -> Update {
        let chunks = if begin < end {
            ((end - 1) >> 16) - (begin >> 16) + 1
        } else {
            0
        } as u32;
        Update {
            bound: chunks,
            bitmap_pair_bound: 0,
            block_chunk_bound: u32::MAX,
            result_bound: self.chunk_bound().saturating_add(chunks).min(CHUNKS as u32),
            one_kernel: false,
            dest_empty: false,
            forms: 0,
            d: self.meta(),
            a: self.meta(),
            b: 0,
            op: SetOp::Or as u32,
            mode: MODE_RANGE,
            range: (begin, end),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        }
    }

    /// run_optimize: every chunk that is neither empty nor full written again by
    /// chunk_update.comp, in the form result_form picks.
    pub(super) fn optimize_update(&self) -> Update {
        let chunks = self.chunk_bound();
        Update {
            bound: chunks,
            bitmap_pair_bound: 0,
            block_chunk_bound: u32::MAX,
            result_bound: chunks,
            one_kernel: false,
            dest_empty: false,
            forms: 0,
            d: self.meta(),
            a: self.meta(),
            b: self.meta(),
            op: SetOp::Or as u32,
            mode: MODE_OPTIMIZE,
            range: (0, 0),
            values: 0,
            count: ElementCount::Direct(0),
            max_count: 0,
        }
    }

    pub(super) fn values_update(
        &self,
        sorted: u64,
        count: ElementCount,
        max_count: u32,
        remove: bool,
    ) -> Update {
        let touched = max_count.min(CHUNKS as u32);
        Update {
            bound: touched,
            bitmap_pair_bound: 0,
            block_chunk_bound: u32::MAX,
            result_bound: if remove {
                self.chunk_bound()
            } else {
                self.chunk_bound().saturating_add(touched).min(CHUNKS as u32)
            },
            one_kernel: false,
            dest_empty: false,
            forms: 0,
            d: self.meta(),
            a: self.meta(),
            b: 0,
            op: if remove { SetOp::AndNot } else { SetOp::Or } as u32,
            mode: MODE_VALUES,
            range: (0, 0),
            values: sorted,
            count,
            max_count,
        }
    }
}
