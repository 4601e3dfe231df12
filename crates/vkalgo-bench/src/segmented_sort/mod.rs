//! Segmented sort benchmark: `vkalgo-bench segmented_sort` (options: `vkalgo-bench
//! segmented_sort --help`), the rows of bench/cuda/segmented_sort_bench.cu (CUB's
//! DeviceSegmentedSort::StableSortKeys / StableSortPairs) under the same names.
//!
//! Segment layouts, the same on both sides (from one 64-bit LCG, `state = state *
//! 6364136223846793005 + 1442695040888963407`, seeded 1, integers only; bench/cuda/ computes
//! the same offsets):
//! - `tiny`: sizes `(state >> 33) % 65` (0 to 64 keys, empty segments included; n / 32
//!   segments); `tiny_bounded`: the same, the plan told that no segment exceeds 64
//!   (`SegmentedSortDesc::max_segment_len`, vkalgo's rows only);
//! - `huge`: 16 equal segments (the last takes the remainder);
//! - `power`: sizes `1 + ((state >> 8) & (2^b - 1))` with `b = (state >> 33) % (log2(n) - 1)`
//!   (log-uniform sizes from 1 to n / 4: a power law, most segments small, most keys in large
//!   ones).
//!
//! The last segment is cut at n. Each timed repetition sorts fresh full-range random keys (and
//! values) that a compute shader wrote just before it (outside the timed region), as the CUB
//! side does; the last repetition's output is checked against the CPU reference.

use vkalgo::segmented_sort::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, Result, SegmentedSortArgs, SegmentedSortDesc,
    SegmentedSortPlan, SegmentedSortTuning, ValueType,
};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{
    axis, download, flag, pass_times, sized, upload, Axis, Bench, FreshInput, Options, StreamRow, MAX_BATCH,
    STREAM_COLUMNS,
};

const AXES: &[Axis] = &[
    sized("sizes", "24,26", "16,20", "log2 element counts"),
    sized("reps", "10", "3", "timed repetitions (median)"),
    axis(
        "cases",
        "tiny_u32,huge_u32,power_u32,tiny_u32_pairs,huge_u32_pairs,power_u32_pairs,tiny_bounded_u32,tiny_bounded_u32_pairs",
        "layout (tiny|huge|power|tiny_bounded) _ u32, _pairs with u32 values",
    ),
    axis(
        "tuning",
        "",
        "workgroup size x items per invocation, with /workgroups of each merge round's dispatches, e.g. 256x8 or 256x4/264 (the plan's own: none given)",
    ),
    flag(
        "pass-times",
        "also the GPU time of each kernel, summed over its dispatches",
    ),
];

/// Segment layouts (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Tiny,
    /// Tiny's offsets, the plan bounded to segments of 64.
    TinyBounded,
    Huge,
    Power,
}

/// (name, layout, with values).
const CASES: &[(&str, Layout, bool)] = &[
    ("tiny_u32", Layout::Tiny, false),
    ("huge_u32", Layout::Huge, false),
    ("power_u32", Layout::Power, false),
    ("tiny_u32_pairs", Layout::Tiny, true),
    ("huge_u32_pairs", Layout::Huge, true),
    ("power_u32_pairs", Layout::Power, true),
    ("tiny_bounded_u32", Layout::TinyBounded, false),
    ("tiny_bounded_u32_pairs", Layout::TinyBounded, true),
];

/// The offsets of `n` keys in `layout` (the CUDA side computes the same).
fn offsets(layout: Layout, n: u64) -> Vec<u64> {
    let mut state = 1u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state
    };
    let log2 = 63 - n.max(4).leading_zeros() as u64;
    let mut offsets = vec![0u64];
    let mut at = 0u64;
    if layout == Layout::Huge {
        return (0..=16).map(|s| if s == 16 { n } else { s * (n / 16) }).collect();
    }
    while at < n {
        let s = next();
        let size = match layout {
            Layout::Tiny | Layout::TinyBounded => (s >> 33) % 65,
            _ => {
                let bits = (s >> 33) % (log2 - 1);
                1 + ((s >> 8) & ((1u64 << bits) - 1))
            }
        };
        at = (at + size).min(n);
        offsets.push(at);
    }
    offsets
}

/// The benchmark's run: buffers allocated once at the largest size, the table.
struct SegmentedSort<'a> {
    b: Bench<'a>,
    input: FreshInput<'a>,
    offsets: GpuBuffer,
    table: Table,
    pass_times: bool,
}

impl SegmentedSort<'_> {
    /// One case: plan, scratch, warm-ups and timed repetitions, the check, the row.
    fn case(
        &mut self,
        case: (&str, Layout, bool),
        log2: u32,
        tuning: Option<SegmentedSortTuning>,
    ) -> Result<()> {
        let (name, layout, pairs) = case;
        let (ctx, n) = (self.b.ctx, 1u64 << log2);
        let offsets = offsets(layout, n);
        let segments = offsets.len() as u64 - 1;
        let value_type = if pairs { ValueType::U32 } else { ValueType::None };
        let desc = SegmentedSortDesc {
            tuning,
            max_segment_len: (layout == Layout::TinyBounded).then_some(64),
            ..SegmentedSortDesc::new(KeyType::U32, value_type, n, segments)
        };
        let cells = [name.to_string(), "-".into(), format!("2^{log2}")];
        let Some(plan): Option<SegmentedSortPlan> =
            self.table.or_skip(ctx.segmented_sort_plan(&desc), &cells)
        else {
            return Ok(());
        };
        let scratch = self
            .b
            .buffer(plan.memory_requirements().scratch.size, "bench scratch")?;
        let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
        upload(ctx, &self.offsets, &offsets32)?;
        // Keys in the input's first n words, values in the next n.
        let words = if pairs { 2 * n } else { n };
        let args = SegmentedSortArgs {
            keys: self.input.buffer.sub_range(0, n * 4),
            values: pairs.then(|| self.input.buffer.sub_range(n * 4, n * 4)),
            offsets: self.offsets.sub_range(0, (segments + 1) * 4),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
            segments: ElementCount::Direct(segments),
        };
        let (ms, last) = self
            .input
            .time(&self.b, words, |cmd| unsafe { plan.record(cmd, &args) })?;
        let got: Vec<u32> = download(ctx, &self.input.buffer, words as usize)?;
        let mut want = last;
        let (keys, values) = want.split_at_mut(n as usize);
        reference::segmented_sort_pairs(keys, pairs.then_some(values), &offsets, 0, 0, false);
        let t = plan.tuning();
        StreamRow {
            algo: format!("segmented_sort_{name}"),
            case: name,
            variant: "vkalgo",
            tuning: format!(
                "{}x{}/{}",
                t.workgroup_size, t.items_per_invocation, t.merge_workgroups
            ),
            tuned: tuning.is_some(),
            log2,
            // Read and written once.
            bytes: (words * 8) as f64,
            ms,
            scratch_bytes: plan.memory_requirements().scratch.size,
            ok: got == want,
        }
        .report(&self.table, &self.b);
        if self.pass_times {
            let mut sums: Vec<(&str, f64, u32)> = Vec::new();
            for (name, ms) in pass_times(ctx, &self.b.timer, 5, |cmd| unsafe { plan.record(cmd, &args) })? {
                match sums.iter_mut().find(|s| s.0 == name) {
                    Some(s) => {
                        s.1 += ms;
                        s.2 += 1;
                    }
                    None => sums.push((name, ms, 1)),
                }
            }
            for (name, ms, dispatches) in sums {
                println!("|   pass | {name} x{dispatches} | {ms:.4} ms |");
            }
        }
        Ok(())
    }
}

/// Runs the segmented sort benchmark with the command-line arguments after `segmented_sort`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "segmented_sort", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let cases: Vec<(&str, Layout, bool)> = o
        .names("cases")
        .iter()
        .filter_map(|c| CASES.iter().find(|case| case.0 == c).copied())
        .collect();
    let tunings = o.tuning_choices("tuning", |workgroup_size, items_per_invocation, rest| {
        let default = SegmentedSortTuning::for_device(ctx);
        let merge_workgroups = match rest {
            "" => default.merge_workgroups,
            r => r.parse().ok()?,
        };
        Some(SegmentedSortTuning {
            workgroup_size,
            items_per_invocation,
            merge_workgroups,
        })
    });
    let b = Bench::new(ctx)?;
    let largest = 1u64 << sizes.iter().copied().max().unwrap_or(20);
    let reps = o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32;
    // The most segments: the tiny layout's (and the power layout's singletons) stay below n.
    let mut bench = SegmentedSort {
        input: FreshInput::new(&b, largest * 8, reps)?,
        offsets: b.buffer((largest + 1) * 4, "bench offsets")?,
        table: report::table_of(
            "segmented sort (input: fresh full-range random keys and values written before each repetition; GB/s: bytes read and written once)",
            STREAM_COLUMNS,
        ),
        pass_times: o.flag("pass-times"),
        b,
    };
    for &log2 in &sizes {
        for &case in &cases {
            for &tuning in &tunings {
                bench.case(case, log2, tuning)?;
            }
        }
    }
    Ok(())
}
