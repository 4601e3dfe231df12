//! Set comparisons: equality and inclusion, each from the cardinality of one operation (no
//! set is materialized), answered on the host without a submission where the known
//! cardinalities already decide it.

use super::GpuSet;
use crate::error::{Error, Result};
use crate::SetOp;

impl GpuSet {
    /// Whether `self` and `other` hold the same values: `|self XOR other| = 0`, one submission
    /// (none where both cardinalities are known and differ). Both sets must come from one
    /// context ([`Error::InvalidArgument`] otherwise).
    pub fn equals(&self, other: &GpuSet) -> Result<bool> {
        self.check_comparable(other, "set equals")?;
        if let (Some(a), Some(b)) = (self.known_cardinality(), other.known_cardinality()) {
            if a != b {
                return Ok(false);
            }
        }
        Ok(GpuSet::op_cardinality(self, other, SetOp::Xor)? == 0)
    }

    /// Whether every value of `self` is in `other` (equal sets included): `|self ANDNOT other|
    /// = 0`, one submission (none where the known cardinalities show `self` the larger). Both
    /// sets must come from one context ([`Error::InvalidArgument`] otherwise).
    pub fn is_subset(&self, other: &GpuSet) -> Result<bool> {
        self.check_comparable(other, "set is_subset")?;
        if let (Some(a), Some(b)) = (self.known_cardinality(), other.known_cardinality()) {
            if a > b {
                return Ok(false);
            }
        }
        Ok(GpuSet::op_cardinality(self, other, SetOp::AndNot)? == 0)
    }

    /// Refuses a pair of sets of different contexts before anything is decided.
    fn check_comparable(&self, other: &GpuSet, what: &str) -> Result<()> {
        if !self.ctx.same_as(&other.ctx) {
            return Err(Error::invalid(format!(
                "{what}: the sets come from different contexts"
            )));
        }
        Ok(())
    }
}
