//! The reclaim of tombstones that every erase records first (glsl/hash/reclaim.comp), checked
//! slot by slot on a map living in host-visible memory: after a reclaim, the same entries are
//! stored, each once, none past an EMPTY slot of its probe sequence; only tombstones that some
//! stored key passes on its way to its own bucket remain, fewer than before; and the header
//! counts them. Values equal to the reclaim's mark and to 0 are stored and erased, so a stale
//! value word cannot pass for a mark.

use super::*;
use vkalgo::hash::reference::probe_start;

/// The storage as the GPU left it: header words, then each slot's (key, value word).
struct Snapshot {
    header: Vec<u32>,
    slots: Vec<(u64, u32)>,
}

const HEADER_BYTES: usize = 256;

fn snapshot<K: HashTestKey>(map: &HashMap, buf: &mut GpuBuffer) -> Snapshot {
    let bytes = buf.mapped().unwrap().to_vec();
    let header = bytes[..64 * 4]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let slot_bytes = map.device_view().slot_bytes as usize;
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let slots = (0..map.capacity() as usize)
        .map(|s| {
            let at = HEADER_BYTES + s * slot_bytes;
            let key = if K::MAX == u32::MAX as u64 {
                word(at) as u64
            } else {
                word(at) as u64 | (word(at + 4) as u64) << 32
            };
            let value_offset = if slot_bytes == 8 { 4 } else { 8 };
            (key, word(at + value_offset))
        })
        .collect();
    Snapshot { header, slots }
}

/// The buckets that some stored key of `s` passes on its way to its own.
fn passed_buckets(map: &HashMap, s: &Snapshot, key64: bool) -> Vec<bool> {
    let view = map.device_view();
    let (buckets, per) = (view.num_buckets, view.bucket_slots as usize);
    let erased = if key64 { u64::MAX - 1 } else { u32::MAX as u64 - 1 };
    let mut passed = vec![false; buckets as usize];
    for (slot, &(key, _)) in s.slots.iter().enumerate() {
        if key >= erased {
            continue;
        }
        let own = (slot / per) as u32;
        let (mut at, step) = probe_start(key, key64, buckets);
        let mut walked = 0;
        while at != own {
            passed[at as usize] = true;
            at = (at + step) % buckets;
            walked += 1;
            assert!(walked < view.max_probes, "key {key:#x} lies past the probe bound");
        }
    }
    passed
}

fn reclaim_exactly<K: HashTestKey, V: HashTestValue>(ctx: &Context, bucket_bytes: u32, seed: u64) {
    let desc = HashMapDesc {
        bucket_bytes: Some(bucket_bytes),
        ..desc::<K, V>(3001)
    };
    let req = HashMap::memory_requirements(ctx, &desc).unwrap().storage;
    let mut buf = GpuBuffer::new(ctx, req.size, MemoryLocation::GpuToCpu, "reclaim test").unwrap();
    // SAFETY: `buf` has the usage vkalgo asks for, outlives the map and serves nothing else.
    let map = unsafe { HashMap::new_in(ctx, &desc, buf.range()) }.unwrap();
    let key64 = K::MAX != u32::MAX as u64;
    let erased_key = if key64 { u64::MAX - 1 } else { u32::MAX as u64 - 1 };
    let empty_key = if key64 { u64::MAX } else { u32::MAX as u64 };
    let what = format!("reclaim {:?}/{:?} bucket {bucket_bytes}", K::TYPE, V::TYPE);
    let mut rng = Rng(seed);
    let mut model = HashModel::new();
    // Fill to 0.95 with values 0 and the mark (1) alternating, so erased slots keep both.
    let cap = map.capacity() as usize;
    let mut keys: Vec<K> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while keys.len() < cap * 95 / 100 {
        let k = K::random(&mut rng);
        if seen.insert(k.to_u64()) {
            keys.push(k);
        }
    }
    let values: Vec<V> = (0..keys.len()).map(|i| V::from_u64(i as u64 % 2)).collect();
    assert_eq!(insert(&map, &mut model, &keys, &values), 0, "{what}: fill");
    // Erase 60%: no reclaim yet (the erase checks the tombstones before it runs).
    let gone: Vec<K> = keys
        .iter()
        .step_by(5)
        .chain(keys.iter().skip(1).step_by(5))
        .chain(keys.iter().skip(3).step_by(5))
        .copied()
        .collect();
    assert_eq!(map.erase(&gone).unwrap(), gone.len() as u64);
    model.erase(&gone.iter().map(|k| k.to_u64()).collect::<Vec<_>>());
    let before = snapshot::<K>(&map, &mut buf);
    let tombstones_before = before.slots.iter().filter(|s| s.0 == erased_key).count();
    assert_eq!(
        before.header[1] as usize, tombstones_before,
        "{what}: tombstone count"
    );
    assert!(
        tombstones_before > cap / 32,
        "{what}: too few tombstones ({tombstones_before}) to start a reclaim"
    );
    // An erase of one absent key: the reclaim runs first.
    let absent = loop {
        let k = K::random(&mut rng);
        if !seen.contains(&k.to_u64()) {
            break k;
        }
    };
    assert_eq!(map.erase(&[absent]).unwrap(), 0);
    let after = snapshot::<K>(&map, &mut buf);
    let view = map.device_view();
    let per = view.bucket_slots as usize;
    let live = |s: &Snapshot| {
        let mut entries: Vec<(u64, u32)> = s.slots.iter().filter(|x| x.0 < erased_key).copied().collect();
        entries.sort_unstable();
        entries
    };
    let entries = live(&after);
    assert_eq!(entries, live(&before), "{what}: the stored entries changed");
    assert!(
        entries.windows(2).all(|w| w[0].0 != w[1].0),
        "{what}: a key stored twice"
    );
    // No key past an EMPTY slot (lookups end there).
    for (slot, &(key, _)) in after.slots.iter().enumerate() {
        if key < erased_key {
            let (mut at, step) = probe_start(key, key64, view.num_buckets);
            while at as usize != slot / per {
                let bucket = &after.slots[at as usize * per..(at as usize + 1) * per];
                assert!(
                    bucket.iter().all(|x| x.0 != empty_key),
                    "{what}: key {key:#x} lies past an EMPTY slot in bucket {at}"
                );
                at = (at + step) % view.num_buckets;
            }
        }
    }
    let passed = passed_buckets(&map, &after, key64);
    let mut left = 0;
    for (slot, a) in after.slots.iter().enumerate() {
        if a.0 == erased_key {
            assert!(
                passed[slot / per],
                "{what}: slot {slot} keeps a tombstone no key passes"
            );
            left += 1;
        }
    }
    assert!(
        left < tombstones_before / 2,
        "{what}: {left} of {tombstones_before} tombstones left"
    );
    assert_eq!(
        after.header[1] as usize, left,
        "{what}: tombstones after the reclaim"
    );
    assert_eq!(after.header[0] as usize, model.len(), "{what}: size");
    assert_eq!(after.header[32], 0, "{what}: tombstones since the reclaim");
    check_lookups::<K, V>(&map, &mut model, &keys, &what);
    // The next erase finds nothing new to reclaim and leaves every slot as it is.
    assert_eq!(map.erase(&[absent]).unwrap(), 0);
    let again = snapshot::<K>(&map, &mut buf);
    assert!(
        again.slots.iter().zip(&after.slots).all(|(x, y)| x.0 == y.0),
        "{what}: a second reclaim ran"
    );
    // Inserts reuse what is left, lookups stay right.
    let fresh: Vec<K> = gone.iter().take(cap / 4).copied().collect();
    let fresh_values: Vec<V> = (0..fresh.len()).map(|i| V::from_u64(7 + i as u64)).collect();
    assert_eq!(
        insert(&map, &mut model, &fresh, &fresh_values),
        0,
        "{what}: refill"
    );
    check_lookups::<K, V>(&map, &mut model, &keys, &what);
    check_size(&map, &model, &what);
}

#[test]
fn reclaim_moves_keys_back_and_empties_unneeded_tombstones() {
    let ctx = context();
    for bucket_bytes in [32, 64] {
        reclaim_exactly::<u32, u32>(&ctx, bucket_bytes, 1);
        reclaim_exactly::<u32, u64>(&ctx, bucket_bytes, 2);
        reclaim_exactly::<u64, u32>(&ctx, bucket_bytes, 3);
        reclaim_exactly::<u64, u64>(&ctx, bucket_bytes, 4);
    }
}
