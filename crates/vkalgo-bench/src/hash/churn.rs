//! The hash benchmark's churn at a steady live load.

use super::{all_commands_barrier, mix32, unique_keys, Options, Row};
use vkalgo::{
    Context, ElementCount, GpuBuffer, HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMap,
    HashMapDesc, HashValueType, MemoryLocation, Result,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{download, upload, Timer, Yardstick};

/// Churn at a steady live load: rounds of erasing the oldest 10% of the live keys and inserting
/// as many new ones (keys[r * m .. r * m + live) live after round r). Returns the steady-state
/// row (the last group of 10 rounds: erased + inserted keys per second).
pub(super) fn churn(ctx: &Context, o: &Options, timer: &Timer, yard: &Yardstick, load: f64) -> Result<Row> {
    let copy_gbs = yard.gbs;
    let live = 1u64 << o.churn_log2n;
    let m = live / 10;
    let rounds = o.churn_rounds as u64;
    let total = live + rounds * m;
    let desc = HashMapDesc {
        tuning: o.tunings[0],
        bucket_bytes: o.buckets[0],
        ..HashMapDesc::new(
            HashKeyType::U32,
            HashValueType::U32,
            (live as f64 / load).round() as u64,
        )
    };
    let map = HashMap::new(ctx, &desc)?;
    let keys = unique_keys(total as usize, 0x6a09_e667);
    let values: Vec<u32> = keys.iter().map(|&k| mix32(k ^ 0x3c6e_f372) | 1).collect();
    let key_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "churn keys")?;
    let value_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "churn values")?;
    let mut counter = GpuBuffer::new(ctx, 16, MemoryLocation::GpuToCpu, "churn failures")?;
    upload(ctx, &key_buf, &keys)?;
    upload(ctx, &value_buf, &values)?;
    let failed_range = counter.sub_range(0, 4);
    let insert = |start: u64, len: u64| HashInsertArgs {
        keys: key_buf.sub_range(4 * start, 4 * len),
        values: value_buf.sub_range(4 * start, 4 * len),
        count: ElementCount::Direct(len),
        max_count: len,
        status: None,
        failed_count: Some(failed_range),
    };
    let erase = |start: u64, len: u64| HashEraseArgs {
        keys: key_buf.sub_range(4 * start, 4 * len),
        erased: None,
        count: ElementCount::Direct(len),
        max_count: len,
    };
    // Fill (untimed), then the rounds: erase timed, insert timed.
    yard.warm(ctx, timer)?;
    let times = timer.regions(|cmd, mark| {
        unsafe { ctx.device().cmd_fill_buffer(cmd, counter.buffer(), 0, 16, 0) };
        all_commands_barrier(ctx, cmd);
        unsafe { map.record_insert(cmd, &insert(0, live)) }?;
        all_commands_barrier(ctx, cmd);
        for r in 0..rounds {
            mark(cmd);
            unsafe { map.record_erase(cmd, &erase(r * m, m)) }?;
            mark(cmd);
            all_commands_barrier(ctx, cmd);
            mark(cmd);
            unsafe { map.record_insert(cmd, &insert(live + r * m, m)) }?;
            mark(cmd);
            all_commands_barrier(ctx, cmd);
        }
        Ok(())
    })?;
    let failed = u32::from_le_bytes(counter.mapped().expect("mapped")[..4].try_into().unwrap());
    let stats = map.stats()?;
    println!(
        "\nchurn at load {load}: {live} live keys in {} slots ({}-byte buckets), {rounds} rounds of \
         {m} erases + {m} inserts; failures {failed}, size {}, tombstones {}",
        map.capacity(),
        map.bucket_bytes(),
        stats.size,
        stats.tombstones
    );
    let table = report::table(
        &format!("churn at load {load}"),
        &["rounds", "erase ms", "insert ms", "G keys/s (erase + insert)"],
    );
    let mut last = (0.0, 0.0, 0u64);
    for group in 0..rounds.div_ceil(10) {
        let (a, b) = (group * 10, ((group + 1) * 10).min(rounds));
        let erase_ms: f64 = (a..b).map(|r| times[2 * r as usize]).sum::<f64>() / (b - a) as f64;
        let insert_ms: f64 = (a..b).map(|r| times[2 * r as usize + 1]).sum::<f64>() / (b - a) as f64;
        let rate = 2.0 * m as f64 / ((erase_ms + insert_ms) * 1e-3) / 1e9;
        table.line(&format!(
            "| {a}-{} | {erase_ms:.3} | {insert_ms:.3} | {rate:.2} |",
            b - 1
        ));
        last = (erase_ms, insert_ms, b - a);
    }
    // Verify: the live window found with its values, the first erased window absent.
    let first_live = rounds * m;
    let out_buf = GpuBuffer::new(ctx, 4 * (live + m), MemoryLocation::GpuOnly, "churn out")?;
    let check_args = |start: u64, len: u64| HashFindArgs {
        keys: key_buf.sub_range(4 * start, 4 * len),
        values: Some(out_buf.sub_range(0, 4 * len)),
        found: None,
        count: ElementCount::Direct(len),
        max_count: len,
    };
    timer.regions(|cmd, _mark| unsafe { map.record_find(cmd, &check_args(first_live, live)) })?;
    let got: Vec<u32> = download(ctx, &out_buf, live as usize)?;
    let live_ok = got[..] == values[first_live as usize..(first_live + live) as usize];
    timer.regions(|cmd, _mark| unsafe { map.record_find(cmd, &check_args(0, m)) })?;
    let gone: Vec<u32> = download(ctx, &out_buf, m as usize)?;
    let gone_ok = gone.iter().all(|&v| v == 0);
    let ok = failed == 0 && stats.size == live && live_ok && gone_ok;
    println!(
        "churn at load {load}: live keys found with their values: {}, erased keys absent: {}",
        if live_ok { "yes" } else { "NO" },
        if gone_ok { "yes" } else { "NO" }
    );
    let (erase_ms, insert_ms, _) = last;
    let row = Row {
        op: "churn",
        variant: format!("load{load}_erase+insert_{}of{live}", 2 * m),
        n: 2 * m,
        ms: erase_ms + insert_ms,
        ok,
    };
    row.print(copy_gbs);
    for (op, ms) in [("churn_erase", erase_ms), ("churn_insert", insert_ms)] {
        let (algo, variant) = (format!("hash_{op}_u32"), format!("load{load}"));
        report::result(&algo, &variant, m, ms, rate(m, ms), &format!("{copy_gbs:.0}"));
    }
    Ok(row)
}
