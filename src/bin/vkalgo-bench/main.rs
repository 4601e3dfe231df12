//! vkalgo benchmark: times every algorithm on the best Vulkan device with GPU timestamps
//! (warm-up, median of repeats, fresh random data, every result verified against the CPU
//! reference) and prints a table per algorithm, with the device's copy bandwidth measured by a
//! compute-shader copy as the yardstick.
//!
//! Usage: `vkalgo-bench [scan|sort|hash|merge] [options]` (scan when no algorithm is named); each
//! algorithm's module documents its options. Each measurement is also printed as a
//! tab-separated `RESULT` line (see bench/compare.py).

mod common;
mod hash;
mod merge;
mod scan;
mod sort;

use vkalgo::{Context, Result};

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
        _ => "scan".to_string(),
    };
    let result = match algorithm.as_str() {
        "scan" => scan::run(&ctx, &args),
        "sort" => sort::run(&ctx, &args),
        "hash" => hash::run(&ctx, &args),
        "merge" => merge::run(&ctx, &args),
        other => {
            eprintln!("unknown algorithm {other} (scan, sort, hash, merge)");
            std::process::exit(2);
        }
    };
    for line in ctx.pipeline_statistics() {
        println!("pipeline statistics: {line}");
    }
    result
}
