//! What the one-pass primitives' benchmarks share (reduce, histogram, ...): fresh random input
//! in one buffer before every repetition ([`FreshInput`]) and one row shape ([`StreamRow`]:
//! case, tuning, size, time, rates, share of the copy, verdict; and its `RESULT` record).

use super::report::{self, gbs, rate, Table};
use super::{median, random_values, verified, Bench, RandomFill, Timing};
use ash::vk;
use vkalgo::{GpuBuffer, Result};

/// An input buffer refilled with fresh pseudo-random words before every repetition.
pub struct FreshInput<'a> {
    /// The input, sized for the run's largest case.
    pub buffer: GpuBuffer,
    fill: RandomFill<'a>,
    /// Seeds of the batches so far (never repeated within a run).
    batch_seed: u32,
    reps: u32,
}

impl<'a> FreshInput<'a> {
    /// An input of `bytes` bytes; `reps` timed repetitions per case.
    pub fn new(b: &Bench<'a>, bytes: u64, reps: u32) -> Result<Self> {
        Ok(FreshInput {
            buffer: b.buffer(bytes, "bench in")?,
            fill: RandomFill::new(b.ctx)?,
            batch_seed: 0,
            reps,
        })
    }

    /// Times `work` over `words` fresh words at the start of the input (three warm-ups, then
    /// the timed repetitions); returns the median ms and the words of the last timed repetition
    /// (what the buffer holds afterwards, for the check).
    pub fn time(
        &mut self,
        b: &Bench,
        words: u64,
        mut work: impl FnMut(vk::CommandBuffer) -> Result<()>,
    ) -> Result<(f64, Vec<u32>)> {
        let (fill, addr, seed) = (&self.fill, self.buffer.address(), self.batch_seed);
        self.batch_seed += 2;
        let refill = |cmd, timed: bool, rep| {
            unsafe { fill.record(cmd, addr, words, RandomFill::seed(seed + 1 + timed as u32, rep)) };
            Ok(())
        };
        let timing = Timing::warm_then_warmup(3, self.reps as usize);
        let ms = median(b.time(timing, refill, |cmd, _| work(cmd))?);
        let last = random_values(words as usize, RandomFill::seed(seed + 2, self.reps - 1));
        Ok((ms, last))
    }
}

/// The columns of a [`StreamRow`] table.
pub const STREAM_COLUMNS: &str = "case | tuning | N | ms | G elements/s | GB/s | % of copy | verified";

/// One measured case of a one-pass primitive.
pub struct StreamRow<'r> {
    /// The `RESULT` algorithm (e.g. `reduce_sum_u32`).
    pub algo: String,
    /// The case's name in the table.
    pub case: &'r str,
    /// The `RESULT` variant (`vkalgo`, or the data's shape where the CUDA side names it so);
    /// `_<tuning>` is appended when the tuning was asked for.
    pub variant: &'r str,
    /// The kernel shape, e.g. `256x8`.
    pub tuning: String,
    /// Whether the tuning was asked for (the variant then names it).
    pub tuned: bool,
    pub log2: u32,
    /// Bytes the case reads, for the bandwidth columns.
    pub bytes: f64,
    pub ms: f64,
    pub scratch_bytes: u64,
    pub ok: bool,
}

impl StreamRow<'_> {
    /// Writes the row and its `RESULT` record; exits on a wrong result.
    pub fn report(&self, table: &Table, b: &Bench) {
        let (n, ms) = (1u64 << self.log2, self.ms);
        let gb = gbs(self.bytes, ms);
        table.row(&[
            self.case.to_string(),
            self.tuning.clone(),
            format!("2^{}", self.log2),
            format!("{ms:.4}"),
            format!("{:.1}", rate(n, ms)),
            format!("{gb:.0}"),
            format!("{:.0}%", 100.0 * gb / b.yard.gbs),
            verified(self.ok),
        ]);
        let variant = if self.tuned {
            format!("{}_{}", self.variant, self.tuning)
        } else {
            self.variant.to_string()
        };
        let extra = self.scratch_bytes.to_string();
        report::result(&self.algo, &variant, n, ms, rate(n, ms), &extra);
        if !self.ok {
            eprintln!("MISMATCH: {} {} n={n}", self.algo, self.tuning);
            std::process::exit(1);
        }
    }
}
