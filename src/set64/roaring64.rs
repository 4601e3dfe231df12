//! The Roaring64 portable format (see the [`set64`](crate::set64) module docs): writing from
//! the 32-bit sets' chunks, and a reader that checks every byte it uses.

use super::GpuSet64;
use crate::error::{Error, Result};
use crate::set::roaring::{self, Chunks, ContainerRef};
use crate::set::GpuSet;
use crate::Context;

/// Bytes of the bitmap count at the start.
const COUNT_BYTES: usize = 8;
/// The fewest bytes a bitmap takes: its high key (4) and an empty 32-bit bitmap (8: cookie
/// 12346 and a container count of 0; with cookie 12347 at least one container follows).
const MIN_BITMAP_BYTES: usize = 12;

/// Bytes of the serialization of `buckets` (high key and chunks, keys ascending).
pub(crate) fn serialized_size(buckets: &[(u32, Chunks)]) -> u64 {
    let bitmaps: u64 = buckets
        .iter()
        .map(|(_, chunks)| 4 + roaring::serialized_size(chunks))
        .sum();
    COUNT_BYTES as u64 + bitmaps
}

/// The serialization of `buckets` (high key and chunks, keys ascending, none empty).
pub(crate) fn serialize(buckets: &[(u32, Chunks)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(serialized_size(buckets) as usize);
    out.extend_from_slice(&(buckets.len() as u64).to_le_bytes());
    for (key, chunks) in buckets {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&roaring::serialize(chunks));
    }
    out
}

fn bad(message: String) -> Error {
    Error::invalid(format!("set64 deserialize: {message}"))
}

/// Reads the serialization at the start of `data`: its buckets (high key and chunks, keys
/// ascending; empty 32-bit bitmaps left out) and the bytes it takes. What follows is not read.
pub(crate) fn deserialize_prefix(data: &[u8]) -> Result<(Vec<(u32, Chunks)>, usize)> {
    let (scanned, read) = scan_prefix(data)?;
    let mut buckets = Vec::with_capacity(scanned.len());
    for (key, found) in scanned {
        buckets.push((key, roaring::chunks_of(data, &found)?));
    }
    Ok((buckets, read))
}

/// Each non-empty 32-bit bitmap of a checked serialization: its high key and containers.
pub(crate) type ScannedBitmaps = Vec<(u32, Vec<ContainerRef>)>;

/// Checks the serialization at the start of `data` (everything [`deserialize_prefix`] checks)
/// and lists each non-empty 32-bit bitmap's high key and containers (their offsets into
/// `data`); returns them and the bytes it takes. One pass over the bytes.
pub(crate) fn scan_prefix(data: &[u8]) -> Result<(ScannedBitmaps, usize)> {
    let Some(count) = data.get(..COUNT_BYTES) else {
        return Err(bad(format!(
            "truncated: the bitmap count needs {COUNT_BYTES} bytes, {} given",
            data.len()
        )));
    };
    let count = u64::from_le_bytes(count.try_into().unwrap());
    let rest = data.len() - COUNT_BYTES;
    if count > u32::MAX as u64 + 1 {
        return Err(bad(format!(
            "{count} bitmaps announced, above one per high key (2^32)"
        )));
    }
    // Checked before anything is read or allocated: no count makes the reader work or
    // allocate beyond what the bytes hold.
    if count > (rest / MIN_BITMAP_BYTES) as u64 {
        return Err(bad(format!(
            "{count} bitmaps announced, but the {rest} bytes after the count hold at most {} \
             ({MIN_BITMAP_BYTES} bytes each at least)",
            rest / MIN_BITMAP_BYTES
        )));
    }
    let mut buckets = Vec::with_capacity(count as usize);
    let mut pos = COUNT_BYTES;
    let mut previous: Option<u32> = None;
    for i in 0..count {
        let Some(key) = data.get(pos..pos + 4) else {
            return Err(bad(format!(
                "truncated: bitmap {i} needs its 4-byte high key at byte {pos}, {} left",
                data.len() - pos
            )));
        };
        let key = u32::from_le_bytes(key.try_into().unwrap());
        if let Some(p) = previous.filter(|&p| key <= p) {
            return Err(bad(format!(
                "bitmap {i}: high key {key} not above the previous {p} (keys must be strictly ascending)"
            )));
        }
        pos += 4;
        let (mut found, read) = roaring::scan_prefix(&data[pos..]).map_err(|e| match e {
            Error::InvalidArgument(m) => bad(format!(
                "bitmap {i} (high key {key}, at byte {pos}): {}",
                m.strip_prefix("set deserialize: ").unwrap_or(&m)
            )),
            other => other,
        })?;
        for c in &mut found {
            c.at += pos;
        }
        pos += read;
        previous = Some(key);
        if !found.is_empty() {
            buckets.push((key, found));
        }
    }
    Ok((buckets, pos))
}

/// Reads a serialization that is the whole of `data` (trailing bytes refused).
pub(crate) fn deserialize(data: &[u8]) -> Result<Vec<(u32, Chunks)>> {
    let (buckets, read) = deserialize_prefix(data)?;
    if read != data.len() {
        return Err(bad(format!(
            "{} trailing bytes after the last bitmap",
            data.len() - read
        )));
    }
    Ok(buckets)
}

impl GpuSet64 {
    /// Bytes of the Roaring64 portable serialization [`GpuSet64::serialize`] writes (the
    /// serialization made and measured).
    pub fn serialized_size(&self) -> Result<u64> {
        Ok(self.serialize()?.len() as u64)
    }

    /// The Roaring64 portable serialization: the bytes CRoaring's
    /// `roaring64_bitmap_portable_serialize` writes for the same values after `run_optimize`
    /// (pyroaring's `BitMap64(values).serialize()`): the number of 32-bit bitmaps as a
    /// little-endian u64, then per high key, ascending, the key as a little-endian u32 and the
    /// 32-bit bitmap as [`GpuSet::serialize`] writes it. Every 32-bit set encoded on the GPU in
    /// one submission ([`GpuSet::serialize_many`]).
    pub fn serialize(&self) -> Result<Vec<u8>> {
        let sets: Vec<&GpuSet> = self.sets.values().collect();
        let (bytes, offsets) = GpuSet::serialize_many(&sets)?;
        let mut out = Vec::with_capacity(COUNT_BYTES + 4 * sets.len() + bytes.len());
        out.extend_from_slice(&(sets.len() as u64).to_le_bytes());
        for (key, range) in self.sets.keys().zip(offsets.windows(2)) {
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&bytes[range[0] as usize..range[1] as usize]);
        }
        Ok(out)
    }

    /// A set from a Roaring64 portable serialization that is all of `data` (see the
    /// [`set64`](crate::set64) module docs for what is checked; trailing bytes are refused:
    /// [`GpuSet64::deserialize_prefix`] reads a serialization followed by other data).
    /// Malformed input: [`Error::InvalidArgument`], no set made. Every byte is checked on the
    /// host; the 32-bit sets are written on the GPU in one submission, as
    /// [`GpuSet::deserialize_many`] writes them.
    pub fn deserialize(ctx: &Context, data: &[u8]) -> Result<GpuSet64> {
        let (buckets, read) = scan_prefix(data)?;
        if read != data.len() {
            return Err(bad(format!(
                "{} trailing bytes after the last bitmap",
                data.len() - read
            )));
        }
        Self::from_scanned(ctx, data, buckets)
    }

    /// A set from the Roaring64 portable serialization at the start of `data`, and the number
    /// of bytes it takes (the bytes after it are not read), as CRoaring's
    /// `roaring64_bitmap_portable_deserialize_safe` and `_deserialize_size` together. Checks
    /// as [`GpuSet64::deserialize`] but for trailing bytes.
    pub fn deserialize_prefix(ctx: &Context, data: &[u8]) -> Result<(GpuSet64, usize)> {
        let (buckets, read) = scan_prefix(data)?;
        Ok((Self::from_scanned(ctx, data, buckets)?, read))
    }

    /// A set of non-empty scanned buckets (keys ascending), written on the GPU.
    fn from_scanned(ctx: &Context, data: &[u8], buckets: ScannedBitmaps) -> Result<GpuSet64> {
        let (keys, found): (Vec<u32>, Vec<Vec<ContainerRef>>) = buckets.into_iter().unzip();
        let sets = GpuSet::from_scanned(ctx, data, found)?;
        Ok(GpuSet64 {
            ctx: ctx.clone(),
            sets: keys.into_iter().zip(sets).collect(),
        })
    }
}
