//! The Rust key and value types a sort accepts.

use super::{KeyType, ValueType};

/// A key type the radix sort orders: `u32`, `i32`, `f32`, `u64`, `i64`, `f64`.
pub trait SortKey: bytemuck::Pod {
    /// The matching [`KeyType`].
    const KEY_TYPE: KeyType;
    /// The key's order-preserving bits, ascending (floats in IEEE-754 totalOrder), widened to
    /// u64: comparing these compares the keys.
    fn ordered_bits(self) -> u64;
}

impl SortKey for u32 {
    const KEY_TYPE: KeyType = KeyType::U32;
    fn ordered_bits(self) -> u64 {
        self as u64
    }
}

impl SortKey for i32 {
    const KEY_TYPE: KeyType = KeyType::I32;
    fn ordered_bits(self) -> u64 {
        (self as u32 ^ 0x8000_0000) as u64
    }
}

impl SortKey for f32 {
    const KEY_TYPE: KeyType = KeyType::F32;
    fn ordered_bits(self) -> u64 {
        let b = self.to_bits();
        (if b & 0x8000_0000 != 0 { !b } else { b | 0x8000_0000 }) as u64
    }
}

impl SortKey for u64 {
    const KEY_TYPE: KeyType = KeyType::U64;
    fn ordered_bits(self) -> u64 {
        self
    }
}

impl SortKey for i64 {
    const KEY_TYPE: KeyType = KeyType::I64;
    fn ordered_bits(self) -> u64 {
        self as u64 ^ (1 << 63)
    }
}

impl SortKey for f64 {
    const KEY_TYPE: KeyType = KeyType::F64;
    fn ordered_bits(self) -> u64 {
        let b = self.to_bits();
        if b & (1 << 63) != 0 {
            !b
        } else {
            b | (1 << 63)
        }
    }
}

/// A payload type carried with the keys: any 4-byte (`u32`, `i32`, `f32`) or 8-byte (`u64`,
/// `i64`, `f64`) plain value.
pub trait SortValue: bytemuck::Pod {
    /// The matching [`ValueType`].
    const VALUE_TYPE: ValueType;
}

macro_rules! sort_values {
    ($($t:ty => $v:expr),*) => {$(impl SortValue for $t { const VALUE_TYPE: ValueType = $v; })*};
}
sort_values!(u32 => ValueType::U32, i32 => ValueType::U32, f32 => ValueType::U32,
    u64 => ValueType::U64, i64 => ValueType::U64, f64 => ValueType::U64);
