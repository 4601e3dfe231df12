//! Per-type traits of the key and value types the tests run over.

use super::{Distribution, Rng};
use vkalgo::hash::{HashKey, HashValue};
use vkalgo::SortKey;

/// A sort key type of the tests: built from small integers (so runs have many equal keys), from
/// bit patterns, from a 32-bit word and its index (the 64-bit types put the word in the high half
/// and the index's low two bits in the low half), and with the special values of its type.
pub trait TestKey: SortKey + PartialEq + std::fmt::Debug {
    fn from_small(v: u64) -> Self;
    fn from_bits64(v: u64) -> Self;
    fn from_word(x: u32, i: usize) -> Self;
    fn specials() -> Vec<Self> {
        Vec::new()
    }
}

/// `n` keys of a distribution with the type's special values spread in (every 97th key from the
/// 13th).
pub fn keys_with_specials<K: TestKey>(n: usize, dist: &Distribution, rng: &mut Rng) -> Vec<K> {
    let specials = K::specials();
    (0..n)
        .map(|i| {
            if !specials.is_empty() && i % 97 == 13 {
                specials[(i / 97) % specials.len()]
            } else {
                K::from_word(dist.1(rng, i), i)
            }
        })
        .collect()
}

impl TestKey for u32 {
    fn from_small(v: u64) -> Self {
        v as u32
    }
    fn from_bits64(v: u64) -> Self {
        v as u32
    }
    fn specials() -> Vec<Self> {
        vec![0, 1, u32::MAX, u32::MAX - 1, 0x8000_0000]
    }
    fn from_word(x: u32, _: usize) -> Self {
        x
    }
}

impl TestKey for i32 {
    fn from_small(v: u64) -> Self {
        v as i32 - 8
    }
    fn from_bits64(v: u64) -> Self {
        v as i32
    }
    fn specials() -> Vec<Self> {
        vec![0, -1, i32::MIN, i32::MAX]
    }
    fn from_word(x: u32, _: usize) -> Self {
        x as i32
    }
}

impl TestKey for f32 {
    fn from_small(v: u64) -> Self {
        (v as f32 - 8.0) * 0.75
    }
    fn from_bits64(v: u64) -> Self {
        f32::from_bits(v as u32)
    }
    fn specials() -> Vec<Self> {
        vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7FC0_0001),
            f32::from_bits(0xFFC0_0001),
            f32::from_bits(0x7F80_0001),
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            f32::MIN,
        ]
    }
    fn from_word(x: u32, _: usize) -> Self {
        f32::from_bits(x)
    }
}

impl TestKey for u64 {
    fn from_small(v: u64) -> Self {
        v << 32 | 7
    }
    fn from_bits64(v: u64) -> Self {
        v
    }
    fn specials() -> Vec<Self> {
        vec![0, u64::MAX, 1 << 63, u32::MAX as u64, 1 << 32]
    }
    fn from_word(x: u32, i: usize) -> Self {
        ((x as u64) << 32) | (i as u64 & 3)
    }
}

impl TestKey for i64 {
    fn from_small(v: u64) -> Self {
        (v as i64 - 8) << 33
    }
    fn from_bits64(v: u64) -> Self {
        v as i64
    }
    fn specials() -> Vec<Self> {
        vec![0, -1, i64::MIN, i64::MAX]
    }
    fn from_word(x: u32, i: usize) -> Self {
        <u64 as TestKey>::from_word(x, i) as i64
    }
}

impl TestKey for f64 {
    fn from_small(v: u64) -> Self {
        (v as f64 - 8.0) * 0.375
    }
    fn from_bits64(v: u64) -> Self {
        f64::from_bits(v)
    }
    fn specials() -> Vec<Self> {
        vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7FF8_0000_0000_0001),
            f64::from_bits(0xFFF8_0000_0000_0001),
            f64::from_bits(0x7FF0_0000_0000_0001),
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::MAX,
            f64::MIN,
        ]
    }
    fn from_word(x: u32, i: usize) -> Self {
        f64::from_bits(<u64 as TestKey>::from_word(x, i))
    }
}

/// Key types with test helpers.
pub trait HashTestKey: HashKey {
    fn from_u64(x: u64) -> Self;
    /// A random storable key (every bit pattern except the two reserved ones).
    fn random(rng: &mut Rng) -> Self;
    const MAX: u64;
}

impl HashTestKey for u32 {
    fn from_u64(x: u64) -> Self {
        x as u32
    }
    fn random(rng: &mut Rng) -> Self {
        loop {
            let k = rng.next_u32();
            if !k.is_reserved() {
                return k;
            }
        }
    }
    const MAX: u64 = u32::MAX as u64;
}

impl HashTestKey for u64 {
    fn from_u64(x: u64) -> Self {
        x
    }
    fn random(rng: &mut Rng) -> Self {
        loop {
            // Low-entropy keys too: the high half often 0 or all ones.
            let k = match rng.next_u32() % 4 {
                0 => rng.next_u64() & 0xFFFF_FFFF,
                1 => rng.next_u64() | 0xFFFF_FFFF_0000_0000,
                _ => rng.next_u64(),
            };
            if !k.is_reserved() {
                return k;
            }
        }
    }
    const MAX: u64 = u64::MAX;
}

pub trait HashTestValue: HashValue {
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
}

impl HashTestValue for u32 {
    fn from_u64(x: u64) -> Self {
        x as u32
    }
    fn to_u64(self) -> u64 {
        self as u64
    }
}

impl HashTestValue for u64 {
    fn from_u64(x: u64) -> Self {
        x
    }
    fn to_u64(self) -> u64 {
        self
    }
}
