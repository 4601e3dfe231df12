//! The real datasets' file format (VKRD: collections of sorted u32 bitmaps, gap-coded), the
//! CPU's results on sorted lists, and the digests both this benchmark and the CRoaring script
//! (bench/realdata_croaring.py) print, so that the two sides' results are compared exactly.

use std::path::Path;

/// The bitmaps of one dataset, each sorted and without duplicates, in file order.
pub struct Dataset {
    pub name: String,
    pub bitmaps: Vec<Vec<u32>>,
}

/// Reads `<dir>/<name>.bin` (the uncompressed `.bin.gz` of the datasets' folder: "VKRD", u32
/// version 1, u32 count, then per bitmap u32 file number, u32 length, u32 width (1, 2 or 4)
/// and `length` gaps of `width` bytes, little-endian). Malformed files: an error naming why;
/// nothing is allocated beyond what the file's bytes can hold.
pub fn read(dir: &Path, name: &str) -> Result<Dataset, String> {
    let path = dir.join(format!("{name}.bin"));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut r = Reader { bytes: &bytes, at: 0 };
    if r.take(4)? != b"VKRD" {
        return Err(format!("{}: not a VKRD file", path.display()));
    }
    if r.u32()? != 1 {
        return Err(format!("{}: unknown version", path.display()));
    }
    let count = r.u32()? as usize;
    let mut bitmaps = Vec::with_capacity(count.min(bytes.len() / 12));
    for _ in 0..count {
        let (_file, length, width) = (r.u32()?, r.u32()? as usize, r.u32()? as usize);
        if ![1, 2, 4].contains(&width) {
            return Err(format!("{}: gap width {width}", path.display()));
        }
        let gaps = r.take(length.checked_mul(width).ok_or("length overflows")?)?;
        let mut values = Vec::with_capacity(length);
        let mut value = 0u64;
        for (i, g) in gaps.chunks_exact(width).enumerate() {
            let mut word = [0u8; 4];
            word[..width].copy_from_slice(g);
            let gap = u32::from_le_bytes(word) as u64;
            if i > 0 && gap == 0 {
                return Err(format!("{}: a bitmap is not strictly increasing", path.display()));
            }
            value += gap;
            values.push(u32::try_from(value).map_err(|_| "a value above 2^32 - 1")?);
        }
        bitmaps.push(values);
    }
    Ok(Dataset {
        name: name.to_string(),
        bitmaps,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| "truncated file".to_string())?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
}

/// The operations the benchmark times, with their names in its rows and digests.
pub const OPS: [(vkalgo::SetOp, &str); 4] = [
    (vkalgo::SetOp::And, "and"),
    (vkalgo::SetOp::Or, "or"),
    (vkalgo::SetOp::AndNot, "andnot"),
    (vkalgo::SetOp::Xor, "xor"),
];

/// `a op b` of two sorted lists without duplicates, sorted.
pub fn merge_op(a: &[u32], b: &[u32], op: vkalgo::SetOp) -> Vec<u32> {
    use vkalgo::SetOp::*;
    let (keep_a, keep_b, keep_both) = match op {
        And => (false, false, true),
        Or => (true, true, true),
        AndNot => (true, false, false),
        Xor => (true, true, false),
        _ => unreachable!("the four operations"),
    };
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            if keep_a {
                out.push(a[i]);
            }
            i += 1;
        } else if i == a.len() || b[j] < a[i] {
            if keep_b {
                out.push(b[j]);
            }
            j += 1;
        } else {
            if keep_both {
                out.push(a[i]);
            }
            i += 1;
            j += 1;
        }
    }
    out
}

/// CRC-32 (zlib's, IEEE polynomial) and the length of byte strings, in order: the digest both
/// sides print per class (Python's `zlib.crc32` computes it at C speed).
pub struct Digest {
    crc: u32,
    len: u64,
}

/// The byte-wise CRC-32 table of the reflected IEEE polynomial.
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

impl Digest {
    pub fn new() -> Self {
        Digest { crc: 0, len: 0 }
    }

    pub fn bytes(&mut self, data: &[u8]) {
        let mut c = !self.crc;
        for &b in data {
            c = CRC_TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
        }
        self.crc = !c;
        self.len += data.len() as u64;
    }

    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn values(&mut self, values: &[u32]) {
        self.bytes(bytemuck::cast_slice(values));
    }

    pub fn hex(&self) -> String {
        format!("{:08x}-{}", self.crc, self.len)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc32_is_zlibs() {
        let mut d = super::Digest::new();
        d.bytes(b"123456789");
        assert_eq!(d.hex(), "cbf43926-9"); // the CRC-32 check value
    }
}
