//! The shader permutation table: every structural variant of every pass, compiled by
//! `cargo xtask shaders`. Tuning values are specialization constants chosen at pipeline
//! creation, not permutations.
//!
//! A permutation is either standalone (the library names it by its constant, e.g.
//! `shaders::SET_CLASSIFY`) or a member of a family: a table indexed by typed axes (kernel, key
//! width, payload, bucket function...), from which the generator writes the axis enums and one
//! lookup function per family (`shaders::sort(SortKernel::Onesweep, KeyBits::K32,
//! ValueWords::V1)`). No shader is found by a name built at run time.

/// One axis of a family: the Rust enum the generator writes and its variants, each with the
/// one-line doc comment it gets.
pub struct Axis {
    pub name: &'static str,
    pub param: &'static str,
    pub doc: &'static str,
    pub variants: &'static [(&'static str, &'static str)],
}

/// A family of permutations: its lookup function, its table and the axes that index it.
pub struct Family {
    pub function: &'static str,
    pub doc: &'static str,
    pub axes: &'static [&'static Axis],
}

/// One permutation: name (the pipeline's debug name, stable), source under glsl/, defines, and
/// its place in a family (None: standalone).
pub struct Permutation {
    pub name: String,
    pub file: &'static str,
    pub defines: Vec<(&'static str, String)>,
    pub slot: Option<(&'static Family, Vec<usize>)>,
}

pub const KEY_BITS: Axis = Axis {
    name: "KeyBits",
    param: "key",
    doc: "Key width of a permutation (KEY_BITS).",
    variants: &[("K32", "4-byte keys."), ("K64", "8-byte keys.")],
};
pub const VALUE_WORDS: Axis = Axis {
    name: "ValueWords",
    param: "values",
    doc: "Payload of a permutation (VALUE_WORDS): none, u32 or u64 values.",
    variants: &[
        ("V0", "Keys alone."),
        ("V1", "4-byte values."),
        ("V2", "8-byte values."),
    ],
};
pub const BUCKET_FN: Axis = Axis {
    name: "BucketFnKind",
    param: "bucket_fn",
    doc: "The multisplit's built-in bucket functions (BUCKET_FN; GLSL ones compile at run time).",
    variants: &[
        ("Bits", "A bit field of the key."),
        ("Splitters", "Sorted splitters."),
        ("Ids", "Per-element bucket ids."),
    ],
};
pub const SORT_KERNEL: Axis = Axis {
    name: "SortKernel",
    param: "kernel",
    doc: "The radix sort's kernels (glsl/sort/).",
    variants: &[
        (
            "HistogramScan",
            "Digit histograms scanned into bucket starts (32-bit keys alone).",
        ),
        ("Histogram", "Digit histograms of every pass (keys alone)."),
        ("Upsweep", "Per-tile digit counts of the safe path (keys alone)."),
        ("Onesweep", "One pass of ranking and scatter with look-back."),
        (
            "OnesweepClock",
            "Onesweep with per-phase clock counters (diagnostics).",
        ),
        ("Downsweep", "The safe path's ranking and scatter."),
        ("Small", "The one-workgroup sort."),
        ("Resident", "The shared-memory-resident one-workgroup sort."),
        (
            "ResidentAll",
            "The resident sort for counts that use every ranking step.",
        ),
        ("BlockMerge", "The one-workgroup block merge sort of 8-byte keys."),
    ],
};
pub const SPLIT_KERNEL: Axis = Axis {
    name: "SplitKernel",
    param: "kernel",
    doc: "The multisplit's kernels (glsl/split/, and glsl/sort/ for Onesweep).",
    variants: &[
        ("Offsets", "Bucket offsets from the counts."),
        (
            "OnesweepHistogram",
            "The sort's histogram with the bucket as digit.",
        ),
        ("SplitterIndex", "The splitter index of a split by splitters."),
        ("BucketStarts", "Bucket starts of a two-pass Onesweep split."),
        ("Onesweep", "The sort's Onesweep pass with the bucket as digit."),
        ("Histogram", "Per-tile bucket counts of the global-counter path."),
        ("TileCount", "Per-tile bucket counts of the tile paths."),
        ("Small", "The one-workgroup multisplit."),
        ("Scatter", "The global-counter path's scatter."),
        ("TileScatter", "The tile paths' scatter."),
    ],
};
pub const MERGE_KERNEL: Axis = Axis {
    name: "MergeKernel",
    param: "kernel",
    doc: "The merge family's kernels (glsl/merge/).",
    variants: &[
        ("Partition", "Merge-path partition of the tiles."),
        ("Check", "Sortedness check of the inputs."),
        ("SetOpCount", "Set operation: count each tile's output."),
        ("SetOpWrite", "Set operation: write each tile's output."),
        ("SetOpLookback", "Set operation in one pass with look-back."),
        ("Merge", "Merge of two sorted sequences."),
        ("BlockSort", "The merge sort's block sort."),
        ("Fused", "Merge with its tile table fused."),
    ],
};
pub const HASH_OP: Axis = Axis {
    name: "HashOp",
    param: "op",
    doc: "The hash map's kernels (glsl/hash/).",
    variants: &[
        ("Insert", "Insert or assign."),
        ("Migrate", "Insert of a rehash's live entries."),
        ("Find", "Find (and contains)."),
        ("Erase", "Erase."),
        ("Retrieve", "Every live entry."),
        (
            "Apply",
            "Insert or apply an operation to the stored value (group-by).",
        ),
        (
            "ApplyShared",
            "Insert-or-apply with a workgroup's equal keys combined in shared memory first.",
        ),
        (
            "Reclaim",
            "Tombstones no stored key needs turned back into empty slots.",
        ),
        ("MultimapInsert", "Multimap: store every pair."),
        ("MultimapCount", "Multimap: the pairs of each key, counted."),
        (
            "MultimapRetrieve",
            "Multimap: the values of each key, written at its offset.",
        ),
    ],
};
pub const HASH_VALUE_BITS: Axis = Axis {
    name: "HashValueBits",
    param: "value",
    doc: "Value width of a hash map (VALUE_BITS).",
    variants: &[("V32", "4-byte values."), ("V64", "8-byte values.")],
};
pub const HASH_CAS: Axis = Axis {
    name: "HashCas",
    param: "cas",
    doc: "How an insert claims a slot.",
    variants: &[
        ("Key", "A CAS on the key, then the value stored."),
        (
            "PackedPair",
            "One 64-bit CAS of the key and value together (u32 keys and values).",
        ),
    ],
};
pub const HASH_BUCKET_BYTES: Axis = Axis {
    name: "HashBucketBytes",
    param: "bucket",
    doc: "Bytes of a hash bucket (BUCKET_BYTES).",
    variants: &[("B32", "32-byte buckets."), ("B64", "64-byte buckets.")],
};

pub static SORT: Family = Family {
    function: "sort",
    doc: "The radix sort's permutation of `kernel` for `key` and `values`, where one exists.",
    axes: &[&SORT_KERNEL, &KEY_BITS, &VALUE_WORDS],
};
pub static SPLIT: Family = Family {
    function: "split",
    doc: "The multisplit's built-in permutation of `kernel`, where one exists.",
    axes: &[&SPLIT_KERNEL, &KEY_BITS, &VALUE_WORDS, &BUCKET_FN],
};
pub static HISTOGRAM: Family = Family {
    function: "histogram",
    doc: "The histogram's counting kernel for a built-in `bucket_fn` and `key` width.",
    axes: &[&BUCKET_FN, &KEY_BITS],
};
pub const REDUCE_BY_KEY_KERNEL: Axis = Axis {
    name: "ReduceByKeyKernel",
    param: "kernel",
    doc: "The reduce-by-key's kernels (glsl/reduce_by_key/).",
    variants: &[
        ("Lookback", "One pass with decoupled look-back."),
        ("TileReduce", "Each tile's pair (no waiting)."),
        ("TileWrite", "Each tile's runs, after the spine (no waiting)."),
    ],
};
pub static REDUCE_BY_KEY: Family = Family {
    function: "reduce_by_key",
    doc: "The reduce-by-key's permutation of `kernel` for `key` and `values`.",
    axes: &[&REDUCE_BY_KEY_KERNEL, &KEY_BITS, &VALUE_WORDS],
};
pub static MERGE: Family = Family {
    function: "merge",
    doc: "The merge family's permutation of `kernel` for `key` and `values`, where one exists.",
    axes: &[&MERGE_KERNEL, &KEY_BITS, &VALUE_WORDS],
};
pub const SELECT_KERNEL: Axis = Axis {
    name: "SelectKernel",
    param: "kernel",
    doc: "The select's kernels (glsl/select/).",
    variants: &[
        ("Count", "Per-tile counts of kept elements (keys alone)."),
        ("Scatter", "The count-scan path's scatter of kept elements."),
        ("Lookback", "Select in one pass with decoupled look-back."),
    ],
};
pub static SELECT: Family = Family {
    function: "select",
    doc: "The select's permutation of `kernel` for `key` and `values`, where one exists.",
    axes: &[&SELECT_KERNEL, &KEY_BITS, &VALUE_WORDS],
};
pub const SEGMENTED_SORT_KERNEL: Axis = Axis {
    name: "SegmentedSortKernel",
    param: "kernel",
    doc: "The segmented sort's kernels (glsl/segmented_sort/).",
    variants: &[
        (
            "Block",
            "Small segments whole, large ones per block, in shared memory.",
        ),
        (
            "Partition",
            "Tile counts and tile table of a merge round (keys alone).",
        ),
        ("Merge", "A merge round's tiles into the alternate buffers."),
        (
            "CopyBack",
            "A merge round's tiles back from the alternate buffers.",
        ),
        ("Tiny", "Segments of at most 64 elements, a subgroup a segment."),
    ],
};
pub static SEGMENTED_SORT: Family = Family {
    function: "segmented_sort",
    doc: "The segmented sort's permutation of `kernel` for `key` and `values`, where one exists.",
    axes: &[&SEGMENTED_SORT_KERNEL, &KEY_BITS, &VALUE_WORDS],
};
pub static HASH: Family = Family {
    function: "hash",
    doc: "The hash map's permutation of `op` for a layout, where one exists.",
    axes: &[
        &HASH_OP,
        &KEY_BITS,
        &HASH_VALUE_BITS,
        &HASH_CAS,
        &HASH_BUCKET_BYTES,
    ],
};

/// The index of `variant` on `axis` (a typo in the table is a generator error).
fn at(axis: &Axis, variant: &str) -> usize {
    axis.variants
        .iter()
        .position(|(v, _)| *v == variant)
        .unwrap_or_else(|| panic!("{} has no variant {variant}", axis.name))
}

/// Defines from a literal list.
fn defines(list: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    list.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

fn standalone(name: &str, file: &'static str, list: &[(&'static str, &str)]) -> Permutation {
    Permutation {
        name: name.to_string(),
        file,
        defines: defines(list),
        slot: None,
    }
}

fn member(
    family: &'static Family,
    coords: &[&str],
    name: String,
    file: &'static str,
    defines: Vec<(&'static str, String)>,
) -> Permutation {
    assert_eq!(coords.len(), family.axes.len(), "{name}: one coordinate per axis");
    let coords = family
        .axes
        .iter()
        .zip(coords)
        .map(|(axis, v)| at(axis, v))
        .collect();
    Permutation {
        name,
        file,
        defines,
        slot: Some((family, coords)),
    }
}

/// The utility and scan permutations (the u32 kernels per pass and I/O width, the typed
/// kernels per element width).
fn util_and_scan() -> Vec<Permutation> {
    let mut table = vec![
        standalone("copy_u32x4", "util/copy.comp", &[]),
        standalone("fill_u32", "util/fill.comp", &[]),
        standalone("scatter_u32", "util/scatter.comp", &[]),
    ];
    for pass in ["reduce", "downsweep", "lookback"] {
        for (io, vec_io) in [("vec4", "1"), ("scalar", "0")] {
            let file = match pass {
                "reduce" => "scan/reduce.comp",
                "downsweep" => "scan/downsweep.comp",
                _ => "scan/lookback.comp",
            };
            table.push(standalone(
                &format!("scan_{pass}_{io}"),
                file,
                &[("VEC_IO", vec_io)],
            ));
        }
    }
    // The scans of every other key type and operation (glsl/scan/typed.comp): per element
    // width and for f64 sums (shaderFloat64), the reduce-then-scan passes and, in a module of
    // its own (it needs 64-bit atomics), the look-back; pass, operation and key kind are
    // specialization constants.
    let typed: [(&str, &[(&'static str, &str)]); 3] = [
        ("k32", &[("KEY_BITS", "32")]),
        ("k64", &[("KEY_BITS", "64")]),
        ("f64_sum", &[("KEY_BITS", "64"), ("FLOAT64_SUM", "1")]),
    ];
    for (name, list) in typed {
        table.push(standalone(&format!("scan_typed_{name}"), "scan/typed.comp", list));
        let mut lookback = defines(list);
        lookback.push(("TYPED_LOOKBACK", "1".to_string()));
        table.push(Permutation {
            name: format!("scan_typed_lookback_{name}"),
            file: "scan/typed.comp",
            defines: lookback,
            slot: None,
        });
    }
    table
}

/// The hash map (src/hash): one permutation per op, key/value layout and bucket size; u32/u32
/// inserts, migrations and insert-or-applies also with a packed 64-bit pair CAS; the
/// shared-memory insert-or-apply for u32/u32 only.
fn hash_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for bucket in ["32", "64"] {
        for op in [
            "insert",
            "migrate",
            "find",
            "erase",
            "retrieve",
            "apply",
            "apply_shared",
            "reclaim",
        ] {
            let packed_too = ["insert", "migrate", "apply", "apply_shared"].contains(&op);
            let mut layouts = Vec::new();
            if packed_too {
                layouts.push(("32", "32", true));
            }
            layouts.push(("32", "32", false));
            if op != "apply_shared" {
                layouts.extend([("32", "64", false), ("64", "32", false), ("64", "64", false)]);
            }
            for (key, value, packed) in layouts {
                let mut d = defines(&[("KEY_BITS", key), ("VALUE_BITS", value), ("BUCKET_BYTES", bucket)]);
                if packed {
                    d.push(("PACKED_CAS", "1".to_string()));
                }
                let op_variant = match op {
                    "insert" => "Insert",
                    "migrate" => "Migrate",
                    "find" => "Find",
                    "erase" => "Erase",
                    "apply" => "Apply",
                    "apply_shared" => "ApplyShared",
                    "reclaim" => "Reclaim",
                    _ => "Retrieve",
                };
                table.push(member(
                    &HASH,
                    &[
                        op_variant,
                        &format!("K{key}"),
                        &format!("V{value}"),
                        if packed { "PackedPair" } else { "Key" },
                        &format!("B{bucket}"),
                    ],
                    format!(
                        "hash_{op}_k{key}v{value}{}_b{bucket}",
                        if packed { "_packed" } else { "" }
                    ),
                    match op {
                        "insert" => "hash/insert.comp",
                        "migrate" => "hash/migrate.comp",
                        "find" => "hash/find.comp",
                        "erase" => "hash/erase.comp",
                        "apply" => "hash/apply.comp",
                        "apply_shared" => "hash/apply_shared.comp",
                        "reclaim" => "hash/reclaim.comp",
                        _ => "hash/retrieve.comp",
                    },
                    d,
                ));
            }
        }
    }
    table.push(standalone(
        "hash_meta",
        "hash/meta.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ));
    table
}

/// The hash multimap (src/hash/multimap): one permutation per op, key/value layout and bucket
/// size; u32/u32 inserts also with a packed 64-bit pair CAS. Named `multimap_*` (their push
/// block is `MultimapPush`, not the map's).
fn multimap_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for bucket in ["32", "64"] {
        for (op, variant) in [
            ("insert", "MultimapInsert"),
            ("count", "MultimapCount"),
            ("retrieve", "MultimapRetrieve"),
        ] {
            let mut layouts = Vec::new();
            if op == "insert" {
                layouts.push(("32", "32", true));
            }
            layouts.extend([
                ("32", "32", false),
                ("32", "64", false),
                ("64", "32", false),
                ("64", "64", false),
            ]);
            for (key, value, packed) in layouts {
                let mut d = defines(&[("KEY_BITS", key), ("VALUE_BITS", value), ("BUCKET_BYTES", bucket)]);
                if packed {
                    d.push(("PACKED_CAS", "1".to_string()));
                }
                table.push(member(
                    &HASH,
                    &[
                        variant,
                        &format!("K{key}"),
                        &format!("V{value}"),
                        if packed { "PackedPair" } else { "Key" },
                        &format!("B{bucket}"),
                    ],
                    format!(
                        "multimap_{op}_k{key}v{value}{}_b{bucket}",
                        if packed { "_packed" } else { "" }
                    ),
                    match op {
                        "insert" => "hash/multimap_insert.comp",
                        "count" => "hash/multimap_count.comp",
                        _ => "hash/multimap_retrieve.comp",
                    },
                    d,
                ));
            }
        }
    }
    table.push(standalone(
        "multimap_size",
        "hash/multimap_size.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ));
    table
}

/// The reduce (src/reduce): 32- and 64-bit keys, and the sum of f64 keys (the one pipeline with
/// double arithmetic, which needs shaderFloat64).
fn reduce_permutations() -> Vec<Permutation> {
    vec![
        standalone("reduce_k32", "reduce/reduce.comp", &[("KEY_BITS", "32")]),
        standalone("reduce_k64", "reduce/reduce.comp", &[("KEY_BITS", "64")]),
        standalone(
            "reduce_f64_sum",
            "reduce/reduce.comp",
            &[("KEY_BITS", "64"), ("FLOAT64_SUM", "1")],
        ),
    ]
}

/// The histogram (src/histogram): its kernel per key width and built-in bucket function (GLSL
/// bucket functions compile at run time from the same source, src/split/glsl.rs).
fn histogram_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for key_bits in [32, 64] {
        for (fn_code, fn_name, fn_variant) in [
            (0, "bits", "Bits"),
            (1, "splitters", "Splitters"),
            (2, "ids", "Ids"),
        ] {
            table.push(member(
                &HISTOGRAM,
                &[fn_variant, &format!("K{key_bits}")],
                format!("histogram_k{key_bits}_{fn_name}"),
                "histogram/histogram.comp",
                vec![
                    ("KEY_BITS", key_bits.to_string()),
                    ("BUCKET_FN", fn_code.to_string()),
                ],
            ));
        }
    }
    table
}

/// The select (src/select): per key width, the count pass (keys alone) and the scatter and
/// look-back passes with each payload. The mode is a specialization constant; GLSL predicates
/// compile the same passes at run time.
fn select_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for key_bits in ["32", "64"] {
        let key = format!("K{key_bits}");
        table.push(member(
            &SELECT,
            &["Count", &key, "V0"],
            format!("select_count_k{key_bits}"),
            "select/count.comp",
            defines(&[("KEY_BITS", key_bits), ("VALUE_WORDS", "0")]),
        ));
        for value_words in ["0", "1", "2"] {
            let values = format!("V{value_words}");
            for (pass, variant, file) in [
                ("scatter", "Scatter", "select/scatter.comp"),
                ("lookback", "Lookback", "select/lookback.comp"),
            ] {
                table.push(member(
                    &SELECT,
                    &[variant, &key, &values],
                    format!("select_{pass}_k{key_bits}_v{value_words}"),
                    file,
                    defines(&[("KEY_BITS", key_bits), ("VALUE_WORDS", value_words)]),
                ));
            }
        }
    }
    table
}

/// Reduce-by-key and run-length encoding (src/reduce_by_key): each kernel per key width and
/// payload (none: run lengths), and the no-waiting path's spine (pairs alone).
fn reduce_by_key_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for key_bits in [32, 64] {
        for value_words in [0, 1, 2] {
            for (kernel, variant, file, write) in [
                ("lookback", "Lookback", "reduce_by_key/lookback.comp", "0"),
                ("tile_reduce", "TileReduce", "reduce_by_key/tiles.comp", "0"),
                ("tile_write", "TileWrite", "reduce_by_key/tiles.comp", "1"),
            ] {
                table.push(member(
                    &REDUCE_BY_KEY,
                    &[variant, &format!("K{key_bits}"), &format!("V{value_words}")],
                    format!("reduce_by_key_{kernel}_k{key_bits}_v{value_words}"),
                    file,
                    vec![
                        ("KEY_BITS", key_bits.to_string()),
                        ("VALUE_WORDS", value_words.to_string()),
                        ("RBK_WRITE", write.to_string()),
                    ],
                ));
            }
        }
    }
    table.push(standalone(
        "reduce_by_key_spine",
        "reduce_by_key/spine.comp",
        &[("KEY_BITS", "32"), ("VALUE_WORDS", "0")],
    ));
    table
}

/// Sets of u32 (src/set): one permutation per pass.
fn set_permutations() -> Vec<Permutation> {
    vec![
        standalone("set_classify", "set/classify.comp", &[]),
        standalone("set_boundaries", "set/boundaries.comp", &[]),
        standalone("set_chunk_update", "set/chunk_update.comp", &[]),
        standalone(
            "set_chunk_count",
            "set/chunk_update.comp",
            &[("FUSED_COUNT", "1")],
        ),
        standalone(
            "set_chunk_count_sums64",
            "set/chunk_update.comp",
            &[("FUSED_COUNT", "1"), ("CARD_SUMS64", "1")],
        ),
        standalone("set_array_pairs_medium", "set/array_pairs.comp", &[]),
        standalone("set_bitmap_pairs", "set/bitmap_pairs.comp", &[]),
        standalone("set_small_pairs", "set/small_pairs.comp", &[("LIST16", "0")]),
        standalone(
            "set_small_pairs_list16",
            "set/small_pairs.comp",
            &[("LIST16", "1")],
        ),
        standalone("set_trivial", "set/trivial.comp", &[]),
        standalone("set_check", "set/check.comp", &[]),
        standalone("set_info", "set/info.comp", &[]),
        standalone("set_to_array", "set/to_array.comp", &[]),
        standalone("set_contains", "set/contains.comp", &[]),
        standalone("set_order", "set/order.comp", &[]),
        standalone("set_filter", "set/filter.comp", &[]),
        standalone("set_compact", "set/compact.comp", &[]),
        standalone("set_many_cardinality", "set/many_cardinality.comp", &[]),
        standalone(
            "set_many_union",
            "set/many_cardinality.comp",
            &[("UNIONS_ONLY", "1")],
        ),
        standalone("set_serialize", "set/serialize.comp", &[]),
        standalone("set_deserialize", "set/deserialize.comp", &[]),
        standalone("set_to_array_many", "set/to_array_many.comp", &[]),
        standalone(
            "set_chunk_update_many",
            "set/chunk_update.comp",
            &[("MANY_WAY", "1")],
        ),
        // A batch's passes (src/set/batch.rs): one job per layer of workgroups.
        standalone("set_batch_classify", "set/classify.comp", &[("SET_BATCH", "1")]),
        standalone(
            "set_batch_chunk_update",
            "set/chunk_update.comp",
            &[("SET_BATCH", "1")],
        ),
        standalone(
            "set_batch_array_pairs_medium",
            "set/array_pairs.comp",
            &[("SET_BATCH", "1")],
        ),
        standalone(
            "set_batch_bitmap_pairs",
            "set/bitmap_pairs.comp",
            &[("SET_BATCH", "1")],
        ),
        standalone(
            "set_batch_small_pairs",
            "set/small_pairs.comp",
            &[("LIST16", "0"), ("SET_BATCH", "1")],
        ),
        standalone(
            "set_batch_small_pairs_list16",
            "set/small_pairs.comp",
            &[("LIST16", "1"), ("SET_BATCH", "1")],
        ),
        standalone("set_batch_trivial", "set/trivial.comp", &[("SET_BATCH", "1")]),
        standalone("set_batch_check", "set/check.comp", &[("SET_BATCH", "1")]),
        // A batch's one-pass cardinalities, into zeroed statuses.
        standalone(
            "set_batch_chunk_count",
            "set/chunk_update.comp",
            &[("FUSED_COUNT", "1"), ("SET_BATCH", "1")],
        ),
    ]
}

/// The radix-sort permutations (glsl/sort/): key width x payload for the passes that rank tiles
/// (Onesweep, the safe path's downsweep, the tiled and the shared-memory-resident
/// single-workgroup kernels, the latter also for counts that use every ranking step), and for
/// 8-byte keys the single-workgroup block merge sort; one per key width for the counting passes.
fn sort_permutations() -> Vec<Permutation> {
    let kv = |key_bits: u32, value_words: u32| {
        vec![
            ("KEY_BITS", key_bits.to_string()),
            ("VALUE_WORDS", value_words.to_string()),
        ]
    };
    let mut table = vec![member(
        &SORT,
        &["HistogramScan", "K32", "V0"],
        "sort_histogram_scan".to_string(),
        "sort/histogram_scan.comp",
        kv(32, 0),
    )];
    // Diagnostics: Onesweep with per-phase clock counters (VKALGO_SORT_CLOCK=1), for the
    // benchmarked key widths with and without u32 values.
    for (key_bits, value_words) in [(32, 0), (32, 1), (64, 0), (64, 1)] {
        let mut d = kv(key_bits, value_words);
        d.push(("SORT_CLOCK", "1".to_string()));
        table.push(member(
            &SORT,
            &[
                "OnesweepClock",
                &format!("K{key_bits}"),
                &format!("V{value_words}"),
            ],
            format!("sort_onesweep_k{key_bits}_v{value_words}_clock"),
            "sort/onesweep.comp",
            d,
        ));
    }
    for key_bits in [32, 64] {
        let key = format!("K{key_bits}");
        for (pass, variant, file) in [
            ("histogram", "Histogram", "sort/histogram.comp"),
            ("upsweep", "Upsweep", "sort/upsweep.comp"),
        ] {
            table.push(member(
                &SORT,
                &[variant, &key, "V0"],
                format!("sort_{pass}_k{key_bits}"),
                file,
                kv(key_bits, 0),
            ));
        }
        for value_words in [0, 1, 2] {
            for (pass, variant, file) in [
                ("onesweep", "Onesweep", "sort/onesweep.comp"),
                ("downsweep", "Downsweep", "sort/downsweep.comp"),
                ("small", "Small", "sort/small.comp"),
                ("resident", "Resident", "sort/resident.comp"),
                ("resident_all", "ResidentAll", "sort/resident.comp"),
                ("block_merge", "BlockMerge", "sort/block_merge.comp"),
            ] {
                // The block merge sort serves keys of many digit passes (8-byte keys).
                if pass == "block_merge" && key_bits != 64 {
                    continue;
                }
                let mut d = kv(key_bits, value_words);
                if pass == "small" {
                    d.push(("SORT_COHERENT", "1".to_string()));
                }
                // The one-workgroup kernels stage their whole tile at once.
                if pass == "small" || pass.starts_with("resident") {
                    d.push(("STAGE_ONE_ROUND", "1".to_string()));
                }
                // The resident kernel for counts that use every ranking step: no per-step test.
                if pass == "resident_all" {
                    d.push(("ALL_STEPS", "1".to_string()));
                }
                table.push(member(
                    &SORT,
                    &[variant, &key, &format!("V{value_words}")],
                    format!("sort_{pass}_k{key_bits}_v{value_words}"),
                    file,
                    d,
                ));
            }
        }
    }
    table
}

/// The multisplit permutations (glsl/split/): key width x built-in bucket function for the
/// counting kernels, x payload for the scatters and the one-workgroup small path; one offsets
/// pass; the splitter index per key width. GLSL bucket functions (BUCKET_FN 3) are compiled at
/// run time from the same sources (src/split/glsl.rs).
fn split_permutations() -> Vec<Permutation> {
    // KEY_BITS, VALUE_WORDS and BUCKET_FN, the defines of every multisplit kernel.
    let defines = |key_bits: u32, value_words: u32, bucket_fn: u32| {
        vec![
            ("KEY_BITS", key_bits.to_string()),
            ("VALUE_WORDS", value_words.to_string()),
            ("BUCKET_FN", bucket_fn.to_string()),
        ]
    };
    let mut table = vec![member(
        &SPLIT,
        &["Offsets", "K32", "V0", "Bits"],
        "split_offsets".to_string(),
        "split/offsets.comp",
        defines(32, 0, 0),
    )];
    // The Onesweep split with SPLITTERS: the sort's histogram and Onesweep pass, the digit being
    // the key's bucket (SPLIT_BUCKETS; BITS runs the plain sort kernels).
    for key_bits in [32, 64] {
        let key = format!("K{key_bits}");
        let onesweep = |value_words: u32| {
            let mut d = defines(key_bits, value_words, 1);
            d.push(("SPLIT_BUCKETS", "1".to_string()));
            d
        };
        table.push(member(
            &SPLIT,
            &["OnesweepHistogram", &key, "V0", "Splitters"],
            format!("split_onesweep_histogram_k{key_bits}_splitters"),
            "sort/histogram.comp",
            onesweep(0),
        ));
        table.push(member(
            &SPLIT,
            &["SplitterIndex", &key, "V0", "Splitters"],
            format!("split_splitter_index_k{key_bits}"),
            "split/splitter_index.comp",
            defines(key_bits, 0, 1),
        ));
        // The bucket starts of a two-pass split (BITS and SPLITTERS; GLSL at run time).
        for (fn_code, fn_name, fn_variant) in [(0, "bits", "Bits"), (1, "splitters", "Splitters")] {
            table.push(member(
                &SPLIT,
                &["BucketStarts", &key, "V0", fn_variant],
                format!("split_bucket_starts_k{key_bits}_{fn_name}"),
                "split/bucket_starts.comp",
                defines(key_bits, 0, fn_code),
            ));
        }
        for value_words in [0, 1, 2] {
            table.push(member(
                &SPLIT,
                &["Onesweep", &key, &format!("V{value_words}"), "Splitters"],
                format!("split_onesweep_k{key_bits}_v{value_words}_splitters"),
                "sort/onesweep.comp",
                onesweep(value_words),
            ));
        }
    }
    for key_bits in [32, 64] {
        let key = format!("K{key_bits}");
        for (fn_code, fn_name, fn_variant) in [
            (0, "bits", "Bits"),
            (1, "splitters", "Splitters"),
            (2, "ids", "Ids"),
        ] {
            for (kernel, variant, file) in [
                ("histogram", "Histogram", "split/histogram.comp"),
                ("tile_count", "TileCount", "split/tile_count.comp"),
            ] {
                table.push(member(
                    &SPLIT,
                    &[variant, &key, "V0", fn_variant],
                    format!("split_{kernel}_k{key_bits}_{fn_name}"),
                    file,
                    defines(key_bits, 0, fn_code),
                ));
            }
            for value_words in [0, 1, 2] {
                for (kernel, variant, file) in [
                    ("small", "Small", "split/small.comp"),
                    ("scatter", "Scatter", "split/scatter.comp"),
                    ("tile_scatter", "TileScatter", "split/tile_scatter.comp"),
                ] {
                    table.push(member(
                        &SPLIT,
                        &[variant, &key, &format!("V{value_words}"), fn_variant],
                        format!("split_{kernel}_k{key_bits}_v{value_words}_{fn_name}"),
                        file,
                        defines(key_bits, value_words, fn_code),
                    ));
                }
            }
        }
    }
    table
}

/// The merge permutations (glsl/merge/): key width for every kernel, x payload for the merge
/// (with and without a tile table: FUSED) and block sort, x phase for the set operations.
fn merge_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for key_bits in [32, 64] {
        let key = format!("K{key_bits}");
        let keys = |extra: &[(&'static str, &str)]| {
            let mut d = vec![("KEY_BITS", key_bits.to_string())];
            d.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
            d
        };
        table.push(member(
            &MERGE,
            &["Partition", &key, "V0"],
            format!("merge_partition_k{key_bits}"),
            "merge/partition.comp",
            keys(&[]),
        ));
        table.push(member(
            &MERGE,
            &["Check", &key, "V0"],
            format!("merge_check_k{key_bits}"),
            "merge/check.comp",
            keys(&[]),
        ));
        for (phase, variant, write) in [
            ("count", "SetOpCount", "0"),
            ("write", "SetOpWrite", "1"),
            ("lookback", "SetOpLookback", "2"),
        ] {
            table.push(member(
                &MERGE,
                &[variant, &key, "V0"],
                format!("merge_setop_{phase}_k{key_bits}"),
                "merge/setop.comp",
                keys(&[("SETOP_WRITE", write)]),
            ));
        }
        for value_words in ["0", "1", "2"] {
            let values = format!("V{value_words}");
            for (pass, variant, file) in [
                ("merge", "Merge", "merge/merge.comp"),
                ("blocksort", "BlockSort", "merge/blocksort.comp"),
            ] {
                table.push(member(
                    &MERGE,
                    &[variant, &key, &values],
                    format!("merge_{pass}_k{key_bits}_v{value_words}"),
                    file,
                    keys(&[("VALUE_WORDS", value_words)]),
                ));
            }
            table.push(member(
                &MERGE,
                &["Fused", &key, &values],
                format!("merge_fused_k{key_bits}_v{value_words}"),
                "merge/merge.comp",
                keys(&[("VALUE_WORDS", value_words), ("FUSED", "1")]),
            ));
        }
    }
    table
}

/// Every family, in the order the generated lookups are written.
pub const FAMILIES: &[&Family] = &[
    &SORT,
    &SPLIT,
    &MERGE,
    &HASH,
    &HISTOGRAM,
    &SELECT,
    &REDUCE_BY_KEY,
    &SEGMENTED_SORT,
];

/// Every permutation, in the order of the generated table (the pack's order).
pub fn all() -> Vec<Permutation> {
    let mut all = util_and_scan();
    all.extend(hash_permutations());
    all.extend(reduce_permutations());
    all.extend(set_permutations());
    all.extend(sort_permutations());
    all.extend(split_permutations());
    all.extend(merge_permutations());
    all.extend(multimap_permutations());
    all.extend(histogram_permutations());
    all.extend(select_permutations());
    all.extend(reduce_by_key_permutations());
    all.extend(segmented_sort_permutations());
    all
}

/// The segmented sort (src/segmented_sort): per key width, the partition (keys alone) and the
/// block, merge and copy-back kernels per payload.
fn segmented_sort_permutations() -> Vec<Permutation> {
    let mut table = Vec::new();
    for key_bits in [32, 64] {
        let key = format!("K{key_bits}");
        table.push(member(
            &SEGMENTED_SORT,
            &["Partition", &key, "V0"],
            format!("segmented_sort_partition_k{key_bits}"),
            "segmented_sort/partition.comp",
            vec![("KEY_BITS", key_bits.to_string())],
        ));
        for value_words in [0, 1, 2] {
            for (pass, variant, file) in [
                ("block", "Block", "segmented_sort/block.comp"),
                ("merge", "Merge", "segmented_sort/merge.comp"),
                ("copy_back", "CopyBack", "segmented_sort/copy_back.comp"),
                ("tiny", "Tiny", "segmented_sort/tiny.comp"),
            ] {
                table.push(member(
                    &SEGMENTED_SORT,
                    &[variant, &key, &format!("V{value_words}")],
                    format!("segmented_sort_{pass}_k{key_bits}_v{value_words}"),
                    file,
                    vec![
                        ("KEY_BITS", key_bits.to_string()),
                        ("VALUE_WORDS", value_words.to_string()),
                    ],
                ));
            }
        }
    }
    table
}
