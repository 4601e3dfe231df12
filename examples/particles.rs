//! A particle system's bookkeeping on the GPU, each frame recorded into one command buffer, the
//! counts handed from pass to pass on the GPU (no readback between the passes):
//!
//! 1. **compact**: the live particles' (cell, particle) pairs, in order (flagged select);
//! 2. **sort by cell**: the live pairs by their grid cell, stable (radix sort over the cell
//!    bits alone, its count the select's, read on the GPU);
//! 3. **cells**: each occupied cell and how many particles it holds (run-length encoding of the
//!    sorted cells, its count the select's);
//! 4. **cell starts**: where each occupied cell's particles begin in the sorted order (exclusive
//!    scan of the counts, its count the run-length encoding's).
//!
//! A neighbour search or a collision pass then walks each cell's particles from its start. The
//! host moves the particles between frames (they age, die and respawn) and checks each frame's
//! four results exactly against its own.
//!
//! `cargo run --release --example particles -- [particles] [frames]` (default 1,000,000 and 8).
//!
//! For brevity the buffers live in host-visible memory; an engine keeps them device-local and
//! writes the particles with its own simulation pass.

use std::time::Instant;
use vkalgo::ash::vk;
use vkalgo::{
    Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, ReduceByKeyArgs, ReduceByKeyDesc,
    Result, ScanArgs, ScanDesc, ScanOp, SelectArgs, SelectDesc, SelectMode, SortArgs, SortDesc, SortResult,
    ValueType,
};

/// Cells per side of the square grid (a power of two: cell ids take 2 log2(GRID) bits).
const GRID: u32 = 64;
/// Bits of a cell id: the sort looks at these alone.
const CELL_BITS: u32 = 2 * GRID.trailing_zeros();

/// The particles, on the host.
struct Particles {
    pos: Vec<[f32; 2]>,
    vel: Vec<[f32; 2]>,
    /// Frames left to live; 0: dead.
    life: Vec<u32>,
    rng: u64,
}

impl Particles {
    fn new(n: usize) -> Particles {
        let mut p = Particles {
            pos: vec![[0.0; 2]; n],
            vel: vec![[0.0; 2]; n],
            life: vec![0; n],
            rng: 0x9e37_79b9_7f4a_7c15,
        };
        for i in 0..n {
            p.spawn(i);
        }
        p
    }

    /// xorshift64: a dependency-free generator.
    fn next(&mut self) -> u32 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 32) as u32
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// Particle `i` born again: somewhere near the emitter, a short life.
    fn spawn(&mut self, i: usize) {
        let (a, r) = (self.unit() * std::f32::consts::TAU, 0.2 * self.unit());
        self.pos[i] = [0.5 + r * a.cos(), 0.5 + r * a.sin()];
        self.vel[i] = [(self.unit() - 0.5) * 0.02, (self.unit() - 0.5) * 0.02];
        self.life[i] = 1 + self.next() % 12;
    }

    /// One frame: the live ones move (bouncing off the walls) and age; some dead ones respawn.
    fn step(&mut self) {
        for i in 0..self.life.len() {
            if self.life[i] == 0 {
                if self.next() % 4 == 0 {
                    self.spawn(i);
                }
                continue;
            }
            self.life[i] -= 1;
            for d in 0..2 {
                let mut x = self.pos[i][d] + self.vel[i][d];
                if !(0.0..1.0).contains(&x) {
                    self.vel[i][d] = -self.vel[i][d];
                    x = x.clamp(0.0, 0.999_999);
                }
                self.pos[i][d] = x;
            }
        }
    }

    fn cell(&self, i: usize) -> u32 {
        let q = |c: f32| ((c * GRID as f32) as u32).min(GRID - 1);
        q(self.pos[i][1]) * GRID + q(self.pos[i][0])
    }
}

/// One frame's results, as the GPU wrote them or as the host computes them.
#[derive(PartialEq, Debug)]
struct Frame {
    /// The live particles' cells and ids, sorted by cell (stable: ids ascending within a cell).
    sorted_cells: Vec<u32>,
    sorted_ids: Vec<u32>,
    /// The occupied cells, their particle counts and where their particles start.
    cells: Vec<u32>,
    counts: Vec<u32>,
    starts: Vec<u32>,
}

/// The host's version of the frame.
fn cpu_frame(p: &Particles) -> Frame {
    let mut live: Vec<(u32, u32)> = (0..p.life.len())
        .filter(|&i| p.life[i] > 0)
        .map(|i| (p.cell(i), i as u32))
        .collect();
    live.sort_by_key(|&(cell, _)| cell); // stable
    let (mut cells, mut counts, mut starts) = (Vec::new(), Vec::new(), Vec::new());
    for (j, &(cell, _)) in live.iter().enumerate() {
        if cells.last() != Some(&cell) {
            cells.push(cell);
            counts.push(0);
            starts.push(j as u32);
        }
        *counts.last_mut().unwrap() += 1;
    }
    Frame {
        sorted_cells: live.iter().map(|&(c, _)| c).collect(),
        sorted_ids: live.iter().map(|&(_, i)| i).collect(),
        cells,
        counts,
        starts,
    }
}

/// The frame's buffers (host-visible) and the four plans.
struct Gpu<'a> {
    ctx: &'a Context,
    n: u64,
    /// Inputs: every particle's cell and id, and a byte per particle (1: alive).
    cells: GpuBuffer,
    ids: GpuBuffer,
    flags: GpuBuffer,
    /// The live pairs (compacted, then sorted in place or in the alternates).
    live_cells: GpuBuffer,
    live_ids: GpuBuffer,
    alt_cells: GpuBuffer,
    alt_ids: GpuBuffer,
    /// The occupied cells, their counts and starts.
    run_cells: GpuBuffer,
    run_counts: GpuBuffer,
    run_starts: GpuBuffer,
    /// u32 0: the live particles (the select's count); u32 1: the occupied cells.
    counters: GpuBuffer,
    scratch: GpuBuffer,
    select: vkalgo::SelectPlan,
    sort: vkalgo::SortPlan,
    rle: vkalgo::ReduceByKeyPlan,
    scan: vkalgo::ScanPlan,
}

impl<'a> Gpu<'a> {
    fn new(ctx: &'a Context, n: u64) -> Result<Gpu<'a>> {
        let select = ctx.select_plan(&SelectDesc::new(
            KeyType::U32,
            ValueType::U32,
            SelectMode::Flagged,
            n,
        ))?;
        let sort = ctx.sort_plan(&SortDesc {
            end_bit: CELL_BITS,
            ..SortDesc::new(KeyType::U32, ValueType::U32, n)
        })?;
        let rle = ctx.reduce_by_key_plan(&ReduceByKeyDesc::run_length(KeyType::U32, n))?;
        let scan = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, n))?;
        // One scratch buffer serves every pass in turn (each pass is done before the next).
        let scratch_bytes = [
            select.memory_requirements().scratch.size,
            sort.memory_requirements().scratch.size,
            rle.memory_requirements().scratch.size,
            scan.memory_requirements().scratch.size,
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
        .max(16);
        let words = (4 * n).max(16);
        let buffer = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes, MemoryLocation::CpuToGpu, name);
        Ok(Gpu {
            ctx,
            n,
            cells: buffer(words, "particles: cells")?,
            ids: buffer(words, "particles: ids")?,
            flags: buffer(n.next_multiple_of(4).max(16), "particles: alive")?,
            live_cells: buffer(words, "live: cells")?,
            live_ids: buffer(words, "live: ids")?,
            alt_cells: buffer(words, "live: cells (alternate)")?,
            alt_ids: buffer(words, "live: ids (alternate)")?,
            run_cells: buffer(words, "occupied cells")?,
            run_counts: buffer(words, "cell counts")?,
            run_starts: buffer(words, "cell starts")?,
            counters: buffer(16, "counters")?,
            scratch: GpuBuffer::new(ctx, scratch_bytes, MemoryLocation::GpuOnly, "frame scratch")?,
            select,
            sort,
            rle,
            scan,
        })
    }

    /// Writes every particle's cell, id and life flag into the input buffers.
    fn upload(&mut self, p: &Particles) -> Result<()> {
        let n = self.n as usize;
        let cells: Vec<u32> = (0..n).map(|i| p.cell(i)).collect();
        let ids: Vec<u32> = (0..n as u32).collect();
        let flags: Vec<u8> = p.life.iter().map(|&l| u8::from(l > 0)).collect();
        write(&mut self.cells, bytemuck::cast_slice(&cells))?;
        write(&mut self.ids, bytemuck::cast_slice(&ids))?;
        write(&mut self.flags, &flags)
    }

    /// Records and runs the frame's four passes in one submission; returns the results.
    fn frame(&mut self) -> Result<Frame> {
        let n = self.n;
        let ctx = self.ctx;
        let words = |b: &GpuBuffer| b.sub_range(0, 4 * n);
        let live_count = ElementCount::Indirect(self.counters.sub_range(0, 4));
        let cell_count = ElementCount::Indirect(self.counters.sub_range(4, 4));
        let scratch = self.scratch.range();
        let mut sorted_in_alternate = false;
        ctx.submit_and_wait(|cmd| {
            // SAFETY: every range names a live buffer of this context, kept until the wait;
            // a barrier separates each pass from the next (and the last from the host's reads).
            unsafe {
                self.select.record(
                    cmd,
                    &SelectArgs {
                        keys_in: words(&self.cells),
                        values_in: Some(words(&self.ids)),
                        flags: Some(self.flags.range()),
                        keys_out: words(&self.live_cells),
                        values_out: Some(words(&self.live_ids)),
                        selected_count: self.counters.sub_range(0, 4),
                        scratch,
                        count: ElementCount::Direct(n),
                        params: [0; 4],
                    },
                )?;
                pass_barrier(ctx, cmd);
                let sorted = self.sort.record(
                    cmd,
                    &SortArgs {
                        keys: words(&self.live_cells),
                        values: Some(words(&self.live_ids)),
                        keys_alt: words(&self.alt_cells),
                        values_alt: Some(words(&self.alt_ids)),
                        scratch,
                        count: live_count,
                    },
                )?;
                sorted_in_alternate = sorted == SortResult::Alternate;
                let sorted_cells = if sorted_in_alternate {
                    &self.alt_cells
                } else {
                    &self.live_cells
                };
                pass_barrier(ctx, cmd);
                self.rle.record(
                    cmd,
                    &ReduceByKeyArgs {
                        keys_in: words(sorted_cells),
                        values_in: None,
                        keys_out: words(&self.run_cells),
                        values_out: words(&self.run_counts),
                        run_count: self.counters.sub_range(4, 4),
                        scratch,
                        count: live_count,
                    },
                )?;
                pass_barrier(ctx, cmd);
                self.scan.record(
                    cmd,
                    &ScanArgs {
                        input: words(&self.run_counts),
                        output: words(&self.run_starts),
                        scratch,
                        count: cell_count,
                    },
                )?;
                ctx.memory_barrier(
                    cmd,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::AccessFlags::SHADER_WRITE,
                    vk::PipelineStageFlags::HOST,
                    vk::AccessFlags::HOST_READ,
                );
            }
            Ok(())
        })?;
        let counters = read(&mut self.counters, 2)?;
        let (live, occupied) = (counters[0] as usize, counters[1] as usize);
        let (sorted_cells, sorted_ids) = if sorted_in_alternate {
            (read(&mut self.alt_cells, live)?, read(&mut self.alt_ids, live)?)
        } else {
            (read(&mut self.live_cells, live)?, read(&mut self.live_ids, live)?)
        };
        Ok(Frame {
            sorted_cells,
            sorted_ids,
            cells: read(&mut self.run_cells, occupied)?,
            counts: read(&mut self.run_counts, occupied)?,
            starts: read(&mut self.run_starts, occupied)?,
        })
    }
}

/// Between two passes: the first's writes (outputs, counts, scratch) are done and visible to
/// the second's reads and writes.
///
/// # Safety
/// `cmd` must be recording on the context's device.
unsafe fn pass_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    let access =
        vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE;
    let stages = vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
    ctx.memory_barrier(cmd, stages, access, stages, access);
}

fn write(buffer: &mut GpuBuffer, bytes: &[u8]) -> Result<()> {
    let mapped = buffer
        .mapped()
        .ok_or_else(|| Error::Internal("not mapped".into()))?;
    mapped[..bytes.len()].copy_from_slice(bytes);
    Ok(())
}

fn read(buffer: &mut GpuBuffer, words: usize) -> Result<Vec<u32>> {
    let mapped = buffer
        .mapped()
        .ok_or_else(|| Error::Internal("not mapped".into()))?;
    Ok(bytemuck::cast_slice(&mapped[..4 * words]).to_vec())
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let n = args.next().and_then(|a| a.ok()).unwrap_or(1_000_000).max(1);
    let frames = args.next().and_then(|a| a.ok()).unwrap_or(8);
    let ctx = Context::new()?;
    println!(
        "device: {}; {n} particles, {frames} frames, a {GRID}x{GRID} grid",
        ctx.device_name()
    );
    let mut particles = Particles::new(n);
    let mut gpu = Gpu::new(&ctx, n as u64)?;
    for f in 0..frames {
        particles.step();
        gpu.upload(&particles)?;
        let start = Instant::now();
        let got = gpu.frame()?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let want = cpu_frame(&particles);
        if got != want {
            eprintln!("frame {f}: the GPU's results differ from the host's");
            std::process::exit(1);
        }
        println!(
            "frame {f}: {} live particles in {} occupied cells, {ms:.2} ms (submit to results), checked",
            want.sorted_ids.len(),
            want.cells.len()
        );
    }
    Ok(())
}
