//! The Roaring portable serialization (RoaringFormatSpec, as CRoaring, Java's RoaringBitmap and
//! Apache Iceberg deletion vectors write it), and the host image of a set's chunks.
//!
//! Reading accepts both cookies (12346: no run containers, 12347: run containers) and all
//! three container kinds; writing uses arrays (cardinality <= 4096) and bitmaps (the rest,
//! full chunks included) with cookie 12346, as CRoaring does for a set without run containers.
//! Reading checks everything it uses: the data's length at every step, the cookie, the
//! container count (<= 65536), strictly increasing keys, offsets (each must point exactly at
//! the container that follows the previous one), strictly increasing array values, bitmap and
//! run cardinalities equal to the header's, runs in order without overlap inside the chunk,
//! and no trailing bytes. Anything else is [`Error::InvalidArgument`].

use crate::error::{Error, Result};

/// Largest cardinality stored as a sorted array (Roaring's threshold).
pub const ARRAY_MAX: u32 = 4096;
/// Values per chunk.
pub const CHUNK_VALUES: u32 = 65536;

const SERIAL_COOKIE_NO_RUNCONTAINER: u32 = 12346;
const SERIAL_COOKIE: u32 = 12347;
const NO_OFFSET_THRESHOLD: usize = 4;

/// One chunk's content on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Container {
    /// Sorted distinct low halves (1..=4096 of them).
    Array(Vec<u16>),
    /// 1024 u64 words, bit `v` of the chunk is bit `v % 64` of word `v / 64` (4097..=65535 set).
    Bitmap(Vec<u64>),
    /// All 65536 values.
    Full,
}

impl Container {
    pub(crate) fn cardinality(&self) -> u32 {
        match self {
            Container::Array(a) => a.len() as u32,
            Container::Bitmap(b) => b.iter().map(|w| w.count_ones()).sum(),
            Container::Full => CHUNK_VALUES,
        }
    }

    /// The container of the same values in vkalgo's normal form (by cardinality: none when
    /// empty, an array up to 4096, full at 65536, else a bitmap).
    pub(crate) fn from_bitmap(bits: Vec<u64>) -> Option<Container> {
        let card: u32 = bits.iter().map(|w| w.count_ones()).sum();
        if card == 0 {
            None
        } else if card == CHUNK_VALUES {
            Some(Container::Full)
        } else if card <= ARRAY_MAX {
            let mut values = Vec::with_capacity(card as usize);
            for (i, &w) in bits.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    values.push((i as u32 * 64 + w.trailing_zeros()) as u16);
                    w &= w - 1;
                }
            }
            Some(Container::Array(values))
        } else {
            Some(Container::Bitmap(bits))
        }
    }
}

/// The chunks of a set (ascending keys, no empty chunk).
pub(crate) type Chunks = Vec<(u16, Container)>;

/// Bytes of the portable serialization of `chunks` as [`serialize`] writes it.
pub(crate) fn serialized_size(chunks: &Chunks) -> u64 {
    let n = chunks.len() as u64;
    let data: u64 = chunks
        .iter()
        .map(|(_, c)| match c {
            Container::Array(a) => 2 * a.len() as u64,
            _ => 8192,
        })
        .sum();
    8 + 8 * n + data
}

/// Writes the portable serialization (cookie 12346, offsets included).
pub(crate) fn serialize(chunks: &Chunks) -> Vec<u8> {
    let size = serialized_size(chunks) as usize;
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&SERIAL_COOKIE_NO_RUNCONTAINER.to_le_bytes());
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    for (key, c) in chunks {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&((c.cardinality() - 1) as u16).to_le_bytes());
    }
    let mut offset = 8 + 8 * chunks.len() as u32;
    for (_, c) in chunks {
        out.extend_from_slice(&offset.to_le_bytes());
        offset += match c {
            Container::Array(a) => 2 * a.len() as u32,
            _ => 8192,
        };
    }
    for (_, c) in chunks {
        match c {
            Container::Array(a) => {
                for v in a {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            Container::Bitmap(b) => {
                for w in b {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
            Container::Full => out.resize(out.len() + 8192, 0xFF),
        }
    }
    debug_assert_eq!(out.len(), size);
    out
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8]> {
        if self.data.len() - self.pos < n {
            return Err(bad(format!(
                "truncated: {what} needs {n} bytes at offset {}, {} left",
                self.pos,
                self.data.len() - self.pos
            )));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn bad(message: String) -> Error {
    Error::invalid(format!("set deserialize: {message}"))
}

/// Reads a portable serialization (see the module docs for what is checked).
pub(crate) fn deserialize(data: &[u8]) -> Result<Chunks> {
    let mut r = Reader { data, pos: 0 };
    let cookie = r.u32("the cookie")?;
    let (count, run_flags) = if cookie & 0xFFFF == SERIAL_COOKIE {
        let count = (cookie >> 16) as usize + 1;
        let flags = r.take(count.div_ceil(8), "the run-container bitset")?.to_vec();
        (count, Some(flags))
    } else if cookie == SERIAL_COOKIE_NO_RUNCONTAINER {
        let count = r.u32("the container count")? as usize;
        if count > 65536 {
            return Err(bad(format!("{count} containers (at most 65536)")));
        }
        (count, None)
    } else {
        return Err(bad(format!("unknown cookie {cookie:#x}")));
    };
    let mut headers = Vec::with_capacity(count);
    for i in 0..count {
        let key = r.u16("a container key")?;
        let card = r.u16("a container cardinality")? as u32 + 1;
        if let Some(&(prev, _)) = headers.last() {
            if key <= prev {
                return Err(bad(format!(
                    "container {i}: key {key} not above the previous {prev}"
                )));
            }
        }
        headers.push((key, card));
    }
    let has_offsets = run_flags.is_none() || count >= NO_OFFSET_THRESHOLD;
    let mut offsets = Vec::new();
    if has_offsets {
        for _ in 0..count {
            offsets.push(r.u32("an offset")?);
        }
    }
    let mut chunks = Chunks::with_capacity(count);
    for (i, &(key, card)) in headers.iter().enumerate() {
        if has_offsets && offsets[i] as usize != r.pos {
            return Err(bad(format!(
                "container {i}: offset {} but the container starts at {}",
                offsets[i], r.pos
            )));
        }
        let is_run = run_flags.as_ref().is_some_and(|f| f[i / 8] & (1 << (i % 8)) != 0);
        let container = if is_run {
            let runs = r.u16("a run count")? as usize;
            let bytes = r.take(4 * runs, "runs")?;
            let mut bits = vec![0u64; 1024];
            let mut total = 0u32;
            let mut next_free = 0u32;
            for k in 0..runs {
                let start = u16::from_le_bytes([bytes[4 * k], bytes[4 * k + 1]]) as u32;
                let len = u16::from_le_bytes([bytes[4 * k + 2], bytes[4 * k + 3]]) as u32 + 1;
                if start < next_free || start + len > CHUNK_VALUES {
                    return Err(bad(format!(
                        "container {i}: run {k} [{start}, {}) overlaps, is out of order or leaves the chunk",
                        start + len
                    )));
                }
                for v in start..start + len {
                    bits[(v / 64) as usize] |= 1 << (v % 64);
                }
                total += len;
                next_free = start + len;
            }
            if total != card {
                return Err(bad(format!(
                    "container {i}: runs hold {total} values, header says {card}"
                )));
            }
            Container::from_bitmap(bits)
        } else if card <= ARRAY_MAX {
            let bytes = r.take(2 * card as usize, "an array container")?;
            let values: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
            if values.windows(2).any(|w| w[0] >= w[1]) {
                return Err(bad(format!(
                    "container {i}: array values not strictly increasing"
                )));
            }
            Some(Container::Array(values))
        } else {
            let bytes = r.take(8192, "a bitmap container")?;
            let bits: Vec<u64> = bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
                .collect();
            let total: u32 = bits.iter().map(|w| w.count_ones()).sum();
            if total != card {
                return Err(bad(format!(
                    "container {i}: bitmap holds {total} values, header says {card}"
                )));
            }
            Container::from_bitmap(bits)
        };
        match container {
            Some(c) => chunks.push((key, c)),
            None => return Err(bad(format!("container {i} is empty"))),
        }
    }
    if r.pos != data.len() {
        return Err(bad(format!(
            "{} trailing bytes after the last container",
            data.len() - r.pos
        )));
    }
    Ok(chunks)
}
