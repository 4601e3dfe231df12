//! One timed case, shared by every benchmark: the session ([`Bench`]: context, timer,
//! yardstick), the warm-ups and the timed repetitions between GPU timestamps ([`Timing`],
//! [`Bench::time`]), and the verdicts of a run ([`Verdicts`]).

use ash::vk;
use vkalgo::{BufferRange, Context, GpuBuffer, MemoryLocation, Result};

use super::{full_barrier, median, print_pass_times, yardstick, Timer, Yardstick, MAX_BATCH};

/// How one case is timed: untimed repetitions, then the timed ones in one submission.
#[derive(Clone, Copy)]
pub struct Timing {
    /// Untimed repetitions of setup and work before the timed ones.
    pub warmup: u32,
    /// Timed repetitions (clamped to 1..=[`MAX_BATCH`]).
    pub reps: usize,
    /// The yardstick's warm-up before the untimed repetitions (else between them and the timed).
    pub warm_first: bool,
}

impl Timing {
    /// `warmup` untimed repetitions, the yardstick's warm-up, then `reps` timed ones.
    pub fn warmup_then_warm(warmup: u32, reps: usize) -> Timing {
        Timing {
            warmup,
            reps,
            warm_first: false,
        }
    }

    /// The yardstick's warm-up, `warmup` untimed repetitions, then `reps` timed ones.
    pub fn warm_then_warmup(warmup: u32, reps: usize) -> Timing {
        Timing {
            warmup,
            reps,
            warm_first: true,
        }
    }
}

/// What every benchmark works with: the context, the GPU timer and the process's yardstick.
pub struct Bench<'a> {
    /// The device every benchmark of the process runs on.
    pub ctx: &'a Context,
    /// The GPU timestamps of this benchmark's measurements.
    pub timer: Timer<'a>,
    /// The process's yardstick (copy bandwidth, warm-up).
    pub yard: &'static Yardstick,
}

impl<'a> Bench<'a> {
    /// A timer, then the yardstick (made on first use: before the benchmark's own buffers).
    pub fn new(ctx: &'a Context) -> Result<Self> {
        Self::with_timer(ctx, Timer::new(ctx)?)
    }

    /// The yardstick beside a timer made earlier (for benchmarks that allocate before it).
    pub fn with_timer(ctx: &'a Context, timer: Timer<'a>) -> Result<Self> {
        let yard = yardstick(ctx, &timer)?;
        Ok(Bench { ctx, timer, yard })
    }

    /// A device-local buffer of `bytes` bytes.
    pub fn buffer(&self, bytes: u64, name: &str) -> Result<GpuBuffer> {
        GpuBuffer::new(self.ctx, bytes, MemoryLocation::GpuOnly, name)
    }

    /// A device-local buffer of `bytes` bytes, zeroed on the GPU (a plan's kept-zeroed scratch,
    /// zeroed once before its first call).
    pub fn zeroed_buffer(&self, bytes: u64, name: &str) -> Result<GpuBuffer> {
        let buffer = self.buffer(bytes, name)?;
        self.ctx.submit_and_wait(|cmd| unsafe {
            self.ctx
                .device()
                .cmd_fill_buffer(cmd, buffer.buffer(), 0, vk::WHOLE_SIZE, 0);
            Ok(())
        })?;
        Ok(buffer)
    }

    /// The yardstick's warm-up (sustained copies until the GPU runs at full speed).
    pub fn warm(&self) -> Result<()> {
        self.yard.warm(self.ctx, &self.timer)
    }

    /// The copy on an algorithm's own buffers beside the yardstick's ([`Yardstick::check_buffers`]).
    pub fn check_buffers(
        &self,
        algorithm: &str,
        n: u64,
        src: &BufferRange,
        dst: &BufferRange,
    ) -> Result<(f64, f64)> {
        self.yard
            .check_buffers(self.ctx, &self.timer, algorithm, n, src, dst)
    }

    /// Times one case as `t` says: every repetition records `setup` (untimed; its arguments: the
    /// command buffer, whether the batch is the timed one, the repetition), a full barrier, then
    /// `work` between two timestamps and a full barrier. Returns each timed repetition's
    /// milliseconds of `work` alone.
    pub fn time(
        &self,
        t: Timing,
        mut setup: impl FnMut(vk::CommandBuffer, bool, u32) -> Result<()>,
        mut work: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        if t.warm_first {
            self.warm()?;
        }
        if t.warmup > 0 {
            self.timer
                .time_each(t.warmup, |cmd, rep| setup(cmd, false, rep), &mut work)?;
        }
        if !t.warm_first {
            self.warm()?;
        }
        let reps = t.reps.clamp(1, MAX_BATCH as usize) as u32;
        self.timer
            .time_each(reps, |cmd, rep| setup(cmd, true, rep), &mut work)
    }

    /// [`Bench::time`] with a setup that is the same in every repetition; the median ms.
    pub fn median(
        &self,
        t: Timing,
        mut setup: impl FnMut(vk::CommandBuffer) -> Result<()>,
        mut work: impl FnMut(vk::CommandBuffer) -> Result<()>,
    ) -> Result<f64> {
        let times = self.time(t, |cmd, _, _| setup(cmd), |cmd, _| work(cmd))?;
        Ok(median(times))
    }

    /// Records `count` repetitions in one submission, each: `prep` (untimed), then `work`
    /// between two timestamps, then a full barrier. Returns each repetition's milliseconds of
    /// `work` alone.
    pub fn time_regions(
        &self,
        count: u32,
        mut prep: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
        mut work: impl FnMut(vk::CommandBuffer, u32) -> Result<()>,
    ) -> Result<Vec<f64>> {
        self.timer.regions(|cmd, mark| {
            for rep in 0..count {
                prep(cmd, rep)?;
                mark(cmd);
                work(cmd, rep)?;
                mark(cmd);
                unsafe { full_barrier(self.ctx, cmd) };
            }
            Ok(())
        })
    }

    /// Prints each pass of `record`'s recording with its GPU time (`--pass-times`).
    pub fn pass_times(&self, record: impl FnMut(vk::CommandBuffer) -> Result<()>) -> Result<()> {
        print_pass_times(self.ctx, &self.timer, record)
    }
}

/// Whether every result of a run matched the CPU reference.
#[derive(Default)]
pub struct Verdicts {
    failed: bool,
}

impl Verdicts {
    /// Notes one result's verdict; returns the "verified" cell (`yes` or `NO`).
    pub fn add(&mut self, ok: bool) -> String {
        self.failed |= !ok;
        verified(ok)
    }

    /// Notes one result's verdict without making its cell (for rows that say more than `NO`).
    pub fn note(&mut self, ok: bool) {
        self.failed |= !ok;
    }

    /// Exits with status 1 after `message` when any result was wrong.
    pub fn finish(&self, message: &str) {
        if self.failed {
            eprintln!("{message}");
            std::process::exit(1);
        }
    }
}

/// The "verified" cell of a row: `yes` or `NO`.
pub fn verified(ok: bool) -> String {
    if ok { "yes" } else { "NO" }.to_string()
}

/// Every pair of an entry of `a` and an entry of `b`, `a` in the outer loop.
pub fn pairs<'x, A: Copy, B: Copy>(a: &'x [A], b: &'x [B]) -> impl Iterator<Item = (A, B)> + 'x {
    a.iter().flat_map(move |&x| b.iter().map(move |&y| (x, y)))
}
