//! The blocks a chunk holds and the bound on the blocks an operation needs, as the kernels
//! count them (glsl/set/set_common.glsl, glsl/set/classify.comp).

use super::layout::{CARD_MASK, RUN_SHIFT};
use super::roaring::{ARRAY_MAX, CHUNK_VALUES};
use crate::SetOp;

/// Array blocks a chunk of `n` values (1..=4096) takes.
pub(crate) fn array_blocks(n: u32) -> u32 {
    let words = n.div_ceil(2);
    1.max((words - 1).div_ceil(47))
}

/// Blocks (bitmap, array) a chunk of cardinality `n` holds (glsl/set/set_common.glsl
/// chunk_blocks).
fn chunk_blocks(n: u32) -> (u64, u64) {
    match n {
        0 | CHUNK_VALUES => (0, 0),
        n if n > ARRAY_MAX => (1, 0),
        n => (0, array_blocks(n) as u64),
    }
}

/// Blocks enough for any chunk of `lo..=hi` values (set_common.glsl chunk_blocks_between).
fn chunk_blocks_between(lo: u32, hi: u32) -> (u64, u64) {
    if hi == 0 || lo == CHUNK_VALUES {
        return (0, 0);
    }
    let array = if lo <= ARRAY_MAX {
        array_blocks(hi.min(ARRAY_MAX)) as u64
    } else {
        0
    };
    ((hi > ARRAY_MAX) as u64, array)
}

/// The bound on the blocks `op` of sets whose directory entries' first words (cardinality |
/// runs << RUN_SHIFT) are `xa` and `xb` needs, as glsl/set/classify.comp sums it for the
/// one-pass path: per chunk, the exact blocks where the cardinalities decide the result (none
/// where it is empty, full, or the destination's own chunk: `d_is_a`, `d_is_b`), else the
/// blocks enough for any result between the fewest and the most values `op` can give; where
/// an operand's chunk is a run chunk, the result may be one: an array block beside a bitmap.
pub(crate) fn op_block_bound(op: SetOp, xa: &[u32], xb: &[u32], d_is_a: bool, d_is_b: bool) -> (u64, u64) {
    let full = CHUNK_VALUES;
    let mut total = (0u64, 0u64);
    for (&xa, &xb) in xa.iter().zip(xb) {
        let (ca, cb) = (xa & CARD_MASK, xb & CARD_MASK);
        let operand_runs = (xa | xb) >> RUN_SHIFT != 0;
        let run_bound = |(bm, ar): (u64, u64)| {
            if operand_runs {
                (bm, ar.max(bm))
            } else {
                (bm, ar)
            }
        };
        // (result cardinality, it is operand a's chunk, it is operand b's chunk) when decided.
        let decided = match op {
            SetOp::And if ca == 0 || cb == 0 => Some((0, false, false)),
            SetOp::And if ca == full => Some((cb, false, true)),
            SetOp::And if cb == full => Some((ca, true, false)),
            SetOp::Or if ca == full || cb == full => Some((full, false, false)),
            SetOp::Or if ca == 0 => Some((cb, false, true)),
            SetOp::Or if cb == 0 => Some((ca, true, false)),
            SetOp::AndNot if ca == 0 || cb == full => Some((0, false, false)),
            SetOp::AndNot if cb == 0 => Some((ca, true, false)),
            SetOp::AndNot if ca == full => Some((full - cb, false, false)),
            SetOp::Xor if ca == 0 => Some((cb, false, true)),
            SetOp::Xor if cb == 0 => Some((ca, true, false)),
            SetOp::Xor if ca == full => Some((full - cb, false, false)),
            SetOp::Xor if cb == full => Some((full - ca, false, false)),
            _ => None,
        };
        let blocks = match decided {
            Some((card, is_a, is_b)) => {
                // One run lives in the entry: copied without storage.
                let one_run = (is_a && xa >> RUN_SHIFT == 1) || (is_b && xb >> RUN_SHIFT == 1);
                if card == 0 || card == full || (is_a && d_is_a) || (is_b && d_is_b) || one_run {
                    (0, 0)
                } else if is_run_pair(xa, xb) {
                    (0, 1)
                } else {
                    run_bound(chunk_blocks(card))
                }
            }
            // Two runs of one interval: their intersection lives in the entry (classify.comp).
            None if op == SetOp::And && xa >> RUN_SHIFT == 1 && xb >> RUN_SHIFT == 1 => (0, 0),
            // Run chunks of few runs together (run_pairs.glsl): one array block at most.
            None if is_run_pair(xa, xb) => (0, 1),
            // The fewest and the most values the result can hold (classify.comp result_range).
            None => run_bound(match op {
                SetOp::And => chunk_blocks_between((ca + cb).saturating_sub(full), ca.min(cb)),
                SetOp::Or => chunk_blocks_between(ca.max(cb), (ca + cb).min(full)),
                SetOp::AndNot => chunk_blocks_between(ca.saturating_sub(cb), ca),
                SetOp::Xor => chunk_blocks_between(ca.abs_diff(cb), (ca + cb).min(2 * full - ca - cb)),
            }),
        };
        total = (total.0 + blocks.0, total.1 + blocks.1);
    }
    total
}

/// Runs of at most this many together in two chunks that are each empty, full or a run chunk
/// make a pair for glsl/set/run_pairs.glsl (set_common.glsl RUN_PAIR_MAX).
pub(super) const RUN_PAIR_MAX: u32 = 46;

/// Whether the chunks with entries' first words `xa` and `xb` are a pair for run_pairs.glsl
/// (set_common.glsl is_run_pair): each empty (no runs), full (one run) or a run chunk, with at
/// most RUN_PAIR_MAX runs together.
fn is_run_pair(xa: u32, xb: u32) -> bool {
    let runs = |x: u32| match x & CARD_MASK {
        0 => Some(0),
        CHUNK_VALUES => Some(1),
        _ if x >> RUN_SHIFT != 0 => Some(x >> RUN_SHIFT),
        _ => None,
    };
    matches!((runs(xa), runs(xb)), (Some(ra), Some(rb)) if ra + rb <= RUN_PAIR_MAX)
}
