//! The CPU reference of the reduce, which the tests compare the GPU's results with.

use crate::core::types::ReduceOp;
use crate::sort::SortKey;

/// `op` over `input` in order (floats summed left to right in their own precision), or the
/// identity for no elements: the reduce's definition (module docs).
pub fn reduce<K: SortKey>(input: &[K], op: ReduceOp) -> K {
    let bits = 8 * std::mem::size_of::<K>() as u32;
    let raw = |k: &K| -> u64 {
        let mut b = [0u8; 8];
        b[..bits as usize / 8].copy_from_slice(bytemuck::bytes_of(k));
        u64::from_le_bytes(b)
    };
    let from_raw = |x: u64| -> K { bytemuck::pod_read_unaligned(&x.to_le_bytes()[..bits as usize / 8]) };
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    match op {
        ReduceOp::Sum => match K::KEY_TYPE {
            crate::KeyType::F32 => {
                let s = input.iter().fold(0f32, |s, k| s + f32::from_bits(raw(k) as u32));
                from_raw(s.to_bits() as u64)
            }
            crate::KeyType::F64 => {
                let s = input.iter().fold(0f64, |s, k| s + f64::from_bits(raw(k)));
                from_raw(s.to_bits())
            }
            _ => from_raw(input.iter().fold(0u64, |s, k| s.wrapping_add(raw(k))) & mask),
        },
        ReduceOp::Min | ReduceOp::Max => {
            let best = input.iter().copied().reduce(|a, b| {
                let b_wins = if op == ReduceOp::Min {
                    b.ordered_bits() < a.ordered_bits()
                } else {
                    b.ordered_bits() > a.ordered_bits()
                };
                if b_wins {
                    b
                } else {
                    a
                }
            });
            best.unwrap_or_else(|| identity::<K>(op))
        }
    }
}

/// The operation's identity for `K`: 0 for sums, the largest key in the sort's order for minima,
/// the smallest for maxima.
pub fn identity<K: SortKey>(op: ReduceOp) -> K {
    let bits = 8 * std::mem::size_of::<K>();
    let bytes = |x: u64| -> K { bytemuck::pod_read_unaligned(&x.to_le_bytes()[..bits / 8]) };
    let top = 1u64 << (bits - 1);
    let all = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let (largest, smallest) = match K::KEY_TYPE {
        crate::KeyType::I32 | crate::KeyType::I64 => (all ^ top, top),
        crate::KeyType::F32 | crate::KeyType::F64 => (all ^ top, all),
        _ => (all, 0),
    };
    match op {
        ReduceOp::Sum => bytes(0),
        ReduceOp::Min => bytes(largest),
        ReduceOp::Max => bytes(smallest),
    }
}
