//! The set benchmark's queries of the first operand: contains, filter, to_array, the
//! cardinality of the whole universe and of a range, and the host calls.

use super::*;
use vkalgo::{
    ElementCount, GpuSetContainsArgs, GpuSetFilterArgs, GpuSetRangeCardinalityArgs, GpuSetToArrayArgs,
};
use vkalgo_bench::harness::{download, median};

impl Set<'_> {
    /// contains of the values of b (`q`) in a, into `flags`; returns the flags.
    pub(super) fn contains(
        &self,
        case: &str,
        a: &GpuSet,
        (va, vb): (&[u32], &[u32]),
        q: &GpuBuffer,
        flags: &GpuBuffer,
    ) -> Result<Vec<u32>> {
        let args = GpuSetContainsArgs {
            values: q.range(),
            count: ElementCount::Direct(vb.len() as u64),
            max_count: vb.len() as u64,
            flags: flags.range(),
        };
        let times = self.time(self.pass_times, |cmd| unsafe { a.record_contains(cmd, &args) })?;
        let got: Vec<u32> = download(self.b.ctx, flags, vb.len())?;
        let hits = got.iter().filter(|&&f| f == 1).count();
        assert_eq!(hits, merge(va, vb, SetOp::And).len(), "contains");
        result_line("contains", case, vb.len(), median(times), "");
        Ok(got)
    }

    /// filter of the same queries: the values in the set kept in input order (`flags`: what
    /// contains found).
    pub(super) fn filter(
        &self,
        case: &str,
        a: &GpuSet,
        vb: &[u32],
        q: &GpuBuffer,
        flags: &[u32],
    ) -> Result<()> {
        let ctx = self.b.ctx;
        let kept = GpuBuffer::new(ctx, vb.len() as u64 * 4, MemoryLocation::GpuOnly, "bench kept")?;
        let args = GpuSetFilterArgs::new(
            q.range(),
            ElementCount::Direct(vb.len() as u64),
            vb.len() as u64,
            kept.range(),
            self.status.sub_range(200, 4),
            self.scratch.range(),
        );
        let times = self.time(self.pass_times, |cmd| unsafe { a.record_filter(cmd, &args) })?;
        let kept_count = download::<u32>(ctx, &self.status, 51)?[50] as usize;
        let want: Vec<u32> = vb
            .iter()
            .zip(flags)
            .filter(|(_, &f)| f == 1)
            .map(|(&v, _)| v)
            .collect();
        let got_kept: Vec<u32> = download(ctx, &kept, kept_count)?;
        assert!(got_kept == want, "filter");
        result_line("filter", case, vb.len(), median(times), "");
        Ok(())
    }

    /// to_array of a into `out`.
    pub(super) fn to_array(&self, case: &str, a: &GpuSet, va: &[u32], out: &GpuBuffer) -> Result<()> {
        let args = GpuSetToArrayArgs {
            out: out.range(),
            capacity: va.len() as u64,
            count_out: self.status.sub_range(192, 8),
            scratch: self.scratch.range(),
        };
        let times = self.time(self.pass_times, |cmd| unsafe { a.record_to_array(cmd, &args) })?;
        let got: Vec<u32> = download(self.b.ctx, out, va.len())?;
        assert!(got == va, "to_array");
        result_line("to_array", case, va.len(), median(times), "");
        Ok(())
    }

    /// The cardinality of a (of the whole universe) and of a range over half of it, recorded;
    /// then the host calls, wall clock: answered on the host once a first call counted the set
    /// (`cardinality_host`), and a count on the GPU from the host, submission and wait
    /// included (`cardinality_host_counted`).
    pub(super) fn cardinalities(&self, case: &str, a: &GpuSet, va: &[u32]) -> Result<()> {
        for (name, begin, end) in [
            ("cardinality", 0u64, 1u64 << 32),
            ("range_cardinality", RANGE.0, RANGE.1),
        ] {
            let out = self.status.sub_range(208, 8);
            let args = GpuSetRangeCardinalityArgs { begin, end, out };
            let times = self.time(self.pass_times, |cmd| unsafe {
                a.record_range_cardinality(cmd, &args)
            })?;
            let words: Vec<u32> = download(self.b.ctx, &self.status, 54)?;
            let want = va.iter().filter(|&&v| (begin..end).contains(&(v as u64))).count() as u64;
            assert_eq!(words[52] as u64 | (words[53] as u64) << 32, want, "{name}");
            result_line(name, case, va.len(), median(times), "");
        }
        let want = va.len() as u64;
        assert_eq!(a.cardinality()?, want, "cardinality()");
        for (name, counted) in [("cardinality_host", false), ("cardinality_host_counted", true)] {
            let mut times = Vec::with_capacity(self.reps as usize);
            for _ in 0..self.reps.max(1) {
                let start = std::time::Instant::now();
                let got = if counted {
                    a.counted_cardinality()?
                } else {
                    a.cardinality()?
                };
                times.push(start.elapsed().as_secs_f64() * 1e3);
                assert_eq!(got, want, "{name}");
            }
            result_line(name, case, va.len(), median(times), "wall clock");
        }
        Ok(())
    }
}
