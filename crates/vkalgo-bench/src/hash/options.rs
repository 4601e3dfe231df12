//! The hash benchmark's options: its axes (declared as data) and their parsed values.

use vkalgo::{Context, HashTuning};
use vkalgo_bench::harness::{axis, flag, sized, Axis};

/// Every option of `vkalgo-bench hash`.
const AXES: &[Axis] = &[
    sized("log2n", "26", "18", "log2 of the keys inserted, found and erased"),
    axis("loads", "0.5,0.8", "loads (keys per slot)"),
    axis(
        "log2cap",
        "",
        "capacity mode: per load L, L * 2^C keys into a map of 2^C slots (cuco_bench's map C L)",
    ),
    sized("reps", "10", "3", "timed repetitions (median, at most 20)"),
    axis(
        "tuning",
        "",
        "workgroup size x keys per invocation, e.g. 256x1,256x4",
    ),
    axis(
        "buckets",
        "",
        "bucket bytes, e.g. 32,64 (default: the map's choice)",
    ),
    flag("unpacked", "also the unpacked insert"),
    sized(
        "apply-distinct",
        "0,10,20,26",
        "0,8",
        "insert-or-apply (sum) of 2^log2n keys from 2^d distinct ones, each d (empty: skip)",
    ),
    sized("multimap", "4", "", "multimap: values per key (empty: skip)"),
    axis(
        "multimap-log2n",
        "",
        "log2 pairs of the multimap (default: log2n)",
    ),
    axis(
        "multimap-log2cap",
        "",
        "log2 slots of the multimap (default: multimap-log2n + 1)",
    ),
    flag("no-sweep", "skip the load sweep"),
    sized("sweep-log2cap", "27", "20", "log2 slots of the sweep's map"),
    sized("sweep-log2batch", "22", "15", "log2 keys per sweep batch"),
    axis("sweep-to", "0.95", "the sweep's last load"),
    flag("no-churn", "skip the churn"),
    sized("churn-log2n", "24", "16", "log2 live keys of the churn"),
    axis("churn-loads", "0.8,0.9", "the churn's live loads"),
    sized("churn-rounds", "30", "10", "churn rounds (at most 100)"),
];

/// The parsed options of the run.
pub(super) struct Options {
    pub(super) log2n: u32,
    pub(super) loads: Vec<f64>,
    /// Capacity mode: the log2 of every fixed-load map's requested slots.
    pub(super) log2cap: Option<u32>,
    pub(super) reps: u32,
    pub(super) tunings: Vec<Option<HashTuning>>,
    pub(super) buckets: Vec<Option<u32>>,
    pub(super) unpacked: bool,
    /// log2 of the distinct keys of each insert-or-apply case.
    pub(super) apply_distinct: Vec<u32>,
    /// Values per key of the multimap case (`None`: no multimap case).
    pub(super) multimap: Option<u32>,
    pub(super) multimap_log2n: u32,
    pub(super) multimap_log2cap: u32,
    pub(super) sweep: bool,
    pub(super) sweep_log2cap: u32,
    pub(super) sweep_log2batch: u32,
    pub(super) sweep_to: f64,
    pub(super) churn: bool,
    pub(super) churn_log2n: u32,
    pub(super) churn_loads: Vec<f64>,
    pub(super) churn_rounds: u32,
}

impl Options {
    /// Slots of the insert-or-apply map: 2^log2cap, else twice the keys.
    pub(super) fn apply_capacity(&self) -> u64 {
        self.log2cap.map_or(2u64 << self.log2n, |c| 1u64 << c)
    }
}

/// Parses the arguments after `hash` against [`AXES`].
pub(super) fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "hash", AXES, args);
    let tunings = o.tuning_choices("tuning", |workgroup_size, keys_per_invocation, _| {
        Some(HashTuning {
            workgroup_size,
            keys_per_invocation,
        })
    });
    let log2n = o.get("log2n", 26);
    let multimap_log2n = o.get("multimap-log2n", log2n);
    Options {
        log2n,
        loads: o.list("loads"),
        log2cap: o.text("log2cap").trim().parse().ok(),
        reps: o.get("reps", 1u32).clamp(1, 20),
        tunings,
        buckets: o.optional("buckets"),
        unpacked: o.flag("unpacked"),
        apply_distinct: o.list("apply-distinct"),
        multimap: o.text("multimap").trim().parse().ok().filter(|&m| m > 0),
        multimap_log2n,
        multimap_log2cap: o.get("multimap-log2cap", multimap_log2n + 1),
        sweep: !o.flag("no-sweep"),
        sweep_log2cap: o.get("sweep-log2cap", 27),
        sweep_log2batch: o.get("sweep-log2batch", 22),
        sweep_to: o.get("sweep-to", 0.95),
        churn: !o.flag("no-churn"),
        churn_log2n: o.get("churn-log2n", 24),
        churn_loads: o.list("churn-loads"),
        churn_rounds: o.get("churn-rounds", 30u32).clamp(1, 100),
    }
}
