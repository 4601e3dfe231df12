//! The four binary set operations, shared by the sorted-array set operations (merge path) and
//! the bitmap sets.

use crate::error::{Error, Result};

/// A binary set operation (the values match the C constants `VKALGO_SET_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum SetOp {
    /// Intersection: elements in both (multisets: `min(ca, cb)` copies).
    And = 0,
    /// Union: elements in either (multisets: `max(ca, cb)` copies).
    Or = 1,
    /// Difference, a minus b (multisets: `max(ca - cb, 0)` copies).
    AndNot = 2,
    /// Symmetric difference (multisets: `|ca - cb|` copies).
    Xor = 3,
}

impl SetOp {
    /// Every operation, in code order.
    pub const ALL: [SetOp; 4] = [SetOp::And, SetOp::Or, SetOp::AndNot, SetOp::Xor];

    /// The operation of a C code (`VKALGO_SET_*`); unknown codes are an invalid argument.
    pub fn from_raw(code: u32) -> Result<Self> {
        Self::ALL.get(code as usize).copied().ok_or_else(|| {
            Error::invalid(format!(
                "unknown set operation {code} (VKALGO_SET_AND..VKALGO_SET_XOR)"
            ))
        })
    }

    /// How many copies of a value present `in_a` times in a and `in_b` times in b the result
    /// holds (std::set_* multiset semantics; sets have counts 0 or 1).
    pub fn copies(self, in_a: u64, in_b: u64) -> u64 {
        match self {
            SetOp::And => in_a.min(in_b),
            SetOp::Or => in_a.max(in_b),
            SetOp::AndNot => in_a.saturating_sub(in_b),
            SetOp::Xor => in_a.abs_diff(in_b),
        }
    }
}
