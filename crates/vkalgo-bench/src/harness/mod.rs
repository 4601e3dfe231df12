//! The benchmark's harness: GPU timestamps ([`Timer`]), the copy-bandwidth yardstick and the
//! warm-up before every timed measurement ([`Yardstick`]), one timed case ([`Bench`]: the
//! warm-ups and the timed repetitions as [`Timing`] says, the median every measurement
//! reports), staging transfers and random data, the fresh-input fill and the one-pass primitives' rows
//! ([`FreshInput`], [`StreamRow`]), the one option parser
//! (axes declared as data: [`Axis`], [`Options`]) and the report ([`report`]: Markdown tables,
//! `RESULT` records, the device page and CSV).

mod args;
mod case;
mod fresh;
pub mod report;
mod stream;
mod timer;
mod transfer;
mod yardstick;

pub use args::{axis, flag, sized, Axis, Options};
pub use case::{pairs, verified, Bench, Timing, Verdicts};

pub use fresh::{mix32, random_values, RandomFill};
pub use stream::{FreshInput, StreamRow, STREAM_COLUMNS};
pub use timer::{full_barrier, pass_times, print_pass_times, Timer, MAX_BATCH};
pub use transfer::{download, random_u32, upload, STAGING_BYTES};
pub use yardstick::{print_copy_checks, yardstick, Yardstick};

/// The median of `v` (the upper one of an even count), the figure every measurement reports.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}
