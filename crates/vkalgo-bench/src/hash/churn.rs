//! The hash benchmark's churn at a steady live load.

use super::{all_commands_barrier, mix32, unique_keys, Hash, Row};
use vkalgo::{
    Context, ElementCount, GpuBuffer, HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMap,
    HashMapDesc, HashValueType, MemoryLocation, Result,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{download, upload};

/// The churn's map, its keys and values (on the host and in their buffers), the counter of
/// failed inserts, and the shape: `live` live keys, `m` erased and inserted per round.
struct Churn {
    map: HashMap,
    values: Vec<u32>,
    key_buf: GpuBuffer,
    value_buf: GpuBuffer,
    counter: GpuBuffer,
    live: u64,
    m: u64,
    rounds: u64,
}

impl Churn {
    /// The map for `live` keys at `load`, and the keys of every round.
    fn new(h: &Hash, ctx: &Context, load: f64) -> Result<Churn> {
        let o = &h.o;
        let live = 1u64 << o.churn_log2n;
        let (m, rounds) = (live / 10, o.churn_rounds as u64);
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
        let counter = GpuBuffer::new(ctx, 16, MemoryLocation::GpuToCpu, "churn failures")?;
        upload(ctx, &key_buf, &keys)?;
        upload(ctx, &value_buf, &values)?;
        Ok(Churn {
            map,
            values,
            key_buf,
            value_buf,
            counter,
            live,
            m,
            rounds,
        })
    }

    /// The insert of `len` keys from key `start`.
    fn insert(&self, start: u64, len: u64) -> HashInsertArgs {
        HashInsertArgs {
            keys: self.key_buf.sub_range(4 * start, 4 * len),
            values: self.value_buf.sub_range(4 * start, 4 * len),
            count: ElementCount::Direct(len),
            max_count: len,
            status: None,
            failed_count: Some(self.counter.sub_range(0, 4)),
        }
    }

    /// The erase of `len` keys from key `start`.
    fn erase(&self, start: u64, len: u64) -> HashEraseArgs {
        HashEraseArgs {
            keys: self.key_buf.sub_range(4 * start, 4 * len),
            erased: None,
            count: ElementCount::Direct(len),
            max_count: len,
        }
    }

    /// The fill (untimed), then the rounds: each erase timed, each insert timed.
    fn time(&self, h: &Hash) -> Result<Vec<f64>> {
        let (ctx, map, (live, m)) = (h.b.ctx, &self.map, (self.live, self.m));
        h.b.warm()?;
        h.b.timer.regions(|cmd, mark| {
            unsafe { ctx.device().cmd_fill_buffer(cmd, self.counter.buffer(), 0, 16, 0) };
            all_commands_barrier(ctx, cmd);
            unsafe { map.record_insert(cmd, &self.insert(0, live)) }?;
            all_commands_barrier(ctx, cmd);
            for r in 0..self.rounds {
                mark(cmd);
                unsafe { map.record_erase(cmd, &self.erase(r * m, m)) }?;
                mark(cmd);
                all_commands_barrier(ctx, cmd);
                mark(cmd);
                unsafe { map.record_insert(cmd, &self.insert(live + r * m, m)) }?;
                mark(cmd);
                all_commands_barrier(ctx, cmd);
            }
            Ok(())
        })
    }

    /// Whether the live window is found with its values and the first erased keys are absent.
    fn check(&self, h: &Hash) -> Result<(bool, bool)> {
        let (ctx, live, m) = (h.b.ctx, self.live, self.m);
        let first_live = self.rounds * m;
        let out_buf = GpuBuffer::new(ctx, 4 * (live + m), MemoryLocation::GpuOnly, "churn out")?;
        let check_args = |start: u64, len: u64| HashFindArgs {
            keys: self.key_buf.sub_range(4 * start, 4 * len),
            values: Some(out_buf.sub_range(0, 4 * len)),
            found: None,
            count: ElementCount::Direct(len),
            max_count: len,
        };
        let find = |start, len| {
            h.b.timer
                .regions(|cmd, _| unsafe { self.map.record_find(cmd, &check_args(start, len)) })
        };
        find(first_live, live)?;
        let got: Vec<u32> = download(ctx, &out_buf, live as usize)?;
        let live_ok = got[..] == self.values[first_live as usize..(first_live + live) as usize];
        find(0, m)?;
        let gone: Vec<u32> = download(ctx, &out_buf, m as usize)?;
        Ok((live_ok, gone.iter().all(|&v| v == 0)))
    }
}

impl Hash<'_> {
    /// Churn at a steady live load: rounds of erasing the oldest 10% of the live keys and
    /// inserting as many new ones (keys[r * m .. r * m + live) live after round r). Returns the
    /// steady-state row (the last group of 10 rounds: erased + inserted keys per second).
    pub(super) fn churn(&self, load: f64) -> Result<Row> {
        let copy_gbs = self.b.yard.gbs;
        let mut c = Churn::new(self, self.b.ctx, load)?;
        let times = c.time(self)?;
        let (live, m, rounds) = (c.live, c.m, c.rounds);
        let failed = u32::from_le_bytes(c.counter.mapped().expect("mapped")[..4].try_into().unwrap());
        let stats = c.map.stats()?;
        println!(
            "\nchurn at load {load}: {live} live keys in {} slots ({}-byte buckets), {rounds} rounds of \
             {m} erases + {m} inserts; failures {failed}, size {}, tombstones {}",
            c.map.capacity(),
            c.map.bucket_bytes(),
            stats.size,
            stats.tombstones
        );
        let (erase_ms, insert_ms) = groups(&c, load, &times);
        let (live_ok, gone_ok) = c.check(self)?;
        let ok = failed == 0 && stats.size == live && live_ok && gone_ok;
        println!(
            "churn at load {load}: live keys found with their values: {}, erased keys absent: {}",
            if live_ok { "yes" } else { "NO" },
            if gone_ok { "yes" } else { "NO" }
        );
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
}

/// The churn's table: the rounds in groups of 10, each group's mean erase and insert ms.
/// Returns the last group's (erase ms, insert ms).
fn groups(c: &Churn, load: f64, times: &[f64]) -> (f64, f64) {
    let table = report::table(
        &format!("churn at load {load}"),
        &["rounds", "erase ms", "insert ms", "G keys/s (erase + insert)"],
    );
    let mut last = (0.0, 0.0);
    for group in 0..c.rounds.div_ceil(10) {
        let (a, b) = (group * 10, ((group + 1) * 10).min(c.rounds));
        let erase_ms: f64 = (a..b).map(|r| times[2 * r as usize]).sum::<f64>() / (b - a) as f64;
        let insert_ms: f64 = (a..b).map(|r| times[2 * r as usize + 1]).sum::<f64>() / (b - a) as f64;
        let rate = 2.0 * c.m as f64 / ((erase_ms + insert_ms) * 1e-3) / 1e9;
        table.line(&format!(
            "| {a}-{} | {erase_ms:.3} | {insert_ms:.3} | {rate:.2} |",
            b - 1
        ));
        last = (erase_ms, insert_ms);
    }
    last
}
