//! The CPU reference: a hash join of S with R on `std::collections::HashMap` (R's payloads
//! grouped by key), the exact check of the GPU's join against it, and the group-by.

use crate::data::Table;
use std::collections::HashMap;

/// R indexed by key: each key's payloads at `payloads[start..start + len]`.
pub struct CpuJoin {
    index: HashMap<u32, (u32, u32)>,
    payloads: Vec<u32>,
    /// Joined pairs in all: the sum over S's rows of their key's rows in R.
    pub total: u64,
}

impl CpuJoin {
    /// Builds the index on R (count per key, starts, then the payloads in place) and counts
    /// the pairs of S's rows.
    pub fn new(r: &Table, s: &Table) -> CpuJoin {
        let mut index: HashMap<u32, (u32, u32)> = HashMap::with_capacity(r.keys.len());
        for &k in &r.keys {
            index.entry(k).or_insert((0, 0)).1 += 1;
        }
        let mut start = 0u32;
        for entry in index.values_mut() {
            *entry = (start, entry.1);
            start += entry.1;
        }
        let mut payloads = vec![0u32; r.keys.len()];
        let mut filled: HashMap<u32, u32> = HashMap::with_capacity(index.len());
        for (&k, &p) in r.keys.iter().zip(&r.payloads) {
            let at = filled.entry(k).or_insert(0);
            payloads[(index[&k].0 + *at) as usize] = p;
            *at += 1;
        }
        let total = s
            .keys
            .iter()
            .map(|k| index.get(k).map_or(0, |e| e.1 as u64))
            .sum();
        CpuJoin {
            index,
            payloads,
            total,
        }
    }

    /// R's payloads of `key`.
    fn matches(&self, key: u32) -> &[u32] {
        self.index.get(&key).map_or(&[], |&(start, len)| {
            &self.payloads[start as usize..(start + len) as usize]
        })
    }

    /// Checks the GPU's join: `offsets` (one more than S's rows) delimit each S row's pairs in
    /// `out_r` (R's payloads) and `out_s` (S's payload); each row's R payloads must be its
    /// key's, as a multiset, and its S payloads its own.
    pub fn check(&self, s: &Table, offsets: &[u32], out_r: &[u32], out_s: &[u32]) -> Result<(), String> {
        let ns = s.keys.len();
        if offsets.len() != ns + 1 || offsets[ns] as u64 != self.total {
            let got = offsets.last().copied().unwrap_or(0);
            return Err(format!("{got} pairs, expected {}", self.total));
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        for i in 0..ns {
            let (a, b) = (offsets[i] as usize, offsets[i + 1] as usize);
            want.clear();
            want.extend_from_slice(self.matches(s.keys[i]));
            if b < a || b - a != want.len() {
                return Err(format!(
                    "S row {i}: {} pairs, expected {}",
                    b.wrapping_sub(a),
                    want.len()
                ));
            }
            got.clear();
            got.extend_from_slice(&out_r[a..b]);
            want.sort_unstable();
            got.sort_unstable();
            if got != want {
                return Err(format!("S row {i}: R payloads {got:?}, expected {want:?}"));
            }
            if let Some(p) = out_s[a..b].iter().find(|&&p| p != s.payloads[i]) {
                return Err(format!("S row {i}: S payload {p}, expected {}", s.payloads[i]));
            }
        }
        Ok(())
    }
}

/// The group-by of S: the sum (wrapping) of its payloads per key.
pub fn group_by(s: &Table) -> HashMap<u32, u32> {
    let mut sums: HashMap<u32, u32> = HashMap::new();
    for (&k, &p) in s.keys.iter().zip(&s.payloads) {
        let sum = sums.entry(k).or_insert(0);
        *sum = sum.wrapping_add(p);
    }
    sums
}
