//! Prefix-scan benchmark: `vkalgo-bench scan` (options: `vkalgo-bench scan --help`). Paths with
//! `+z` (e.g. `auto+z`): the plan keeps its scratch zeroed, so no clear is recorded.
//!
//! Each timed repetition scans fresh random input that a compute shader wrote just before it
//! (outside the timed region), as bench/cuda/cub_bench.cu does for CUB, so both start with the
//! input in the same cache state. `--fixed-input` scans one uploaded input again and again
//! instead (from 2^23 the input is then no longer in L2 when a repetition starts, while CUB's
//! freshly written input partly is).

use std::time::Instant;
use vkalgo::ash::vk;
use vkalgo::scan::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, Result, ScanArgs, ScanDesc, ScanOp, ScanPath, ScanPlan, ScanTuning,
};
use vkalgo_bench::harness::report::{self, gbs, rate, Table};
use vkalgo_bench::harness::{
    axis, download, flag, median, pairs, random_u32, random_values, sized, upload, verified, Axis, Bench,
    Options, RandomFill, Timing, MAX_BATCH,
};

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,28", "16,20,22", "log2 element counts"),
    sized("reps", "20", "5", "timed repetitions (median)"),
    axis(
        "tuning",
        "",
        "workgroup size x vectors per invocation, e.g. 256x8,512x8",
    ),
    axis("spins", "0", "look-back spin limits (0: the default)"),
    axis(
        "paths",
        "lookback,rts",
        "lookback, rts, small, auto; +z: scratch kept zeroed",
    ),
    flag(
        "fixed-input",
        "scan one uploaded input every repetition instead of fresh input",
    ),
];

const PATHS: &[(&str, ScanPath)] = &[
    ("lookback", ScanPath::Lookback),
    ("rts", ScanPath::ReduceThenScan),
    ("reduce_then_scan", ScanPath::ReduceThenScan),
    ("small", ScanPath::Small),
    ("auto", ScanPath::Auto),
];

/// The tunings of the run: each `--tuning` entry with each spin limit.
fn tunings(o: &Options) -> Vec<Option<ScanTuning>> {
    let mut given = o.tuning_choices("tuning", |workgroup_size, vecs_per_thread, _| {
        Some(ScanTuning {
            workgroup_size,
            vecs_per_thread,
            lookback_spins: 0,
        })
    });
    if given.is_empty() {
        given.push(None);
    }
    let spins: Vec<u32> = o.list("spins");
    pairs(&given, &spins)
        .map(|(t, spins)| match (t, spins) {
            (t, 0) => t,
            (Some(t), spins) => Some(ScanTuning {
                lookback_spins: spins,
                ..t
            }),
            (None, spins) => Some(ScanTuning {
                workgroup_size: 256,
                vecs_per_thread: 4,
                lookback_spins: spins,
            }),
        })
        .collect()
}

/// The `--paths` entries: each path, and whether its plan keeps its scratch zeroed (`+z`).
fn paths(o: &Options) -> Vec<(ScanPath, bool)> {
    o.names("paths")
        .iter()
        .filter_map(|p| {
            let (name, kept) = p.strip_suffix("+z").map_or((p.as_str(), false), |n| (n, true));
            PATHS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, path)| (path, kept))
        })
        .collect()
}

/// The scan's table (its title says where the input of each repetition comes from).
fn table(fixed: bool) -> Table {
    let input_text = if fixed {
        "one upload, scanned every repetition"
    } else {
        "fresh random values written before each repetition"
    };
    report::table(
        &format!("scan_exclusive_u32 (bytes moved per element: 8; input: {input_text})"),
        &[
            "path",
            "tuning",
            "N",
            "ms",
            "G elements/s",
            "GB/s",
            "% of copy",
            "scratch bytes",
            "verified",
        ],
    )
}

/// The variant a row reports: the path the plan took (`_kept_zeroed`: `+z`).
fn variant(desc: &ScanDesc, plan: &ScanPlan) -> String {
    let variant = match desc.path {
        ScanPath::Auto => "auto",
        ScanPath::Small => "small",
        _ if plan.path() == ScanPath::Lookback => "lookback",
        _ => "reduce_then_scan",
    };
    format!(
        "{variant}{}",
        if desc.keep_scratch_zeroed {
            "_kept_zeroed"
        } else {
            ""
        }
    )
}

/// The tuning a row reports (`default`: the plan's own).
fn tuning_text(tuning: Option<ScanTuning>) -> String {
    tuning.map_or("default".to_string(), |t| {
        if t.lookback_spins == 0 {
            format!("{}x{}", t.workgroup_size, t.vecs_per_thread)
        } else {
            format!("{}x{}s{}", t.workgroup_size, t.vecs_per_thread, t.lookback_spins)
        }
    })
}

/// The scan benchmark's run: the session, the buffers (allocated once at the largest size and
/// reused for every size, as an engine would), the fill of fresh input, the table.
struct Scan<'a> {
    b: Bench<'a>,
    reps: u32,
    fixed: bool,
    in_buf: GpuBuffer,
    out_buf: GpuBuffer,
    fill: RandomFill<'a>,
    /// Seeds of the fresh-input batches so far (never repeated within a run).
    batch_seed: u32,
    table: Table,
}

/// Runs the scan benchmark with the command-line arguments after `scan`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "scan", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let fixed = o.flag("fixed-input");
    let (paths, tunings) = (paths(&o), tunings(&o));
    let b = Bench::new(ctx)?;
    let buffer_bytes = ((1u64 << sizes.iter().copied().max().unwrap_or(20)) * 4).max(16);
    let mut scan = Scan {
        reps: o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32,
        fixed,
        in_buf: b.buffer(buffer_bytes, "bench in")?,
        out_buf: b.buffer(buffer_bytes, "bench out")?,
        fill: RandomFill::new(ctx)?,
        batch_seed: 0,
        table: table(fixed),
        b,
    };
    for &log2 in &sizes {
        scan.size(log2, &paths, &tunings)?;
    }
    Ok(())
}

impl Scan<'_> {
    /// The cases of 2^log2 elements: the copy on the scan's buffers, then each path and tuning.
    fn size(&mut self, log2: u32, paths: &[(ScanPath, bool)], tunings: &[Option<ScanTuning>]) -> Result<()> {
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
    /// scan of the last repetition's input, the row and the record; exits on a wrong result.
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
        let (variant, tuning_text) = (variant(desc, plan), tuning_text(desc.tuning));
        let ms = median(times);
        let gbs = gbs(8.0 * n as f64, ms);
        self.table.row(&[
            variant.clone(),
            tuning_text.clone(),
            format!("2^{log2}"),
            format!("{ms:.4}"),
            format!("{:.1}", rate(n as u64, ms)),
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
            n as u64,
            ms,
            rate(n as u64, ms),
            &extra,
        );
        if !ok {
            eprintln!(
                "MISMATCH: {variant} {tuning_text} n={n} (wall {:?})",
                wall.elapsed()
            );
            std::process::exit(1);
        }
        Ok(())
    }
}
