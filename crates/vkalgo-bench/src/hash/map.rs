//! The hash benchmark's main cases: for each load and variant, N inserts into an empty map,
//! N lookups of those keys (hits) and of other keys (misses), N erases, each timed alone.

use super::{all_commands_barrier, Hash};
use vkalgo::{
    BufferRange, ElementCount, HashEraseArgs, HashFindArgs, HashInsertArgs, HashKeyType, HashMap,
    HashMapDesc, HashTuning, HashValueType, Result,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{download, median, verified};

/// One row of the summary table (and its record).
pub(super) struct Row {
    pub(super) op: &'static str,
    pub(super) variant: String,
    pub(super) n: u64,
    pub(super) ms: f64,
    pub(super) ok: bool,
}

impl Row {
    /// The row's cells.
    pub(super) fn cells(&self) -> [String; 6] {
        [
            self.op.to_string(),
            self.variant.clone(),
            self.n.to_string(),
            format!("{:.3}", self.ms),
            format!("{:.2}", rate(self.n, self.ms)),
            verified(self.ok),
        ]
    }

    /// Prints the row (the summary table at the end keeps it for the page) and its record.
    pub(super) fn print(&self, copy_gbs: f64) {
        println!("| {} |", self.cells().join(" | "));
        let (algo, extra) = (format!("hash_{}_u32", self.op), format!("{copy_gbs:.0}"));
        report::result(
            &algo,
            &self.variant,
            self.n,
            self.ms,
            rate(self.n, self.ms),
            &extra,
        );
    }
}

/// One variant of the maps: tuning, bucket bytes, packed insert (`None`: the map's choice).
type Variant = (Option<HashTuning>, Option<u32>, Option<bool>);

impl Hash<'_> {
    /// Prints `row` and keeps it for the summary table.
    pub(super) fn push(&mut self, row: Row) {
        row.print(self.b.yard.gbs);
        self.rows.push(row);
    }

    /// The variants of the run: each bucket size with each tuning (and, with `--unpacked`, the
    /// unpacked insert of the first tuning).
    fn variants(&self) -> Vec<Variant> {
        let o = &self.o;
        let mut variants = Vec::new();
        for &bucket in &o.buckets {
            variants.extend(o.tunings.iter().map(|&t| (t, bucket, None)));
            if o.unpacked {
                variants.push((o.tunings[0], bucket, Some(false)));
            }
        }
        variants
    }

    /// Every load with every variant, each row printed as it comes.
    pub(super) fn maps(&mut self) -> Result<()> {
        match self.o.log2cap {
            Some(c) => {
                println!("\nhash map, u32 keys and values, maps of 2^{c} slots, N = load * 2^{c} keys")
            }
            None => println!("\nhash map, u32 keys and values, N = 2^{} keys", self.o.log2n),
        }
        println!("| op | variant | N | ms | G keys/s | verified |");
        println!("|---|---|---|---|---|---|");
        for load in self.o.loads.clone() {
            for variant in self.variants() {
                self.map_case(load, variant)?;
            }
        }
        Ok(())
    }

    /// The arguments of the insert of the `nn` hit keys with their values.
    fn insert_args(&self, nn: u64) -> HashInsertArgs {
        HashInsertArgs {
            keys: self.key_buf.sub_range(0, 4 * nn),
            values: self.value_buf.sub_range(0, 4 * nn),
            count: ElementCount::Direct(nn),
            max_count: nn,
            status: None,
            failed_count: None,
        }
    }

    /// The arguments of the lookup of `nn` `keys` into the output buffer.
    fn find_args(&self, keys: BufferRange, nn: u64) -> HashFindArgs {
        HashFindArgs {
            keys,
            values: Some(self.out_buf.sub_range(0, 4 * nn)),
            found: None,
            count: ElementCount::Direct(nn),
            max_count: nn,
        }
    }

    /// One map of N / load slots (capacity mode: N = load * 2^log2cap keys, 2^log2cap slots):
    /// insert (each after a clear), find hits then misses, erase (each after a refill); the
    /// first repetition of each batch is a warm-up, dropped.
    fn map_case(&mut self, load: f64, (tuning, bucket_bytes, packed): Variant) -> Result<()> {
        let (ctx, reps, nn) = (self.b.ctx, self.o.reps, self.o.keys_at(load));
        let capacity = match self.o.log2cap {
            Some(c) => 1u64 << c,
            None => (nn as f64 / load).round() as u64,
        };
        let desc = HashMapDesc {
            packed_insert: packed,
            bucket_bytes,
            tuning,
            ..HashMapDesc::new(HashKeyType::U32, HashValueType::U32, capacity)
        };
        let map = HashMap::new(ctx, &desc)?;
        let t = map.tuning();
        let unpacked = if map.packed_insert() { "" } else { "_unpacked" };
        let variant = format!(
            "load{load}_b{}_{}x{}{unpacked}",
            map.bucket_bytes(),
            t.workgroup_size,
            t.keys_per_invocation,
        );
        let row = |op, ms, ok| Row {
            op,
            variant: variant.clone(),
            n: nn,
            ms,
            ok,
        };
        let insert_args = self.insert_args(nn);
        // SAFETY (every recording below): the map and the buffers are live; full barriers.
        let clear = |cmd| {
            unsafe { map.record_clear(cmd) }?;
            all_commands_barrier(ctx, cmd);
            Ok(())
        };
        let insert = |cmd, _| unsafe { map.record_insert(cmd, &insert_args) };
        self.b.warm()?;
        let times = self.b.time_regions(reps + 1, |cmd, _| clear(cmd), insert)?;
        self.push(row("insert", median(times[1..].to_vec()), map.size()? == nn));
        let (hits, misses) = (
            self.key_buf.sub_range(0, 4 * nn),
            self.key_buf.sub_range(4 * nn, 4 * nn),
        );
        for (op, keys) in [("find_hit", hits), ("find_miss", misses)] {
            let args = self.find_args(keys, nn);
            self.b.warm()?;
            let find = |cmd, _| unsafe { map.record_find(cmd, &args) };
            let times = self.b.time_regions(reps + 1, |_, _| Ok(()), find)?;
            let got: Vec<u32> = download(ctx, &self.out_buf, nn as usize)?;
            let ok = if op == "find_hit" {
                got[..] == self.values[..nn as usize]
            } else {
                got.iter().all(|&v| v == 0)
            };
            self.push(row(op, median(times[1..].to_vec()), ok));
        }
        let erase_args = HashEraseArgs {
            keys: hits,
            erased: None,
            count: ElementCount::Direct(nn),
            max_count: nn,
        };
        let refill = |cmd, rep| {
            if rep > 0 {
                clear(cmd)?;
                insert(cmd, rep)?;
                all_commands_barrier(ctx, cmd);
            }
            Ok(())
        };
        self.b.warm()?;
        let erase = |cmd, _| unsafe { map.record_erase(cmd, &erase_args) };
        let times = self.b.time_regions(reps + 1, refill, erase)?;
        let stats = map.stats()?;
        let ok = stats.size == 0 && stats.tombstones <= nn;
        self.push(row("erase", median(times[1..].to_vec()), ok));
        Ok(())
    }
}
