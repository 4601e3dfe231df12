//! The merge benchmark's sorts: the stable merge sort of random keys, and the radix sort of the
//! same keys beside it.

use super::Run;
use ash::vk;
use vkalgo::{
    ElementCount, KeyType, MergeSortArgs, MergeSortDesc, Result, SortArgs, SortDesc, SortResult, ValueType,
};
use vkalgo_bench::harness::{download, random_u32, upload, Timing};

impl Run<'_> {
    /// The timed sorts of the input (first `n` keys of the input buffer), each after a copy of
    /// it into the work keys (untimed; no untimed repetitions first): the median ms and whether
    /// the sorted keys (where the last sort left them) are `want`.
    fn time_sort(
        &self,
        n: usize,
        want: &[u32],
        mut record: impl FnMut(vk::CommandBuffer) -> Result<SortResult>,
    ) -> Result<(f64, bool)> {
        let nb = n as u64 * 4;
        let (input, work) = (self.in_buf.sub_range(0, nb), self.out_buf.sub_range(0, nb));
        let mut location = SortResult::InPlace;
        let ms = self.b.median(
            Timing::warmup_then_warm(0, self.reps),
            |cmd| unsafe { self.b.ctx.record_compute_copy(cmd, &input, &work) },
            |cmd| {
                location = record(cmd)?;
                Ok(())
            },
        )?;
        let offset = if location == SortResult::Alternate { n } else { 0 };
        let got: Vec<u32> = download(self.b.ctx, &self.out_buf, offset + n)?;
        Ok((ms, got[offset..] == want[..]))
    }

    /// The merge sort of 2^log2 random keys, each tuning, and the radix sort of the same keys.
    pub(super) fn sorts(&self, log2: u32) -> Result<()> {
        let (ctx, n) = (self.b.ctx, 1usize << log2);
        let keys = random_u32(n, log2 as u64 + 77);
        let nb = n as u64 * 4;
        upload(ctx, &self.in_buf, &keys)?;
        let mut want = keys.clone();
        want.sort_unstable();
        let (work, alt) = (self.out_buf.sub_range(0, nb), self.out_buf.sub_range(nb, nb));
        for tuning in &self.options.tunings {
            let plan = ctx.merge_sort_plan(&MergeSortDesc {
                tuning: *tuning,
                ..MergeSortDesc::new(KeyType::U32, ValueType::None, n as u64)
            })?;
            let scratch = self
                .b
                .buffer(plan.memory_requirements().scratch.size, "bench scratch")?;
            let args = MergeSortArgs {
                keys: work,
                values: None,
                keys_alt: alt,
                values_alt: None,
                scratch: scratch.range(),
                count: n as u64,
            };
            let (ms, ok) = self.time_sort(n, &want, |cmd| unsafe { plan.record(cmd, &args) })?;
            let passes = 1 + plan.rounds(n as u64);
            let label = format!("2^{log2} ({passes} passes)");
            let bytes = n as f64 * 8.0 * passes as f64;
            self.row("merge_sort_u32", tuning, n as u64, &label, ms, bytes, ok);
        }
        // The radix sort of the same keys (default tuning and path).
        let plan = ctx.sort_plan(&SortDesc::new(KeyType::U32, ValueType::None, n as u64))?;
        let scratch = self
            .b
            .buffer(plan.memory_requirements().scratch.size.max(16), "bench scratch")?;
        let args = SortArgs {
            keys: work,
            values: None,
            keys_alt: alt,
            values_alt: None,
            scratch: scratch.range(),
            count: ElementCount::Direct(n as u64),
        };
        let (ms, ok) = self.time_sort(n, &want, |cmd| unsafe { plan.record(cmd, &args) })?;
        let label = format!("2^{log2} ({} passes)", plan.pass_count());
        let bytes = n as f64 * 8.0 * plan.pass_count() as f64;
        self.row("radix_sort_u32", &None, n as u64, &label, ms, bytes, ok);
        Ok(())
    }
}
