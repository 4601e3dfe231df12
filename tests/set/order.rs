//! Order statistics (minimum, maximum, rank, select) through the host calls and the record
//! layer, exactly against the sorted model: empty and one-value sets, the ends of the
//! universe, full chunks and the full set, arrays, bitmaps and run chunks, flat and packed.

use super::*;
use vkalgo::set::{SELECT_OUT_OF_RANGE, SET_MIN_MAX_BYTES};
use vkalgo::{GpuSetMinMaxArgs, GpuSetRankArgs, GpuSetSelectArgs};

/// What the poisoned outputs hold before a refused call.
const POISON64: u64 = 0xDEAD_BEEF_DEAD_BEEF;

/// Queries around the model's values: every value's neighbours (sampled), chunk edges, the
/// ends of the universe, random values, duplicates, unsorted.
fn rank_queries(rng: &mut Rng, sorted: &[u32]) -> Vec<u32> {
    let mut q = vec![0, 1, 65535, 65536, u32::MAX, u32::MAX - 1, 1 << 31];
    let step = (sorted.len() / 3000).max(1);
    for &v in sorted.iter().step_by(step) {
        q.extend([v, v.wrapping_sub(1), v.wrapping_add(1), v | 0xFFFF, v & !0xFFFF]);
    }
    for c in 0..26u32 {
        q.extend([c << 16, (c << 16) | 0xFFFF, (c << 16) | (rng.next_u32() & 0xFFFF)]);
    }
    q.extend((0..2000).map(|_| rng.next_u32()));
    let dup = q[..100.min(q.len())].to_vec();
    q.extend(dup);
    for i in (1..q.len()).rev() {
        q.swap(i, rng.next_u32() as usize % (i + 1));
    }
    q
}

/// Ranks below `card` (the last included), sampled, duplicated, unsorted.
fn select_queries(rng: &mut Rng, card: u64) -> Vec<u64> {
    if card == 0 {
        return Vec::new();
    }
    let mut q = vec![0, card - 1, card / 2];
    q.extend((0..3000).map(|_| rng.next_u64() % card));
    q.extend(0..card.min(500));
    q.extend((0..card.min(500)).map(|k| card - 1 - k));
    q.push(card - 1);
    for i in (1..q.len()).rev() {
        q.swap(i, rng.next_u32() as usize % (i + 1));
    }
    q
}

/// Checks minimum, maximum, ranks and selects of `set` against `sorted` (its values), and
/// that a rank of the cardinality (or above) is refused with the output untouched.
fn check_order(set: &GpuSet, sorted: &[u32], rng: &mut Rng, what: &str) {
    assert_eq!(set.minimum().unwrap(), sorted.first().copied(), "{what}: minimum");
    assert_eq!(set.maximum().unwrap(), sorted.last().copied(), "{what}: maximum");
    let queries = rank_queries(rng, sorted);
    let mut ranks = vec![POISON64; queries.len()];
    set.rank(&queries, &mut ranks).unwrap();
    for (q, r) in queries.iter().zip(&ranks) {
        assert_eq!(
            *r,
            sorted.partition_point(|v| v <= q) as u64,
            "{what}: rank of {q}"
        );
    }
    let card = sorted.len() as u64;
    let picks = select_queries(rng, card);
    let mut values = vec![POISON; picks.len()];
    set.select(&picks, &mut values).unwrap();
    for (k, v) in picks.iter().zip(&values) {
        assert_eq!(*v, sorted[*k as usize], "{what}: select {k}");
    }
    check_select_refused(set, card, what);
}

/// A select of `card` (alone, among valid ranks, and 2^32 and above) is refused and writes
/// nothing; one of no ranks succeeds.
fn check_select_refused(set: &GpuSet, card: u64, what: &str) {
    let mut lists = vec![vec![card], vec![u64::MAX], vec![1 << 32]];
    if card > 0 {
        lists.push(vec![0, card - 1, card, 0]);
    }
    for ranks in lists {
        let mut out = vec![POISON; ranks.len()];
        let r = set.select(&ranks, &mut out);
        assert!(
            matches!(r, Err(Error::InvalidArgument(_))),
            "{what}: select {ranks:?}: {r:?}"
        );
        assert!(out.iter().all(|&v| v == POISON), "{what}: a refused select wrote");
    }
    set.select(&[], &mut []).unwrap();
    set.rank(&[], &mut []).unwrap();
}

/// The empty set, one value 0, one value 2^32 - 1, both ends, a full chunk, the last chunk
/// full, a bitmap and an array chunk inside the universe, run chunks inside it.
#[test]
fn order_small_sets() {
    let ctx = context();
    let mut rng = Rng(0x0dd5);
    let cases: Vec<(&str, Vec<u32>)> = vec![
        ("empty", vec![]),
        ("zero", vec![0]),
        ("max", vec![u32::MAX]),
        ("ends", vec![0, u32::MAX]),
        ("one chunk full", (65536..131072).collect()),
        ("last chunk full", ((u32::MAX - 65535)..=u32::MAX).collect()),
        (
            "a bitmap and an array inside",
            (0..10_000u32)
                .map(|i| (300 << 16) | (5 + 2 * i))
                .chain([(40_000 << 16) | 777, (40_000 << 16) | 778])
                .collect(),
        ),
        (
            "runs inside",
            ((1000 << 16) + 10..(1000 << 16) + 20)
                .chain((1000 << 16) + 30..(1000 << 16) + 40)
                .chain((2000 << 16) + 30..(2000 << 16) + 40)
                .chain((2000 << 16) + 50..(2000 << 16) + 60)
                .collect(),
        ),
    ];
    for (what, values) in cases {
        let mut set = GpuSet::from_values(&ctx, &values).unwrap();
        if what.starts_with("runs") {
            set.run_optimize().unwrap();
        }
        let sorted: Vec<u32> = model_of(&values).into_iter().collect();
        check_order(&set, &sorted, &mut rng, what);
        if !values.is_empty() {
            set.pack().unwrap();
            check_order(&set, &sorted, &mut rng, &format!("{what}, packed"));
        }
    }
}

/// Every chunk kind side by side (empty, arrays, bitmaps, full, one run, run chunks after
/// run_optimize), sparse values over the universe and its ends; flat and packed.
#[test]
fn order_every_kind() {
    let ctx = context();
    let mut rng = Rng(0x0dd6);
    for round in 0..3 {
        let mut values = every_kind_values(&mut rng);
        values.extend(mixed_values(&mut rng, 3000, 40 << 16));
        values.extend(runs_of(&[(50, 30, 100, 50), (51, 2, 30_000, 10)]));
        let mut set = GpuSet::from_values(&ctx, &values).unwrap();
        set.insert_range((60 << 16) + 5, (63 << 16) + 7).unwrap();
        values.extend(((60 << 16) + 5)..((63 << 16) + 7));
        if round > 0 {
            set.run_optimize().unwrap();
        }
        let sorted: Vec<u32> = model_of(&values).into_iter().collect();
        let what = format!("round {round}");
        // The cardinality unknown on the host: out-of-range selects are refused by the GPU's
        // flag; once counted (and packed), by the host.
        assert!(!set.knows_cardinality(), "{what}");
        check_order(&set, &sorted, &mut rng, &what);
        assert_eq!(set.cardinality().unwrap(), sorted.len() as u64);
        check_select_refused(&set, sorted.len() as u64, &format!("{what}, counted"));
        set.pack().unwrap();
        check_order(&set, &sorted, &mut rng, &format!("{what}, packed"));
    }
}

/// The full set (2^32 values, every chunk full): ranks up to 2^32, selects up to 2^32 - 1;
/// then with 0 and 2^32 - 1 removed and a run chunk in the middle.
#[test]
fn order_full_set() {
    let ctx = context();
    let mut set = GpuSet::new(&ctx).unwrap();
    set.insert_range(0, 1 << 32).unwrap();
    assert_eq!(set.minimum().unwrap(), Some(0));
    assert_eq!(set.maximum().unwrap(), Some(u32::MAX));
    let queries = [
        u32::MAX,
        0,
        65535,
        65536,
        1 << 31,
        u32::MAX - 1,
        12345678,
        u32::MAX,
    ];
    let mut ranks = vec![0u64; queries.len()];
    set.rank(&queries, &mut ranks).unwrap();
    for (q, r) in queries.iter().zip(&ranks) {
        assert_eq!(*r, *q as u64 + 1, "full set: rank of {q}");
    }
    let picks = [(1u64 << 32) - 1, 0, 65535, 65536, 1 << 31, 4_000_000_000];
    let mut values = vec![0u32; picks.len()];
    set.select(&picks, &mut values).unwrap();
    for (k, v) in picks.iter().zip(&values) {
        assert_eq!(*v as u64, *k, "full set: select {k}");
    }
    check_select_refused(&set, 1 << 32, "full set");
    // Less its ends, with a hole of runs in chunk 7.
    set.remove(&[0, u32::MAX]).unwrap();
    set.remove(&((7 << 16) + 100..(7 << 16) + 200).collect::<Vec<_>>())
        .unwrap();
    set.run_optimize().unwrap();
    assert_eq!(set.minimum().unwrap(), Some(1));
    assert_eq!(set.maximum().unwrap(), Some(u32::MAX - 1));
    let hole = |v: u64| ((7 << 16) + 100..(7 << 16) + 200).contains(&v);
    let rank_of = |q: u32| -> u64 {
        let q = q as u64;
        let below_hole = if q >= (7 << 16) + 200 {
            100
        } else if hole(q) {
            q - ((7 << 16) + 99)
        } else {
            0
        };
        q - u64::from(q == u32::MAX as u64) - below_hole
    };
    let queries = [
        0u32,
        1,
        (7 << 16) + 99,
        (7 << 16) + 100,
        (7 << 16) + 150,
        (7 << 16) + 200,
        u32::MAX - 1,
        u32::MAX,
    ];
    let mut ranks = vec![0u64; queries.len()];
    set.rank(&queries, &mut ranks).unwrap();
    for (q, r) in queries.iter().zip(&ranks) {
        assert_eq!(*r, rank_of(*q), "full set less ends: rank of {q}");
    }
    let card = (1u64 << 32) - 102;
    let picks = [0u64, (7 << 16) + 97, (7 << 16) + 98, (7 << 16) + 99, card - 1];
    let want = [
        1u32,
        (7 << 16) + 98,
        (7 << 16) + 99,
        (7 << 16) + 200,
        u32::MAX - 1,
    ];
    let mut values = vec![0u32; picks.len()];
    set.select(&picks, &mut values).unwrap();
    assert_eq!(values, want, "full set less ends: select");
    check_select_refused(&set, card, "full set less ends");
}

/// The record layer: rank and select with direct and indirect counts into offset ranges, a
/// recorded select with an out-of-range rank (the sentinel and the flag), min_max of a set and
/// of an empty one, on a packed set.
#[test]
fn order_record_layer() {
    let ctx = context();
    let mut rng = Rng(0x0dd7);
    let mut values = every_kind_values(&mut rng);
    values.extend([0, u32::MAX, 1 << 31]);
    let mut set = GpuSet::from_values(&ctx, &values).unwrap();
    set.run_optimize().unwrap();
    set.pack().unwrap();
    let empty = GpuSet::new(&ctx).unwrap();
    let sorted: Vec<u32> = model_of(&values).into_iter().collect();
    let card = sorted.len() as u64;
    let queries: Vec<u32> = (0..300)
        .map(|i| {
            if i % 3 == 0 {
                rng.next_u32()
            } else {
                sorted[rng.next_u32() as usize % sorted.len()]
            }
        })
        .collect();
    let picks: Vec<u64> = (0..300)
        .map(|i| if i == 7 { card } else { rng.next_u64() % card })
        .collect();
    let pick_words: Vec<u32> = picks
        .iter()
        .flat_map(|k| [*k as u32, (*k >> 32) as u32])
        .collect();
    let mut input = poisoned(&ctx, 4096, 4, &queries);
    input.mapped().unwrap()[2000 * 4..(2000 + 600) * 4].copy_from_slice(bytemuck_cast(&pick_words));
    input.mapped().unwrap()[3000 * 4..3001 * 4].copy_from_slice(bytemuck_cast(&[250u32]));
    let mut out = poisoned(&ctx, 4096, 0, &[]);
    let scratch = set_scratch(&ctx);
    let r = |at: u64, words: u64| BufferRange::new(input.buffer(), at * 4, words * 4);
    let o = |at: u64, words: u64| BufferRange::new(out.buffer(), at * 4, words * 4);
    ctx.submit_and_wait(|cmd| unsafe {
        set.record_rank(
            cmd,
            &GpuSetRankArgs {
                values: r(4, 300),
                count: ElementCount::Indirect(r(3000, 1)),
                max_count: 300,
                ranks: o(2, 600),
                scratch: scratch.range(),
            },
        )?;
        set.record_barrier(cmd);
        set.record_select(
            cmd,
            &GpuSetSelectArgs {
                ranks: r(2000, 600),
                count: ElementCount::Direct(300),
                max_count: 0,
                values: o(1000, 300),
                out_of_range: o(1400, 1),
                scratch: scratch.range(),
            },
        )?;
        set.record_min_max(cmd, &GpuSetMinMaxArgs { out: o(1500, 3) })?;
        empty.record_min_max(cmd, &GpuSetMinMaxArgs { out: o(1510, 3) })?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let w = words(&mut out);
    assert_eq!(w[..2], [POISON, POISON]);
    for i in 0..300 {
        let got = w[2 + 2 * i] as u64 | (w[3 + 2 * i] as u64) << 32;
        if i < 250 {
            assert_eq!(
                got,
                sorted.partition_point(|v| *v <= queries[i]) as u64,
                "rank {i}"
            );
        } else {
            assert_eq!(
                got,
                POISON as u64 | (POISON as u64) << 32,
                "rank {i} past the count"
            );
        }
    }
    assert_eq!(w[602], POISON);
    for (i, k) in picks.iter().enumerate() {
        let want = if *k < card {
            sorted[*k as usize]
        } else {
            SELECT_OUT_OF_RANGE
        };
        assert_eq!(w[1000 + i], want, "select {i}");
    }
    assert_eq!(w[1400], 1, "out_of_range flag");
    assert_eq!(SET_MIN_MAX_BYTES, 12);
    assert_eq!(w[1500..1504], [sorted[0], *sorted.last().unwrap(), 1, POISON]);
    assert_eq!(w[1510..1514], [0, 0, 0, POISON]);
}

/// Every value of six chunks of different kinds as a rank query and every rank as a select
/// query: a 4096-value array, a bitmap of every third value, a random bitmap, 48 runs, a full
/// chunk and one run (after run_optimize), flat and packed.
#[test]
fn order_exhaustive_chunks() {
    let ctx = context();
    let mut rng = Rng(0x0dd8);
    let mut values: Vec<u32> = (0..4096u32).map(|i| i * 16).collect();
    values.extend((0..21_000u32).map(|i| (1 << 16) | (i * 3)));
    values.extend((0..30_000).map(|_| (2 << 16) | (rng.next_u32() & 0xFFFF)));
    values.extend(runs_of(&[(3, 48, 700, 600)]));
    values.extend((4 << 16)..(5 << 16));
    values.extend(((5 << 16) + 100)..((5 << 16) + 60_000));
    let mut set = GpuSet::from_values(&ctx, &values).unwrap();
    set.run_optimize().unwrap();
    let sorted: Vec<u32> = model_of(&values).into_iter().collect();
    let queries: Vec<u32> = (0..6 << 16).collect();
    let picks: Vec<u64> = (0..sorted.len() as u64).collect();
    for packed in [false, true] {
        if packed {
            set.pack().unwrap();
        }
        let mut ranks = vec![0u64; queries.len()];
        set.rank(&queries, &mut ranks).unwrap();
        for (q, r) in queries.iter().zip(&ranks) {
            assert_eq!(
                *r,
                sorted.partition_point(|v| v <= q) as u64,
                "packed {packed}: rank of {q}"
            );
        }
        let mut got = vec![0u32; picks.len()];
        set.select(&picks, &mut got).unwrap();
        assert!(got == sorted, "packed {packed}: select of every rank");
        check_select_refused(&set, sorted.len() as u64, "exhaustive");
    }
}
