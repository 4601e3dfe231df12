//! Set operations with multiset semantics: every key type, the look-back path, extreme
//! tunings, unsorted input.

use super::*;

fn set_ops_for<K: TestKey>(ctx: &Context, rng: &mut Rng) {
    let tile = tile_of(ctx, K::KEY_TYPE);
    let unique = |rng: &mut Rng, n: usize, spread: u64| -> Vec<K> {
        let mut v: Vec<K> = (0..n).map(|_| K::from_small(rng.next_u64() % spread)).collect();
        sort_pairs::<K, u32>(&mut v, None, 0, 0, false);
        v.dedup_by(|x, y| bits(std::slice::from_ref(x)) == bits(std::slice::from_ref(y)));
        v
    };
    let sizes = [
        (0, 0),
        (0, 9),
        (9, 0),
        (1, 1),
        (tile + 1, tile - 1),
        (2000, 3000),
        (5, 3000),
    ];
    for op in SetOp::ALL {
        for &(m, n) in &sizes {
            // Repeated values (runs of equal keys crossing tiles) and unique values.
            for (domain, dedup) in [(12u64, false), (6000, true), (0, false)] {
                let (a, b) = if dedup {
                    (unique(rng, m, domain), unique(rng, n, domain))
                } else {
                    (
                        sorted_run::<K>(rng, m, domain, false),
                        sorted_run::<K>(rng, n, domain, false),
                    )
                };
                let want = reference::set_op(op, &a, &b);
                let got = ctx
                    .sorted_set_op(op, &a, &b)
                    .unwrap_or_else(|e| panic!("{op:?} {:?}: {e}", K::KEY_TYPE));
                assert!(
                    bits(&got) == bits(&want),
                    "{op:?} {:?} ({}, {}) domain {domain}: got {} keys, want {}",
                    K::KEY_TYPE,
                    a.len(),
                    b.len(),
                    got.len(),
                    want.len()
                );
            }
        }
    }
}

#[test]
fn every_key_type_unique_and_repeated() {
    let ctx = context();
    let mut rng = Rng(51);
    set_ops_for::<u32>(&ctx, &mut rng);
    set_ops_for::<i32>(&ctx, &mut rng);
    set_ops_for::<f32>(&ctx, &mut rng);
    set_ops_for::<u64>(&ctx, &mut rng);
    set_ops_for::<i64>(&ctx, &mut rng);
    set_ops_for::<f64>(&ctx, &mut rng);
    // Multiset counts: value v present v % 4 times in a and v % 3 times in b.
    let a: Vec<u32> = (0..400u32)
        .flat_map(|v| std::iter::repeat(v).take((v % 4) as usize))
        .collect();
    let b: Vec<u32> = (0..400u32)
        .flat_map(|v| std::iter::repeat(v).take((v % 3) as usize))
        .collect();
    for op in SetOp::ALL {
        let got = ctx.sorted_set_op(op, &a, &b).unwrap();
        let want: Vec<u32> = (0..400u32)
            .flat_map(|v| std::iter::repeat(v).take(op.copies((v % 4) as u64, (v % 3) as u64) as usize))
            .collect();
        assert_eq!(got, want, "{op:?} multiset counts");
        assert_eq!(got, reference::set_op(op, &a, &b), "{op:?} reference");
    }
}

/// The single-pass look-back path (the default where the device allows inter-workgroup
/// waiting), with the default spin limit and with the fallback taken nearly always.
#[test]
fn lookback_path() {
    let ctx = common::context_with_lookback(true);
    let plan = ctx
        .set_op_plan(&SetOpDesc::new(KeyType::U32, SetOp::Or, 10, 10))
        .unwrap();
    assert_eq!(plan.path(), SetOpPath::Lookback);
    let mut rng = Rng(52);
    set_ops_for::<u32>(&ctx, &mut rng);
    set_ops_for::<f64>(&ctx, &mut rng);
    record_set_ops(&ctx, SetOpPath::Lookback, None);
    let small = MergeTuning {
        workgroup_size: 32,
        items_per_thread: 3,
        lookback_spins: 1,
    };
    record_set_ops(&ctx, SetOpPath::Lookback, Some(small));
    // Every tile after the first walks its predecessor's tile itself (the fallback).
    let forced = MergeTuning {
        lookback_spins: u32::MAX,
        ..small
    };
    record_set_ops(&ctx, SetOpPath::Lookback, Some(forced));
}

/// The walk's extremes: one element per invocation (starts that move by one past their
/// diagonal on every pair) and 32 (a 33-step walk, the widest kept-output mask), on both paths;
/// and the GPUs' tuning of 4-byte keys (256 x 15).
#[test]
fn extreme_tunings() {
    let ctx = common::context_with_lookback(true);
    for (workgroup_size, items_per_thread) in [(32, 1), (32, 2), (32, 32), (256, 15)] {
        let tuning = MergeTuning {
            workgroup_size,
            items_per_thread,
            lookback_spins: 0,
        };
        record_set_ops(&ctx, SetOpPath::CountScanWrite, Some(tuning));
        record_set_ops(&ctx, SetOpPath::Lookback, Some(tuning));
    }
}

/// Unsorted input gives an unspecified result, but inside the output: with one lane per
/// partition boundary (many tiles), a boundary two workgroups search apart may get two
/// co-ranks and their tiles overlap by an element; the writes and the count stay within
/// count(A) + count(B) (a word past the output changed, and the count was a + b + 1, before).
#[test]
fn unsorted_input_stays_inside_the_output() {
    let ctx = context();
    let (na, nb) = (600_000usize, 600_000usize);
    let mut rng = Rng(1007);
    let a: Vec<u32> = (0..na)
        .map(|i| {
            if rng.next_u32() % 128 == 0 {
                7
            } else {
                2 * ((i as u32 / 3) % 50)
            }
        })
        .collect();
    let b: Vec<u32> = (0..nb)
        .map(|i| {
            if rng.next_u32() % 128 == 0 {
                7
            } else {
                2 * (((nb - i) as u32 / 5) % 50) + 1
            }
        })
        .collect();
    let mut paths = vec![SetOpPath::CountScanWrite];
    if ctx.profile().lookback {
        paths.push(SetOpPath::Lookback);
    }
    for op in SetOp::ALL {
        for &path in &paths {
            let desc = SetOpDesc {
                path,
                // 32 x 1 tiles: 37500 of them, one lane per partition boundary.
                tuning: Some(MergeTuning {
                    workgroup_size: 32,
                    items_per_thread: 1,
                    lookback_spins: 0,
                }),
                ..SetOpDesc::new(KeyType::U32, op, na as u64, nb as u64)
            };
            let plan = ctx.set_op_plan(&desc).expect("plan");
            let req = plan.memory_requirements();
            let input = [a.clone(), b.clone()].concat();
            let in_buf = poisoned(&ctx, input.len(), 0, &input);
            // The count and 7 words of POISON, the output, then 4096 words of POISON.
            let mut out_buf = poisoned(&ctx, 8 + na + nb + 4096, 0, &[]);
            let scratch =
                GpuBuffer::new(&ctx, req.scratch.size.max(16), MemoryLocation::GpuOnly, "scratch").unwrap();
            let args = SetOpArgs {
                a: in_buf.sub_range(0, (na * 4) as u64),
                b: in_buf.sub_range((na * 4) as u64, (nb * 4) as u64),
                out: out_buf.sub_range(32, ((na + nb) * 4) as u64),
                out_count: out_buf.sub_range(0, 4),
                scratch: scratch.sub_range(0, req.scratch.size.max(16)),
                a_count: ElementCount::Direct(na as u64),
                b_count: ElementCount::Direct(nb as u64),
            };
            ctx.submit_and_wait(|cmd| unsafe {
                common::host_to_compute(&ctx, cmd);
                plan.record(cmd, &args)?;
                common::compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            let got = words(&mut out_buf);
            assert!(
                got[0] as usize <= na + nb,
                "{op:?} {path:?}: count {} > a + b",
                got[0]
            );
            assert!(
                got[1..8].iter().all(|&w| w == POISON),
                "{op:?} {path:?}: words after the count"
            );
            let past = got[8 + na + nb..].iter().filter(|&&w| w != POISON).count();
            assert_eq!(past, 0, "{op:?} {path:?}: {past} words past the output changed");
        }
    }
}
