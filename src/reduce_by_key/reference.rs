//! The CPU reference of the reduce-by-key, which the tests compare the GPU's results with.

use crate::core::types::ReduceOp;

/// The runs of `keys` (whole keys of `key_bytes` bytes each, equal when their bytes are):
/// each run's key and `op` over its `values` (u64 each, combined as unsigned), or its length
/// where `values` is `None`. Returns (run keys as bytes, run values).
pub fn reduce_by_key_bytes(
    keys: &[u8],
    key_bytes: usize,
    values: Option<&[u64]>,
    op: ReduceOp,
) -> (Vec<u8>, Vec<u64>) {
    let n = keys.len() / key_bytes;
    let key = |i: usize| &keys[i * key_bytes..(i + 1) * key_bytes];
    let mut out_keys = Vec::new();
    let mut out_values: Vec<u64> = Vec::new();
    for i in 0..n {
        let v = values.map_or(1, |v| v[i]);
        if i == 0 || key(i) != key(i - 1) {
            out_keys.extend_from_slice(key(i));
            out_values.push(v);
        } else {
            let last = out_values.last_mut().expect("a run started");
            *last = if values.is_some() {
                op.apply_u64(*last, v)
            } else {
                *last + 1
            };
        }
    }
    (out_keys, out_values)
}

/// [`reduce_by_key_bytes`] for typed keys and u32 or u64 values (u32 sums wrap at 2^32).
pub fn reduce_by_key<K: bytemuck::Pod, V: super::ReduceByKeyValue + Into<u64> + TryFrom<u64>>(
    keys: &[K],
    values: &[V],
    op: ReduceOp,
) -> (Vec<K>, Vec<V>) {
    let wide: Vec<u64> = values.iter().map(|&v| v.into()).collect();
    let (k, v) = reduce_by_key_bytes(
        bytemuck::cast_slice(keys),
        std::mem::size_of::<K>(),
        Some(&wide),
        op,
    );
    let mask = if std::mem::size_of::<V>() == 4 {
        u32::MAX as u64
    } else {
        u64::MAX
    };
    let values = v
        .into_iter()
        .map(|x| V::try_from(x & mask).ok().expect("masked to the value's width"))
        .collect();
    (from_bytes(&k), values)
}

/// The run-length encoding of `keys`: each run's key and length.
pub fn run_length_encode<K: bytemuck::Pod>(keys: &[K]) -> (Vec<K>, Vec<u32>) {
    let (k, v) = reduce_by_key_bytes(
        bytemuck::cast_slice(keys),
        std::mem::size_of::<K>(),
        None,
        ReduceOp::Sum,
    );
    (from_bytes(&k), v.into_iter().map(|x| x as u32).collect())
}

/// Whole `T`s from bytes of any alignment.
pub(crate) fn from_bytes<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(std::mem::size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}
