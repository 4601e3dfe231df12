//! Histogram benchmark: `vkalgo-bench histogram` (options: `vkalgo-bench histogram --help`),
//! the rows of bench/cuda/histogram_bench.cu (CUB's DeviceHistogram) under the same names.
//!
//! Cases: `even_<type>_b<m>` counts even-width bins over the key range (BITS on the key's top
//! log2(m) bits; CUB's HistogramEven), `range_<type>_b<m>` the same bins through m - 1
//! splitters (SPLITTERS; CUB's HistogramRange with the same levels). Each timed repetition
//! counts fresh full-range random input that a compute shader wrote just before it (outside
//! the timed region), as the CUB side does; the last repetition's counts are checked against
//! the CPU histogram of that input.

use vkalgo::histogram::reference;
use vkalgo::split::BucketFn;
use vkalgo::{
    Bucketing, Context, ElementCount, GpuBuffer, HistogramArgs, HistogramDesc, HistogramPlan,
    HistogramTuning, KeyType, Result,
};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{
    axis, download, sized, upload, Axis, Bench, FreshInput, Options, StreamRow, MAX_BATCH, STREAM_COLUMNS,
};

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,28", "16,20", "log2 element counts"),
    sized("reps", "20", "5", "timed repetitions (median)"),
    axis(
        "cases",
        "even_u32_b256,even_u32_b4096,even_u32_b65536,range_u32_b256,range_u32_b4096,even_u64_b256",
        "even|range _ u32|u64 _ b<buckets>",
    ),
    axis(
        "tuning",
        "",
        "workgroup size x items per invocation, e.g. 256x16 (the plan's own: none given)",
    ),
];

const CASES: &[(&str, KeyType, BucketFn, u32)] = &[
    ("even_u32_b256", KeyType::U32, BucketFn::Bits, 256),
    ("even_u32_b4096", KeyType::U32, BucketFn::Bits, 4096),
    ("even_u32_b65536", KeyType::U32, BucketFn::Bits, 65536),
    ("range_u32_b256", KeyType::U32, BucketFn::Splitters, 256),
    ("range_u32_b4096", KeyType::U32, BucketFn::Splitters, 4096),
    ("even_u64_b256", KeyType::U64, BucketFn::Bits, 256),
];

/// The histogram benchmark's run: buffers allocated once at the largest size, the fill, the
/// table.
struct Histogram<'a> {
    b: Bench<'a>,
    input: FreshInput<'a>,
    counts: GpuBuffer,
    splitters: GpuBuffer,
    table: Table,
}

/// The `m - 1` splitters of even bins over the u32 range (bin `b` starts at `b * 2^32 / m`).
fn even_splitters(m: u32) -> Vec<u32> {
    (1..m as u64).map(|b| ((b << 32) / m as u64) as u32).collect()
}

/// The CPU counts of the words `words` read as keys of `key_type` in `m` even bins.
fn expected(words: &[u32], key_type: KeyType, m: u32) -> Vec<u64> {
    let shift = m.trailing_zeros();
    if key_type == KeyType::U64 {
        let keys: Vec<u64> = bytemuck::cast_slice::<u32, u8>(words)
            .chunks_exact(8)
            .map(bytemuck::pod_read_unaligned)
            .collect();
        let b = Bucketing::Bits {
            bucket_count: m,
            bit_offset: 64 - shift,
        };
        return reference::histogram(&keys, &b).unwrap_or_default();
    }
    let b = Bucketing::Bits {
        bucket_count: m,
        bit_offset: 32 - shift,
    };
    reference::histogram(words, &b).unwrap_or_default()
}

impl Histogram<'_> {
    /// One case: plan, scratch, warm-ups and timed repetitions on fresh input, the check of the
    /// last repetition, the row and the `RESULT` record (exits on a wrong result).
    fn case(
        &mut self,
        case: (&str, KeyType, BucketFn, u32),
        log2: u32,
        tuning: Option<HistogramTuning>,
    ) -> Result<()> {
        let (name, key_type, bucket_fn, m) = case;
        let (ctx, n) = (self.b.ctx, 1u64 << log2);
        let desc = HistogramDesc {
            tuning,
            bit_offset: key_type.bits() - m.trailing_zeros(),
            ..HistogramDesc::new(key_type, m, bucket_fn, n)
        };
        let cells = [name.to_string(), "-".into(), format!("2^{log2}")];
        let Some(plan): Option<HistogramPlan> = self.table.or_skip(ctx.histogram_plan(&desc), &cells) else {
            return Ok(());
        };
        let scratch = self
            .b
            .buffer(plan.memory_requirements().scratch.size, "bench scratch")?;
        if bucket_fn == BucketFn::Splitters {
            upload(ctx, &self.splitters, &even_splitters(m))?;
        }
        let words = n * key_type.bytes() / 4;
        let args = HistogramArgs {
            keys: self.input.buffer.sub_range(0, words * 4),
            splitters: (bucket_fn == BucketFn::Splitters)
                .then(|| self.splitters.sub_range(0, (m as u64 - 1) * 4)),
            bucket_ids: None,
            counts: self.counts.sub_range(0, m as u64 * 4),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
            params: [0; 4],
        };
        let (ms, last) = self
            .input
            .time(&self.b, words, |cmd| unsafe { plan.record(cmd, &args) })?;
        let got: Vec<u32> = download(ctx, &self.counts, m as usize)?;
        let want = expected(&last, key_type, m);
        let t = plan.tuning();
        StreamRow {
            algo: format!("histogram_{name}"),
            case: name,
            variant: "vkalgo",
            tuning: format!("{}x{}", t.workgroup_size, t.items_per_invocation),
            tuned: tuning.is_some(),
            log2,
            bytes: (n * key_type.bytes()) as f64,
            ms,
            scratch_bytes: plan.memory_requirements().scratch.size,
            ok: got.len() == want.len() && got.iter().zip(&want).all(|(&g, &w)| g as u64 == w),
        }
        .report(&self.table, &self.b);
        Ok(())
    }
}

/// Runs the histogram benchmark with the command-line arguments after `histogram`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "histogram", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let cases: Vec<(&str, KeyType, BucketFn, u32)> = o
        .names("cases")
        .iter()
        .filter_map(|c| CASES.iter().find(|case| case.0 == c).copied())
        .collect();
    let tunings = o.tuning_choices("tuning", |workgroup_size, items_per_invocation, _| {
        Some(HistogramTuning {
            workgroup_size,
            items_per_invocation,
            ..HistogramTuning::for_device(ctx)
        })
    });
    let b = Bench::new(ctx)?;
    let largest = 1u64 << sizes.iter().copied().max().unwrap_or(20);
    let wide = cases.iter().any(|c| c.1.bytes() == 8);
    let most_buckets = cases.iter().map(|c| c.3 as u64).max().unwrap_or(1);
    let reps = o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32;
    let mut histogram = Histogram {
        input: FreshInput::new(&b, largest * if wide { 8 } else { 4 }, reps)?,
        counts: b.buffer(most_buckets * 4, "bench counts")?,
        splitters: b.buffer(most_buckets * 4, "bench splitters")?,
        table: report::table_of(
            "histogram (input: fresh full-range random values written before each repetition; GB/s: bytes read)",
            STREAM_COLUMNS,
        ),
        b,
    };
    for &log2 in &sizes {
        for &case in &cases {
            for &tuning in &tunings {
                histogram.case(case, log2, tuning)?;
            }
        }
    }
    Ok(())
}
