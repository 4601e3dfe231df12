//! Select benchmark: `vkalgo-bench select` (options: `vkalgo-bench select --help`), the rows of
//! bench/cuda/select_bench.cu (CUB's DeviceSelect::Flagged, If, Unique and UniqueByKey) under
//! the same names.
//!
//! Inputs, the same on both sides (bench/cuda/select_bench.cu computes them on the GPU):
//! keys `random_values(n, 1)` (full range), values `random_values(n, 4)`, flags the low bit of
//! `random_values(n, 2)` (one byte each), unique's keys the low bit of `random_values(n, 3)`
//! (runs of equal keys); the predicate keeps even keys. About half of the elements are kept in
//! every case. The input is uploaded once per size; every repetition selects from it, and the
//! last one's output is checked against the CPU reference.

use vkalgo::select::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, Result, SelectArgs, SelectDesc, SelectMode, SelectPath,
    SelectPlan, SelectTuning, Selection, ValueType,
};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{
    axis, download, flag, print_pass_times, random_values, sized, upload, Axis, Bench, Options, StreamRow,
    Timing, STREAM_COLUMNS,
};

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,28", "16,20", "log2 element counts"),
    sized("reps", "20", "5", "timed repetitions (median)"),
    axis(
        "cases",
        "flagged_u32,if_u32,unique_u32,flagged_u32_pairs,unique_u32_pairs",
        "mode and type: flagged|if|unique _ u32, _pairs with u32 values",
    ),
    axis(
        "tuning",
        "",
        "workgroup size x items per invocation, e.g. 256x16 (the plan's own: none given)",
    ),
    axis(
        "paths",
        "auto",
        "auto|lookback|count_scan: the plan's path (auto: chosen by the device, the mode and the size)",
    ),
    axis(
        "scratch",
        "cleared",
        "cleared (a clear before each call) | kept (the plan's scratch kept zeroed)",
    ),
    flag("pass-times", "also each dispatch's GPU time under its row"),
];

/// The paths of the `paths` option by name.
const PATHS: &[(&str, SelectPath)] = &[
    ("auto", SelectPath::Auto),
    ("lookback", SelectPath::Lookback),
    ("count_scan", SelectPath::CountScan),
];

/// The predicate of the `if` cases (CUB's functor keeps the same keys).
const EVEN: &str = "bool vkalgo_select(uint k) { return (k & 1u) == 0u; }";

/// (name, mode, with values).
const CASES: &[(&str, Mode, bool)] = &[
    ("flagged_u32", Mode::Flagged, false),
    ("if_u32", Mode::If, false),
    ("unique_u32", Mode::Unique, false),
    ("flagged_u32_pairs", Mode::Flagged, true),
    ("unique_u32_pairs", Mode::Unique, true),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flagged,
    If,
    Unique,
}

/// The inputs of one size on the host and the device.
struct Inputs {
    keys: Vec<u32>,
    unique_keys: Vec<u32>,
    values: Vec<u32>,
    flags: Vec<u8>,
    keys_dev: GpuBuffer,
    unique_dev: GpuBuffer,
    values_dev: GpuBuffer,
    flags_dev: GpuBuffer,
}

impl Inputs {
    fn new(b: &Bench, n: usize) -> Result<Self> {
        let keys = random_values(n, 1);
        let unique_keys: Vec<u32> = random_values(n, 3).iter().map(|x| x & 1).collect();
        let values = random_values(n, 4);
        let mut flags: Vec<u8> = random_values(n, 2).iter().map(|x| (x & 1) as u8).collect();
        let bytes = n as u64 * 4;
        let inputs = Inputs {
            keys_dev: b.buffer(bytes, "bench keys")?,
            unique_dev: b.buffer(bytes, "bench unique keys")?,
            values_dev: b.buffer(bytes, "bench values")?,
            flags_dev: b.buffer((n as u64).next_multiple_of(4), "bench flags")?,
            keys,
            unique_keys,
            values,
            flags: Vec::new(),
        };
        upload(b.ctx, &inputs.keys_dev, &inputs.keys)?;
        upload(b.ctx, &inputs.unique_dev, &inputs.unique_keys)?;
        upload(b.ctx, &inputs.values_dev, &inputs.values)?;
        let padded = flags.len().next_multiple_of(4);
        flags.resize(padded, 0);
        upload(b.ctx, &inputs.flags_dev, &flags)?;
        flags.truncate(n);
        Ok(Inputs { flags, ..inputs })
    }
}

/// The select benchmark's run: the outputs allocated once at the largest size, the table.
struct Select<'a> {
    b: Bench<'a>,
    reps: u32,
    keys_out: GpuBuffer,
    values_out: GpuBuffer,
    kept: GpuBuffer,
    table: Table,
    /// Also print each dispatch's GPU time (`--pass-times`).
    pass_times: bool,
}

impl Select<'_> {
    /// One case: plan, scratch, warm-ups and timed repetitions, the check of the output, the
    /// row and the `RESULT` record (exits on a wrong result).
    fn case(
        &mut self,
        inputs: &Inputs,
        case: (&str, Mode, bool),
        log2: u32,
        tuning: Option<SelectTuning>,
        path: SelectPath,
        kept: bool,
    ) -> Result<()> {
        let (name, mode, pairs) = case;
        let (ctx, n) = (self.b.ctx, 1u64 << log2);
        let value_type = if pairs { ValueType::U32 } else { ValueType::None };
        let select_mode = match mode {
            Mode::Flagged => SelectMode::Flagged,
            Mode::If => SelectMode::If { glsl: EVEN.into() },
            Mode::Unique => SelectMode::Unique,
        };
        let desc = SelectDesc {
            tuning,
            path,
            keep_scratch_zeroed: kept,
            ..SelectDesc::new(KeyType::U32, value_type, select_mode, n)
        };
        let cells = [name.to_string(), "-".into(), format!("2^{log2}")];
        let Some(plan): Option<SelectPlan> = self.table.or_skip(ctx.select_plan(&desc), &cells) else {
            return Ok(());
        };
        // Kept: zeroed once; every select of the plan leaves it as the plan needs it.
        let scratch_bytes = plan.memory_requirements().scratch.size;
        let scratch = if kept {
            self.b.zeroed_buffer(scratch_bytes, "bench scratch")?
        } else {
            self.b.buffer(scratch_bytes, "bench scratch")?
        };
        let keys_in = if mode == Mode::Unique {
            &inputs.unique_dev
        } else {
            &inputs.keys_dev
        };
        let args = SelectArgs {
            keys_in: keys_in.sub_range(0, n * 4),
            values_in: pairs.then(|| inputs.values_dev.sub_range(0, n * 4)),
            flags: (mode == Mode::Flagged).then(|| inputs.flags_dev.sub_range(0, n.next_multiple_of(4))),
            keys_out: self.keys_out.sub_range(0, n * 4),
            values_out: pairs.then(|| self.values_out.sub_range(0, n * 4)),
            selected_count: self.kept.sub_range(0, 4),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
            params: [0; 4],
        };
        let timing = Timing::warm_then_warmup(3, self.reps as usize);
        let times = self.b.time(
            timing,
            |_, _, _| Ok(()),
            |cmd, _| unsafe { plan.record(cmd, &args) },
        )?;
        let ms = vkalgo_bench::harness::median(times);
        let ok = self.check(inputs, mode, pairs, n as usize)?;
        let t = plan.tuning();
        // Bytes moved: keys (and values) read, the kept half written, flags read.
        let width = if pairs { 8.0 } else { 4.0 };
        let flag_bytes = if mode == Mode::Flagged { 1.0 } else { 0.0 };
        StreamRow {
            algo: format!("select_{name}"),
            case: name,
            variant: if kept { "vkalgo_kept_zeroed" } else { "vkalgo" },
            tuning: match path {
                SelectPath::Auto => format!("{}x{}", t.workgroup_size, t.items_per_invocation),
                _ => format!("{}x{} {path:?}", t.workgroup_size, t.items_per_invocation),
            } + if kept { " kept" } else { "" },
            tuned: tuning.is_some() || path != SelectPath::Auto,
            log2,
            bytes: n as f64 * (width * 1.5 + flag_bytes),
            ms,
            scratch_bytes: plan.memory_requirements().scratch.size,
            ok,
        }
        .report(&self.table, &self.b);
        if self.pass_times {
            print_pass_times(ctx, &self.b.timer, |cmd| unsafe { plan.record(cmd, &args) })?;
        }
        Ok(())
    }

    /// Whether the outputs equal the CPU reference's.
    fn check(&self, inputs: &Inputs, mode: Mode, pairs: bool, n: usize) -> Result<bool> {
        let keys = if mode == Mode::Unique {
            &inputs.unique_keys
        } else {
            &inputs.keys
        };
        let selection = match mode {
            Mode::Flagged => Selection::Flagged(&inputs.flags),
            Mode::If => Selection::If {
                glsl: EVEN,
                params: [0; 4],
            },
            Mode::Unique => Selection::Unique,
        };
        let keep = reference::kept(&keys[..n], &selection, |k: u32| k & 1 == 0);
        let want_keys = reference::select(&keys[..n], &keep);
        let kept: Vec<u32> = download(self.b.ctx, &self.kept, 1)?;
        if kept[0] as usize != want_keys.len() {
            return Ok(false);
        }
        let got_keys: Vec<u32> = download(self.b.ctx, &self.keys_out, want_keys.len())?;
        if got_keys != want_keys {
            return Ok(false);
        }
        if pairs {
            let want_values = reference::select(&inputs.values[..n], &keep);
            let got_values: Vec<u32> = download(self.b.ctx, &self.values_out, want_values.len())?;
            return Ok(got_values == want_values);
        }
        Ok(true)
    }
}

/// Runs the select benchmark with the command-line arguments after `select`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "select", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let cases: Vec<(&str, Mode, bool)> = o
        .names("cases")
        .iter()
        .filter_map(|c| CASES.iter().find(|(n, _, _)| n == c).copied())
        .collect();
    let tunings = o.tuning_choices("tuning", |workgroup_size, items_per_invocation, _| {
        Some(SelectTuning {
            workgroup_size,
            items_per_invocation,
            lookback_spins: 0, // the device's default
        })
    });
    let paths = o.choices("paths", PATHS);
    let scratch_modes: Vec<bool> = o.names("scratch").iter().map(|m| m == "kept").collect();
    let b = Bench::new(ctx)?;
    let largest = 1u64 << sizes.iter().copied().max().unwrap_or(20);
    let mut select = Select {
        reps: o
            .get("reps", 1usize)
            .clamp(1, vkalgo_bench::harness::MAX_BATCH as usize) as u32,
        keys_out: b.buffer(largest * 4, "bench keys out")?,
        values_out: b.buffer(largest * 4, "bench values out")?,
        kept: b.buffer(16, "bench kept")?,
        table: report::table_of(
            "select (input: uploaded once per size, about half kept; GB/s: bytes read and written)",
            STREAM_COLUMNS,
        ),
        pass_times: o.flag("pass-times"),
        b,
    };
    for &log2 in &sizes {
        let inputs = Inputs::new(&select.b, 1usize << log2)?;
        for &case in &cases {
            for &tuning in &tunings {
                for &path in &paths {
                    for &kept in &scratch_modes {
                        select.case(&inputs, case, log2, tuning, path, kept)?;
                    }
                }
            }
        }
    }
    Ok(())
}
