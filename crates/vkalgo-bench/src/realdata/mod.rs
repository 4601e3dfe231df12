//! Real-data set benchmark: `vkalgo-bench realdata --data DIR` (options: `--help`).
//!
//! For each of CRoaring's real datasets (collections of about 200 bitmaps; VKRD files, read by
//! data.rs) it times what a user of many small sets calls, through the blocking host calls
//! (wall clock, submission and readback included: `wall` rows) and, where the record layer
//! records the same work, between GPU timestamps (`gpu` rows): build every bitmap from its
//! sorted values, serialize and deserialize them (one call each for all bitmaps: CSR values,
//! bytes back to back), the successive pairs' AND / OR / ANDNOT /
//! XOR (`GpuSet::op_batch`; recorded: `record_op_batch` on reserved pools) and their
//! cardinalities (`GpuSet::op_cardinality_batch`; recorded: `record_op_cardinality_batch`, and
//! again with every pair on the batched passes and on the one pass: `cardinalities_passes` and
//! `cardinalities_onepass` rows), the
//! union and intersection of all bitmaps (`GpuSet::op_many`) and their cardinalities alone
//! (`GpuSet::op_many_cardinality`; recorded: `record_op_many_cardinality`; on CPU drivers only
//! up to 64 bitmaps), contains of 2^20 queries spread
//! over the bitmaps (half of them values of the bitmap), and to-array of every successive AND
//! (`GpuSet::to_array_many`).
//! Every result is checked against the CPU (merges of the sorted lists, the reference
//! serialization), and each class prints a `DIGEST` line (CRC-32 of its results' bytes: the
//! serializations of the bitmaps, the values of operations' results) that
//! bench/realdata_croaring.py prints for CRoaring's results, so that bench/realdata_table.py
//! can tell the two sides agree byte for byte. `RESULT` lines: vkalgo, `realdata_<class>`,
//! dataset, values, median ms, G values/s, `wall` or `gpu`.

mod data;

use data::{merge_op, Dataset, Digest, OPS};
use std::path::Path;
use std::time::Instant;
use vkalgo::set::{
    reference, CardinalityPath, SET_MANY_CARDINALITY_CPU_MAX, SET_SCRATCH_BYTES, SET_STATUS_BYTES,
};
use vkalgo::{
    Context, GpuBuffer, GpuSet, GpuSetCardinalityBatchArgs, GpuSetManyCardinalityArgs, GpuSetOpBatchArgs,
    MemoryLocation, Result, SetOpStatus, SetOperand,
};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{
    axis, download, flag, full_barrier, print_pass_times, sized, yardstick, Axis, Options, Timer,
};

const AXES: &[Axis] = &[
    axis("data", "", "folder of the datasets' <name>.bin files (the .bin.gz files, gunzipped)"),
    axis(
        "datasets",
        "census-income,census-income_srt,census1881,census1881_srt,uscensus2000,weather_sept_85,weather_sept_85_srt,wikileaks-noquotes,wikileaks-noquotes_srt",
        "dataset names",
    ),
    sized("reps", "5", "1", "timed repetitions (median)"),
    axis(
        "groups",
        "successive,wide,contains",
        "classes timed after the build and serialization (which make the sets): successive (the pairs' batches), wide (the many-way operations), contains",
    ),
    flag("pass-times", "also each pass of the AND cardinalities' batch with its GPU time"),
];

/// The groups of classes `--groups` may name.
const GROUPS: &[&str] = &["successive", "wide", "contains"];

/// Queries of the contains class, spread over a dataset's bitmaps.
pub const QUERIES: usize = 1 << 20;

/// Runs the real-data benchmark with the command-line arguments after `realdata`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "realdata", AXES, args);
    let dir = o.text("data").to_string();
    if dir.is_empty() {
        println!("realdata: no --data folder given: nothing to run");
        return Ok(());
    }
    let reps = o.get("reps", 1usize).clamp(1, 20);
    let pass_times = o.flag("pass-times");
    let groups = o.names("groups");
    if let Some(g) = groups.iter().find(|g| !GROUPS.contains(&g.as_str())) {
        println!("realdata: unknown group {g} (groups: {})", GROUPS.join(", "));
        return Ok(());
    }
    // The yardstick's buffers before the datasets' (it measures the copy once).
    yardstick(ctx, &Timer::new(ctx)?)?;
    report::table_of(
        "real datasets (median ms of every bitmap's calls)",
        "class | dataset | values | ms | G values/s | timing",
    );
    for name in o.names("datasets") {
        let set = match data::read(Path::new(&dir), &name) {
            Ok(d) => d,
            Err(e) => {
                report::line(&format!("| {name}: {e} | | | | | |"));
                continue;
            }
        };
        RealData::new(ctx, &set, reps, pass_times)?.run(&groups)?;
    }
    Ok(())
}

/// One dataset's run: its bitmaps on the GPU and the CPU's results.
struct RealData<'a> {
    ctx: &'a Context,
    data: &'a Dataset,
    reps: usize,
    /// `--pass-times`: each pass of the AND cardinalities' batch with its GPU time.
    pass_times: bool,
    sets: Vec<GpuSet>,
    values: u64,
}

/// The median of `reps` timings of `f` in milliseconds (wall clock), after the GPU's warm-up
/// ([`warm`]) and one warm-up call.
fn wall<T>(ctx: &Context, reps: usize, mut f: impl FnMut() -> Result<T>) -> Result<(f64, T)> {
    warm(ctx)?;
    let mut out = f()?;
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        out = f()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], out))
}

/// Sustained GPU work (the benchmark's yardstick copies) before each timed class: a GPU left
/// idle, or given only short bursts between host work, keeps its clocks low and runs the same
/// passes several times slower (docs/tuning/core.md#warm-clocks).
fn warm(ctx: &Context) -> Result<()> {
    let timer = Timer::new(ctx)?;
    yardstick(ctx, &timer)?.warm(ctx, &timer)
}

impl<'a> RealData<'a> {
    fn new(ctx: &'a Context, data: &'a Dataset, reps: usize, pass_times: bool) -> Result<Self> {
        let values = data.bitmaps.iter().map(|b| b.len() as u64).sum();
        Ok(RealData {
            ctx,
            data,
            reps,
            pass_times,
            sets: Vec::new(),
            values,
        })
    }

    fn row(&self, class: &str, ms: f64, timing: &str) {
        let rate = rate(self.values, ms);
        report::line(&format!(
            "| {class} | {} | {} | {ms:.4} | {rate:.3} | {timing} |",
            self.data.name, self.values
        ));
        report::result(
            &format!("realdata_{class}"),
            &self.data.name,
            self.values,
            ms,
            rate,
            timing,
        );
    }

    fn digest(&self, class: &str, d: &Digest) {
        println!("DIGEST\tvkalgo\t{}\t{class}\t{}", self.data.name, d.hex());
    }

    /// The build and serialization, then the named groups of classes ([`GROUPS`]).
    fn run(&mut self, groups: &[String]) -> Result<()> {
        self.build_and_serialization()?;
        let wanted = |g: &str| groups.iter().any(|x| x == g);
        if wanted("successive") {
            let pairs: Vec<(usize, usize)> = (1..self.sets.len()).map(|i| (i - 1, i)).collect();
            for (op, name) in OPS {
                self.successive(&pairs, op, name)?;
            }
        }
        if wanted("wide") {
            self.wide()?;
            self.wide_cardinality()?;
        }
        if wanted("contains") {
            self.contains()?;
        }
        Ok(())
    }

    /// Build from sorted values, serialize, deserialize: one call for all bitmaps each
    /// (`from_values_many`, `serialize_many`, `deserialize_many`).
    fn build_and_serialization(&mut self) -> Result<()> {
        let (ctx, bitmaps) = (self.ctx, &self.data.bitmaps);
        let mut values = Vec::with_capacity(self.values as usize);
        let mut offsets = vec![0u64];
        for b in bitmaps {
            values.extend_from_slice(b);
            offsets.push(values.len() as u64);
        }
        let (ms, sets) = wall(self.ctx, self.reps, || {
            GpuSet::from_values_many(ctx, &values, &offsets)
        })?;
        self.row("build", ms, "wall");
        let refs: Vec<&GpuSet> = sets.iter().collect();
        let (ms, (bytes, byte_offsets)) = wall(self.ctx, self.reps, || GpuSet::serialize_many(&refs))?;
        self.row("serialize", ms, "wall");
        let mut d = Digest::new();
        for (i, v) in bitmaps.iter().enumerate() {
            let b = &bytes[byte_offsets[i] as usize..byte_offsets[i + 1] as usize];
            let model = v.iter().copied().collect();
            assert!(
                *b == reference::serialize(&model),
                "{}: a serialization differs",
                self.data.name
            );
            d.bytes(b);
        }
        self.digest("serialize", &d);
        let (ms, back) = wall(self.ctx, self.reps, || {
            GpuSet::deserialize_many(ctx, &bytes, &byte_offsets)
        })?;
        self.row("deserialize", ms, "wall");
        let back: Vec<&GpuSet> = back.iter().collect();
        let (got, got_offsets) = GpuSet::to_array_many(&back)?;
        assert!(
            got == values && got_offsets == offsets,
            "{}: the bitmaps read back differ",
            self.data.name
        );
        self.sets = sets;
        Ok(())
    }

    /// The successive pairs' operation (materialized, then counted), host calls and recorded.
    fn successive(&self, pairs: &[(usize, usize)], op: vkalgo::SetOp, name: &str) -> Result<()> {
        let operands: Vec<(&GpuSet, &GpuSet)> = pairs
            .iter()
            .map(|&(i, j)| (&self.sets[i], &self.sets[j]))
            .collect();
        let (ms, results) = wall(self.ctx, self.reps, || GpuSet::op_batch(&operands, op))?;
        self.row(&format!("{name}_successive"), ms, "wall");
        let bitmaps = &self.data.bitmaps;
        let (mut d, mut cards) = (Digest::new(), Vec::with_capacity(pairs.len()));
        for (r, &(i, j)) in results.iter().zip(pairs) {
            let want = merge_op(&bitmaps[i], &bitmaps[j], op);
            let got = r.to_vec()?;
            assert!(got == want, "{} {name} of {i}, {j}", self.data.name);
            d.values(&got);
            cards.push(want.len() as u64);
        }
        self.digest(&format!("{name}_successive"), &d);
        self.recorded_ops(&operands, op, name)?;
        let (ms, got) = wall(self.ctx, self.reps, || {
            GpuSet::op_cardinality_batch(&operands, op)
        })?;
        assert_eq!(got, cards, "{} {name} cardinalities", self.data.name);
        self.row(&format!("{name}_cardinalities"), ms, "wall");
        let mut d = Digest::new();
        cards.iter().for_each(|&c| d.u64(c));
        self.digest(&format!("{name}_cardinalities"), &d);
        self.recorded_cardinalities(&operands, op, name, &cards)?;
        if op == vkalgo::SetOp::And {
            let refs: Vec<&GpuSet> = results.iter().collect();
            let (ms, (values, _)) = wall(self.ctx, self.reps, || GpuSet::to_array_many(&refs))?;
            self.row("to_array", ms, "wall");
            let mut d = Digest::new();
            d.values(&values);
            self.digest("to_array", &d);
        }
        Ok(())
    }

    /// `record_op_batch` of every pair into destinations with the bound reserved: the GPU
    /// time of the batch.
    fn recorded_ops(&self, operands: &[(&GpuSet, &GpuSet)], op: vkalgo::SetOp, name: &str) -> Result<()> {
        let ctx = self.ctx;
        let status_bytes = SET_STATUS_BYTES * operands.len() as u64;
        let status = GpuBuffer::new(ctx, status_bytes, MemoryLocation::GpuToCpu, "realdata status")?;
        let timer = Timer::new(ctx)?;
        let mut times = Vec::with_capacity(self.reps);
        warm(ctx)?;
        for _ in 0..=self.reps {
            // Fresh destinations each time, with the bound reserved.
            let mut dsts = Vec::with_capacity(operands.len());
            for (a, b) in operands {
                let mut d = GpuSet::new(ctx)?;
                d.reserve_for_op(SetOperand::Set(a), SetOperand::Set(b), op)?;
                dsts.push(d);
            }
            let jobs: Vec<(&GpuSet, &GpuSet, &GpuSet)> =
                dsts.iter().zip(operands).map(|(d, (a, b))| (d, *a, *b)).collect();
            let scratch_bytes = GpuSet::op_batch_scratch_bytes(&jobs, op)?;
            let scratch = GpuBuffer::new(ctx, scratch_bytes, MemoryLocation::GpuOnly, "realdata scratch")?;
            let t = timer.regions(|cmd, mark| {
                mark(cmd);
                let args = GpuSetOpBatchArgs {
                    jobs: &jobs,
                    op,
                    scratch: scratch.range(),
                    statuses: status.range(),
                };
                unsafe { GpuSet::record_op_batch(cmd, &args)? };
                mark(cmd);
                Ok(())
            })?;
            times.push(t[0]);
            let words: Vec<SetOpStatus> = download(ctx, &status, operands.len())?;
            assert!(
                words.iter().all(|s| s.ok == 1),
                "{} recorded {name}: a pair wrote nothing",
                self.data.name
            );
        }
        times.remove(0); // the warm-up
        times.sort_by(f64::total_cmp);
        self.row(&format!("{name}_successive"), times[times.len() / 2], "gpu");
        Ok(())
    }

    /// `record_op_cardinality_batch` of every pair: the GPU time of the cardinalities.
    fn recorded_cardinalities(
        &self,
        operands: &[(&GpuSet, &GpuSet)],
        op: vkalgo::SetOp,
        name: &str,
        cards: &[u64],
    ) -> Result<()> {
        let ctx = self.ctx;
        let scratch = GpuBuffer::new(
            ctx,
            8 * SET_SCRATCH_BYTES,
            MemoryLocation::GpuOnly,
            "realdata scratch",
        )?;
        let status_bytes = SET_STATUS_BYTES * operands.len() as u64;
        let status = GpuBuffer::new(ctx, status_bytes, MemoryLocation::GpuToCpu, "realdata status")?;
        let timer = Timer::new(ctx)?;
        for (path, suffix) in [
            (CardinalityPath::Auto, ""),
            (CardinalityPath::Passes, "_passes"),
            (CardinalityPath::OnePass, "_onepass"),
        ] {
            let mut times = Vec::with_capacity(self.reps);
            warm(ctx)?;
            for _ in 0..=self.reps {
                let t = timer.regions(|cmd, mark| {
                    unsafe {
                        // The batch takes zeroed statuses.
                        ctx.device()
                            .cmd_fill_buffer(cmd, status.buffer(), 0, status_bytes, 0);
                        full_barrier(ctx, cmd);
                    }
                    mark(cmd);
                    let args = GpuSetCardinalityBatchArgs {
                        path,
                        ..GpuSetCardinalityBatchArgs::new(operands, op, scratch.range(), status.range())
                    };
                    unsafe { GpuSet::record_op_cardinality_batch(cmd, &args)? };
                    mark(cmd);
                    Ok(())
                })?;
                times.push(t[0]);
            }
            if self.pass_times && path == CardinalityPath::Passes && name == "and" {
                print_pass_times(ctx, &timer, |cmd| {
                    let args = GpuSetCardinalityBatchArgs {
                        path,
                        ..GpuSetCardinalityBatchArgs::new(operands, op, scratch.range(), status.range())
                    };
                    unsafe { GpuSet::record_op_cardinality_batch(cmd, &args) }
                })?;
            }
            let got: Vec<SetOpStatus> = download(ctx, &status, operands.len())?;
            let got: Vec<u64> = got.iter().map(|s| s.cardinality()).collect();
            assert_eq!(got, cards, "{} recorded {name} cardinalities", self.data.name);
            times.remove(0);
            times.sort_by(f64::total_cmp);
            self.row(
                &format!("{name}_cardinalities{suffix}"),
                times[times.len() / 2],
                "gpu",
            );
        }
        Ok(())
    }

    /// The union and the intersection of every bitmap, one many-way call each.
    fn wide(&self) -> Result<()> {
        let all: Vec<&GpuSet> = self.sets.iter().collect();
        for (op, name) in [(vkalgo::SetOp::Or, "wide_or"), (vkalgo::SetOp::And, "wide_and")] {
            let (ms, r) = wall(self.ctx, self.reps, || GpuSet::op_many(&all, op))?;
            self.row(name, ms, "wall");
            let bitmaps = &self.data.bitmaps;
            let want = bitmaps[1..]
                .iter()
                .fold(bitmaps[0].clone(), |acc, b| merge_op(&acc, b, op));
            let got = r.to_vec()?;
            assert!(got == want, "{} {name}", self.data.name);
            let mut d = Digest::new();
            d.values(&got);
            self.digest(name, &d);
        }
        Ok(())
    }

    /// The cardinalities of the union and the intersection of every bitmap without the
    /// results (`GpuSet::op_many_cardinality`; recorded: `record_op_many_cardinality`).
    fn wide_cardinality(&self) -> Result<()> {
        let ctx = self.ctx;
        let all: Vec<&GpuSet> = self.sets.iter().collect();
        if ctx.is_cpu_device() && all.len() > SET_MANY_CARDINALITY_CPU_MAX {
            println!(
                "{}: wide cardinalities not run ({} sets, at most {SET_MANY_CARDINALITY_CPU_MAX} on a CPU driver)",
                self.data.name,
                all.len()
            );
            return Ok(());
        }
        let scratch = GpuBuffer::new(
            ctx,
            GpuSet::op_many_cardinality_scratch_bytes(all.len()),
            MemoryLocation::GpuOnly,
            "realdata scratch",
        )?;
        let status = GpuBuffer::new(ctx, SET_STATUS_BYTES, MemoryLocation::GpuToCpu, "realdata status")?;
        let timer = Timer::new(ctx)?;
        for (op, name) in [
            (vkalgo::SetOp::Or, "wide_or_cardinality"),
            (vkalgo::SetOp::And, "wide_and_cardinality"),
        ] {
            let bitmaps = &self.data.bitmaps;
            let want = bitmaps[1..]
                .iter()
                .fold(bitmaps[0].clone(), |acc, b| merge_op(&acc, b, op))
                .len() as u64;
            let (ms, got) = wall(self.ctx, self.reps, || GpuSet::op_many_cardinality(&all, op))?;
            assert_eq!(got, want, "{} {name}", self.data.name);
            self.row(name, ms, "wall");
            let args = GpuSetManyCardinalityArgs {
                sets: &all,
                op,
                scratch: scratch.range(),
                status: status.range(),
            };
            let mut times = Vec::with_capacity(self.reps);
            warm(ctx)?;
            for _ in 0..=self.reps {
                let t = timer.regions(|cmd, mark| {
                    mark(cmd);
                    unsafe { GpuSet::record_op_many_cardinality(cmd, &args)? };
                    mark(cmd);
                    Ok(())
                })?;
                times.push(t[0]);
            }
            let recorded: Vec<SetOpStatus> = download(ctx, &status, 1)?;
            assert_eq!(
                recorded[0].cardinality(),
                want,
                "{} recorded {name}",
                self.data.name
            );
            times.remove(0);
            times.sort_by(f64::total_cmp);
            self.row(name, times[times.len() / 2], "gpu");
            let mut d = Digest::new();
            d.u64(got);
            self.digest(name, &d);
        }
        Ok(())
    }

    /// Contains of [`QUERIES`] values spread over the bitmaps, one call per bitmap.
    fn contains(&self) -> Result<()> {
        let queries = queries(&self.data.bitmaps);
        let (ms, hits) = wall(self.ctx, self.reps, || {
            let mut hits = Vec::with_capacity(self.sets.len());
            for (s, q) in self.sets.iter().zip(&queries) {
                let mut flags = vec![0u32; q.len()];
                s.contains_flags(q, &mut flags)?;
                hits.push(flags.iter().filter(|&&f| f != 0).count() as u64);
            }
            Ok(hits)
        })?;
        self.row("contains", ms, "wall");
        let mut d = Digest::new();
        for ((h, q), v) in hits.iter().zip(&queries).zip(&self.data.bitmaps) {
            let want = q.iter().filter(|x| v.binary_search(x).is_ok()).count() as u64;
            assert_eq!(*h, want, "{} contains", self.data.name);
            d.u64(*h);
        }
        self.digest("contains", &d);
        Ok(())
    }
}

/// Each bitmap's queries (bench/realdata_croaring.py draws the same): [`QUERIES`] / bitmaps of
/// them, alternately a value of the bitmap and a value below its maximum + 1, from a 64-bit
/// xorshift seeded per bitmap.
fn queries(bitmaps: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let per = QUERIES / bitmaps.len().max(1);
    bitmaps
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ (i as u64 + 1);
            let top = v.last().map_or(1, |&m| m as u64 + 1);
            (0..per)
                .map(|k| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if k % 2 == 0 && !v.is_empty() {
                        v[(x % v.len() as u64) as usize]
                    } else {
                        (x % top) as u32
                    }
                })
                .collect()
        })
        .collect()
}
