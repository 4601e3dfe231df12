//! The sort benchmark's cases: each one's data, timed sorts, check, statistics and row.

use super::check::{check_output, onesweep_stats, phase_times, random_keys};
use super::{Case, Sort, SCRATCH_BYTES};
use vkalgo::{Result, SortArgs, SortDesc, SortPath, SortPlan, SortResult};
use vkalgo_bench::harness::report::{self, rate};
use vkalgo_bench::harness::{download, upload, Timing};

/// What one case measured and found.
struct Measured {
    ms: f64,
    /// The copy bandwidth on the case's own key buffers.
    copy_gbs: f64,
    /// Each dispatch's GPU time, as text.
    phases: String,
    /// The Onesweep counters, as text (empty on the other paths).
    stats: String,
    verdict: std::result::Result<(), String>,
}

impl Sort<'_> {
    /// One case: its plan (or a row saying why not), fresh random keys, the timed sorts, the
    /// check of the output, the row and the record.
    pub(super) fn case(&mut self, c: &Case) -> Result<()> {
        let (ctx, n) = (self.b.ctx, c.n() as u64);
        let cells = [
            c.type_name.to_string(),
            format!("{:?}", c.path),
            "-".into(),
            format!("2^{}", c.log2),
        ];
        let Some(plan) = self.table.or_skip(ctx.sort_plan(&c.desc()), &cells) else {
            return Ok(());
        };
        if plan.memory_requirements().scratch.size > SCRATCH_BYTES {
            self.table.skip(&cells, format!("scratch over {SCRATCH_BYTES}"));
            return Ok(());
        }
        let words = random_keys(c.key_type, c.n(), c.log2 as u64 * 7919 + 13, self.o.key_bits);
        upload(ctx, &self.bufs.pristine_keys, &words)?;
        if let Some((pristine_values, _, _)) = self.bufs.values_of(c) {
            let iota: Vec<u32> = (0..n as u32).collect();
            upload(ctx, pristine_values, &iota)?;
        }
        let args = self.bufs.sort_args(c);
        let (ms, copy_gbs, phases) = self.time(c, &plan, &args)?;
        let verdict = self.check(c, &plan, &words)?;
        let stats = if plan.path() == SortPath::Onesweep && n > plan.small_limit() {
            onesweep_stats(ctx, &self.bufs.scratch, &plan, n)?
        } else {
            String::new()
        };
        self.verdicts.note(verdict.is_ok());
        let m = Measured {
            ms,
            copy_gbs,
            phases,
            stats,
            verdict,
        };
        self.report(c, &plan, &m);
        Ok(())
    }

    /// A plain copy on the case's key buffers beside the yardstick's (tells placement effects
    /// apart from the sort's own cost), the warm-ups, the timed sorts (each after restoring its
    /// unsorted input, untimed), then each dispatch's time. Returns (median ms, copy GB/s,
    /// dispatch times).
    fn time(&self, c: &Case, plan: &SortPlan, args: &SortArgs) -> Result<(f64, f64, String)> {
        let (b, bufs, key_bytes) = (&self.b, &self.bufs, c.n() as u64 * c.key_type.bytes());
        let (from, to) = (
            bufs.pristine_keys.sub_range(0, key_bytes),
            bufs.keys.sub_range(0, key_bytes),
        );
        let (_, copy_gbs) = b.check_buffers(&format!("sort_{}", c.type_name), c.n() as u64, &from, &to)?;
        // SAFETY: the buffers are live until the end of the run; full barriers between repetitions.
        let restore = |cmd| unsafe { bufs.restore(b, c, cmd) };
        let timing = Timing::warm_then_warmup(3, self.o.reps);
        let ms = b.median(timing, restore, |cmd| {
            unsafe { plan.record(cmd, args) }.map(|_| ())
        })?;
        let phases = phase_times(b.ctx, &b.timer, plan, args, restore)?;
        Ok((ms, copy_gbs, phases))
    }

    /// Checks the last sort's output (where the plan left it) against the input `words`.
    fn check(&self, c: &Case, plan: &SortPlan, words: &[u32]) -> Result<std::result::Result<(), String>> {
        let (ctx, bufs) = (self.b.ctx, &self.bufs);
        let values = bufs.values_of(c);
        let (result_keys, result_values) = match plan.result_location() {
            SortResult::InPlace => (&bufs.keys, values.map(|v| &v.1)),
            SortResult::Alternate => (&bufs.keys_alt, values.map(|v| &v.2)),
        };
        let out_words: Vec<u32> = download(ctx, result_keys, words.len())?;
        let out_values: Option<Vec<u32>> = match result_values {
            Some(b) => Some(download(ctx, b, c.n())?),
            None => None,
        };
        let out_values = out_values.as_deref();
        Ok(check_output(
            c.key_type,
            c.value_type,
            c.end_bit,
            words,
            &out_words,
            out_values,
        ))
    }

    /// The row, the record and the statistics lines of a case.
    fn report(&self, c: &Case, plan: &SortPlan, m: &Measured) {
        let (n, ms) = (c.n() as u64, m.ms);
        let rate = rate(n, ms);
        let (variant, tuning_text) = (c.variant(plan), c.tuning_text(self.o.key_bits));
        let requirements = plan.memory_requirements();
        self.table.row(&[
            c.type_name.to_string(),
            variant.clone(),
            tuning_text.clone(),
            format!("2^{}", c.log2),
            format!("{ms:.4}"),
            format!("{rate:.2}"),
            requirements.scratch.size.to_string(),
            (requirements.keys_alt.size + requirements.values_alt.size).to_string(),
            match &m.verdict {
                Ok(()) => "yes".to_string(),
                Err(e) => format!("NO: {e}"),
            },
        ]);
        let suffix = if tuning_text == "default" {
            String::new()
        } else {
            format!("_{tuning_text}")
        };
        let extra = requirements.scratch.size.to_string();
        report::result(c.algo, &format!("{variant}{suffix}"), n, ms, rate, &extra);
        let t = plan.tuning();
        println!(
            "stats: {} 2^{} {tuning_text}: tuning {}x{}/{}; resident limit {}; key-buffer copy {:.0} GB/s; {}",
            c.type_name, c.log2, t.workgroup_size, t.keys_per_thread, t.stage_split, plan.resident_limit(),
            m.copy_gbs, m.stats
        );
        println!("phases (ms, one dispatch each): {}", m.phases);
    }
}

impl Case<'_> {
    /// The count of keys.
    pub(super) fn n(&self) -> usize {
        1usize << self.log2
    }

    /// The plan's description.
    fn desc(&self) -> SortDesc {
        SortDesc {
            path: self.path,
            tuning: self.tuning,
            end_bit: self.end_bit,
            ..SortDesc::new(self.key_type, self.value_type, self.n() as u64)
        }
    }

    /// The variant a row reports: the path the plan took ("resident" where the
    /// shared-memory-resident kernel sorts the count, "small" where the tiled single-workgroup
    /// kernel does).
    fn variant(&self, plan: &SortPlan) -> String {
        let n = self.n() as u64;
        let single =
            plan.path() == SortPath::Small || (self.path == SortPath::Auto && n <= plan.auto_small_limit());
        if single && n <= plan.resident_limit() {
            "resident".to_string()
        } else if single {
            "small".to_string()
        } else {
            format!("{:?}", plan.path()).to_lowercase()
        }
    }

    /// The tuning a row reports (`default`: the plan's own), with the end bit and key bits.
    fn tuning_text(&self, key_bits: u32) -> String {
        let mut text = self
            .tuning
            .map_or("default".to_string(), |t| match t.stage_split {
                1 => format!("{}x{}", t.workgroup_size, t.keys_per_thread),
                s => format!("{}x{}/{s}", t.workgroup_size, t.keys_per_thread),
            });
        if self.end_bit != 0 {
            text += &format!("_bits{}", self.end_bit);
        }
        if key_bits != 0 {
            text += &format!("_keybits{key_bits}");
        }
        text
    }
}
