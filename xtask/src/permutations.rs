//! The shader permutation table: every structural variant of every pass, compiled by
//! `cargo xtask shaders`. Tuning values are specialization constants chosen at pipeline
//! creation, not permutations.

/// One shader permutation: (name, source under glsl/, preprocessor definitions).
type Permutation = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// A permutation built in code: (name, source under glsl/, definitions).
pub type OwnedPermutation = (String, &'static str, Vec<(&'static str, String)>);

/// The fixed permutations; the sort, multisplit and merge ones are built in code below.
const PERMUTATIONS: &[Permutation] = &[
    ("copy_u32x4", "util/copy.comp", &[]),
    ("fill_u32", "util/fill.comp", &[]),
    ("scan_reduce_vec4", "scan/reduce.comp", &[("VEC_IO", "1")]),
    ("scan_reduce_scalar", "scan/reduce.comp", &[("VEC_IO", "0")]),
    ("scan_downsweep_vec4", "scan/downsweep.comp", &[("VEC_IO", "1")]),
    ("scan_downsweep_scalar", "scan/downsweep.comp", &[("VEC_IO", "0")]),
    ("scan_lookback_vec4", "scan/lookback.comp", &[("VEC_IO", "1")]),
    ("scan_lookback_scalar", "scan/lookback.comp", &[("VEC_IO", "0")]),
    // Hash map (src/hash): one permutation per key/value layout and bucket size (32 or 64
    // bytes); u32/u32 inserts also with a packed 64-bit pair CAS.
    (
        "hash_insert_k32v32_packed_b32",
        "hash/insert.comp",
        &[
            ("KEY_BITS", "32"),
            ("VALUE_BITS", "32"),
            ("BUCKET_BYTES", "32"),
            ("PACKED_CAS", "1"),
        ],
    ),
    (
        "hash_insert_k32v32_b32",
        "hash/insert.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_insert_k32v64_b32",
        "hash/insert.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_insert_k64v32_b32",
        "hash/insert.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_insert_k64v64_b32",
        "hash/insert.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_migrate_k32v32_packed_b32",
        "hash/migrate.comp",
        &[
            ("KEY_BITS", "32"),
            ("VALUE_BITS", "32"),
            ("BUCKET_BYTES", "32"),
            ("PACKED_CAS", "1"),
        ],
    ),
    (
        "hash_migrate_k32v32_b32",
        "hash/migrate.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_migrate_k32v64_b32",
        "hash/migrate.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_migrate_k64v32_b32",
        "hash/migrate.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_migrate_k64v64_b32",
        "hash/migrate.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_find_k32v32_b32",
        "hash/find.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_find_k32v64_b32",
        "hash/find.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_find_k64v32_b32",
        "hash/find.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_find_k64v64_b32",
        "hash/find.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_erase_k32v32_b32",
        "hash/erase.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_erase_k32v64_b32",
        "hash/erase.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_erase_k64v32_b32",
        "hash/erase.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_erase_k64v64_b32",
        "hash/erase.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_retrieve_k32v32_b32",
        "hash/retrieve.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_retrieve_k32v64_b32",
        "hash/retrieve.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_retrieve_k64v32_b32",
        "hash/retrieve.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_retrieve_k64v64_b32",
        "hash/retrieve.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "32")],
    ),
    (
        "hash_insert_k32v32_packed_b64",
        "hash/insert.comp",
        &[
            ("KEY_BITS", "32"),
            ("VALUE_BITS", "32"),
            ("BUCKET_BYTES", "64"),
            ("PACKED_CAS", "1"),
        ],
    ),
    (
        "hash_insert_k32v32_b64",
        "hash/insert.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_insert_k32v64_b64",
        "hash/insert.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_insert_k64v32_b64",
        "hash/insert.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_insert_k64v64_b64",
        "hash/insert.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_migrate_k32v32_packed_b64",
        "hash/migrate.comp",
        &[
            ("KEY_BITS", "32"),
            ("VALUE_BITS", "32"),
            ("BUCKET_BYTES", "64"),
            ("PACKED_CAS", "1"),
        ],
    ),
    (
        "hash_migrate_k32v32_b64",
        "hash/migrate.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_migrate_k32v64_b64",
        "hash/migrate.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_migrate_k64v32_b64",
        "hash/migrate.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_migrate_k64v64_b64",
        "hash/migrate.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_find_k32v32_b64",
        "hash/find.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_find_k32v64_b64",
        "hash/find.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_find_k64v32_b64",
        "hash/find.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_find_k64v64_b64",
        "hash/find.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_erase_k32v32_b64",
        "hash/erase.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_erase_k32v64_b64",
        "hash/erase.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_erase_k64v32_b64",
        "hash/erase.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_erase_k64v64_b64",
        "hash/erase.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_retrieve_k32v32_b64",
        "hash/retrieve.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_retrieve_k32v64_b64",
        "hash/retrieve.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_retrieve_k64v32_b64",
        "hash/retrieve.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_retrieve_k64v64_b64",
        "hash/retrieve.comp",
        &[("KEY_BITS", "64"), ("VALUE_BITS", "64"), ("BUCKET_BYTES", "64")],
    ),
    (
        "hash_meta",
        "hash/meta.comp",
        &[("KEY_BITS", "32"), ("VALUE_BITS", "32"), ("BUCKET_BYTES", "32")],
    ),
    // Sets of u32 (src/set): one permutation per pass.
    ("set_classify", "set/classify.comp", &[]),
    ("set_boundaries", "set/boundaries.comp", &[]),
    ("set_chunk_update", "set/chunk_update.comp", &[]),
    (
        "set_chunk_count",
        "set/chunk_update.comp",
        &[("FUSED_COUNT", "1")],
    ),
    (
        "set_chunk_count_sums64",
        "set/chunk_update.comp",
        &[("FUSED_COUNT", "1"), ("CARD_SUMS64", "1")],
    ),
    ("set_array_pairs_medium", "set/array_pairs.comp", &[]),
    ("set_bitmap_pairs", "set/bitmap_pairs.comp", &[]),
    ("set_small_pairs", "set/small_pairs.comp", &[("LIST16", "0")]),
    (
        "set_small_pairs_list16",
        "set/small_pairs.comp",
        &[("LIST16", "1")],
    ),
    ("set_trivial", "set/trivial.comp", &[]),
    ("set_check", "set/check.comp", &[]),
    ("set_info", "set/info.comp", &[]),
    ("set_to_array", "set/to_array.comp", &[]),
    ("set_contains", "set/contains.comp", &[]),
    ("set_filter", "set/filter.comp", &[]),
    ("set_compact", "set/compact.comp", &[]),
];

/// The radix-sort permutations (glsl/sort/): key width (KEY_BITS 32/64) x payload
/// (VALUE_WORDS 0 none, 1 u32, 2 u64) for the passes that rank tiles (Onesweep, the safe
/// path's downsweep, the tiled and the shared-memory-resident single-workgroup kernels, the
/// latter also as `resident_all` for counts that use every ranking step), and for 8-byte keys
/// the single-workgroup block merge sort; one per key width for the counting passes.
fn sort_permutations() -> Vec<OwnedPermutation> {
    let mut table = vec![(
        "sort_histogram_scan".to_string(),
        "sort/histogram_scan.comp",
        vec![("KEY_BITS", "32".to_string()), ("VALUE_WORDS", "0".to_string())],
    )];
    // Diagnostics: Onesweep with per-phase clock counters (VKALGO_SORT_CLOCK=1), for the
    // benchmarked key widths with and without u32 values.
    for (key_bits, value_words) in [(32, 0), (32, 1), (64, 0), (64, 1)] {
        table.push((
            format!("sort_onesweep_k{key_bits}_v{value_words}_clock"),
            "sort/onesweep.comp",
            vec![
                ("KEY_BITS", key_bits.to_string()),
                ("VALUE_WORDS", value_words.to_string()),
                ("SORT_CLOCK", "1".to_string()),
            ],
        ));
    }
    for key_bits in [32, 64] {
        let keys_only = vec![
            ("KEY_BITS", key_bits.to_string()),
            ("VALUE_WORDS", "0".to_string()),
        ];
        for pass in ["histogram", "upsweep"] {
            table.push((
                format!("sort_{pass}_k{key_bits}"),
                pass_file(pass),
                keys_only.clone(),
            ));
        }
        for value_words in [0, 1, 2] {
            for pass in [
                "onesweep",
                "downsweep",
                "small",
                "resident",
                "resident_all",
                "block_merge",
            ] {
                // The block merge sort serves keys of many digit passes (SortPlan::resident_merges).
                if pass == "block_merge" && key_bits != 64 {
                    continue;
                }
                let mut defines = vec![
                    ("KEY_BITS", key_bits.to_string()),
                    ("VALUE_WORDS", value_words.to_string()),
                ];
                if pass == "small" {
                    defines.push(("SORT_COHERENT", "1".to_string()));
                }
                // The one-workgroup kernels stage their whole tile at once.
                if pass == "small" || pass.starts_with("resident") {
                    defines.push(("STAGE_ONE_ROUND", "1".to_string()));
                }
                // The resident kernel for counts that use every ranking step: no per-step test.
                if pass == "resident_all" {
                    defines.push(("ALL_STEPS", "1".to_string()));
                }
                table.push((
                    format!("sort_{pass}_k{key_bits}_v{value_words}"),
                    pass_file(pass),
                    defines,
                ));
            }
        }
    }
    table
}

/// The multisplit permutations (glsl/split/): key width (KEY_BITS 32/64) x built-in bucket
/// function (BUCKET_FN 0 BITS, 1 SPLITTERS, 2 IDS) for the histogram, x payload (VALUE_WORDS
/// 0/1/2) for the scatter and the one-workgroup small path; one offsets pass; the splitter index
/// per key width. GLSL bucket functions (BUCKET_FN 3) are compiled
/// at run time from the same sources (src/split/glsl.rs).
fn split_permutations() -> Vec<OwnedPermutation> {
    // KEY_BITS, VALUE_WORDS and BUCKET_FN, the defines of every multisplit kernel.
    let defines = |key_bits: u32, value_words: u32, bucket_fn: u32| {
        vec![
            ("KEY_BITS", key_bits.to_string()),
            ("VALUE_WORDS", value_words.to_string()),
            ("BUCKET_FN", bucket_fn.to_string()),
        ]
    };
    let mut table = vec![(
        "split_offsets".to_string(),
        "split/offsets.comp",
        defines(32, 0, 0),
    )];
    // The Onesweep split with SPLITTERS: the sort's histogram and Onesweep pass, the digit being
    // the key's bucket (SPLIT_BUCKETS; BITS runs the plain sort kernels).
    for key_bits in [32, 64] {
        let split = |value_words: u32| {
            let mut d = defines(key_bits, value_words, 1);
            d.push(("SPLIT_BUCKETS", "1".to_string()));
            d
        };
        table.push((
            format!("split_onesweep_histogram_k{key_bits}_splitters"),
            "sort/histogram.comp",
            split(0),
        ));
        // The splitter index every split by SPLITTERS searches (glsl/split/splitter_index.comp).
        table.push((
            format!("split_splitter_index_k{key_bits}"),
            "split/splitter_index.comp",
            defines(key_bits, 0, 1),
        ));
        // The bucket starts of a two-pass split (BITS and SPLITTERS; GLSL at run time).
        for (fn_code, fn_name) in [(0, "bits"), (1, "splitters")] {
            table.push((
                format!("split_bucket_starts_k{key_bits}_{fn_name}"),
                "split/bucket_starts.comp",
                defines(key_bits, 0, fn_code),
            ));
        }
        for value_words in [0, 1, 2] {
            table.push((
                format!("split_onesweep_k{key_bits}_v{value_words}_splitters"),
                "sort/onesweep.comp",
                split(value_words),
            ));
        }
    }
    for key_bits in [32, 64] {
        for (fn_code, fn_name) in [(0, "bits"), (1, "splitters"), (2, "ids")] {
            for kernel in ["histogram", "tile_count"] {
                table.push((
                    format!("split_{kernel}_k{key_bits}_{fn_name}"),
                    kernel_path(kernel),
                    defines(key_bits, 0, fn_code),
                ));
            }
            for value_words in [0, 1, 2] {
                for kernel in ["small", "scatter", "tile_scatter"] {
                    table.push((
                        format!("split_{kernel}_k{key_bits}_v{value_words}_{fn_name}"),
                        kernel_path(kernel),
                        defines(key_bits, value_words, fn_code),
                    ));
                }
            }
        }
    }
    table
}

/// The source of multisplit kernel `kernel` (glsl/split/).
fn kernel_path(kernel: &str) -> &'static str {
    match kernel {
        "histogram" => "split/histogram.comp",
        "tile_count" => "split/tile_count.comp",
        "small" => "split/small.comp",
        "scatter" => "split/scatter.comp",
        "tile_scatter" => "split/tile_scatter.comp",
        _ => unreachable!("no multisplit kernel {kernel}"),
    }
}

/// The merge permutations (glsl/merge/): key width (KEY_BITS 32/64) for every kernel, x payload
/// (VALUE_WORDS 0 none, 1 u32, 2 u64) for the merge (with and without a tile table: FUSED) and
/// block sort, x phase for the set operations.
fn merge_permutations() -> Vec<OwnedPermutation> {
    let mut table = Vec::new();
    for key_bits in [32, 64] {
        let keys = |extra: &[(&'static str, &str)]| {
            let mut defines = vec![("KEY_BITS", key_bits.to_string())];
            defines.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
            defines
        };
        table.push((
            format!("merge_partition_k{key_bits}"),
            "merge/partition.comp",
            keys(&[]),
        ));
        table.push((format!("merge_check_k{key_bits}"), "merge/check.comp", keys(&[])));
        for (phase, write) in [("count", "0"), ("write", "1"), ("lookback", "2")] {
            table.push((
                format!("merge_setop_{phase}_k{key_bits}"),
                "merge/setop.comp",
                keys(&[("SETOP_WRITE", write)]),
            ));
        }
        for value_words in ["0", "1", "2"] {
            for pass in ["merge", "blocksort"] {
                table.push((
                    format!("merge_{pass}_k{key_bits}_v{value_words}"),
                    if pass == "merge" {
                        "merge/merge.comp"
                    } else {
                        "merge/blocksort.comp"
                    },
                    keys(&[("VALUE_WORDS", value_words)]),
                ));
            }
            table.push((
                format!("merge_fused_k{key_bits}_v{value_words}"),
                "merge/merge.comp",
                keys(&[("VALUE_WORDS", value_words), ("FUSED", "1")]),
            ));
        }
    }
    table
}

fn pass_file(pass: &str) -> &'static str {
    match pass {
        "histogram" => "sort/histogram.comp",
        "upsweep" => "sort/upsweep.comp",
        "onesweep" => "sort/onesweep.comp",
        "downsweep" => "sort/downsweep.comp",
        "resident" | "resident_all" => "sort/resident.comp",
        "block_merge" => "sort/block_merge.comp",
        _ => "sort/small.comp",
    }
}

/// Every permutation, in the order of the generated table.
pub fn all() -> Vec<OwnedPermutation> {
    let mut all: Vec<OwnedPermutation> = PERMUTATIONS
        .iter()
        .map(|(name, file, defines)| {
            let defines = defines.iter().map(|(k, v)| (*k, v.to_string())).collect();
            (name.to_string(), *file, defines)
        })
        .collect();
    all.extend(sort_permutations());
    all.extend(split_permutations());
    all.extend(merge_permutations());
    all
}
