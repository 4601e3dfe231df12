//! The hash benchmark's load sweep.

use super::{all_commands_barrier, unique_keys, Hash};
use vkalgo::{
    Context, ElementCount, GpuBuffer, HashFindArgs, HashInsertArgs, HashKeyType, HashMap, HashMapDesc,
    HashValueType, MemoryLocation, Result,
};
use vkalgo_bench::harness::report::{self, rate, Table};
use vkalgo_bench::harness::{download, median, upload};

/// The sweep's map, its keys (in their buffer) and values (on the host and in theirs), the batches
/// (first key, count) and the counter of failed inserts.
struct Sweep {
    map: HashMap,
    values: Vec<u32>,
    key_buf: GpuBuffer,
    value_buf: GpuBuffer,
    counter: GpuBuffer,
    batches: Vec<(u64, u64)>,
    /// Keys of all batches.
    total: u64,
}

impl Sweep {
    /// The map of 2^log2cap slots (rounded up to 4 * prime) with the first tuning and bucket
    /// size, and batches of 2^log2batch new keys, the last one shorter so the sweep ends at
    /// `sweep_to`.
    fn new(h: &Hash, ctx: &Context) -> Result<Sweep> {
        let o = &h.o;
        let desc = HashMapDesc {
            tuning: o.tunings[0],
            bucket_bytes: o.buckets[0],
            ..HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 1 << o.sweep_log2cap)
        };
        let map = HashMap::new(ctx, &desc)?;
        let batch = 1u64 << o.sweep_log2batch;
        let total = (map.capacity() as f64 * o.sweep_to) as u64;
        let batches: Vec<(u64, u64)> = (0..total.div_ceil(batch))
            .map(|b| (b * batch, batch.min(total - b * batch)))
            .collect();
        let keys = unique_keys(total as usize, 0x1234_5678);
        let values: Vec<u32> = keys.iter().map(|&k| k.wrapping_add(1)).collect();
        let key_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "sweep keys")?;
        let value_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "sweep values")?;
        let counter = GpuBuffer::new(ctx, 16, MemoryLocation::GpuToCpu, "sweep failures")?;
        upload(ctx, &key_buf, &keys)?;
        upload(ctx, &value_buf, &values)?;
        Ok(Sweep {
            map,
            values,
            key_buf,
            value_buf,
            counter,
            batches,
            total,
        })
    }

    /// The load of the map after `keys` inserts.
    fn load(&self, keys: u64) -> f64 {
        keys as f64 / self.map.capacity() as f64
    }
}

impl Hash<'_> {
    /// The load sweep: one map, batches of new keys until the load reaches `sweep_to`, each
    /// batch timed; then every key looked up.
    pub(super) fn sweep(&self) -> Result<()> {
        let ctx = self.b.ctx;
        let mut s = Sweep::new(self, ctx)?;
        let capacity = s.map.capacity();
        println!(
            "\nload sweep: capacity {capacity} slots ({}-byte buckets), batches of 2^{} keys (the last shorter), to load {:.3}",
            s.map.bucket_bytes(),
            self.o.sweep_log2batch,
            s.load(s.total)
        );
        let table = report::table(
            "load sweep",
            &["batch", "load before", "load after", "ms", "G keys/s"],
        );
        let failed_range = s.counter.sub_range(0, 4);
        self.b.warm()?;
        let times = self.b.timer.regions(|cmd, mark| {
            unsafe {
                ctx.device().cmd_fill_buffer(cmd, s.counter.buffer(), 0, 16, 0);
            }
            all_commands_barrier(ctx, cmd);
            for &(start, len) in &s.batches {
                let args = HashInsertArgs {
                    keys: s.key_buf.sub_range(4 * start, 4 * len),
                    values: s.value_buf.sub_range(4 * start, 4 * len),
                    count: ElementCount::Direct(len),
                    max_count: len,
                    status: None,
                    failed_count: Some(failed_range),
                };
                mark(cmd);
                unsafe { s.map.record_insert(cmd, &args) }?;
                mark(cmd);
                all_commands_barrier(ctx, cmd);
            }
            Ok(())
        })?;
        let in_band = batch_rows(&s, &table, &times);
        self.sweep_check(&mut s, in_band)
    }

    /// Every key findable with its value at the final load (and that lookup timed); the
    /// insert rate between loads 0.90 and the end; exits on a wrong result.
    fn sweep_check(&self, s: &mut Sweep, in_band: (u64, f64)) -> Result<()> {
        let (ctx, total) = (self.b.ctx, s.total);
        let failed = u32::from_le_bytes(s.counter.mapped().expect("mapped")[..4].try_into().unwrap());
        let size = s.map.size()?;
        let out_buf = GpuBuffer::new(ctx, 4 * total, MemoryLocation::GpuOnly, "sweep out")?;
        let args = HashFindArgs {
            keys: s.key_buf.sub_range(0, 4 * total),
            values: Some(out_buf.sub_range(0, 4 * total)),
            found: None,
            count: ElementCount::Direct(total),
            max_count: total,
        };
        self.b.warm()?;
        let find = |cmd, _| unsafe { s.map.record_find(cmd, &args) };
        let find_times = self.b.time_regions(4, |_, _| Ok(()), find)?;
        let got: Vec<u32> = download(ctx, &out_buf, total as usize)?;
        let ok = failed == 0 && size == total && got == s.values;
        let find_ms = median(find_times[1..].to_vec());
        println!(
            "sweep: {} keys, failures {}, size {size}, all found with their values: {}",
            total,
            failed,
            if got == s.values { "yes" } else { "NO" }
        );
        let variant = format!("load{:.3}_sweep", s.load(total));
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
                s.load(total),
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
}

/// A row and a record per batch; returns the keys and milliseconds of the batches that start
/// at load 0.90 or above.
fn batch_rows(s: &Sweep, table: &Table, times: &[f64]) -> (u64, f64) {
    let capacity = s.map.capacity();
    let mut in_band = (0u64, 0.0f64);
    for (b, (&ms, &(start, len))) in times.iter().zip(&s.batches).enumerate() {
        let (before, after) = (s.load(start), s.load(start + len));
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
    in_band
}
