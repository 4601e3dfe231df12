//! Multisplit benchmark: `vkalgo-bench multisplit` (options: `vkalgo-bench multisplit --help`;
//! a path the plan refuses for an m is skipped with a note; `--pass-times` adds each pass's GPU
//! time, the median of 5 recordings, under each row).
//!
//! u32 keys (and u32 -> u32 pairs) into m buckets by bucket = (k * m) >> 32: as GLSL
//! (`glsl`, compiled at run time), as the built-in BITS function for power-of-two m (`bits`:
//! the top log2(m) bits, the same buckets), as precomputed ids (`ids`), or as the m - 1
//! splitters ceil(j * 2^32 / m), j = 1..m - 1 (`splitters`: the same buckets). For power-of-two m
//! the table also has vkalgo's own radix sort of the keys on those top bits (`sort_topbits`:
//! the reduced-bit sort on Vulkan). Each repetition reads the same input (the split is
//! out of place); GPU timestamps bracket the multisplit alone. Every result is compared exactly
//! with a stable CPU counting sort (keys, values, offsets).
//!
//! Columns: G keys/s; effective GB/s counts each element read once and written once (keys 8
//! bytes, pairs 16), and "% copy" relates it to the compute-shader copy bandwidth measured on
//! the same buffers.

use vkalgo::{BucketFn, Context, Result, SplitPath, SplitPlan};
use vkalgo_bench::harness::report::{self, gbs, rate, Table};
use vkalgo_bench::harness::{axis, flag, sized, Axis, Bench, Verdicts};

mod buffers;
mod cases;
use buffers::Buffers;

const GLSL: &str =
    "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";

const AXES: &[Axis] = &[
    sized("sizes", "24,26", "16,18", "log2 key counts"),
    axis("ms", "2,3,8,32,256,1024", "bucket counts"),
    axis("types", "keys,pairs", "keys, pairs (u32 -> u32)"),
    axis("fns", "glsl,bits", "bucket functions: glsl, bits, ids, splitters"),
    axis(
        "paths",
        "auto",
        "auto, direct, staged, substaged, global, small, onesweep",
    ),
    axis("tile-items", "0", "items per tile (0: the plan's choice)"),
    sized("reps", "20", "3", "timed repetitions (median)"),
    flag("pass-times", "also each pass's GPU time"),
];

const PATHS: &[(&str, SplitPath)] = &[
    ("auto", SplitPath::Auto),
    ("direct", SplitPath::TileDirect),
    ("staged", SplitPath::TileStaged),
    ("substaged", SplitPath::TileSubgroupStaged),
    ("global", SplitPath::GlobalCounters),
    ("small", SplitPath::Small),
    ("onesweep", SplitPath::Onesweep),
];

/// The parsed options of the run.
struct Options {
    sizes: Vec<u32>,
    ms: Vec<u32>,
    types: Vec<String>,
    fns: Vec<String>,
    paths: Vec<SplitPath>,
    tile_items: u32,
    reps: usize,
    pass_times: bool,
}

/// Parses the arguments after `multisplit` against [`AXES`].
fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "multisplit", AXES, args);
    Options {
        sizes: o.list("sizes"),
        ms: o.list("ms"),
        types: o.names("types"),
        fns: o.names("fns"),
        paths: o.choices("paths", PATHS),
        tile_items: o.get("tile-items", 0),
        reps: o.get("reps", 1usize).max(1),
        pass_times: o.flag("pass-times"),
    }
}

/// The multisplit benchmark's run: the session, the options, the buffers, the table and the
/// verdicts.
struct Split<'a> {
    b: Bench<'a>,
    o: &'a Options,
    bufs: Buffers,
    table: Table,
    verdicts: Verdicts,
}

/// Runs the multisplit benchmark with the command-line arguments after `multisplit`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse_options(ctx, args);
    let b = Bench::new(ctx)?;
    let bufs = Buffers::new(&b, &o)?;
    let table = report::table_of(
        "multisplit (bucket = (k * m) >> 32; G keys/s; GB/s: each element read and written once)",
        "type | fn | path | m | N | ms | G keys/s | eff. GB/s | % copy | verified",
    );
    let mut split = Split {
        b,
        o: &o,
        bufs,
        table,
        verdicts: Verdicts::default(),
    };
    for &log2 in &o.sizes {
        split.size(log2)?;
    }
    split.verdicts.finish("a multisplit produced wrong results");
    Ok(())
}

/// A bucket function of `--fns` for m buckets: (function, GLSL, bit offset); `None` where it
/// does not apply (`bits` for an m that is not a power of two above 1).
fn bucket_fn(name: &str, m: u32) -> Option<(BucketFn, Option<String>, u32)> {
    Some(match name {
        "glsl" => (BucketFn::Glsl, Some(GLSL.to_string()), 0),
        "bits" if m.is_power_of_two() && m > 1 => (BucketFn::Bits, None, 32 - m.trailing_zeros()),
        "ids" => (BucketFn::Ids, None, 0),
        "splitters" => (BucketFn::Splitters, None, 0),
        _ => return None,
    })
}

/// The path a row reports: the one the plan took (`small` where `auto` takes the small path).
fn path_name(plan: &SplitPlan, path: SplitPath, n: usize) -> &'static str {
    match plan.path() {
        _ if path == SplitPath::Auto && n as u64 <= plan.small_limit() => "small",
        SplitPath::Small => "small",
        SplitPath::TileDirect => "direct",
        SplitPath::TileStaged => "staged",
        SplitPath::TileSubgroupStaged => "substaged",
        SplitPath::Onesweep => "onesweep",
        _ => "global",
    }
}

/// The bucket of key `k` among m buckets.
fn bucket_of(k: u32, m: u32) -> u32 {
    ((k as u64 * m as u64) >> 32) as u32
}

/// One size and bucket count of the run: the input, the CPU's stable multisplit of it, and the
/// copy bandwidth on the split's buffers.
pub(super) struct Case {
    pub(super) log2: u32,
    pub(super) n: usize,
    pub(super) m: u32,
    pub(super) copy_gbs: f64,
    pub(super) keys: Vec<u32>,
    pub(super) values: Vec<u32>,
    pub(super) offsets: Vec<u64>,
}

impl Split<'_> {
    /// A row of the table (`cells`: the bucket function's, the path's and the verdict's) and its
    /// record.
    fn report(&self, c: &Case, ty: &str, cells: [&str; 3], ms: f64, variant: &str, scratch: u64) {
        let (n, elem_bytes) = (c.n as u64, if ty == "pairs" { 16.0 } else { 8.0 });
        let (rate, gbs) = (rate(n, ms), gbs(c.n as f64 * elem_bytes, ms));
        self.table.row(&[
            ty.to_string(),
            cells[0].into(),
            cells[1].into(),
            c.m.to_string(),
            format!("2^{}", c.log2),
            format!("{ms:.4}"),
            format!("{rate:.2}"),
            format!("{gbs:.0}"),
            format!("{:.1}%", 100.0 * gbs / c.copy_gbs),
            cells[2].into(),
        ]);
        let algo = format!("multisplit_{ty}_m{}", c.m);
        report::result(&algo, variant, n, ms, rate, &scratch.to_string());
    }
}
