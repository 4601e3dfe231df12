//! Radix-sort benchmark: `vkalgo-bench sort` (options: `vkalgo-bench sort --help`; end bits
//! other than 0 sort fewer digits: the cost of each pass; key bits other than 0 draw keys below
//! 2^bits, so the digits above are the same in every key: the cost of a pass whose digit is
//! constant).
//!
//! Each repetition restores the unsorted input with a compute copy (not timed: GPU timestamps
//! bracket the sort alone), so every sort sees fresh random data. Verification: the output is
//! sorted and a permutation of the input (pairs: every value, an input index, points at an
//! equal key, in stable order; keys only: exact comparison with a CPU sort up to 2^24, above
//! that sortedness plus multiset fingerprints).

use vkalgo::{Context, KeyType, Result, SortPath, SortTuning, ValueType};
use vkalgo_bench::harness::report::{self, Table};
use vkalgo_bench::harness::{axis, pairs, sized, Axis, Bench, Verdicts};

mod buffers;
mod cases;
mod check;
use buffers::Buffers;

const AXES: &[Axis] = &[
    sized("sizes", "16,20,24,26,28", "12,16,18", "log2 key counts"),
    sized("reps", "20", "3", "timed repetitions (median)"),
    axis(
        "types",
        "u32,pairs,u64,f32",
        "u32, pairs, u64, f32, pairs64, i32, i64, f64",
    ),
    axis("paths", "auto", "auto, onesweep, safe, small"),
    axis(
        "tuning",
        "",
        "workgroup size x keys per invocation[/stage split], e.g. 512x8,512x20/2",
    ),
    axis("end-bits", "0", "end bits (0: all; fewer sort fewer digits)"),
    axis(
        "key-bits",
        "0",
        "keys below 2^bits (0: full range): the cost of a constant digit",
    ),
];

const PATHS: &[(&str, SortPath)] = &[
    ("auto", SortPath::Auto),
    ("onesweep", SortPath::Onesweep),
    ("safe", SortPath::Safe),
    ("small", SortPath::Small),
];

/// The parsed options of the run.
struct Options {
    sizes: Vec<u32>,
    reps: usize,
    types: Vec<String>,
    paths: Vec<SortPath>,
    tunings: Vec<Option<SortTuning>>,
    end_bits: Vec<u32>,
    key_bits: u32,
}

/// Parses the arguments after `sort` against [`AXES`].
fn parse_options(ctx: &Context, args: &[String]) -> Options {
    let o = vkalgo_bench::harness::Options::parse(ctx, "sort", AXES, args);
    let tunings = o.tuning_choices("tuning", |workgroup_size, keys_per_thread, split| {
        Some(SortTuning {
            workgroup_size,
            keys_per_thread,
            lookback_spins: 0,
            stage_split: if split.is_empty() { 1 } else { split.parse().ok()? },
        })
    });
    Options {
        sizes: o.list("sizes"),
        reps: o.get("reps", 1usize).max(1),
        types: o.names("types"),
        paths: o.choices("paths", PATHS),
        tunings,
        end_bits: o.list("end-bits"),
        key_bits: o.get("key-bits", 0),
    }
}

/// Scratch allocated once for every plan of the run (Onesweep needs about 2 MiB).
const SCRATCH_BYTES: u64 = 8 << 20;

/// One benchmarked key type: name in RESULT lines, key type, payload.
fn case(name: &str) -> Option<(&'static str, KeyType, ValueType)> {
    Some(match name {
        "u32" => ("sort_u32", KeyType::U32, ValueType::None),
        "pairs" => ("sort_pairs_u32_u32", KeyType::U32, ValueType::U32),
        "u64" => ("sort_u64", KeyType::U64, ValueType::None),
        "pairs64" => ("sort_pairs_u64_u32", KeyType::U64, ValueType::U32),
        "f32" => ("sort_f32", KeyType::F32, ValueType::None),
        "i32" => ("sort_i32", KeyType::I32, ValueType::None),
        "i64" => ("sort_i64", KeyType::I64, ValueType::None),
        "f64" => ("sort_f64", KeyType::F64, ValueType::None),
        _ => return None,
    })
}

/// One case of the run: a key type (its `--types` name and RESULT name), a size, a path, a
/// tuning and an end bit.
struct Case<'c> {
    type_name: &'c str,
    algo: &'static str,
    key_type: KeyType,
    value_type: ValueType,
    log2: u32,
    path: SortPath,
    tuning: Option<SortTuning>,
    end_bit: u32,
}

/// The sort benchmark's run: the session, the options, the buffers, the table, the verdicts.
struct Sort<'a> {
    b: Bench<'a>,
    o: &'a Options,
    bufs: Buffers,
    table: Table,
    verdicts: Verdicts,
}

/// Runs the sort benchmark with the command-line arguments after `sort`.
pub fn run(ctx: &Context, args: &[String]) -> Result<()> {
    let o = parse_options(ctx, args);
    let table = report::table_of(
        "radix sort (G keys/s; scratch = bytes beyond the keys, values and their alternates)",
        "keys | path | tuning | N | ms | G keys/s | scratch bytes | alternates bytes | verified",
    );
    let b = Bench::new(ctx)?;
    let mut cases = Vec::new();
    for type_name in &o.types {
        let Some(case) = case(type_name) else {
            eprintln!("unknown key type {type_name} (u32, pairs, u64, f32)");
            std::process::exit(2);
        };
        cases.push((type_name.as_str(), case));
    }
    // Every large buffer is allocated once at the largest size any case needs (as an engine
    // would).
    let bufs = Buffers::new(&b, &o, &cases)?;
    let verdicts = Verdicts::default();
    let mut sort = Sort {
        b,
        o: &o,
        bufs,
        table,
        verdicts,
    };
    // Sizes in the outer loop: a small case never follows the seconds of CPU-side verification
    // of a large one, after which the H200's clocks were often still low.
    for &log2 in &o.sizes {
        for &(type_name, (algo, key_type, value_type)) in &cases {
            for &path in &o.paths {
                for (tuning, end_bit) in pairs(&o.tunings, &o.end_bits) {
                    let c = Case {
                        type_name,
                        algo,
                        key_type,
                        value_type,
                        log2,
                        path,
                        tuning,
                        end_bit,
                    };
                    sort.case(&c)?;
                }
            }
        }
    }
    sort.verdicts.finish("a sort produced wrong results");
    Ok(())
}
