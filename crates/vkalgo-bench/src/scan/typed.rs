//! The scan benchmark's typed rows (`--types`): exclusive scans of other key types and
//! operations, under the names of bench/cuda/scan_typed_bench.cu (CUB's DeviceScan), e.g.
//! `scan_exclusive_sum_u64`.
//!
//! Integer cases scan fresh full-range random input written before each repetition (as the u32
//! rows do); `sum_f32` scans one uploaded input of multiples of 0.5 in [-3.5, 3.5] every
//! repetition (every prefix exact in any association order, so the check is exact), as the CUB
//! side does.

use super::variant;
use vkalgo::scan::reference;
use vkalgo::{
    ElementCount, GpuBuffer, KeyType, ReduceOp, Result, ScanArgs, ScanDesc, ScanOp, ScanPath, ScanTuning,
    SortKey,
};
use vkalgo_bench::harness::report::Table;
use vkalgo_bench::harness::{download, median, upload, Bench, FreshInput, StreamRow, Timing};

/// The typed cases: name, key type, operation.
pub(super) const CASES: &[(&str, KeyType, ReduceOp)] = &[
    ("sum_u64", KeyType::U64, ReduceOp::Sum),
    ("sum_f32", KeyType::F32, ReduceOp::Sum),
    ("max_i32", KeyType::I32, ReduceOp::Max),
    ("min_u64", KeyType::U64, ReduceOp::Min),
];

/// The input of `sum_f32`: multiples of 0.5 in [-3.5, 3.5] (bench/cuda/scan_typed_bench.cu's
/// `fill_halves` draws the same kind of values).
fn halves(n: usize, seed: u32) -> Vec<f32> {
    vkalgo_bench::harness::random_values(n, seed)
        .into_iter()
        .map(|w| ((w >> 29) as i32 - 4) as f32 + 0.5)
        .collect()
}

/// The typed rows' run: the input (fresh or uploaded), the output, the table.
pub(super) struct Typed<'a> {
    pub(super) b: Bench<'a>,
    pub(super) input: FreshInput<'a>,
    pub(super) out_buf: GpuBuffer,
    pub(super) reps: u32,
    pub(super) table: Table,
}

impl Typed<'_> {
    /// One case at 2^log2 elements on `path` with `tuning`: timed, checked, reported.
    pub(super) fn case(
        &mut self,
        (name, key_type, combine): (&str, KeyType, ReduceOp),
        log2: u32,
        path: ScanPath,
        tuning: Option<ScanTuning>,
    ) -> Result<()> {
        let (ctx, n) = (self.b.ctx, 1u64 << log2);
        let desc = ScanDesc {
            tuning,
            ..ScanDesc::typed(key_type, combine, ScanOp::Exclusive, n).with_path(path)
        };
        let cells = [name.to_string(), "-".into(), format!("2^{log2}")];
        let Some(plan) = self.table.or_skip(ctx.scan_plan(&desc), &cells) else {
            return Ok(());
        };
        let scratch_bytes = plan.memory_requirements().scratch.size;
        let scratch = self.b.buffer(scratch_bytes, "bench scratch")?;
        let bytes = n * key_type.bytes();
        let args = ScanArgs {
            input: self.input.buffer.sub_range(0, bytes),
            output: self.out_buf.sub_range(0, bytes),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
        };
        let record = |cmd| unsafe { plan.record(cmd, &args) };
        let (ms, input_words) = if key_type == KeyType::F32 && combine == ReduceOp::Sum {
            let input = halves(n as usize, 0x5ca7 ^ log2);
            upload(ctx, &self.input.buffer, &input)?;
            let timing = Timing::warm_then_warmup(3, self.reps as usize);
            let times = self.b.time(timing, |_, _, _| Ok(()), |cmd, _| record(cmd))?;
            (median(times), bytemuck::cast_slice(&input).to_vec())
        } else {
            self.input.time(&self.b, bytes / 4, record)?
        };
        let got: Vec<u32> = download(ctx, &self.out_buf, (bytes / 4) as usize)?;
        fn expected<K: SortKey>(words: &[u32], combine: ReduceOp) -> Vec<u32> {
            let keys: Vec<K> = bytemuck::cast_slice::<u32, u8>(words)
                .chunks_exact(std::mem::size_of::<K>())
                .map(bytemuck::pod_read_unaligned)
                .collect();
            bytemuck::cast_slice(&reference::scan(&keys, ScanOp::Exclusive, combine)).to_vec()
        }
        let want = match key_type {
            KeyType::U64 => expected::<u64>(&input_words, combine),
            KeyType::I64 => expected::<i64>(&input_words, combine),
            KeyType::F64 => expected::<f64>(&input_words, combine),
            KeyType::I32 => expected::<i32>(&input_words, combine),
            KeyType::F32 => expected::<f32>(&input_words, combine),
            _ => expected::<u32>(&input_words, combine),
        };
        let variant = variant(&desc, &plan);
        let case = format!("{name} {variant}");
        StreamRow {
            algo: format!("scan_exclusive_{name}"),
            case: &case,
            variant: &variant,
            tuning: super::tuning_text(tuning),
            tuned: tuning.is_some(),
            log2,
            bytes: 2.0 * bytes as f64,
            ms,
            scratch_bytes,
            ok: got == want,
        }
        .report(&self.table, &self.b);
        Ok(())
    }
}
