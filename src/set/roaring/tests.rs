//! The Roaring serialization and the host image of chunks against random and mutated sets.

use super::*;
use crate::set::reference;

/// A xorshift64 generator from `seed` (non-zero): each call the next 64 bits.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

fn bitmap_of(values: impl IntoIterator<Item = u32>) -> Container {
    let mut bits = vec![0u64; 1024];
    for v in values {
        bits[(v / 64) as usize] |= 1 << (v % 64);
    }
    Container::Bitmap(bits)
}

/// What reading gives for a serialization of `chunks`: each chunk in the GPU's form.
fn in_gpu_form(chunks: &Chunks) -> Chunks {
    chunks.iter().map(|(k, c)| (*k, c.clone().gpu_form())).collect()
}

/// The whole universe, [0, 2^32), as CRoaring writes it (65,536 one-run containers): 65,536
/// full chunks, read without a step per value (a loop over the 2^32 values took seconds).
#[test]
fn full_universe_reads_in_linear_time() {
    let file = reference::serialize_runs(65536, |_| vec![(0, 65536)]);
    assert_eq!(file.len(), 4 + 8192 + 65536 * 4 + 65536 * 4 + 65536 * 6);
    let start = std::time::Instant::now();
    let chunks = deserialize(&file).unwrap();
    let took = start.elapsed();
    assert_eq!(chunks.len(), 65536);
    assert!(chunks.iter().all(|(_, c)| *c == Container::Full));
    assert!(took.as_secs_f64() < 2.0, "{took:?} for {} bytes", file.len());
    assert_eq!(serialize(&chunks), file);
}

/// One run of 5,000 values a chunk stays one run (no 8 KiB bitmap a chunk); touching runs
/// are joined; runs the GPU would not keep as runs become arrays or bitmaps with the same
/// values.
#[test]
fn run_containers_read_into_the_gpu_form() {
    let chunks = deserialize(&reference::serialize_runs(65536, |k| {
        vec![((k % 60000) as u16, 5000)]
    }))
    .unwrap();
    assert!(chunks
        .iter()
        .all(|(k, c)| *c == Container::Runs(vec![(k % 60000, k % 60000 + 4999)])));
    let touching = deserialize(&reference::serialize_runs(1, |_| {
        vec![(0, 10), (10, 10), (30, 5)]
    }))
    .unwrap();
    assert_eq!(touching[0].1, Container::Runs(vec![(0, 19), (30, 34)]));
    // Single values: an array (2 + 4r bytes >= 2n), 60 runs of 100: a bitmap (r > RUN_MAX).
    let singles = deserialize(&reference::serialize_runs(1, |_| {
        (0..10).map(|i| (3 * i, 1)).collect()
    }))
    .unwrap();
    assert_eq!(singles[0].1, Container::Array((0..10).map(|i| 3 * i).collect()));
    let many = deserialize(&reference::serialize_runs(1, |_| {
        (0..60).map(|i| (1000 * i, 100)).collect()
    }))
    .unwrap();
    let want = bitmap_of((0..60u32).flat_map(|i| 1000 * i..1000 * i + 100));
    assert_eq!(many[0].1, want);
    // Every form holds the same values as a value-by-value expansion.
    let mut next = xorshift(77);
    for _ in 0..200 {
        let mut runs = Vec::new();
        let mut at = (next() % 300) as u32;
        while at < CHUNK_VALUES && runs.len() < 100 {
            let len = 1 + (next() % 700) as u32;
            let len = len.min(CHUNK_VALUES - at);
            runs.push((at as u16, len));
            at += len + (next() % 3) as u32 * (next() % 400) as u32;
        }
        let got = deserialize(&reference::serialize_runs(1, |_| runs.clone())).unwrap();
        let want = Container::from_bitmap({
            let mut bits = vec![0u64; 1024];
            for &(s, l) in &runs {
                for v in s as u32..s as u32 + l {
                    bits[(v / 64) as usize] |= 1 << (v % 64);
                }
            }
            bits
        })
        .unwrap();
        assert_eq!(got[0].1.to_plain(), want, "{runs:?}");
        assert_eq!(got[0].1.clone().gpu_form(), got[0].1, "not in the GPU's form");
    }
}

/// Three containers (no offsets with runs): the bytes spelled out.
#[test]
fn runs_written_where_smaller() {
    let chunks: Chunks = vec![
        (1, Container::Array((5..=10).collect())), // one run: 6 bytes < 12
        (2, Container::Array(vec![1, 3])),         // two runs: 10 bytes > 4
        (3, Container::Full),                      // one run: 6 bytes < 8192
    ];
    let mut want = Vec::new();
    want.extend_from_slice(&(12347u32 | (2 << 16)).to_le_bytes());
    want.push(0b101); // containers 0 and 2 are runs
    for (key, card_less_one) in [(1u16, 5u16), (2, 1), (3, 65535)] {
        want.extend_from_slice(&key.to_le_bytes());
        want.extend_from_slice(&card_less_one.to_le_bytes());
    }
    for w in [1u16, 5, 5, 1, 3, 1, 0, 65535] {
        want.extend_from_slice(&w.to_le_bytes());
    }
    assert_eq!(serialize(&chunks), want);
    assert_eq!(serialized_size(&chunks), want.len() as u64);
    assert_eq!(deserialize(&want).unwrap(), in_gpu_form(&chunks));
}

/// Four containers or more: offsets after the keys; bitmaps become runs up to 2047 runs
/// (8190 bytes), not at 2048 (8194).
#[test]
fn offsets_and_bitmap_threshold() {
    let runs_of_three = |r: u32| bitmap_of((0..r).flat_map(|i| [32 * i, 32 * i + 1, 32 * i + 2]));
    let chunks: Chunks = vec![
        (0, runs_of_three(2047)),
        (7, runs_of_three(2048)),
        (8, Container::Array(vec![0, 2, 4])),
        (9, Container::Array(vec![0, 1, 2, 3])),
    ];
    let bytes = serialize(&chunks);
    assert_eq!(bytes[..4], (12347u32 | (3 << 16)).to_le_bytes());
    assert_eq!(bytes[4], 0b1001);
    let header = 4 + 1 + 4 * 4 + 4 * 4;
    let sizes = [2 + 4 * 2047, 8192, 6, 2 + 4];
    let mut offset = header;
    for (i, size) in sizes.iter().enumerate() {
        let at = 4 + 1 + 16 + 4 * i;
        assert_eq!(bytes[at..at + 4], (offset as u32).to_le_bytes(), "offset {i}");
        offset += size;
    }
    assert_eq!(bytes.len(), offset);
    assert_eq!(serialized_size(&chunks), offset as u64);
    assert_eq!(deserialize(&bytes).unwrap(), in_gpu_form(&chunks));
}

/// No chunk smaller as runs: cookie 12346, as before.
#[test]
fn no_runs_no_run_cookie() {
    let chunks: Chunks = vec![(4, Container::Array(vec![1, 3, 5])), (5, runs_free_bitmap())];
    let bytes = serialize(&chunks);
    assert_eq!(bytes[..8], [0x3A, 0x30, 0, 0, 2, 0, 0, 0]);
    assert_eq!(bytes.len(), 8 + 16 + 6 + 8192);
    assert_eq!(deserialize(&bytes).unwrap(), in_gpu_form(&chunks));
    assert_eq!(serialize(&Chunks::new()), [0x3A, 0x30, 0, 0, 0, 0, 0, 0]);
}

/// Runs from the start and end bits against runs value by value, on bitmaps with runs
/// across word boundaries, single values at bits 0 and 63, whole words, the chunk's first
/// and last values, and random words of several densities.
#[test]
fn bitmap_runs_against_values() {
    let naive = |bits: &[u64]| -> Vec<(u16, u16)> {
        let values: Vec<u16> = (0..65536u32)
            .filter(|&v| bits[(v / 64) as usize] >> (v % 64) & 1 == 1)
            .map(|v| v as u16)
            .collect();
        array_runs(&values)
    };
    let mut cases: Vec<Vec<u64>> = vec![vec![0; 1024], vec![u64::MAX; 1024]];
    let mut edges = vec![0u64; 1024];
    edges[0] = 1;
    edges[1] = 1 << 63 | 1;
    edges[2] = u64::MAX;
    edges[3] = 1 << 63;
    edges[5] = 0x8000_0000_0000_0001;
    edges[1023] = 1 << 63;
    cases.push(edges);
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    for density in [1u32, 2, 3, 6] {
        let mut bits = vec![0u64; 1024];
        for w in bits.iter_mut() {
            let mut x = u64::MAX;
            for _ in 0..density {
                x &= next();
            }
            *w = if density == 1 { !x } else { x };
        }
        cases.push(bits);
    }
    for (i, bits) in cases.iter().enumerate() {
        let want = naive(bits);
        assert_eq!(bitmap_runs(bits), want, "case {i}");
        assert_eq!(bitmap_run_count(bits), want.len(), "case {i}");
    }
}

fn runs_free_bitmap() -> Container {
    bitmap_of((0..5000).map(|i| 2 * i))
}

/// Panics unless `chunks` is a set in vkalgo's host form: keys ascending, no empty chunk,
/// arrays of 1..=4096 ascending values, bitmaps of 1024 words and 4097..=65535 values,
/// runs ascending and apart.
fn assert_well_formed(chunks: &Chunks, what: &str) {
    assert!(
        chunks.windows(2).all(|w| w[0].0 < w[1].0),
        "{what}: keys out of order"
    );
    for (key, c) in chunks {
        match c {
            Container::Array(a) => {
                assert!(
                    !a.is_empty() && a.len() <= ARRAY_MAX as usize,
                    "{what}: chunk {key}"
                );
                assert!(a.windows(2).all(|w| w[0] < w[1]), "{what}: chunk {key} unsorted");
            }
            Container::Bitmap(b) => {
                assert_eq!(b.len(), 1024, "{what}: chunk {key}");
                let card = c.cardinality();
                assert!(
                    card > ARRAY_MAX && card < CHUNK_VALUES,
                    "{what}: chunk {key} {card}"
                );
            }
            Container::Full => {}
            Container::Runs(r) => {
                assert!(!r.is_empty() && r.len() <= RUN_MAX, "{what}: chunk {key}");
                assert!(r.iter().all(|&(f, l)| f <= l), "{what}: chunk {key}");
                assert!(
                    r.windows(2).all(|w| w[0].1 as u32 + 1 < w[1].0 as u32),
                    "{what}: {key}"
                );
            }
        }
    }
}

/// Random sets mixing every container kind (arrays, bitmaps, runs, full chunks; 1 to 12
/// chunks, so with and without the offsets): the serialization is as long as
/// serialized_size says and reads back to the same values, in the same chunks.
#[test]
fn random_sets_round_trip() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut rand = move |n: u32| -> u32 { (next() % n.max(1) as u64) as u32 };
    for round in 0..300 {
        let mut values = Vec::new();
        let mut key = rand(3);
        for _ in 0..1 + rand(12) {
            let hi = key << 16;
            match rand(5) {
                0 => values.extend((0..1 + rand(4096)).map(|_| hi | rand(65536))),
                1 => values.extend((0..4097 + rand(30_000)).map(|_| hi | rand(65536))),
                2 => values.extend((0..65536).map(|v| hi | v)),
                3 => {
                    let mut start = rand(1000);
                    for _ in 0..1 + rand(60) {
                        let len = 1 + rand(800);
                        values.extend((start..(start + len).min(65536)).map(|v| hi | v));
                        start += len + 1 + rand(300);
                        if start >= 65536 {
                            break;
                        }
                    }
                }
                _ => values.extend([hi, hi | 65535]),
            }
            key += 1 + rand(if round % 2 == 0 { 3 } else { 20_000 });
            if key > 0xFFFF {
                break;
            }
        }
        values.sort_unstable();
        values.dedup();
        let chunks = reference::chunks_from_sorted(&values);
        let bytes = serialize(&chunks);
        assert_eq!(bytes.len() as u64, serialized_size(&chunks), "round {round}");
        let back = deserialize(&bytes).unwrap();
        assert_eq!(back, in_gpu_form(&chunks), "round {round}");
        assert_eq!(reference::values_from_chunks(&back), values, "round {round}");
    }
}

/// Malformed input found by mutation: valid serializations (arrays only, with run
/// containers and without offsets, with runs and offsets, bitmaps and a full chunk) with
/// random bits flipped, bytes overwritten, cut short, bytes inserted or removed, and u16
/// fields set to their extremes. Each is refused with InvalidArgument or read as a
/// well-formed set whose serialization reads back to the same values; nothing panics.
#[test]
fn mutated_serializations_are_refused_or_well_formed() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let mut rand = move |n: usize| -> usize { (next() % n.max(1) as u64) as usize };
    let sets: Vec<Vec<u32>> = vec![
        vec![1, 5, 70_000, 70_002, 4_000_000_000],
        (0..3000).map(|i| (i / 10) * 1000 + i % 10).collect(),
        (0..20_000u32).chain(200_000..200_300).collect(),
        (5u32 << 16..6u32 << 16)
            .chain((9u32 << 16..(9u32 << 16) + 12_000).step_by(2))
            .collect(),
        (0..40u32)
            .flat_map(|k| (k << 16) + 100..(k << 16) + 105)
            .collect(),
    ];
    let mut accepted = 0;
    for (s, values) in sets.iter().enumerate() {
        let good = serialize(&reference::chunks_from_sorted(values));
        assert_eq!(
            reference::values_from_chunks(&deserialize(&good).unwrap()),
            *values
        );
        for round in 0..4000 {
            let mut m = good.clone();
            for _ in 0..1 + rand(3) {
                let at = rand(m.len());
                match rand(6) {
                    0 if !m.is_empty() => m[at] ^= 1 << rand(8),
                    1 if !m.is_empty() => m[at] = rand(256) as u8,
                    2 => m.truncate(at),
                    3 => m.insert(at, rand(256) as u8),
                    4 if !m.is_empty() => {
                        m.remove(at);
                    }
                    _ if at + 1 < m.len() => {
                        let v = [0u16, 1, 0xFFFF, rand(65536) as u16][rand(4)];
                        m[at..at + 2].copy_from_slice(&v.to_le_bytes());
                    }
                    _ => {}
                }
            }
            let what = format!("set {s}, mutation {round}");
            match deserialize(&m) {
                Err(Error::InvalidArgument(_)) => {}
                Err(e) => panic!("{what}: {e:?}"),
                Ok(chunks) => {
                    accepted += 1;
                    assert_well_formed(&chunks, &what);
                    let again = deserialize(&serialize(&chunks)).unwrap();
                    assert_eq!(
                        reference::values_from_chunks(&again),
                        reference::values_from_chunks(&chunks),
                        "{what}"
                    );
                }
            }
        }
    }
    // Some mutations keep the input valid (a value's bits in an array or a bitmap): the
    // accepting branch ran.
    assert!(accepted > 0);
}

/// A run chunk (the GPU's form) is written from its runs exactly as the array, bitmap or full
/// chunk of its values would be: runs where they are smaller, else the plain container.
#[test]
fn run_chunks_written_as_their_values() {
    let mut next = xorshift(0x5eed_0f20_75c3);
    for case in 0..400 {
        // Few long runs (a bitmap's values), many short ones (an array's), and both sides of
        // the 4096-value and runs-against-plain thresholds.
        let count = 1 + (next() % RUN_MAX as u64) as usize;
        let mut runs: Vec<(u16, u16)> = Vec::with_capacity(count);
        let mut at = (next() % 64) as u32;
        for _ in 0..count {
            let len = 1 + (next() % if case % 2 == 0 { 4 } else { 600 }) as u32;
            if at + len >= CHUNK_VALUES {
                break;
            }
            runs.push((at as u16, (at + len - 1) as u16));
            at += len + 1 + (next() % 3) as u32;
        }
        let container = Container::Runs(runs.clone());
        let plain = container.to_plain();
        let as_runs: Chunks = vec![(9, container)];
        let as_plain: Chunks = vec![(9, plain)];
        assert_eq!(serialize(&as_runs), serialize(&as_plain), "{runs:?}");
        assert_eq!(serialized_size(&as_runs), serialized_size(&as_plain), "{runs:?}");
    }
}
