//! A join, end to end: two tables of (u32 key, u32 payload) rows, R and S (S's keys drawn from
//! R's with a Zipf-like skew, one in ten a miss), joined on the GPU with the hash multimap
//! (build on R, count and retrieve S's matches, the (R payload, S payload) pairs written on the
//! GPU), checked against a CPU hash join; then a group-by of S (the sum of its payloads per
//! key, insert-or-apply) checked against the CPU's sums.
//!
//! `cargo run --release --example hash_join -- [--log2r 24] [--log2s 26] [--seed N] [--reps 5]
//! [--warm-up-ms 1000]`
//!
//! Every phase runs through vkalgo's record layer between GPU timestamps (hash_join/gpu.rs);
//! the median of `--reps` repetitions after a warm-up is printed per phase, with `RESULT
//! vkalgo join_<phase>` lines that bench/gpu_join.sh sets beside bench/cuda/cuco_join.cu's
//! (the same join with cuCollections on the same rows: hash_join/data.rs).

// The example's parts, one concern each, in examples/hash_join/.
#[path = "hash_join/cpu.rs"]
mod cpu;
#[path = "hash_join/data.rs"]
mod data;
#[path = "hash_join/gpu.rs"]
mod gpu;
#[path = "hash_join/timer.rs"]
mod timer;

use std::time::Instant;
use vkalgo::Context;

/// The command line: `--log2r`, `--log2s`, `--seed`, `--reps`, `--warm-up-ms`.
struct Args {
    /// log2 of R's rows.
    log2r: u32,
    /// log2 of S's rows.
    log2s: u32,
    /// The tables' seed.
    seed: u32,
    /// Timed repetitions.
    reps: usize,
    /// Milliseconds of untimed repetitions first (at least one): a GPU raises its clocks only
    /// under sustained work (docs/tuning/hash.md#warm-clocks).
    warm_up_ms: u32,
}

/// Parses the command line; exits with the usage on anything else.
fn parse_args() -> Args {
    let mut a = Args {
        log2r: 24,
        log2s: 26,
        seed: 1,
        reps: 5,
        warm_up_ms: 1000,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u32>().ok());
        match (pair[0].as_str(), value) {
            ("--log2r", Some(v)) if (2..=30).contains(&v) => a.log2r = v,
            ("--log2s", Some(v)) if v <= 30 => a.log2s = v,
            ("--seed", Some(v)) => a.seed = v,
            ("--reps", Some(v)) if v >= 1 => a.reps = v as usize,
            ("--warm-up-ms", Some(v)) => a.warm_up_ms = v,
            _ => {
                eprintln!(
                    "usage: hash_join [--log2r 2..=30] [--log2s 0..=30] [--seed N] [--reps N] [--warm-up-ms N]"
                );
                std::process::exit(2);
            }
        }
    }
    a
}

/// The median of `v` (the upper one of an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The group-by's check: the map holds exactly S's keys, each with its sum.
fn check_groups(join: &gpu::Join, s: &data::Table) -> vkalgo::Result<Result<(), String>> {
    let want = cpu::group_by(s);
    let keys: Vec<u32> = want.keys().copied().collect();
    let mut sums = vec![0u32; keys.len()];
    join.groups().find(&keys, &mut sums, None)?;
    let size = join.groups().size()?;
    if size != keys.len() as u64 {
        return Ok(Err(format!("{size} keys, expected {}", keys.len())));
    }
    Ok(match keys.iter().zip(&sums).find(|(k, &sum)| want[k] != sum) {
        Some((k, sum)) => Err(format!("key {k:#x}: sum {sum}, expected {}", want[k])),
        None => Ok(()),
    })
}

/// Prints the phases' table and their `RESULT` lines (extra: the pairs and the tables'
/// checksum, which bench/cuda/cuco_join.cu prints the same way).
fn report(a: &Args, ms: &[f64; 4], pairs: u64, tables: u32) {
    let (nr, ns) = (1u64 << a.log2r, 1u64 << a.log2s);
    let variant = format!("r2^{}_s2^{}", a.log2r, a.log2s);
    // Rows each phase handles: R's rows built, S's rows probed (the retrieve writes the pairs).
    let rows = [nr, ns, ns, ns];
    let join_ms: f64 = ms[..3].iter().sum();
    let lines = gpu::PHASES
        .iter()
        .zip(ms.iter().zip(rows))
        .map(|(&p, (&m, n))| (p, m, n))
        .chain([("total", join_ms, nr + ns)]);
    println!("\n| phase | ms | rows/s |\n|---|---:|---:|");
    for (phase, ms, n) in lines {
        let rate = n as f64 / (ms * 1e-3);
        println!("| {phase} | {ms:.3} | {rate:.3e} |");
        println!(
            "RESULT\tvkalgo\tjoin_{phase}\t{variant}\t{n}\t{ms:.6}\t{:.4}\tpairs={pairs};tables={tables:#010x}",
            rate / 1e9
        );
    }
    println!("(total: the join, build to retrieve; the group-by apart)");
}

/// Generates the tables, joins and groups them on the GPU and on the CPU, compares, reports.
fn main() -> vkalgo::Result<()> {
    let a = parse_args();
    let ctx = Context::new()?;
    println!("device: {}", ctx.device_name());
    let started = Instant::now();
    let (r, s) = data::tables(a.log2r, a.log2s, a.seed);
    let reference = cpu::CpuJoin::new(&r, &s);
    let tables = data::checksum(&r, &s);
    println!(
        "R: {} rows, S: {} rows (checksum {tables:#010x}), {} joined pairs (tables and CPU join in {:.1} s)",
        r.keys.len(),
        s.keys.len(),
        reference.total,
        started.elapsed().as_secs_f64()
    );
    let mut join = gpu::Join::new(&ctx, &r, &s)?;
    let timer = timer::Timer::new(&ctx)?;
    let warming = Instant::now();
    let mut warm_ups = 0;
    while warm_ups == 0 || warming.elapsed().as_millis() < a.warm_up_ms as u128 {
        join.run(&timer)?;
        warm_ups += 1;
    }
    println!(
        "warm-up: {warm_ups} untimed repetitions in {:.2} s",
        warming.elapsed().as_secs_f64()
    );
    let mut runs = Vec::new();
    let mut pairs = 0;
    for _ in 0..a.reps {
        let (ms, p) = join.run(&timer)?;
        runs.push(ms);
        pairs = p;
    }
    let ms: [f64; 4] = std::array::from_fn(|i| median(runs.iter().map(|r| r[i]).collect()));
    let e = join.pairs.as_ref().expect("made by run");
    let offsets = timer::download(&ctx, &join.offsets, join.s_rows() as usize + 1)?;
    let out_r = timer::download(&ctx, &e.out_r, pairs as usize)?;
    let out_s = timer::download(&ctx, &e.out_s, pairs as usize)?;
    let joined = reference.check(&s, &offsets, &out_r, &out_s);
    let grouped = check_groups(&join, &s)?;
    report(&a, &ms, pairs, tables);
    let mut failed = false;
    for (what, verdict) in [("join", joined), ("group-by", grouped)] {
        match verdict {
            Ok(()) => println!("{what}: matches the CPU"),
            Err(e) => {
                eprintln!("{what}: MISMATCH: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
    Ok(())
}
