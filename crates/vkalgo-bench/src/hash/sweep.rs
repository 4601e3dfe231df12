//! The hash benchmark's load sweep.

use super::{all_commands_barrier, unique_keys, Options};
use vkalgo::{
    Context, ElementCount, GpuBuffer, HashFindArgs, HashInsertArgs, HashKeyType, HashMap, HashMapDesc,
    HashTuning, HashValueType, MemoryLocation, Result,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{download, median, upload, Timer, Yardstick};

/// The load sweep: one map of 2^sweep_log2cap slots (rounded up to 4 * prime), batches of
/// 2^sweep_log2batch new keys until the load reaches `sweep_to`, each batch timed.
pub(super) fn sweep(
    ctx: &Context,
    o: &Options,
    timer: &Timer,
    yard: &Yardstick,
    tuning: &Option<HashTuning>,
    bucket_bytes: Option<u32>,
) -> Result<()> {
    let desc = HashMapDesc {
        tuning: *tuning,
        bucket_bytes,
        ..HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 1 << o.sweep_log2cap)
    };
    let map = HashMap::new(ctx, &desc)?;
    let capacity = map.capacity();
    let batch = 1u64 << o.sweep_log2batch;
    // Batches of `batch` keys; the last one shorter so the sweep ends at `sweep_to`.
    let total = (capacity as f64 * o.sweep_to) as u64;
    let batches: Vec<(u64, u64)> = (0..total.div_ceil(batch))
        .map(|b| (b * batch, batch.min(total - b * batch)))
        .collect();
    let keys = unique_keys(total as usize, 0x1234_5678);
    let values: Vec<u32> = keys.iter().map(|&k| k.wrapping_add(1)).collect();
    let key_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "sweep keys")?;
    let value_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "sweep values")?;
    let mut counter = GpuBuffer::new(ctx, 16, MemoryLocation::GpuToCpu, "sweep failures")?;
    upload(ctx, &key_buf, &keys)?;
    upload(ctx, &value_buf, &values)?;
    println!(
        "\nload sweep: capacity {capacity} slots ({}-byte buckets), batches of 2^{} keys (the last shorter), to load {:.3}",
        map.bucket_bytes(),
        o.sweep_log2batch,
        total as f64 / capacity as f64
    );
    let table = report::table(
        "load sweep",
        &["batch", "load before", "load after", "ms", "G keys/s"],
    );
    let failed_range = counter.sub_range(0, 4);
    yard.warm(ctx, timer)?;
    let times = timer.regions(|cmd, mark| {
        unsafe {
            ctx.device().cmd_fill_buffer(cmd, counter.buffer(), 0, 16, 0);
        }
        all_commands_barrier(ctx, cmd);
        for &(start, len) in &batches {
            let args = HashInsertArgs {
                keys: key_buf.sub_range(4 * start, 4 * len),
                values: value_buf.sub_range(4 * start, 4 * len),
                count: ElementCount::Direct(len),
                max_count: len,
                status: None,
                failed_count: Some(failed_range),
            };
            mark(cmd);
            unsafe { map.record_insert(cmd, &args) }?;
            mark(cmd);
            all_commands_barrier(ctx, cmd);
        }
        Ok(())
    })?;
    let mut in_band = (0u64, 0.0f64);
    for (b, (&ms, &(start, len))) in times.iter().zip(&batches).enumerate() {
        let before = start as f64 / capacity as f64;
        let after = (start + len) as f64 / capacity as f64;
        let rate = len as f64 / (ms * 1e-3) / 1e9;
        table.line(&format!(
            "| {b} | {before:.3} | {after:.3} | {ms:.3} | {rate:.2} |"
        ));
        let variant = format!("{before:.4}-{after:.4}");
        report::result(
            "hash_sweep_insert_u32",
            &variant,
            len,
            ms,
            rate,
            &capacity.to_string(),
        );
        if before >= 0.9 - 1e-9 {
            in_band.0 += len;
            in_band.1 += ms;
        }
    }
    let failed = [u32::from_le_bytes(
        counter.mapped().expect("mapped")[..4].try_into().unwrap(),
    )];
    let size = map.size()?;
    // Every key findable at the final load; time that too.
    let out_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "sweep out")?;
    let args = HashFindArgs {
        keys: key_buf.sub_range(0, 4 * total),
        values: Some(out_buf.sub_range(0, 4 * total)),
        found: None,
        count: ElementCount::Direct(total),
        max_count: total,
    };
    yard.warm(ctx, timer)?;
    let find_times = timer.regions(|cmd, mark| {
        for _ in 0..4 {
            mark(cmd);
            unsafe { map.record_find(cmd, &args) }?;
            mark(cmd);
            all_commands_barrier(ctx, cmd);
        }
        Ok(())
    })?;
    let got: Vec<u32> = download(ctx, &out_buf, total as usize)?;
    let ok = failed[0] == 0 && size == total && got == values;
    let find_ms = median(find_times[1..].to_vec());
    println!(
        "sweep: {} keys, failures {}, size {size}, all found with their values: {}",
        total,
        failed[0],
        if got == values { "yes" } else { "NO" }
    );
    let variant = format!("load{:.3}_sweep", total as f64 / capacity as f64);
    report::result(
        "hash_find_hit_u32",
        &variant,
        total,
        find_ms,
        rate(total, find_ms),
        "0",
    );
    if in_band.0 > 0 {
        let rate = in_band.0 as f64 / (in_band.1 * 1e-3) / 1e9;
        println!(
            "sweep: insert between loads 0.90 and {:.3}: {} keys in {:.3} ms = {rate:.3} G keys/s",
            total as f64 / capacity as f64,
            in_band.0,
            in_band.1
        );
        report::result(
            "hash_sweep_band_u32",
            "0.90-0.95",
            in_band.0,
            in_band.1,
            rate,
            "0",
        );
    }
    if !ok {
        eprintln!("SWEEP VERIFICATION FAILED");
        std::process::exit(1);
    }
    Ok(())
}
