//! The two tables, generated from the seed with integer arithmetic only, so that
//! bench/cuda/cuco_join.cu (the same generator, written again in C++) joins the very same rows.
//!
//! - R: 2^log2r rows. Its distinct keys are the first three quarters of a list of unique keys
//!   (`unique_keys`); row i takes key index `j = (i * 0x9e3779b1) mod 2^log2r` (a permutation
//!   of the rows), `j` itself below three quarters and `j - 3/4 * 2^log2r` above: the first
//!   quarter of the distinct keys has two rows, the rest one.
//! - S: 2^log2s rows. One in ten misses: a key from the last quarter of the unique keys, never
//!   in R. The others draw a rank `r` in `[1, 2^log2r)` log-uniformly (probability about
//!   `1 / (r log2r)`: a Zipf law of exponent 1; `2^(log2r * u)` for a uniform `u`, in 16.16
//!   fixed point with the fraction of the power linearly interpolated) and take key index
//!   `(r - 1) mod (3/4 * 2^log2r)`: a few keys of R get a large share of S's rows.
//! - Payloads: R's `fmix32(i ^ salt) & 0x7fffffff`; S's `scramble31(i ^ salt)`, a bijection of
//!   31-bit values, so that each S row has its own payload (the CUDA side's check recovers the
//!   row from it). Neither is ever cuCollections' empty-value sentinel (all ones).

/// murmur3's fmix32: a bijection of u32.
pub use vkalgo::hash::reference::fmix32;

/// `n` distinct storable keys: `fmix32(i ^ salt)` for i = 0, 1, ..., skipping the two largest
/// values (vkalgo's reserved keys, cuCollections' sentinels).
fn unique_keys(n: usize, salt: u32) -> Vec<u32> {
    (0u32..)
        .map(|i| fmix32(i ^ salt))
        .filter(|&k| k < u32::MAX - 1)
        .take(n)
        .collect()
}

/// A bijection of `[0, 2^31)` (odd multiplications and right xorshifts modulo 2^31).
fn scramble31(x: u32) -> u32 {
    const MASK: u32 = 0x7fff_ffff;
    let mut x = (x & MASK).wrapping_mul(0x2c1b_3c6d) & MASK;
    x ^= x >> 16;
    x = x.wrapping_mul(0x297a_2d39) & MASK;
    x ^ (x >> 15)
}

/// A fingerprint of both tables (FNV-1a over R's keys, R's payloads, S's keys, S's payloads,
/// a u32 at a time), printed by both sides to show they joined the same rows.
pub fn checksum(r: &Table, s: &Table) -> u32 {
    let columns = [&r.keys, &r.payloads, &s.keys, &s.payloads];
    let words = columns.into_iter().flat_map(|c| c.iter());
    words.fold(0x811c_9dc5, |h, &v| (h ^ v).wrapping_mul(0x0100_0193))
}

/// A table of (key, payload) rows, as two columns.
pub struct Table {
    /// The join key of each row.
    pub keys: Vec<u32>,
    /// The payload of each row.
    pub payloads: Vec<u32>,
}

/// The salts of one seed: (keys, R's payloads, S's draws, S's payloads).
fn salts(seed: u32) -> [u32; 4] {
    let base = fmix32(seed.wrapping_mul(0x9e37_79b9).wrapping_add(0x632b_e5ab));
    [0x5bd1_e995, 0x2545_f491, 0x68e3_1da4, 0x1b87_3593].map(|s| fmix32(base ^ s))
}

/// A rank in `[1, 2^log2)`, log-uniform in `x` (uniform on u32): `2^(log2 * x / 2^32)`.
fn log_uniform_rank(x: u32, log2: u32) -> u64 {
    let t = (log2 as u64 * x as u64) >> 16; // 16.16 fixed point, below log2
    let (whole, fraction) = (t >> 16, t & 0xffff);
    ((1u64 << whole) * (0x1_0000 + fraction)) >> 16
}

/// Generates R (2^log2r rows, log2r >= 2) and S (2^log2s rows) from `seed`.
pub fn tables(log2r: u32, log2s: u32, seed: u32) -> (Table, Table) {
    let [key_salt, r_salt, draw_salt, s_salt] = salts(seed);
    let nr = 1u32 << log2r;
    let distinct = nr - nr / 4;
    let unique = unique_keys(nr as usize, key_salt);
    let r_keys = (0..nr)
        .map(|i| {
            let j = i.wrapping_mul(0x9e37_79b1) & (nr - 1);
            unique[(if j < distinct { j } else { j - distinct }) as usize]
        })
        .collect();
    let r_payloads = (0..nr).map(|i| fmix32(i ^ r_salt) & 0x7fff_ffff).collect();
    let ns = 1u32 << log2s;
    let s_keys = (0..ns)
        .map(|i| {
            let h = fmix32(i ^ draw_salt);
            if h % 10 == 0 {
                unique[(distinct + fmix32(h) % (nr / 4)) as usize]
            } else {
                let rank = log_uniform_rank(fmix32(h ^ 0x7f4a_7c15), log2r);
                unique[((rank - 1) % distinct as u64) as usize]
            }
        })
        .collect();
    let s_payloads = (0..ns).map(|i| scramble31(i ^ s_salt)).collect();
    let r = Table {
        keys: r_keys,
        payloads: r_payloads,
    };
    let s = Table {
        keys: s_keys,
        payloads: s_payloads,
    };
    (r, s)
}
