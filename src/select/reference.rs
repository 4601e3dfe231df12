//! The CPU reference of the select, which the tests compare the GPU's results with.

use super::host::Selection;
use crate::sort::SortKey;

/// Whether each element of `keys` is kept under `selection`, with `predicate` standing for a
/// GLSL one (the reference cannot run GLSL).
pub fn kept<K: SortKey>(keys: &[K], selection: &Selection, predicate: impl Fn(K) -> bool) -> Vec<bool> {
    match selection {
        Selection::Flagged(flags) => flags.iter().map(|&f| f != 0).collect(),
        Selection::If { .. } => keys.iter().map(|&k| predicate(k)).collect(),
        Selection::Unique => (0..keys.len())
            .map(|i| i == 0 || bytemuck::bytes_of(&keys[i - 1]) != bytemuck::bytes_of(&keys[i]))
            .collect(),
    }
}

/// The kept elements of `items` in order (`keep` from [`kept`]).
pub fn select<T: Copy>(items: &[T], keep: &[bool]) -> Vec<T> {
    items
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(&x, _)| x)
        .collect()
}
