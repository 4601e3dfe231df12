//! The merge benchmark's merges and set operations on sorted runs.

use super::{sorted_run, tuning_text, Run};
use ash::vk;
use vkalgo::merge::reference;
use vkalgo::MergeTuning;
use vkalgo::{
    ElementCount, KeyType, MergeArgs, MergeDesc, Result, SetOpArgs, SetOpDesc, SetOpPath, ValueType,
};
use vkalgo_bench::harness::report::{self, gbs, rate};
use vkalgo_bench::harness::verified;
use vkalgo_bench::harness::{download, pairs, upload, Timing};

impl Run<'_> {
    /// A row of the table and its record (`n` elements in, `bytes` read and written); exits
    /// on a wrong result.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn row(
        &self,
        algo: &str,
        tuning: &Option<MergeTuning>,
        n: u64,
        label: &str,
        ms: f64,
        bytes: f64,
        ok: bool,
    ) {
        let gbs = gbs(bytes, ms);
        self.table.line(&format!(
            "| {algo} | {} | {label} | {ms:.4} | {:.1} | {gbs:.0} | {:.0}% | {} |",
            tuning_text(tuning),
            rate(n, ms),
            100.0 * gbs / self.b.yard.gbs,
            verified(ok)
        ));
        let suffix = tuning.map_or(String::new(), |_| format!("_{}", tuning_text(tuning)));
        let extra = format!("{bytes:.0}");
        report::result(algo, &format!("vkalgo{suffix}"), n, ms, rate(n, ms), &extra);
        if !ok {
            eprintln!("MISMATCH: {algo} {label}");
            std::process::exit(1);
        }
    }

    /// 3 untimed repetitions of `record`, the yardstick's warm-up, then the timed ones: the
    /// median ms.
    fn time(&self, mut record: impl FnMut(vk::CommandBuffer) -> Result<()>) -> Result<f64> {
        let timing = Timing::warmup_then_warm(3, self.reps);
        self.b.median(timing, |_| Ok(()), &mut record)
    }

    /// The merges of two runs of 2^log2 keys (and pairs), each tuning.
    pub(super) fn merges(&self, log2: u32) -> Result<()> {
        let (ctx, in_buf, out_buf) = (self.b.ctx, &self.in_buf, &self.out_buf);
        let n = 1usize << log2;
        let a = sorted_run(n, 0, log2);
        let b = sorted_run(n, 1, log2);
        let av: Vec<u32> = (0..n as u32).collect();
        let bv: Vec<u32> = (0..n as u32).map(|j| j | 1 << 31).collect();
        let nb = n as u64 * 4;
        upload(
            ctx,
            in_buf,
            &[a.clone(), av.clone(), b.clone(), bv.clone()].concat(),
        )?;
        let (want_keys, want_values) = reference::merge(&a, Some(&av), &b, Some(&bv), false);
        let want_values = want_values.unwrap();
        for ty in &self.options.types {
            let pairs = match ty.as_str() {
                "keys" => false,
                "pairs" => true,
                other => {
                    eprintln!("unknown type {other} (keys, pairs)");
                    continue;
                }
            };
            let algo = if pairs {
                "merge_pairs_u32_u32"
            } else {
                "merge_keys_u32"
            };
            let value_type = if pairs { ValueType::U32 } else { ValueType::None };
            for tuning in &self.options.tunings {
                let desc = MergeDesc {
                    tuning: *tuning,
                    ..MergeDesc::new(KeyType::U32, value_type, n as u64, n as u64)
                };
                let cells = [algo.to_string(), tuning_text(tuning)];
                let Some(plan) = self.table.or_skip(ctx.merge_plan(&desc), &cells) else {
                    continue;
                };
                let scratch = self
                    .b
                    .buffer(plan.memory_requirements().scratch.size, "bench scratch")?;
                let args = MergeArgs {
                    a_keys: in_buf.sub_range(0, nb),
                    a_values: pairs.then(|| in_buf.sub_range(nb, nb)),
                    b_keys: in_buf.sub_range(2 * nb, nb),
                    b_values: pairs.then(|| in_buf.sub_range(3 * nb, nb)),
                    out_keys: out_buf.sub_range(0, 2 * nb),
                    out_values: pairs.then(|| out_buf.sub_range(2 * nb, 2 * nb)),
                    scratch: scratch.range(),
                    a_count: ElementCount::Direct(n as u64),
                    b_count: ElementCount::Direct(n as u64),
                };
                let ms = self.time(|cmd| unsafe { plan.record(cmd, &args) })?;
                let got: Vec<u32> = download(ctx, out_buf, 2 * n)?;
                let mut ok = got == want_keys;
                if pairs {
                    let all: Vec<u32> = download(ctx, out_buf, 4 * n)?;
                    ok &= all[2 * n..] == want_values[..];
                }
                let bytes = (2 * n) as f64 * if pairs { 16.0 } else { 8.0 };
                let label = format!("2^{log2} + 2^{log2}");
                self.row(algo, tuning, 2 * n as u64, &label, ms, bytes, ok);
                if self.options.pass_times {
                    self.b.pass_times(|cmd| unsafe { plan.record(cmd, &args) })?;
                }
            }
        }
        Ok(())
    }

    /// The set operations on two runs of 2^log2 unique keys, each tuning and path.
    pub(super) fn set_ops(&self, log2: u32) -> Result<()> {
        let (ctx, in_buf, out_buf, options) = (self.b.ctx, &self.in_buf, &self.out_buf, &self.options);
        let n = 1usize << log2;
        let a = sorted_run(n, 0, log2);
        let b = sorted_run(n, 1, log2);
        let nb = n as u64 * 4;
        upload(ctx, in_buf, &[a.clone(), b.clone()].concat())?;
        for &op in &options.ops {
            let algo = format!("set_{}_u32", format!("{op:?}").to_lowercase());
            let want = reference::set_op(op, &a, &b);
            for (tuning, path) in pairs(&options.tunings, &options.set_paths) {
                let plan = ctx.set_op_plan(&SetOpDesc {
                    key_type: KeyType::U32,
                    op,
                    max_a: n as u64,
                    max_b: n as u64,
                    path,
                    tuning,
                })?;
                let algo = match plan.path() {
                    SetOpPath::Lookback => algo.clone(),
                    _ => format!("{algo}_csw"),
                };
                let scratch = self
                    .b
                    .buffer(plan.memory_requirements().scratch.size, "bench scratch")?;
                let args = SetOpArgs {
                    a: in_buf.sub_range(0, nb),
                    b: in_buf.sub_range(nb, nb),
                    out_count: out_buf.sub_range(0, 4),
                    out: out_buf.sub_range(16, 2 * nb),
                    scratch: scratch.range(),
                    a_count: ElementCount::Direct(n as u64),
                    b_count: ElementCount::Direct(n as u64),
                };
                let ms = self.time(|cmd| unsafe { plan.record(cmd, &args) })?;
                let got: Vec<u32> = download(ctx, out_buf, 4 + want.len())?;
                let ok = got[0] as usize == want.len() && got[4..] == want[..];
                let bytes = (2 * n + want.len()) as f64 * 4.0;
                let label = format!("2^{log2} + 2^{log2}");
                self.row(&algo, &tuning, 2 * n as u64, &label, ms, bytes, ok);
                if options.pass_times {
                    self.b.pass_times(|cmd| unsafe { plan.record(cmd, &args) })?;
                }
            }
        }
        Ok(())
    }
}
