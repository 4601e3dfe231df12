//! vkalgo benchmark: times every algorithm on the best Vulkan device with GPU timestamps
//! (warm-up, median of repeats, fresh random data, every result verified against the CPU
//! reference) and prints a Markdown table per algorithm, with the device's copy bandwidth
//! measured by a compute-shader copy as the yardstick.
//!
//! Usage: `vkalgo-bench [ALGORITHM] [options] [--markdown FILE] [--csv FILE]`. ALGORITHM is one
//! of [`ALGORITHMS`] (every one of them, one after the other in this one process, when none is
//! named), `memory` (the memory-speed probe) or `cache` (first-use latency with and without a
//! saved pipeline cache); `vkalgo-bench ALGORITHM --help` lists its options (each benchmark
//! declares them as data). Each measurement is also printed as a tab-separated `RESULT` line
//! (bench/compare.py). `--markdown` writes the run's tables as a device page (see
//! docs/benchmarks/README.md), `--csv` every measurement.

mod cache;
mod hash;
mod histogram;
mod memory;
mod merge;
mod realdata;
mod reduce;
mod reduce_by_key;
mod scan;
mod segmented_sort;
mod select;
mod set;
mod sort;
mod split;

use vkalgo::{Context, Result};
use vkalgo_bench::harness::{print_copy_checks, report};

/// The benchmarked algorithms, in the order `vkalgo-bench` (no algorithm named) runs them.
type RunFn = fn(&Context, &[String]) -> Result<()>;
const ALGORITHMS: &[(&str, RunFn)] = &[
    ("scan", scan::run),
    ("reduce", reduce::run),
    ("histogram", histogram::run),
    ("select", select::run),
    ("reduce_by_key", reduce_by_key::run),
    ("sort", sort::run),
    ("segmented_sort", segmented_sort::run),
    ("hash", hash::run),
    ("merge", merge::run),
    ("set", set::run),
    ("multisplit", split::run),
];

/// The probes beside the algorithms (run only when named).
const PROBES: &[(&str, RunFn)] = &[
    ("memory", memory::run),
    ("cache", cache::run),
    ("realdata", realdata::run),
];

/// Takes `--name FILE` out of `args`.
fn take_file(args: &mut Vec<String>, name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.remove(i);
    (i < args.len()).then(|| args.remove(i))
}

fn main() -> Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let markdown = take_file(&mut args, "--markdown");
    let csv = take_file(&mut args, "--csv");
    let command = std::iter::once("vkalgo-bench".to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let algorithm = match args.first() {
        Some(a) if !a.starts_with("--") => args.remove(0),
        _ => "all".to_string(),
    };
    let run: Option<RunFn> = ALGORITHMS
        .iter()
        .chain(PROBES)
        .find(|(name, _)| *name == algorithm)
        .map(|&(_, run)| run);
    if run.is_none() && algorithm != "all" {
        let names: Vec<&str> = ALGORITHMS.iter().chain(PROBES).map(|(n, _)| *n).collect();
        eprintln!("unknown algorithm {algorithm} (all, {})", names.join(", "));
        std::process::exit(2);
    }
    let ctx = Context::new()?;
    let p = ctx.profile();
    let device = format!(
        "device: {} ({:?}), Vulkan {}, driver {}",
        p.device_name,
        p.device_type,
        p.api_version_string(),
        p.driver
    );
    let limits = format!(
        "subgroup {}..{}, shared memory {} KiB, look-back policy {}",
        p.min_subgroup_size,
        p.max_subgroup_size,
        p.max_shared_memory / 1024,
        if p.lookback { "on" } else { "off" }
    );
    println!("{device}\n{limits}");
    if !p.timestamps {
        return Err(vkalgo::Error::Unsupported("the queue has no timestamps".into()));
    }
    let result = match run {
        Some(run) => run(&ctx, &args),
        // Every algorithm at its default sizes, in this one process (options go to each).
        None => ALGORITHMS.iter().try_for_each(|(_, run)| run(&ctx, &args)),
    };
    print_copy_checks();
    for line in ctx.pipeline_statistics() {
        println!("pipeline statistics: {line}");
    }
    if let Some(path) = markdown {
        let heading = format!(
            "# vkalgo on {}\n\nDate: {}. {device}; {limits}.\n\nCommand: `{command}` (vkalgo {}). GPU timestamps, \
             medians of repetitions after a warm-up, every result verified against the CPU; \
             regenerate with the command above (docs/benchmarks/README.md).\n",
            p.device_name,
            report::utc_date(),
            env!("CARGO_PKG_VERSION")
        );
        std::fs::write(&path, report::markdown(&heading))
            .map_err(|e| vkalgo::Error::Internal(format!("{path}: {e}")))?;
    }
    if let Some(path) = csv {
        std::fs::write(&path, report::csv()).map_err(|e| vkalgo::Error::Internal(format!("{path}: {e}")))?;
    }
    result
}
