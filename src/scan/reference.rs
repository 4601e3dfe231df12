//! CPU reference scans, the ground truth of the tests and the benchmark.

use super::ScanOp;
use crate::core::types::{KeyType, ReduceOp};
use crate::sort::SortKey;

/// Scans `input` on the CPU with wrapping u32 addition.
pub fn scan_u32(input: &[u32], op: ScanOp) -> Vec<u32> {
    let mut sum = 0u32;
    input
        .iter()
        .map(|&x| {
            let before = sum;
            sum = sum.wrapping_add(x);
            match op {
                ScanOp::Exclusive => before,
                ScanOp::Inclusive => sum,
            }
        })
        .collect()
}

/// Scans `input` on the CPU with `combine`, as the scan defines it (module docs): integer sums
/// wrap; float sums are taken left to right in the type's precision, starting from +0.0;
/// minima and maxima in the sort's order; an exclusive scan starts from the identity
/// ([`crate::reduce::reference::identity`]).
pub fn scan<K: SortKey>(input: &[K], op: ScanOp, combine: ReduceOp) -> Vec<K> {
    let bytes = std::mem::size_of::<K>();
    let raw = |k: &K| -> u64 {
        let mut b = [0u8; 8];
        b[..bytes].copy_from_slice(bytemuck::bytes_of(k));
        u64::from_le_bytes(b)
    };
    let from_raw = |x: u64| -> K { bytemuck::pod_read_unaligned(&x.to_le_bytes()[..bytes]) };
    let step = |acc: K, x: K| -> K {
        match combine {
            ReduceOp::Sum => match K::KEY_TYPE {
                KeyType::F32 => {
                    let s = f32::from_bits(raw(&acc) as u32) + f32::from_bits(raw(&x) as u32);
                    from_raw(s.to_bits() as u64)
                }
                KeyType::F64 => from_raw((f64::from_bits(raw(&acc)) + f64::from_bits(raw(&x))).to_bits()),
                _ => from_raw(raw(&acc).wrapping_add(raw(&x))),
            },
            ReduceOp::Min if x.ordered_bits() < acc.ordered_bits() => x,
            ReduceOp::Max if x.ordered_bits() > acc.ordered_bits() => x,
            _ => acc,
        }
    };
    let mut acc = crate::reduce::reference::identity::<K>(combine);
    input
        .iter()
        .map(|&x| {
            let before = acc;
            acc = step(acc, x);
            match op {
                ScanOp::Exclusive => before,
                ScanOp::Inclusive => acc,
            }
        })
        .collect()
}
