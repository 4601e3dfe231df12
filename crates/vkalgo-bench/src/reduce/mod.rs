//! Reduce benchmark: `vkalgo-bench reduce` (options: `vkalgo-bench reduce --help`), the rows of
//! bench/cuda/reduce_bench.cu (CUB's DeviceReduce) under the same names.
//!
//! Each timed repetition reduces fresh full-range random input that a compute shader wrote
//! just before it (outside the timed region), as the CUB side does; the last repetition's
//! result is checked against the CPU reduce of that input.

use vkalgo::reduce::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, ReduceArgs, ReduceDesc, ReduceOp, ReducePlan, ReduceTuning,
    Result, SortKey,
};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{
    axis, download, sized, Axis, Bench, FreshInput, Options, StreamRow, MAX_BATCH, STREAM_COLUMNS,
};

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,28", "16,20", "log2 element counts"),
    sized("reps", "20", "5", "timed repetitions (median)"),
    axis(
        "cases",
        "sum_u32,min_u32,max_u32,sum_u64,max_u64,min_i32",
        "operation and type: sum|min|max _ u32|i32|u64",
    ),
    axis(
        "scratch",
        "cleared,kept",
        "cleared (a clear before each call) | kept (the plan's scratch kept zeroed)",
    ),
    axis(
        "tuning",
        "",
        "workgroup size x items per invocation, e.g. 256x16 (the plan's own: none given)",
    ),
];

const CASES: &[(&str, KeyType, ReduceOp)] = &[
    ("sum_u32", KeyType::U32, ReduceOp::Sum),
    ("min_u32", KeyType::U32, ReduceOp::Min),
    ("max_u32", KeyType::U32, ReduceOp::Max),
    ("sum_u64", KeyType::U64, ReduceOp::Sum),
    ("min_u64", KeyType::U64, ReduceOp::Min),
    ("max_u64", KeyType::U64, ReduceOp::Max),
    ("sum_i32", KeyType::I32, ReduceOp::Sum),
    ("min_i32", KeyType::I32, ReduceOp::Min),
    ("max_i32", KeyType::I32, ReduceOp::Max),
];

/// The reduce benchmark's run: the fresh input (sized for the largest case), the result, the
/// table.
struct Reduce<'a> {
    b: Bench<'a>,
    input: FreshInput<'a>,
    result: GpuBuffer,
    table: Table,
}

/// The CPU reduce of the words `words` read as keys of `key_type`, as 8 little-endian bytes.
fn expected(words: &[u32], key_type: KeyType, op: ReduceOp) -> u64 {
    fn of<K: SortKey>(words: &[u32], op: ReduceOp) -> u64 {
        let keys: Vec<K> = bytemuck::cast_slice::<u32, u8>(words)
            .chunks_exact(std::mem::size_of::<K>())
            .map(bytemuck::pod_read_unaligned)
            .collect();
        let mut raw = [0u8; 8];
        raw[..std::mem::size_of::<K>()].copy_from_slice(bytemuck::bytes_of(&reference::reduce(&keys, op)));
        u64::from_le_bytes(raw)
    }
    match key_type {
        KeyType::U64 => of::<u64>(words, op),
        KeyType::I32 => of::<i32>(words, op),
        _ => of::<u32>(words, op),
    }
}

impl Reduce<'_> {
    /// One case: plan, scratch, warm-ups and timed repetitions on fresh input, the check of the
    /// last repetition, the row and the `RESULT` record (exits on a wrong result).
    fn case(
        &mut self,
        name: &str,
        key_type: KeyType,
        op: ReduceOp,
        log2: u32,
        tuning: Option<ReduceTuning>,
        kept: bool,
    ) -> Result<()> {
        let (ctx, n) = (self.b.ctx, 1u64 << log2);
        let desc = ReduceDesc {
            tuning,
            keep_scratch_zeroed: kept,
            ..ReduceDesc::new(key_type, op, n)
        };
        let cells = [name.to_string(), "-".into(), format!("2^{log2}")];
        let Some(plan): Option<ReducePlan> = self.table.or_skip(ctx.reduce_plan(&desc), &cells) else {
            return Ok(());
        };
        let scratch_bytes = plan.memory_requirements().scratch.size;
        // Kept: zeroed once; every reduce of the plan leaves it zeroed.
        let scratch = if kept {
            self.b.zeroed_buffer(scratch_bytes, "bench scratch")?
        } else {
            self.b.buffer(scratch_bytes, "bench scratch")?
        };
        let words = n * key_type.bytes() / 4;
        let args = ReduceArgs {
            input: self.input.buffer.sub_range(0, words * 4),
            result: self.result.sub_range(0, 8),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
        };
        let (ms, last) = self
            .input
            .time(&self.b, words, |cmd| unsafe { plan.record(cmd, &args) })?;
        let got: Vec<u64> = download(ctx, &self.result, 1)?;
        let mask = if key_type.bytes() == 8 {
            u64::MAX
        } else {
            u64::from(u32::MAX)
        };
        let t = plan.tuning();
        StreamRow {
            algo: format!("reduce_{name}"),
            case: name,
            variant: if kept { "vkalgo_kept_zeroed" } else { "vkalgo" },
            tuning: format!("{}x{}", t.workgroup_size, t.items_per_invocation),
            tuned: tuning.is_some(),
            log2,
            bytes: (n * key_type.bytes()) as f64,
            ms,
            scratch_bytes,
            ok: got[0] & mask == expected(&last, key_type, op),
        }
        .report(&self.table, &self.b);
        Ok(())
    }
}

/// Runs the reduce benchmark with the command-line arguments after `reduce`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = Options::parse(ctx, "reduce", AXES, args);
    let sizes: Vec<u32> = o.list("sizes");
    let cases: Vec<(&str, KeyType, ReduceOp)> = o
        .names("cases")
        .iter()
        .filter_map(|c| CASES.iter().find(|(n, _, _)| n == c).copied())
        .collect();
    let tunings = o.tuning_choices("tuning", |workgroup_size, items_per_invocation, _| {
        Some(ReduceTuning {
            workgroup_size,
            items_per_invocation,
            ..ReduceTuning::for_device(ctx)
        })
    });
    let scratch_modes: Vec<bool> = o.names("scratch").iter().map(|m| m == "kept").collect();
    let b = Bench::new(ctx)?;
    let largest = 1u64 << sizes.iter().copied().max().unwrap_or(20);
    let wide = cases.iter().any(|c| c.1.bytes() == 8);
    let reps = o.get("reps", 1usize).clamp(1, MAX_BATCH as usize) as u32;
    let mut reduce = Reduce {
        input: FreshInput::new(&b, largest * if wide { 8 } else { 4 }, reps)?,
        result: b.buffer(16, "bench result")?,
        table: report::table_of(
            "reduce (input: fresh full-range random values written before each repetition; GB/s: bytes read)",
            STREAM_COLUMNS,
        ),
        b,
    };
    for &log2 in &sizes {
        for &(name, key_type, op) in &cases {
            for &tuning in &tunings {
                for &kept in &scratch_modes {
                    reduce.case(name, key_type, op, log2, tuning, kept)?;
                }
            }
        }
    }
    Ok(())
}
