//! vkalgo benchmark: times every algorithm on the best Vulkan device with GPU timestamps
//! (warm-up, median of repeats, fresh random data, every result verified against the CPU
//! reference) and prints a table per algorithm, with the device's copy bandwidth measured by a
//! compute-shader copy as the yardstick.
//!
//! Usage: `vkalgo-bench [scan|sort|hash|multisplit|merge|set|memory|large] [options]` (every algorithm, one
//! after the other in this one process, when none is named; `memory` is the memory-speed probe,
//! `large` the check of counts past 2^31); each
//! algorithm's module documents its options. Each measurement is also printed as a
//! tab-separated `RESULT` line (see bench/compare.py).

mod cache;
mod hash;
mod memory;
mod merge;
mod scan;
mod set;
mod sort;
mod split;

use vkalgo::{Context, Result};

/// The benchmarked algorithms, in the order `vkalgo-bench` (no algorithm named) runs them.
type RunFn = fn(&Context, &[String]) -> Result<()>;
const ALGORITHMS: &[(&str, RunFn)] = &[
    ("scan", scan::run),
    ("sort", sort::run),
    ("hash", hash::run),
    ("merge", merge::run),
    ("set", set::run),
    ("multisplit", split::run),
];

fn main() -> Result<()> {
    let ctx = Context::new()?;
    let p = ctx.profile();
    println!(
        "device: {} ({:?}), Vulkan {}, driver {}",
        p.device_name,
        p.device_type,
        p.api_version_string(),
        p.driver
    );
    println!(
        "subgroup {}..{}, shared memory {} KiB, look-back policy {}",
        p.min_subgroup_size,
        p.max_subgroup_size,
        p.max_shared_memory / 1024,
        if p.lookback { "on" } else { "off" }
    );
    if !p.timestamps {
        return Err(vkalgo::Error::Unsupported("the queue has no timestamps".into()));
    }
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let algorithm = match args.first() {
        Some(a) if !a.starts_with("--") => args.remove(0),
        _ => "all".to_string(),
    };
    let result = match algorithm.as_str() {
        // Every algorithm at its default sizes, in this one process (options go to each).
        "all" => ALGORITHMS.iter().try_for_each(|(_, run)| run(&ctx, &args)),
        "memory" => memory::run(&ctx, &args),
        "cache" => cache::run(&ctx, &args),
        other => match ALGORITHMS.iter().find(|(name, _)| *name == other) {
            Some((_, run)) => run(&ctx, &args),
            None => {
                let names: Vec<&str> = ALGORITHMS.iter().map(|(n, _)| *n).collect();
                eprintln!(
                    "unknown algorithm {other} (all, memory, cache, {})",
                    names.join(", ")
                );
                std::process::exit(2);
            }
        },
    };
    vkalgo_bench::harness::print_copy_checks();
    for line in ctx.pipeline_statistics() {
        println!("pipeline statistics: {line}");
    }
    result
}
