//! Large-count check of the hash map: inserts into and finds in a map of more than 2^31 slots
//! (or the largest the device allows) through the host API in batches, verified exactly (see
//! `vkalgo_bench::large` for the environment; `--ignored` runs it).

use std::time::Instant;
use vkalgo::{Context, HashKeyType, HashMapDesc, HashValueType, Result};
use vkalgo_bench::large::*;

/// Keys of the hash check: key(i) = mix32(i), distinct for distinct i < 2^32; the two reserved
/// keys (u32::MAX - 1, u32::MAX) are left out.
fn hash_keys(first: u64, count: u64, threads: usize) -> Vec<u32> {
    let mut keys = vec![0u32; count as usize];
    let per = keys.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, part) in keys.chunks_mut(per).enumerate() {
            s.spawn(move || {
                for (j, k) in part.iter_mut().enumerate() {
                    *k = mix32((first + (c * per + j) as u64) as u32);
                }
            });
        }
    });
    keys.retain(|&k| k < u32::MAX - 1);
    keys
}

fn hash_value(key: u32) -> u32 {
    key.rotate_left(7) ^ 0x5BD1_E995
}

/// Keys per host call of the hash check.
const HASH_BATCH: u64 = 1 << 26;

fn hash_check(ctx: &Context, o: &Options, rows: &mut Vec<Row>) -> Result<()> {
    let l = o.hash_log2;
    let mut capacities = vec![(1u64 << l) + (1u64 << (l - 3)), 1 << l];
    for shift in [4u32, 3, 2, 1] {
        capacities.push((1u64 << l) - (1u64 << (l - shift)));
    }
    for down in 1..=4u32 {
        capacities.push(1u64 << (l - down));
    }
    let mut map = None;
    let mut refused = 0;
    for &capacity in &capacities {
        match ctx.hash_map(&HashMapDesc::new(HashKeyType::U32, HashValueType::U32, capacity)) {
            Ok(m) => {
                map = Some(m);
                break;
            }
            Err(e) => {
                refused += 1;
                println!("hash: a map of {capacity} slots was refused: {e}");
            }
        }
    }
    let Some(map) = map else {
        rows.push(Row {
            what: "hash map".into(),
            n: 0,
            ms: None,
            timing: "-",
            verdict: Verdict::Refused("no capacity accepted".into()),
        });
        return Ok(());
    };
    let slots = map.capacity();
    let inserted = ((slots as f64 * o.hash_load) as u64).min((1u64 << 32) - 4);
    // Absent keys: the next indices (mix32 is a bijection, so none of them was inserted).
    let absent = inserted.min((1u64 << 32) - inserted);
    println!(
        "hash: map of {slots} slots ({} bytes), {inserted} keys to insert (load {:.2}), {absent} absent keys to look up",
        map.memory_bytes(),
        o.hash_load
    );
    let t = Instant::now();
    let mut stored = 0u64;
    let mut first = 0u64;
    while first < inserted {
        let count = (inserted - first).min(HASH_BATCH);
        let keys = hash_keys(first, count, o.threads);
        let values: Vec<u32> = keys.iter().map(|&k| hash_value(k)).collect();
        map.insert(&keys, &values)?;
        stored += keys.len() as u64;
        first += count;
    }
    let insert_ms = ms_since(t);
    let size = map.size()? ^ o.corrupt as u64;
    let insert_verdict = if size == stored {
        Verdict::Exact
    } else {
        Verdict::Wrong(format!("size {size} after inserting {stored} distinct keys"))
    };
    let t = Instant::now();
    let mut find_verdict = Verdict::Exact;
    let mut first = 0u64;
    while first < inserted + absent {
        let end = if first < inserted {
            inserted
        } else {
            inserted + absent
        };
        let count = (end - first).min(HASH_BATCH);
        let keys = hash_keys(first, count, o.threads);
        let mut values = vec![0u32; keys.len()];
        let mut found = vec![false; keys.len()];
        map.find(&keys, &mut values, Some(&mut found))?;
        if o.corrupt && first == 0 {
            found[0] = !found[0];
        }
        let present = first < inserted;
        let bad = (0..keys.len()).find(|&i| {
            if present {
                !found[i] || values[i] != hash_value(keys[i])
            } else {
                found[i]
            }
        });
        if let Some(i) = bad {
            if matches!(find_verdict, Verdict::Exact) {
                find_verdict = Verdict::Wrong(format!(
                    "key {} ({}): found {} value {}",
                    keys[i],
                    if present { "inserted" } else { "absent" },
                    found[i],
                    values[i]
                ));
            }
        }
        first += count;
    }
    let find_ms = ms_since(t);
    // Says whether the map reached past 2^31 slots (the largest the device allowed if not).
    let reach = match (slots > 1 << 31, refused) {
        (true, _) => "past 2^31",
        (false, 0) => "as asked",
        (false, _) => "largest the device accepted",
    };
    rows.push(Row {
        what: format!("hash insert u32->u32, {slots} slots ({reach})"),
        n: stored,
        ms: Some(insert_ms),
        timing: "host wall",
        verdict: insert_verdict,
    });
    rows.push(Row {
        what: format!("hash find (hits + misses), {slots} slots ({reach})"),
        n: inserted + absent,
        ms: Some(find_ms),
        timing: "host wall",
        verdict: find_verdict,
    });
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_hash() {
    run("hash", &|ctx, o, rows| hash_check(ctx, o, rows));
}

#[test]
fn large_hash_self_test() {
    self_test("hash", &|ctx, o, rows| hash_check(ctx, o, rows));
}
