//! The element types every algorithm shares: key types (sort, multisplit, merge) and value
//! types (the payload moved with each key).

use crate::error::{Error, Result};

/// Key type of a sort (the values match the C constants `VKALGO_KEY_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum KeyType {
    /// `u32`.
    U32 = 0,
    /// `i32`.
    I32 = 1,
    /// `f32`, in IEEE-754 totalOrder.
    F32 = 2,
    /// `u64`.
    U64 = 3,
    /// `i64`.
    I64 = 4,
    /// `f64`, in IEEE-754 totalOrder.
    F64 = 5,
}

impl KeyType {
    /// Every key type.
    pub const ALL: [KeyType; 6] = [
        KeyType::U32,
        KeyType::I32,
        KeyType::F32,
        KeyType::U64,
        KeyType::I64,
        KeyType::F64,
    ];

    /// Bits of the key (32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            KeyType::U32 | KeyType::I32 | KeyType::F32 => 32,
            _ => 64,
        }
    }

    /// Bytes of the key (4 or 8).
    pub fn bytes(self) -> u64 {
        self.bits() as u64 / 8
    }

    /// The key type with the C value `raw`.
    pub fn from_raw(raw: u32) -> Result<Self> {
        Ok(match raw {
            0 => KeyType::U32,
            1 => KeyType::I32,
            2 => KeyType::F32,
            3 => KeyType::U64,
            4 => KeyType::I64,
            5 => KeyType::F64,
            other => return Err(Error::invalid(format!("sort: unknown key type {other}"))),
        })
    }

    /// The key kind of the kernels' KEY_ORDER constant: 0 unsigned, 1 signed, 2 float.
    pub(crate) fn kind(self) -> u32 {
        match self {
            KeyType::U32 | KeyType::U64 => 0,
            KeyType::I32 | KeyType::I64 => 1,
            KeyType::F32 | KeyType::F64 => 2,
        }
    }
}

/// Payload carried with each key (the values match the C constants `VKALGO_VALUE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ValueType {
    /// Keys only.
    None = 0,
    /// 4-byte values.
    U32 = 1,
    /// 8-byte values.
    U64 = 2,
}

impl ValueType {
    /// Every value type (keys only first).
    pub const ALL: [ValueType; 3] = [ValueType::None, ValueType::U32, ValueType::U64];

    /// Bytes of one value (0 for [`ValueType::None`]).
    pub fn bytes(self) -> u64 {
        match self {
            ValueType::None => 0,
            ValueType::U32 => 4,
            ValueType::U64 => 8,
        }
    }

    /// The value type with the C value `raw`.
    pub fn from_raw(raw: u32) -> Result<Self> {
        Ok(match raw {
            0 => ValueType::None,
            1 => ValueType::U32,
            2 => ValueType::U64,
            other => return Err(Error::invalid(format!("sort: unknown value type {other}"))),
        })
    }
}

/// An associative, commutative operation that combines values: the hash map's insert-or-apply
/// (on unsigned values) and the reductions (the values match the C constants `VKALGO_OP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ReduceOp {
    /// The sum (integers wrap).
    Sum = 0,
    /// The smaller.
    Min = 1,
    /// The larger.
    Max = 2,
}

impl ReduceOp {
    /// Every operation, in code order.
    pub const ALL: [ReduceOp; 3] = [ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max];

    /// The operation with the C value `raw`.
    pub fn from_raw(raw: u32) -> Result<Self> {
        ReduceOp::ALL
            .into_iter()
            .find(|op| *op as u32 == raw)
            .ok_or_else(|| Error::invalid(format!("unknown operation {raw} (VKALGO_OP_SUM, _MIN or _MAX)")))
    }

    /// The operation applied to two unsigned 64-bit values (the low bits for u32 values).
    pub fn apply_u64(self, a: u64, b: u64) -> u64 {
        match self {
            ReduceOp::Sum => a.wrapping_add(b),
            ReduceOp::Min => a.min(b),
            ReduceOp::Max => a.max(b),
        }
    }
}
