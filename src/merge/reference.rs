//! The CPU references the tests compare every GPU merge, set operation and merge sort with.

use crate::sort::reference::rank_key;
use crate::sort::SortKey;
use crate::SetOp;

/// The order key of `k` (the sort's order-preserving bits, complemented when descending).
fn key<K: SortKey>(k: K, descending: bool) -> u64 {
    rank_key(k, 0, 0, descending)
}

/// Whether `keys` is sorted in the given order (floats in totalOrder).
pub fn is_sorted<K: SortKey>(keys: &[K], descending: bool) -> bool {
    keys.windows(2)
        .all(|w| key(w[0], descending) <= key(w[1], descending))
}

/// The stable merge of two sorted runs: the source of every output, `(false, i)` for `a[i]`,
/// `(true, j)` for `b[j]`. Equal keys: a's first.
pub fn merge_sources<K: SortKey>(a: &[K], b: &[K], descending: bool) -> Vec<(bool, usize)> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len() + b.len());
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && key(a[i], descending) <= key(b[j], descending));
        if take_a {
            out.push((false, i));
            i += 1;
        } else {
            out.push((true, j));
            j += 1;
        }
    }
    out
}

/// The stable merge of sorted runs `a` and `b` (with values when given).
pub fn merge<K: SortKey, V: Copy>(
    a: &[K],
    a_values: Option<&[V]>,
    b: &[K],
    b_values: Option<&[V]>,
    descending: bool,
) -> (Vec<K>, Option<Vec<V>>) {
    let sources = merge_sources(a, b, descending);
    let keys = sources
        .iter()
        .map(|&(from_b, i)| if from_b { b[i] } else { a[i] })
        .collect();
    let values = match (a_values, b_values) {
        (Some(av), Some(bv)) => Some(
            sources
                .iter()
                .map(|&(from_b, i)| if from_b { bv[i] } else { av[i] })
                .collect(),
        ),
        _ => None,
    };
    (keys, values)
}

/// std::set_intersection / set_union / set_difference / set_symmetric_difference of two
/// ascending runs (multisets).
pub fn set_op<K: SortKey>(op: SetOp, a: &[K], b: &[K]) -> Vec<K> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    let keep_a_only = matches!(op, SetOp::Or | SetOp::AndNot | SetOp::Xor);
    let keep_b_only = matches!(op, SetOp::Or | SetOp::Xor);
    while i < a.len() && j < b.len() {
        let (ka, kb) = (key(a[i], false), key(b[j], false));
        if ka < kb {
            if keep_a_only {
                out.push(a[i]);
            }
            i += 1;
        } else if kb < ka {
            if keep_b_only {
                out.push(b[j]);
            }
            j += 1;
        } else {
            if matches!(op, SetOp::And | SetOp::Or) {
                out.push(a[i]);
            }
            i += 1;
            j += 1;
        }
    }
    if keep_a_only {
        out.extend_from_slice(&a[i..]);
    }
    if keep_b_only {
        out.extend_from_slice(&b[j..]);
    }
    out
}
