//! The benchmark's harness: GPU timestamps ([`Timer`]), the copy-bandwidth yardstick and the
//! warm-up before every timed measurement ([`Yardstick`]), staging transfers and random data,
//! the fresh-input fill, and the median every measurement reports.

mod fresh;
mod timer;
mod transfer;
mod yardstick;

pub use fresh::{mix32, random_values, RandomFill};
pub use timer::{pass_times, print_pass_times, Timer, MAX_BATCH};
pub use transfer::{download, random_u32, upload, STAGING_BYTES};
pub use yardstick::{print_copy_checks, yardstick, Yardstick};

/// Parses a `--tuning` list such as `512x8,256x16` into (workgroup size, per-invocation count)
/// pairs; malformed entries are skipped.
pub fn parse_tunings(value: &str) -> Vec<(u32, u32)> {
    value
        .split(',')
        .filter_map(|t| {
            let (wg, per) = t.trim().split_once('x')?;
            Some((wg.parse().ok()?, per.parse().ok()?))
        })
        .collect()
}

/// The median of `v` (the upper one of an even count), the figure every measurement reports.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}
