//! Building, writing and reading 64-bit sets through the host calls, against the model.

use super::*;

/// Queries: every value, its neighbours, the same low halves under other high keys, random
/// values and the edges.
fn queries_for(rng: &mut Rng, values: &[u64]) -> Vec<u64> {
    let mut q: Vec<u64> = values.to_vec();
    q.extend(values.iter().map(|v| v.wrapping_add(1)));
    q.extend(values.iter().map(|v| v.wrapping_sub(1)));
    q.extend(values.iter().map(|v| v ^ (1 << 32)));
    q.extend((0..2000).map(|_| rng.next_u64()));
    q.extend((0..2000).map(|_| (rng.next_u64() % 8) << 32 | rng.next_u32() as u64));
    q.extend(edge_values());
    q
}

fn check_contains(set: &GpuSet64, model: &BTreeSet<u64>, queries: &[u64], what: &str) {
    let mut found = vec![false; queries.len()];
    set.contains(queries, &mut found).unwrap();
    for (q, f) in queries.iter().zip(&found) {
        assert_eq!(*f, model.contains(q), "{what}: contains {q:#x}");
    }
}

/// A set built from unsorted values with duplicates: everything observable, contains,
/// to_array into room too small (refused, nothing written) and exactly enough.
#[test]
fn build_contains_and_to_array() {
    let ctx = context();
    let mut rng = Rng(0x5e764);
    let mut values = mixed_values(&mut rng, 150);
    values.extend(values.clone()); // duplicates
    values.reverse();
    let set = GpuSet64::from_values(&ctx, &values).unwrap();
    let model = model_of(&values);
    check(&set, &model, "build");
    let queries = queries_for(&mut rng, &values[..5000]);
    check_contains(&set, &model, &queries, "build");
    let n = model.len();
    let mut small = vec![7u64; n - 1];
    match set.to_array(&mut small) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains(&n.to_string()), "{m}"),
        other => panic!("to_array into room for {}: {other:?}", n - 1),
    }
    assert!(small.iter().all(|&x| x == 7), "nothing written");
    let mut out = vec![0u64; n + 3];
    assert_eq!(set.to_array(&mut out).unwrap(), n);
    assert!(out[..n].iter().copied().eq(model.iter().copied()));
    assert_eq!(out[n..], [0, 0, 0]);
}

/// The empty set: no values, no high key, no minimum, an 8-byte serialization; contains of
/// anything is false; building from no values gives it too.
#[test]
fn empty_set() {
    let ctx = context();
    let empty = BTreeSet::new();
    for (what, set) in [
        ("new", GpuSet64::new(&ctx).unwrap()),
        ("from no values", GpuSet64::from_values(&ctx, &[]).unwrap()),
    ] {
        check(&set, &empty, what);
        assert_eq!(set.serialize().unwrap(), vec![0u8; 8]);
        check_contains(&set, &empty, &edge_values(), what);
        let mut found = [true; 0];
        set.contains(&[], &mut found).unwrap();
        assert_eq!(set.to_array(&mut []).unwrap(), 0);
        assert_eq!(set.memory_bytes(), 0);
    }
}

/// Inserts and removals in sequence, each against the model: new high keys and existing
/// ones, duplicates and values already present, removals of absent values and of keys the
/// set lacks, removals that empty a key (its 32-bit set dropped) and the whole set; packing
/// keeps the values and takes the written sets' memory down.
#[test]
fn insert_and_remove() {
    let ctx = context();
    let mut rng = Rng(0x1_4e5e47);
    let mut set = GpuSet64::new(&ctx).unwrap();
    let mut model = BTreeSet::new();
    let key_values = |model: &BTreeSet<u64>, key: u64| -> Vec<u64> {
        model.iter().copied().filter(|v| v >> 32 == key).collect()
    };
    for step in 0..8 {
        let (insert, values): (bool, Vec<u64>) = match step {
            0 => (true, edge_values()),
            1 => (true, mixed_values(&mut rng, 60)),
            // Already present, and new values under the same keys.
            2 => (true, edge_values().iter().map(|v| v ^ 2).collect()),
            // Absent values, values of keys the set lacks.
            3 => (false, vec![3, 5 << 32, (7 << 32) | 1, u64::MAX - 7]),
            // Everything of high key 1 (its 32-bit set dropped), with absent values.
            4 => {
                let mut v = key_values(&model, 1);
                v.extend([(1 << 32) | 12345, 99 << 32]);
                (false, v)
            }
            // A range across 2^32: the top of key 0 and the bottom of key 1 (gone already).
            5 => (false, ((1u64 << 32) - 0x8000..(1u64 << 32) + 0x8000).collect()),
            // Key 1 again, and a run of 70,000 values across 2^33.
            6 => (
                true,
                ((2u64 << 32) - 35_000..(2u64 << 32) + 35_000)
                    .chain([1 << 32])
                    .collect(),
            ),
            _ => (true, vec![u64::MAX, 0, 1 << 63]),
        };
        if insert {
            set.insert(&values).unwrap();
            model.extend(values.iter().copied());
        } else {
            set.remove(&values).unwrap();
            for v in &values {
                model.remove(v);
            }
        }
        check(&set, &model, &format!("step {step}"));
    }
    // High key 2^32 - 1 emptied: its full chunk, the edges at the top.
    let top: Vec<u64> = model
        .iter()
        .copied()
        .filter(|v| v >> 32 == u32::MAX as u64)
        .collect();
    set.remove(&top).unwrap();
    for v in &top {
        model.remove(v);
    }
    assert!(!set.high_keys().contains(&u32::MAX));
    check(&set, &model, "top key emptied");
    let before = set.memory_bytes();
    set.pack().unwrap();
    assert!(
        set.memory_bytes() <= before,
        "pack: {} -> {}",
        before,
        set.memory_bytes()
    );
    check(&set, &model, "packed");
    let queries = queries_for(&mut rng, &model.iter().copied().take(3000).collect::<Vec<_>>());
    check_contains(&set, &model, &queries, "packed");
    let all: Vec<u64> = model.iter().copied().collect();
    set.remove(&all).unwrap();
    check(&set, &BTreeSet::new(), "all removed");
}

/// Many high keys with one value each (one 32-bit set per value): built, queried, written
/// and read back in the calls' fixed number of submissions.
#[test]
fn many_high_keys_of_one_value() {
    let ctx = context();
    let mut rng = Rng(0x4e75);
    let values: Vec<u64> = (0..300u64)
        .map(|i| (i * 0x0101_0101 + 3) << 32 | rng.next_u32() as u64)
        .collect();
    let mut set = GpuSet64::from_values(&ctx, &values).unwrap();
    let mut model = model_of(&values);
    check(&set, &model, "built");
    let more: Vec<u64> = values.iter().map(|v| v ^ 0x8000).collect();
    set.insert(&more).unwrap();
    model.extend(more.iter().copied());
    check(&set, &model, "one more value per key");
    set.remove(&values[..150]).unwrap();
    set.remove(&more[..150]).unwrap();
    for v in values[..150].iter().chain(&more[..150]) {
        model.remove(v);
    }
    check(&set, &model, "half the keys emptied");
    assert_eq!(set.high_keys().len(), 150);
    let bytes = set.serialize().unwrap();
    let back = GpuSet64::deserialize(&ctx, &bytes).unwrap();
    check(&back, &model, "read back");
    assert!(back.equals(&set).unwrap());
}

/// Bad arguments: sets of different contexts and lengths that differ are refused, and
/// nothing changes.
#[test]
fn refused_and_nothing_changed() {
    let ctx = context();
    let other = context();
    let a = GpuSet64::from_values(&ctx, &[1, 1 << 40]).unwrap();
    let b = GpuSet64::from_values(&other, &[1]).unwrap();
    let e = GpuSet64::new(&other).unwrap();
    for op in SetOp::ALL {
        assert!(matches!(GpuSet64::op(&a, &b, op), Err(Error::InvalidArgument(_))));
        assert!(matches!(GpuSet64::op(&a, &e, op), Err(Error::InvalidArgument(_))));
        assert!(matches!(
            GpuSet64::op_cardinality(&a, &b, op),
            Err(Error::InvalidArgument(_))
        ));
    }
    assert!(matches!(a.equals(&b), Err(Error::InvalidArgument(_))));
    assert!(matches!(a.is_subset(&e), Err(Error::InvalidArgument(_))));
    let mut found = [true; 3];
    assert!(matches!(
        a.contains(&[1, 2], &mut found),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(found, [true; 3]);
    check(&a, &model_of(&[1, 1 << 40]), "a unchanged");
    check(&b, &model_of(&[1]), "b unchanged");
}
