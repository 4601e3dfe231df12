//! The Roaring portable serialization (RoaringFormatSpec, as CRoaring, Java's RoaringBitmap and
//! Apache Iceberg deletion vectors write it), and the host image of a set's chunks.
//!
//! Reading accepts both cookies (12346: no run containers, 12347: run containers) and all
//! three container kinds. Writing picks each chunk's container as CRoaring 5's `run_optimize`
//! does: runs where their 2 + 4r bytes are fewer than 2n for an array of n values (cardinality
//! <= 4096) or than the bitmap's 8192 (the rest, full chunks included), and cookie 12347 with
//! the run-container bitset when any chunk is runs, else cookie 12346. So a
//! set serializes to the bytes CRoaring writes for the same values after `run_optimize` (what
//! pyroaring's `BitMap(values)` holds): on clustered sets far fewer bytes than arrays and
//! bitmaps alone (docs/tuning/set.md#runs-serialized).
//! Reading checks everything it uses: the data's length at every step, the cookie, the
//! container count (<= 65536), strictly increasing keys, offsets (each must point exactly at
//! the container that follows the previous one), strictly increasing array values, bitmap and
//! run cardinalities equal to the header's, runs in order without overlap inside the chunk,
//! and no trailing bytes. Anything else is [`Error::InvalidArgument`].
//!
//! Reading costs time linear in the input and host memory a small constant times it: a run
//! container is read run by run (touching runs joined) straight into the form the GPU keeps
//! (a run chunk of up to 48 runs, a full chunk, an array or a bitmap), never value by value, so
//! CRoaring's 925,700-byte serialization of [0, 2^32) becomes 65,536 full chunks without
//! touching a value. The largest ratio is a run container of 49 runs or more holding over 4096
//! values: 198 bytes or more in the file, an 8 KiB bitmap here (as on the GPU).

use crate::error::{Error, Result};

/// Largest cardinality stored as a sorted array (Roaring's threshold).
pub const ARRAY_MAX: u32 = 4096;
/// Values per chunk.
pub const CHUNK_VALUES: u32 = 65536;

pub(super) const SERIAL_COOKIE_NO_RUNCONTAINER: u32 = 12346;
pub(super) const SERIAL_COOKIE: u32 = 12347;
pub(super) const NO_OFFSET_THRESHOLD: usize = 4;

/// One chunk's content on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Container {
    /// Sorted distinct low halves (1..=4096 of them).
    Array(Vec<u16>),
    /// 1024 u64 words, bit `v` of the chunk is bit `v % 64` of word `v / 64` (4097..=65535 set).
    Bitmap(Vec<u64>),
    /// All 65536 values.
    Full,
    /// 1..=[`RUN_MAX`] runs of consecutive values, (first, last) each, ascending and apart (at
    /// least one value between two runs): a GPU run chunk, in the form [`Container::gpu_form`]
    /// picks.
    Runs(Vec<(u16, u16)>),
}

/// The most runs a GPU run chunk holds (one array block of 48 words; glsl/set/set_common.glsl
/// RUN_MAX).
pub const RUN_MAX: usize = 48;

impl Container {
    pub(crate) fn cardinality(&self) -> u32 {
        match self {
            Container::Array(a) => a.len() as u32,
            Container::Bitmap(b) => b.iter().map(|w| w.count_ones()).sum(),
            Container::Full => CHUNK_VALUES,
            Container::Runs(r) => r.iter().map(|&(f, l)| l as u32 - f as u32 + 1).sum(),
        }
    }

    /// The same values as an array, a bitmap or a full chunk (by cardinality).
    #[cfg(test)]
    pub(crate) fn to_plain(&self) -> Container {
        match self {
            Container::Runs(runs) => {
                let mut bits = vec![0u64; 1024];
                for &(first, last) in runs {
                    set_bit_range(&mut bits, first as u32, last as u32 + 1);
                }
                Container::from_bitmap(bits).expect("a run chunk holds values")
            }
            c => c.clone(),
        }
    }

    /// The form the GPU keeps these values in (glsl/set/set_common.glsl result_form): runs
    /// where CRoaring's run_optimize would pick them ([`written_form`]) and there are at most
    /// [`RUN_MAX`], else the array, bitmap or full chunk. A run chunk is in that form already.
    pub(crate) fn gpu_form(self) -> Container {
        if let Container::Runs(_) = self {
            return self;
        }
        let plain = self;
        let runs = match &plain {
            Container::Array(a) => array_runs(a),
            Container::Bitmap(b) if bitmap_run_count(b) <= RUN_MAX => bitmap_runs(b),
            _ => return plain,
        };
        let n = plain.cardinality() as usize;
        if runs.len() <= RUN_MAX && (n > ARRAY_MAX as usize || 2 + 4 * runs.len() < 2 * n) {
            Container::Runs(runs.iter().map(|&(f, len)| (f, f + len)).collect())
        } else {
            plain
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

/// Sets bits `[start, end)` of a chunk's bitmap a word at a time (`end` <= 65536).
fn set_bit_range(bits: &mut [u64], start: u32, end: u32) {
    let mut v = start;
    while v < end {
        let word = (v / 64) as usize;
        let low = v % 64;
        let high = (end - 64 * word as u32).min(64);
        let mask = if high - low == 64 {
            u64::MAX
        } else {
            ((1u64 << (high - low)) - 1) << low
        };
        bits[word] |= mask;
        v = 64 * word as u32 + high;
    }
}

/// A run container's values in the form [`Container::gpu_form`] picks, from its runs
/// `(start, length)` (ascending, not overlapping; touching runs are joined): one step a run and
/// a word, never one a value, so a chunk's cost follows its bytes in the file.
fn container_of_runs(runs: &[(u32, u32)]) -> Option<Container> {
    let mut joined: Vec<(u16, u16)> = Vec::with_capacity(runs.len());
    let mut total = 0u32;
    for &(start, len) in runs {
        total += len;
        let last = (start + len - 1) as u16;
        match joined.last_mut() {
            Some((_, prev_last)) if *prev_last as u32 + 1 == start => *prev_last = last,
            _ => joined.push((start as u16, last)),
        }
    }
    let n = total as usize;
    if n == 0 {
        None
    } else if total == CHUNK_VALUES {
        Some(Container::Full)
    } else if joined.len() <= RUN_MAX && (n > ARRAY_MAX as usize || 2 + 4 * joined.len() < 2 * n) {
        Some(Container::Runs(joined))
    } else {
        let mut bits = vec![0u64; 1024];
        for &(first, last) in &joined {
            set_bit_range(&mut bits, first as u32, last as u32 + 1);
        }
        Container::from_bitmap(bits)
    }
}

/// The runs of a sorted array: (first value, length - 1) each, ascending.
fn array_runs(values: &[u16]) -> Vec<(u16, u16)> {
    let mut runs: Vec<(u16, u16)> = Vec::new();
    for &v in values {
        match runs.last_mut() {
            Some((start, len)) if *start as u32 + *len as u32 + 1 == v as u32 => *len += 1,
            _ => runs.push((v, 0)),
        }
    }
    runs
}

/// The first values of a bitmap's runs as bits: word i's (bit b: value 64i + b starts a run).
fn run_starts(bits: &[u64], i: usize) -> u64 {
    let before = if i > 0 { bits[i - 1] >> 63 } else { 0 };
    bits[i] & !((bits[i] << 1) | before)
}

/// The number of runs of a bitmap, a few operations a word.
fn bitmap_run_count(bits: &[u64]) -> usize {
    (0..bits.len())
        .map(|i| run_starts(bits, i).count_ones() as usize)
        .sum()
}

/// The runs of a bitmap, from the bits that start and end runs (a pass over the words and one
/// step a run, not one a value: a chunk of a few long runs costs as little as its words).
fn bitmap_runs(bits: &[u64]) -> Vec<(u16, u16)> {
    let mut runs = Vec::new();
    let mut open = 0u32;
    for i in 0..bits.len() {
        let after = if i + 1 < bits.len() { bits[i + 1] & 1 } else { 0 };
        let mut starts = run_starts(bits, i);
        let mut ends = bits[i] & !((bits[i] >> 1) | (after << 63));
        while starts | ends != 0 {
            // A run of one value starts and ends at the same bit: its start first.
            let s = if starts != 0 { starts.trailing_zeros() } else { 64 };
            let e = if ends != 0 { ends.trailing_zeros() } else { 64 };
            if s <= e {
                open = i as u32 * 64 + s;
                starts &= starts - 1;
            } else {
                runs.push((open as u16, (i as u32 * 64 + e - open) as u16));
                ends &= ends - 1;
            }
        }
    }
    runs
}

/// How [`serialize`] writes one chunk.
enum Written {
    /// The container as it is (array or bitmap bytes).
    Plain,
    /// Run container: the runs.
    Runs(Vec<(u16, u16)>),
}

/// CRoaring's `run_optimize` choice: runs when their serialized bytes are fewer.
fn written_form(c: &Container) -> Written {
    // CRoaring 5 (5.2.2 in pyroaring 1.2.0) compares the runs' 2 + 4r bytes with 2n for an
    // array of n values: an array of 5 values in 2 runs stays an array. CRoaring 4 (4.2.3 in
    // pyroaring 1.0.3) compared with 2 + 2n and made it runs; the two differ only for arrays of
    // n = 2r + 1 values. tests/roaring_interchange.py checks the bytes.
    match c {
        Container::Array(a) => {
            let runs = array_runs(a);
            if 2 + 4 * runs.len() < 2 * a.len() {
                Written::Runs(runs)
            } else {
                Written::Plain
            }
        }
        // At most 2047 runs (8190 bytes) beat the bitmap's 8192.
        Container::Bitmap(b) if 2 + 4 * bitmap_run_count(b) < 8192 => Written::Runs(bitmap_runs(b)),
        Container::Bitmap(_) => Written::Plain,
        Container::Full => Written::Runs(vec![(0, u16::MAX)]),
        // A run chunk's runs are maximal, as the array's or bitmap's of its values would be.
        Container::Runs(r) if 2 + 4 * r.len() < plain_bytes(c) => {
            Written::Runs(r.iter().map(|&(first, last)| (first, last - first)).collect())
        }
        Container::Runs(_) => Written::Plain,
    }
}

/// Bytes of a chunk written as an array (up to 4096 values) or a bitmap, by its values alone.
fn plain_bytes(c: &Container) -> usize {
    let n = c.cardinality() as usize;
    if n <= ARRAY_MAX as usize {
        2 * n
    } else {
        8192
    }
}

/// Bytes of a chunk's container data as [`serialize`] writes it.
fn written_bytes(c: &Container, w: &Written) -> usize {
    match (w, c) {
        (Written::Runs(r), _) => 2 + 4 * r.len(),
        (Written::Plain, _) => plain_bytes(c),
    }
}

/// Each chunk's written form, and whether any is runs.
fn written_forms(chunks: &Chunks) -> (Vec<Written>, bool) {
    let forms: Vec<Written> = chunks.iter().map(|(_, c)| written_form(c)).collect();
    let any_runs = forms.iter().any(|w| matches!(w, Written::Runs(_)));
    (forms, any_runs)
}

/// Bytes of the header: cookie (and count, or the run bitset), keys and cardinalities, and the
/// offsets where the format has them.
pub(super) fn header_bytes(count: usize, any_runs: bool) -> usize {
    if any_runs {
        4 + count.div_ceil(8)
            + 4 * count
            + if count >= NO_OFFSET_THRESHOLD {
                4 * count
            } else {
                0
            }
    } else {
        8 + 8 * count
    }
}

/// Bytes of the whole serialization of `chunks` in their written forms.
fn total_bytes(chunks: &Chunks, forms: &[Written], any_runs: bool) -> usize {
    let data: usize = chunks
        .iter()
        .zip(forms)
        .map(|((_, c), w)| written_bytes(c, w))
        .sum();
    header_bytes(chunks.len(), any_runs) + data
}

/// Bytes of the portable serialization of `chunks` as [`serialize`] writes it.
pub(crate) fn serialized_size(chunks: &Chunks) -> u64 {
    let (forms, any_runs) = written_forms(chunks);
    total_bytes(chunks, &forms, any_runs) as u64
}

/// Writes the portable serialization (see the module docs for the containers and cookie).
/// Each chunk is written by its values alone, whatever its container.
pub(crate) fn serialize(chunks: &Chunks) -> Vec<u8> {
    let mut out = Vec::new();
    serialize_into(chunks, &mut out);
    out
}

/// [`serialize`], appended to `out`.
pub(crate) fn serialize_into(chunks: &Chunks, out: &mut Vec<u8>) {
    let (forms, any_runs) = written_forms(chunks);
    let count = chunks.len();
    let size = total_bytes(chunks, &forms, any_runs);
    let begin = out.len();
    out.reserve(size);
    if any_runs {
        // count >= 1 here (a run container exists), and count <= 65536 fits the cookie's half.
        out.extend_from_slice(&(SERIAL_COOKIE | ((count as u32 - 1) << 16)).to_le_bytes());
        let mut flags = vec![0u8; count.div_ceil(8)];
        for (i, w) in forms.iter().enumerate() {
            if matches!(w, Written::Runs(_)) {
                flags[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend_from_slice(&flags);
    } else {
        out.extend_from_slice(&SERIAL_COOKIE_NO_RUNCONTAINER.to_le_bytes());
        out.extend_from_slice(&(count as u32).to_le_bytes());
    }
    for (key, c) in chunks {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&((c.cardinality() - 1) as u16).to_le_bytes());
    }
    if !any_runs || count >= NO_OFFSET_THRESHOLD {
        let mut offset = header_bytes(count, any_runs) as u32;
        for ((_, c), w) in chunks.iter().zip(&forms) {
            out.extend_from_slice(&offset.to_le_bytes());
            offset += written_bytes(c, w) as u32;
        }
    }
    for ((_, c), w) in chunks.iter().zip(&forms) {
        match (w, c) {
            (Written::Runs(runs), _) => {
                out.extend_from_slice(&(runs.len() as u16).to_le_bytes());
                for &(start, len) in runs {
                    out.extend_from_slice(&start.to_le_bytes());
                    out.extend_from_slice(&len.to_le_bytes());
                }
            }
            (Written::Plain, Container::Array(a)) => extend_le_u16(out, a),
            (Written::Plain, Container::Bitmap(b)) => extend_le_u64(out, b),
            (Written::Plain, Container::Full) => out.resize(out.len() + 8192, 0xFF),
            (Written::Plain, Container::Runs(r)) if c.cardinality() <= ARRAY_MAX => {
                for &(first, last) in r {
                    for v in first..=last {
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            (Written::Plain, Container::Runs(r)) => {
                let mut bits = vec![0u64; 1024];
                for &(first, last) in r {
                    set_bit_range(&mut bits, first as u32, last as u32 + 1);
                }
                extend_le_u64(out, &bits);
            }
        }
    }
    debug_assert_eq!(out.len() - begin, size);
}

/// Appends `values` as little-endian u16.
fn extend_le_u16(out: &mut Vec<u8>, values: &[u16]) {
    if cfg!(target_endian = "little") {
        out.extend_from_slice(bytemuck::cast_slice(values));
    } else {
        values
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    }
}

/// Appends `words` as little-endian u64.
fn extend_le_u64(out: &mut Vec<u8>, words: &[u64]) {
    if cfg!(target_endian = "little") {
        out.extend_from_slice(bytemuck::cast_slice(words));
    } else {
        words.iter().for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    }
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
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
    let (chunks, read) = deserialize_prefix(data)?;
    if read != data.len() {
        return Err(bad(format!(
            "{} trailing bytes after the last container",
            data.len() - read
        )));
    }
    Ok(chunks)
}

/// Reads the portable serialization at the start of `data` (checked as [`deserialize`] checks
/// it, but the bytes after it are left alone), and the number of bytes it takes: the 32-bit
/// bitmaps inside a Roaring64 serialization.
pub(crate) fn deserialize_prefix(data: &[u8]) -> Result<(Chunks, usize)> {
    let (found, read) = scan_prefix(data)?;
    Ok((chunks_of(data, &found)?, read))
}

/// The chunks of containers [`scan_prefix`] found in `data` (their `at` offsets into `data`).
pub(crate) fn chunks_of(data: &[u8], found: &[ContainerRef]) -> Result<Chunks> {
    let mut chunks = Chunks::with_capacity(found.len());
    for (i, c) in found.iter().enumerate() {
        let bytes = &data[c.at..c.at + c.len];
        let container = match c.kind {
            ContainerKind::Array => Some(Container::Array(
                bytes
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]]))
                    .collect(),
            )),
            ContainerKind::Bitmap => Container::from_bitmap(
                bytes
                    .chunks_exact(8)
                    .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
                    .collect(),
            ),
            ContainerKind::Runs => {
                let runs: Vec<(u32, u32)> = bytes
                    .chunks_exact(4)
                    .map(|b| {
                        let start = u16::from_le_bytes([b[0], b[1]]) as u32;
                        (start, u16::from_le_bytes([b[2], b[3]]) as u32 + 1)
                    })
                    .collect();
                container_of_runs(&runs)
            }
        };
        match container {
            Some(container) => chunks.push((c.key, container)),
            None => return Err(bad(format!("container {i} is empty"))),
        }
    }
    Ok(chunks)
}

/// How a container is written in a serialization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContainerKind {
    /// Sorted u16 values.
    Array,
    /// 8192 bytes of bits.
    Bitmap,
    /// (start, length - 1) u16 pairs.
    Runs,
}

/// A container of a checked serialization, where its bytes lie.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContainerRef {
    /// Its chunk.
    pub(crate) key: u16,
    /// Its values (1..=65536).
    pub(crate) card: u32,
    pub(crate) kind: ContainerKind,
    /// Its bytes: `data[at..at + len]` (an array's values, a bitmap's words, a run
    /// container's runs after their count).
    pub(crate) at: usize,
    pub(crate) len: usize,
    /// The maximal runs of its values (touching runs of a run container count as one).
    pub(crate) runs: u32,
}

impl ContainerRef {
    /// The form the GPU keeps these values in, as [`Container::gpu_form`] picks it for the
    /// container [`deserialize_prefix`] reads.
    pub(crate) fn gpu_form(&self) -> GpuForm {
        let (n, r) = (self.card as usize, self.runs as usize);
        if self.card == CHUNK_VALUES {
            GpuForm::Full
        } else if r <= RUN_MAX && (n > ARRAY_MAX as usize || 2 + 4 * r < 2 * n) {
            GpuForm::Runs
        } else if self.card <= ARRAY_MAX {
            GpuForm::Array
        } else {
            GpuForm::Bitmap
        }
    }
}

/// The forms of a chunk on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GpuForm {
    Full,
    /// Up to [`RUN_MAX`] maximal runs.
    Runs,
    Array,
    Bitmap,
}

/// Checks the portable serialization at the start of `data` (everything [`deserialize`]
/// checks but trailing bytes) and lists its containers; returns them and the bytes it takes.
/// One pass over the bytes, no allocation a container.
pub(crate) fn scan_prefix(data: &[u8]) -> Result<(Vec<ContainerRef>, usize)> {
    let mut r = Reader { data, pos: 0 };
    let cookie = r.u32("the cookie")?;
    let (count, run_flags) = if cookie & 0xFFFF == SERIAL_COOKIE {
        let count = (cookie >> 16) as usize + 1;
        let flags = r.take(count.div_ceil(8), "the run-container bitset")?;
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
    let headers_at = r.pos;
    r.take(4 * count, "the container headers")?;
    let header = |i: usize| {
        let b = &data[headers_at + 4 * i..];
        (
            u16::from_le_bytes([b[0], b[1]]),
            u16::from_le_bytes([b[2], b[3]]) as u32 + 1,
        )
    };
    let has_offsets = run_flags.is_none() || count >= NO_OFFSET_THRESHOLD;
    let offsets_at = r.pos;
    if has_offsets {
        r.take(4 * count, "the offsets")?;
    }
    let mut found = Vec::with_capacity(count);
    for i in 0..count {
        let (key, card) = header(i);
        if i > 0 && key <= header(i - 1).0 {
            return Err(bad(format!(
                "container {i}: key {key} not above the previous {}",
                header(i - 1).0
            )));
        }
        if has_offsets {
            let b = &data[offsets_at + 4 * i..];
            let offset = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if offset as usize != r.pos {
                return Err(bad(format!(
                    "container {i}: offset {offset} but the container starts at {}",
                    r.pos
                )));
            }
        }
        let is_run = run_flags.is_some_and(|f| f[i / 8] & (1 << (i % 8)) != 0);
        let (kind, at, len, runs) = if is_run {
            let count = r.u16("a run count")? as usize;
            let at = r.pos;
            let bytes = r.take(4 * count, "runs")?;
            let mut total = 0u32;
            let mut next_free = 0u32;
            let mut joined = 0u32;
            for k in 0..count {
                let start = u16::from_le_bytes([bytes[4 * k], bytes[4 * k + 1]]) as u32;
                let len = u16::from_le_bytes([bytes[4 * k + 2], bytes[4 * k + 3]]) as u32 + 1;
                if start < next_free || start + len > CHUNK_VALUES {
                    return Err(bad(format!(
                        "container {i}: run {k} [{start}, {}) overlaps, is out of order or leaves the chunk",
                        start + len
                    )));
                }
                joined += u32::from(k == 0 || start != next_free);
                total += len;
                next_free = start + len;
            }
            if total != card {
                return Err(bad(format!(
                    "container {i}: runs hold {total} values, header says {card}"
                )));
            }
            (ContainerKind::Runs, at, 4 * count, joined)
        } else if card <= ARRAY_MAX {
            let at = r.pos;
            let bytes = r.take(2 * card as usize, "an array container")?;
            let mut runs = 0u32;
            let mut prev: Option<u16> = None;
            for b in bytes.chunks_exact(2) {
                let v = u16::from_le_bytes([b[0], b[1]]);
                match prev {
                    Some(p) if p >= v => {
                        return Err(bad(format!(
                            "container {i}: array values not strictly increasing"
                        )))
                    }
                    Some(p) if p + 1 == v => {}
                    _ => runs += 1,
                }
                prev = Some(v);
            }
            (ContainerKind::Array, at, 2 * card as usize, runs)
        } else {
            let at = r.pos;
            let bytes = r.take(8192, "a bitmap container")?;
            let (mut total, mut runs, mut carry) = (0u32, 0u32, 0u64);
            for b in bytes.chunks_exact(8) {
                let w = u64::from_le_bytes(b.try_into().unwrap());
                total += w.count_ones();
                runs += (w & !((w << 1) | carry)).count_ones();
                carry = w >> 63;
            }
            if total != card {
                return Err(bad(format!(
                    "container {i}: bitmap holds {total} values, header says {card}"
                )));
            }
            (ContainerKind::Bitmap, at, 8192, runs)
        };
        found.push(ContainerRef {
            key,
            card,
            kind,
            at,
            len,
            runs,
        });
    }
    Ok((found, r.pos))
}

#[cfg(test)]
mod tests;
