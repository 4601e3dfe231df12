//! The Roaring64 reader on malformed input: truncated files, counts the bytes cannot hold,
//! keys not strictly ascending, damaged 32-bit bitmaps, trailing bytes; serializations
//! followed by other data; files read in linear time and memory.

use super::*;

/// A serialization of three 32-bit bitmaps (high keys 0, 1 and 2^32 - 1) of every container
/// kind, and its values.
fn sample() -> (Vec<u8>, BTreeSet<u64>) {
    let mut m: BTreeSet<u64> = [0, 1, u32::MAX as u64, u64::MAX].into_iter().collect();
    m.extend((0..5000u64).map(|i| (1 << 32) | (3 << 16) | (2 * i))); // a bitmap
    m.extend((0..300u64).map(|i| ((u32::MAX as u64) << 32) | (7 * i))); // an array
    m.extend((1u64 << 32) + 100..(1u64 << 32) + 400); // runs
    (reference::serialize(&m), m)
}

/// Where each bitmap of the serialization of `m` starts (its high key there, its 32-bit
/// serialization 4 bytes on): after the count, each takes 4 bytes and its 32-bit bitmap's.
fn bitmap_offsets(m: &BTreeSet<u64>) -> Vec<usize> {
    let mut offsets = vec![8];
    for key in high_keys_of(m) {
        let lows: BTreeSet<u32> = m
            .iter()
            .filter(|&&v| v >> 32 == key as u64)
            .map(|&v| v as u32)
            .collect();
        let at = offsets.last().unwrap() + 4 + vkalgo::set::reference::serialize(&lows).len();
        offsets.push(at);
    }
    offsets.pop();
    offsets
}

fn refused(data: &[u8], words: &str, what: &str) {
    match reference::deserialize(data) {
        Err(Error::InvalidArgument(m)) => {
            assert!(m.contains(words), "{what}: message {m:?} lacks {words:?}")
        }
        other => panic!("{what}: accepted ({other:?})"),
    }
}

/// Malformed files are refused with a clear message, by the host reader and by
/// `GpuSet64::deserialize` (which makes no set).
#[test]
fn malformed_files_are_refused() {
    let ctx = context();
    let (good, model) = sample();
    check(&GpuSet64::deserialize(&ctx, &good).unwrap(), &model, "round trip");
    let offsets = bitmap_offsets(&model);
    assert_eq!(offsets.len(), 3);
    for len in 0..good.len() {
        assert!(
            reference::deserialize(&good[..len]).is_err(),
            "truncated to {len}"
        );
    }
    for len in [0, 7, 8, 11, offsets[1] + 2, good.len() - 1] {
        assert!(
            matches!(
                GpuSet64::deserialize(&ctx, &good[..len]),
                Err(Error::InvalidArgument(_))
            ),
            "truncated to {len}"
        );
    }
    refused(&good[..5], "truncated", "a cut count");
    refused(&good[..offsets[2] + 2], "truncated", "a cut key");
    refused(
        &good[..good.len() - 1],
        "bitmap 2 (high key 4294967295",
        "a cut last bitmap",
    );
    // Counts the bytes cannot hold: refused before anything is read.
    for (count, words) in [
        (4u64, "truncated: bitmap 3 needs its 4-byte high key"),
        (1000, "announced"),
        (1 << 40, "announced"),
        (u64::MAX, "announced"),
    ] {
        let mut t = good.clone();
        t[..8].copy_from_slice(&count.to_le_bytes());
        refused(&t, words, &format!("count {count}"));
    }
    // A count below the bitmaps that follow: the rest is trailing bytes.
    let mut t = good.clone();
    t[..8].copy_from_slice(&2u64.to_le_bytes());
    refused(&t, "trailing bytes", "count 2 of 3");
    // Keys not strictly ascending: equal to the previous, below it.
    let mut t = good.clone();
    t[offsets[1]..offsets[1] + 4].copy_from_slice(&0u32.to_le_bytes());
    refused(&t, "not above the previous 0", "key 1 equal to key 0");
    let mut t = good.clone();
    t[offsets[2]..offsets[2] + 4].copy_from_slice(&0u32.to_le_bytes());
    refused(&t, "strictly ascending", "key 2 below key 1");
    // A damaged 32-bit bitmap: a wrong cookie in the second.
    let mut t = good.clone();
    t[offsets[1] + 4] ^= 0x40;
    refused(&t, "bitmap 1 (high key 1", "bad cookie");
    // Trailing bytes: refused by deserialize, left alone by deserialize_prefix.
    let mut t = good.clone();
    t.extend_from_slice(b"trailing garbage");
    refused(&t, "16 trailing bytes", "trailing bytes");
    assert!(matches!(
        GpuSet64::deserialize(&ctx, &t),
        Err(Error::InvalidArgument(_))
    ));
    let (set, read) = GpuSet64::deserialize_prefix(&ctx, &t).unwrap();
    assert_eq!(read, good.len());
    check(&set, &model, "prefix");
    let (values, read) = reference::deserialize_prefix(&t).unwrap();
    assert_eq!((values.len(), read), (model.len(), good.len()));
    // Two serializations back to back, read one after the other.
    let other: BTreeSet<u64> = [5u64, 6 << 32].into_iter().collect();
    let mut two = good.clone();
    two.extend(reference::serialize(&other));
    let (first, at) = GpuSet64::deserialize_prefix(&ctx, &two).unwrap();
    let (second, end) = GpuSet64::deserialize_prefix(&ctx, &two[at..]).unwrap();
    check(&first, &model, "first of two");
    check(&second, &other, "second of two");
    assert_eq!(at + end, two.len());
}

/// Empty 32-bit bitmaps (cookie 12346, no container) are read as CRoaring reads them: they
/// hold nothing and keep no 32-bit set, and their keys must still ascend.
#[test]
fn empty_bitmaps_are_read() {
    let ctx = context();
    let empty32 = |key: u32| {
        let mut v = key.to_le_bytes().to_vec();
        v.extend_from_slice(&12346u32.to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
        v
    };
    let mut data = 3u64.to_le_bytes().to_vec();
    data.extend(empty32(4));
    data.extend(empty32(9));
    let one: BTreeSet<u64> = [(12u64 << 32) | 77].into_iter().collect();
    data.extend_from_slice(&reference::serialize(&one)[8..]);
    let set = GpuSet64::deserialize(&ctx, &data).unwrap();
    check(&set, &one, "empty bitmaps and one value");
    assert_eq!(set.high_keys(), vec![12]);
    let mut t = data.clone();
    t[8 + 12..8 + 16].copy_from_slice(&4u32.to_le_bytes()); // second empty bitmap's key = first's
    refused(&t, "not above the previous 4", "empty bitmaps out of order");
    let only_empty: Vec<u8> = [1u64.to_le_bytes().to_vec(), empty32(0)].concat();
    check(
        &GpuSet64::deserialize(&ctx, &only_empty).unwrap(),
        &BTreeSet::new(),
        "one empty bitmap",
    );
}

/// Untrusted files cost time and memory linear in their size: a million empty bitmaps (12
/// MB), 100,000 high keys of one value each, and counts of 2^40 and 2^64 - 1 over a few bytes
/// (refused at once, nothing allocated from them).
#[test]
fn files_read_in_linear_time_and_memory() {
    let mut data = 1_000_000u64.to_le_bytes().to_vec();
    for key in 0..1_000_000u32 {
        data.extend_from_slice(&key.to_le_bytes());
        data.extend_from_slice(&12346u32.to_le_bytes());
        data.extend_from_slice(&0u32.to_le_bytes());
    }
    let start = std::time::Instant::now();
    assert_eq!(reference::deserialize(&data).unwrap(), Vec::<u64>::new());
    let many: BTreeSet<u64> = (0..100_000u64).map(|k| k << 32 | (k * 7)).collect();
    let bytes = reference::serialize(&many);
    assert_eq!(reference::deserialize(&bytes).unwrap().len(), many.len());
    let took = start.elapsed();
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
    for count in [1u64 << 40, u64::MAX] {
        let mut t = count.to_le_bytes().to_vec();
        t.extend_from_slice(&[0u8; 100]);
        let start = std::time::Instant::now();
        refused(&t, "announced", &format!("count {count}"));
        assert!(start.elapsed().as_millis() < 100);
    }
}
