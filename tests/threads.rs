//! Threads and lifetimes: host calls on one context from several threads at once, and objects
//! that outlive the caller's context handle.

mod common;
use common::*;
use vkalgo::scan::reference;
use vkalgo::{Context, HashKeyType, HashMapDesc, HashValueType, ScanOp};

/// `Context` and the objects an engine keeps beside it move and share between threads.
#[test]
fn handles_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Context>();
    send_sync::<vkalgo::HashMap>();
    send_sync::<vkalgo::SortPlan>();
    send_sync::<vkalgo::ScanPlan>();
    send_sync::<vkalgo::GpuBuffer>();
}

/// Four threads mix scans, sorts and hash-map calls on one context; every result is exact.
#[test]
fn host_calls_from_four_threads() {
    let ctx = context();
    let map = ctx
        .hash_map(&HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 1 << 14))
        .unwrap();
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let (ctx, map) = (&ctx, &map);
            s.spawn(move || {
                let mut rng = Rng(1000 + t as u64);
                for round in 0..6u32 {
                    match (t + round) % 3 {
                        0 => {
                            let data = rng.vec_u32(10_000 + 977 * round as usize);
                            let mut out = vec![0u32; data.len()];
                            ctx.scan_u32(&data, &mut out, ScanOp::Inclusive).unwrap();
                            assert!(
                                out == reference::scan_u32(&data, ScanOp::Inclusive),
                                "thread {t} scan"
                            );
                        }
                        1 => {
                            let mut keys: Vec<u64> =
                                (0..5_003).map(|_| rng.next_u64() >> (round * 9)).collect();
                            let mut values: Vec<u32> = (0..keys.len() as u32).collect();
                            let mut want: Vec<(u64, u32)> =
                                keys.iter().copied().zip(values.iter().copied()).collect();
                            want.sort_by_key(|p| p.0); // stable, as the GPU sort
                            ctx.sort_pairs(&mut keys, &mut values).unwrap();
                            let got: Vec<(u64, u32)> = keys.into_iter().zip(values).collect();
                            assert!(got == want, "thread {t} sort");
                        }
                        _ => {
                            // Each thread owns the keys congruent to t mod 4: no two threads
                            // touch the same key, so every answer is known.
                            let keys: Vec<u32> =
                                (0..500u32).map(|i| (i * 4 + t) * 7 + round * 100_000).collect();
                            let values: Vec<u32> = keys.iter().map(|k| k ^ 0xabcd).collect();
                            map.insert(&keys, &values).unwrap();
                            let mut out = vec![0u32; keys.len()];
                            let mut found = vec![false; keys.len()];
                            map.find(&keys, &mut out, Some(&mut found)).unwrap();
                            assert!(found.iter().all(|&f| f) && out == values, "thread {t} hash");
                            map.erase(&keys[..250]).unwrap();
                        }
                    }
                }
            });
        }
    });
    // 4 threads x 2 hash rounds x 250 keys left, all distinct.
    let hash_rounds: u64 = (0..4u32)
        .map(|t| (0..6u32).filter(|r| (t + r) % 3 == 2).count() as u64)
        .sum();
    assert_eq!(map.size().unwrap(), hash_rounds * 250);
}

/// Objects and plans keep their context alive: the caller's handle dropped first, they still
/// work, and the last of them frees the device.
#[test]
fn objects_outlive_the_context_handle() {
    let ctx = context();
    let map = ctx
        .hash_map(&HashMapDesc::new(HashKeyType::U64, HashValueType::U32, 1000))
        .unwrap();
    let plan = ctx
        .scan_plan(&vkalgo::ScanDesc::new(ScanOp::Exclusive, 1000))
        .unwrap();
    let weak_count = ctx.handle_count();
    assert!(weak_count >= 3, "the map and the plan hold a handle each");
    drop(ctx);
    map.insert(&[1u64, 2, 3], &[10u32, 20, 30]).unwrap();
    let mut out = [0u32; 3];
    map.find(&[3u64, 2, 1], &mut out, None).unwrap();
    assert_eq!(out, [30, 20, 10]);
    let ctx2 = TestContext::new(map.context().clone());
    let mut data = [1u32, 1, 1];
    ctx2.scan_u32(&[1, 1, 1], &mut data, ScanOp::Exclusive).unwrap();
    assert_eq!(data, [0, 1, 2]);
    assert_eq!(plan.memory_requirements(), plan.memory_requirements());
    drop(map);
    assert_eq!(ctx2.handle_count(), 2, "this handle and the plan's are left");
    drop(plan);
    assert_eq!(ctx2.handle_count(), 1, "only this handle is left");
}

/// A host call that times out marks the context lost: later host calls fail, and nothing the
/// GPU may still use is freed (the lost context leaks its objects instead).
#[test]
fn a_timeout_marks_the_context_lost() {
    let mut options = vkalgo::ContextOptions::from_env();
    options.timeout = std::time::Duration::from_nanos(1);
    let ctx = Context::with_options(&options).unwrap();
    let mut keys = Rng(5).vec_u32(1 << 20);
    let before = keys.clone();
    let first = ctx.sort(&mut keys);
    assert!(matches!(first, Err(vkalgo::Error::Timeout(_))), "{first:?}");
    assert!(keys == before, "a timed-out host call writes nothing");
    assert!(ctx.is_lost());
    let mut out = [0u32; 2];
    let later = ctx.scan_u32(&[1, 2], &mut out, ScanOp::Exclusive);
    assert!(matches!(later, Err(vkalgo::Error::DeviceLost)), "{later:?}");
    assert_eq!(out, [0, 0]);
}
