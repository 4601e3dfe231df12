//! The scan benchmark's cases: each size, path and tuning, timed on fresh (or fixed) input and
//! checked against the CPU scan.

use super::{tuning_text, variant};
use std::time::Instant;
use vkalgo::ash::vk;
use vkalgo::scan::reference;
use vkalgo::{ElementCount, GpuBuffer, Result, ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan, ScanTuning};
use vkalgo_bench::harness::report::{self, gbs, rate, Table};
use vkalgo_bench::harness::{
    download, median, random_u32, random_values, upload, verified, Bench, RandomFill, Timing,
};

/// The scan benchmark's run: the session, the buffers (allocated once at the largest size and
/// reused for every size, as an engine would), the fill of fresh input, the table.
pub(super) struct Scan<'a> {
    pub(super) b: Bench<'a>,
    pub(super) reps: u32,
    pub(super) fixed: bool,
    pub(super) in_buf: GpuBuffer,
    pub(super) out_buf: GpuBuffer,
    pub(super) fill: RandomFill<'a>,
    /// Seeds of the fresh-input batches so far (never repeated within a run).
    pub(super) batch_seed: u32,
    pub(super) table: Table,
}

impl Scan<'_> {
    /// The cases of 2^log2 elements: the copy on the scan's buffers, then each path and tuning.
    pub(super) fn size(
        &mut self,
        log2: u32,
        paths: &[(ScanPath, bool)],
        tunings: &[Option<ScanTuning>],
    ) -> Result<()> {
        let n = 1usize << log2;
        let input = random_u32(n, log2 as u64 * 1000 + 1);
        let expected = reference::scan_u32(&input, ScanOp::Exclusive);
        let bytes = n as u64 * 4;
        let (scan_in, scan_out) = (self.in_buf.sub_range(0, bytes), self.out_buf.sub_range(0, bytes));
        upload(self.b.ctx, &self.in_buf, &input)?;
        self.b.check_buffers("scan", n as u64, &scan_in, &scan_out)?;
        for &(path, kept) in paths {
            for &tuning in tunings {
                let desc = ScanDesc {
                    op: ScanOp::Exclusive,
                    path,
                    max_count: n as u64,
                    tuning,
                    keep_scratch_zeroed: kept,
                    ..Default::default()
                };
                let cells = [format!("{path:?}"), "-".into(), format!("2^{log2}")];
                if let Some(plan) = self.table.or_skip(self.b.ctx.scan_plan(&desc), &cells) {
                    self.case(log2, &input, &expected, &desc, &plan)?;
                }
            }
        }
        Ok(())
    }

    /// One case: its scratch, the warm-ups and the timed repetitions, the check against the CPU
    /// scan of the last repetition's input, then [`Scan::report`].
    fn case(
        &mut self,
        log2: u32,
        input: &[u32],
        expected: &[u32],
        desc: &ScanDesc,
        plan: &ScanPlan,
    ) -> Result<()> {
        let (ctx, n) = (self.b.ctx, 1usize << log2);
        let scratch_bytes = plan.memory_requirements().scratch.size;
        let scratch = self.b.buffer(scratch_bytes, "bench scratch")?;
        if desc.keep_scratch_zeroed {
            // Zeroed once; every scan of the plan leaves it zeroed.
            ctx.submit_and_wait(|cmd| unsafe {
                ctx.device()
                    .cmd_fill_buffer(cmd, scratch.buffer(), 0, vk::WHOLE_SIZE, 0);
                Ok(())
            })?;
        }
        let args = ScanArgs {
            input: self.in_buf.sub_range(0, n as u64 * 4),
            output: self.out_buf.sub_range(0, n as u64 * 4),
            scratch: scratch.range(),
            count: ElementCount::Direct(n as u64),
        };
        let wall = Instant::now();
        if self.fixed {
            // The fresh-input runs overwrite the uploaded input.
            upload(ctx, &self.in_buf, input)?;
        }
        // The warm-up batch fills with the seeds of batch_seed + 1, the timed one of + 2.
        let (fill, fixed, addr, seed) = (&self.fill, self.fixed, self.in_buf.address(), self.batch_seed);
        self.batch_seed += 2;
        let refill = |cmd, timed: bool, rep| {
            if !fixed {
                let seed = RandomFill::seed(seed + 1 + timed as u32, rep);
                unsafe { fill.record(cmd, addr, n as u64, seed) };
            }
            Ok(())
        };
        let timing = Timing::warm_then_warmup(3, self.reps as usize);
        let times = self
            .b
            .time(timing, refill, |cmd, _| unsafe { plan.record(cmd, &args) })?;
        let got: Vec<u32> = download(ctx, &self.out_buf, n)?;
        let ok = if self.fixed {
            got == expected
        } else {
            let last = random_values(n, RandomFill::seed(seed + 2, self.reps - 1));
            got == reference::scan_u32(&last, ScanOp::Exclusive)
        };
        self.report(log2, desc, plan, median(times), ok, wall);
        Ok(())
    }

    /// The row and the record of a case; exits on a wrong result.
    fn report(&self, log2: u32, desc: &ScanDesc, plan: &ScanPlan, ms: f64, ok: bool, wall: Instant) {
        let (n, scratch_bytes) = (1u64 << log2, plan.memory_requirements().scratch.size);
        let (variant, tuning_text) = (variant(desc, plan), tuning_text(desc.tuning));
        let gbs = gbs(8.0 * n as f64, ms);
        self.table.row(&[
            variant.clone(),
            tuning_text.clone(),
            format!("2^{log2}"),
            format!("{ms:.4}"),
            format!("{:.1}", rate(n, ms)),
            format!("{gbs:.0}"),
            format!("{:.0}%", 100.0 * gbs / self.b.yard.gbs),
            scratch_bytes.to_string(),
            verified(ok),
        ]);
        let suffix = desc.tuning.map_or(String::new(), |_| format!("_{tuning_text}"));
        let (variant_suffixed, extra) = (format!("{variant}{suffix}"), scratch_bytes.to_string());
        report::result(
            "scan_exclusive_u32",
            &variant_suffixed,
            n,
            ms,
            rate(n, ms),
            &extra,
        );
        if !ok {
            eprintln!(
                "MISMATCH: {variant} {tuning_text} n={n} (wall {:?})",
                wall.elapsed()
            );
            std::process::exit(1);
        }
    }
}
