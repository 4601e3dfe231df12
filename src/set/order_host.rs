//! Blocking host calls of the sets' order statistics: minimum, maximum, rank and select
//! (through the record layer of src/set/order.rs; one submission per 2^24 queries).

use super::gpu::GpuSet;
use super::layout::SET_SCRATCH_BYTES;
use super::order::{GpuSetMinMaxArgs, GpuSetRankArgs, GpuSetSelectArgs, SET_MIN_MAX_BYTES};
use crate::core::buffer::ElementCount;
use crate::core::runner::{finish_submission, read_back};
use crate::error::{Error, Result};

/// Queries per submission of the host calls.
const QUERIES_PER_SUBMISSION: usize = 1 << 24;

impl GpuSet {
    /// The smallest value of the set, `None` when it is empty.
    pub fn minimum(&self) -> Result<Option<u32>> {
        Ok(self.min_max()?.map(|(lo, _)| lo))
    }

    /// The largest value of the set, `None` when it is empty.
    pub fn maximum(&self) -> Result<Option<u32>> {
        Ok(self.min_max()?.map(|(_, hi)| hi))
    }

    /// The smallest and largest values (one submission), `None` when the set is empty.
    fn min_max(&self) -> Result<Option<(u32, u32)>> {
        if self.known_cardinality() == Some(0) {
            return Ok(None);
        }
        let ctx = &self.ctx;
        let mut out = ctx.readback_buffer(16)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            self.record_min_max(
                cmd,
                &GpuSetMinMaxArgs {
                    out: out.sub_range(0, SET_MIN_MAX_BYTES),
                },
            )?;
            ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, out);
        let mut words = [0u32; 3];
        read_back(&mut out, &mut words)?;
        Ok((words[2] != 0).then_some((words[0], words[1])))
    }

    /// `ranks[i]` = the number of the set's values at or below `values[i]` (CRoaring's
    /// `roaring_bitmap_rank`; up to 2^32 for the full set). Values in any order, duplicates
    /// allowed; `ranks` as long as `values`.
    pub fn rank(&self, values: &[u32], ranks: &mut [u64]) -> Result<()> {
        if ranks.len() != values.len() {
            return Err(Error::invalid("set rank: values and ranks differ in length"));
        }
        let ctx = &self.ctx;
        for (vals, out) in values
            .chunks(QUERIES_PER_SUBMISSION)
            .zip(ranks.chunks_mut(QUERIES_PER_SUBMISSION))
        {
            let n = vals.len() as u64;
            let scratch = ctx.device_buffer(SET_SCRATCH_BYTES, "vkalgo set scratch")?;
            let upload = ctx.staging_from(vals)?;
            let dev_in = ctx.device_buffer(n * 4, "vkalgo set rank queries")?;
            let dev_out = ctx.device_buffer(n * 8, "vkalgo set ranks")?;
            let mut down = ctx.readback_buffer(n * 8)?;
            let done = ctx.submit_and_wait(|cmd| unsafe {
                ctx.record_copy(cmd, &upload, &dev_in, n * 4);
                ctx.transfer_to_compute(cmd);
                self.record_rank(
                    cmd,
                    &GpuSetRankArgs {
                        values: dev_in.range(),
                        count: ElementCount::Direct(n),
                        max_count: n,
                        ranks: dev_out.range(),
                        scratch: scratch.range(),
                    },
                )?;
                ctx.compute_to_transfer(cmd);
                ctx.record_copy(cmd, &dev_out, &down, n * 8);
                ctx.transfer_to_host(cmd);
                Ok(())
            });
            finish_submission!(done, scratch, upload, dev_in, dev_out, down);
            read_back(&mut down, out)?;
        }
        Ok(())
    }

    /// `values[i]` = the set's value of 0-based rank `ranks[i]` (the `ranks[i] + 1`-th
    /// smallest). Ranks in any order, duplicates allowed; `values` as long as `ranks`. A rank at
    /// or above the cardinality: [`Error::InvalidArgument`], and nothing is written to
    /// `values` (refused with no GPU work where the host knows the cardinality, see
    /// [`GpuSet::cardinality`]).
    pub fn select(&self, ranks: &[u64], values: &mut [u32]) -> Result<()> {
        if ranks.len() != values.len() {
            return Err(Error::invalid("set select: ranks and values differ in length"));
        }
        // Refused on the host where the cardinality is known there (or a rank is 2^32 or
        // more), else by the GPU's out-of-range flag.
        let bound = self.known_cardinality().unwrap_or(1 << 32);
        if let Some(&big) = ranks.iter().find(|&&k| k >= bound) {
            return Err(Error::invalid(format!(
                "set select: rank {big} is not below the cardinality"
            )));
        }
        let mut result = Vec::new();
        result
            .try_reserve_exact(ranks.len())
            .map_err(|_| Error::OutOfMemory("set select: too many ranks".into()))?;
        for part in ranks.chunks(QUERIES_PER_SUBMISSION) {
            let mut out = vec![0u32; part.len()];
            if !self.select_part(part, &mut out)? {
                return Err(Error::invalid("set select: a rank is not below the cardinality"));
            }
            result.extend_from_slice(&out);
        }
        values.copy_from_slice(&result);
        Ok(())
    }

    /// One submission of [`GpuSet::select`]: the values of `ranks` into `out`; false when a
    /// rank was out of range.
    fn select_part(&self, ranks: &[u64], out: &mut [u32]) -> Result<bool> {
        let ctx = &self.ctx;
        let n = ranks.len() as u64;
        let scratch = ctx.device_buffer(SET_SCRATCH_BYTES, "vkalgo set scratch")?;
        let upload = ctx.staging_from(ranks)?;
        let dev_in = ctx.device_buffer(n * 8, "vkalgo set select ranks")?;
        let dev_out = ctx.device_buffer(n * 4 + 16, "vkalgo set select values")?;
        let mut down = ctx.readback_buffer(n * 4 + 16)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &upload, &dev_in, n * 8);
            ctx.transfer_to_compute(cmd);
            self.record_select(
                cmd,
                &GpuSetSelectArgs {
                    ranks: dev_in.range(),
                    count: ElementCount::Direct(n),
                    max_count: n,
                    values: dev_out.sub_range(16, n * 4),
                    out_of_range: dev_out.sub_range(0, 4),
                    scratch: scratch.range(),
                },
            )?;
            ctx.compute_to_transfer(cmd);
            ctx.record_copy(cmd, &dev_out, &down, n * 4 + 16);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, scratch, upload, dev_in, dev_out, down);
        let mut words = vec![0u32; ranks.len() + 4];
        read_back(&mut down, &mut words)?;
        out.copy_from_slice(&words[4..]);
        Ok(words[0] == 0)
    }
}
