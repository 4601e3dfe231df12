//! GPU timing of recorded work with timestamp queries, and the per-pass times of a recording.

use ash::vk;
use vkalgo::{Context, Result};

use super::median;

/// Most repetitions timed back to back in one submission.
pub const MAX_BATCH: u32 = 64;
/// Timestamps one submission can write.
const TIMESTAMPS: u32 = 256;

/// GPU timing of recorded work with timestamp queries: every measurement of the benchmark
/// goes through [`Timer::timestamps`].
pub struct Timer<'a> {
    ctx: &'a Context,
    pool: vk::QueryPool,
}

impl<'a> Timer<'a> {
    pub fn new(ctx: &'a Context) -> Result<Self> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(TIMESTAMPS);
        let pool = unsafe { ctx.device().create_query_pool(&info, None) }
            .map_err(|e| vkalgo::Error::vk("vkCreateQueryPool", e))?;
        Ok(Timer { ctx, pool })
    }

    /// Records `body` in one submission; `body` gets the query pool and writes timestamps into
    /// it from query 0 on, returning how many. Returns each timestamp in milliseconds after
    /// the first.
    pub fn timestamps(
        &self,
        body: impl FnOnce(vk::CommandBuffer, vk::QueryPool) -> Result<u32>,
    ) -> Result<Vec<f64>> {
        let d = self.ctx.device();
        let mut used = 0;
        self.ctx.submit_and_wait(|cmd| unsafe {
            d.cmd_reset_query_pool(cmd, self.pool, 0, TIMESTAMPS);
            used = body(cmd, self.pool)?;
            Ok(())
        })?;
        assert!(used <= TIMESTAMPS, "too many timestamps");
        let mut stamps = vec![0u64; used as usize];
        if used > 0 {
            unsafe {
                d.get_query_pool_results(
                    self.pool,
                    0,
                    &mut stamps,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            }
            .map_err(|e| vkalgo::Error::vk("vkGetQueryPoolResults", e))?;
        }
        let period = self.ctx.profile().timestamp_period as f64 / 1e6;
        Ok(stamps
            .iter()
            .map(|&t| t.wrapping_sub(stamps[0]) as f64 * period)
            .collect())
    }

    /// Records `body` in one submission; `body` calls `mark` to start and to end each timed
    /// region (a timestamp once everything before it has completed). Returns each region's
    /// milliseconds.
    pub fn regions(
        &self,
        mut body: impl FnMut(vk::CommandBuffer, &mut dyn FnMut(vk::CommandBuffer)) -> Result<()>,
    ) -> Result<Vec<f64>> {
        let d = self.ctx.device();
        let times = self.timestamps(|cmd, pool| {
            let mut used = 0u32;
            let mut mark = |cmd: vk::CommandBuffer| {
                assert!(used < TIMESTAMPS, "too many timestamps");
                unsafe { d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, used) };
                used += 1;
            };
            body(cmd, &mut mark)?;
            Ok(used)
        })?;
        assert!(times.len() % 2 == 0, "unbalanced timed regions");
        Ok(times.chunks(2).map(|w| w[1] - w[0]).collect())
    }

    /// Records `reps` repetitions back to back in one submission (a full barrier between
    /// them, so each starts after the previous one ends, as stream-ordered CUDA launches do)
    /// and returns each repetition's GPU milliseconds.
    pub fn time_batch(
        &self,
        reps: u32,
        mut record: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        self.time_each(reps, |_, _| Ok(()), &mut record)
    }

    /// Records `reps` repetitions of `setup` then `work` in one submission (full barriers
    /// between all of them) and returns each repetition's GPU milliseconds of `work` alone
    /// (e.g. a sort timed without the copy that restores its unsorted input).
    pub fn time_each(
        &self,
        reps: u32,
        mut setup: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
        mut work: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        assert!((1..=MAX_BATCH).contains(&reps));
        self.regions(|cmd, mark| {
            for rep in 0..reps {
                setup(cmd, rep)?;
                unsafe { full_barrier(self.ctx, cmd) };
                mark(cmd);
                work(cmd, rep)?;
                mark(cmd);
                unsafe { full_barrier(self.ctx, cmd) };
            }
            Ok(())
        })
    }
}

/// Everything earlier in the queue is complete and visible before what follows (the barrier
/// between every two repetitions of a measurement).
///
/// # Safety
/// `cmd` is recording on `ctx`'s device.
pub unsafe fn full_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    let all = vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
    let stages = vk::PipelineStageFlags::ALL_COMMANDS;
    ctx.memory_barrier(cmd, stages, all, stages, all);
}

/// The passes of `record`'s recording, each as (shader name, GPU milliseconds: from the end of
/// the dispatch before it), the median of `reps` recordings, each in its own submission.
pub fn pass_times(
    ctx: &Context,
    timer: &Timer,
    reps: usize,
    mut record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<Vec<(&'static str, f64)>> {
    let mut names = Vec::new();
    let mut runs: Vec<Vec<f64>> = Vec::new();
    for _ in 0..reps.max(1) {
        let stamps = timer.timestamps(|cmd, pool| {
            // SAFETY: the pool's queries were reset in this submission; the marks end below.
            unsafe {
                full_barrier(ctx, cmd);
                ctx.device()
                    .cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 0);
                ctx.begin_dispatch_marks(pool, 1, TIMESTAMPS);
            }
            let recorded = record(cmd);
            names = ctx.end_dispatch_marks();
            recorded?;
            Ok(1 + names.len() as u32)
        })?;
        runs.push(stamps.windows(2).map(|w| w[1] - w[0]).collect());
    }
    Ok(names
        .iter()
        .enumerate()
        .map(|(i, &name)| (name, median(runs.iter().map(|r| r[i]).collect())))
        .collect())
}

/// Prints each pass of `record`'s recording with its GPU time (the benchmarks' `--pass-times`),
/// the median of 5 recordings, as rows under the case's row.
pub fn print_pass_times(
    ctx: &Context,
    timer: &Timer,
    record: impl FnMut(vk::CommandBuffer) -> Result<()>,
) -> Result<()> {
    for (name, ms) in pass_times(ctx, timer, 5, record)? {
        println!("|   pass | {name} | {ms:.4} ms |");
    }
    Ok(())
}

impl Drop for Timer<'_> {
    fn drop(&mut self) {
        unsafe { self.ctx.device().destroy_query_pool(self.pool, None) };
    }
}
