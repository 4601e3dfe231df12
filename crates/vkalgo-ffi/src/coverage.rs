//! The C ABI covers the Rust API: every public call of the plans and objects has a C
//! counterpart in the header, or a stated reason to be Rust-only (a unit test; CI runs it).

/// (Rust type, public method, the C function(s) that give the same, or `None` with the reason
/// the call stays in Rust). A public method missing here fails the test, so every new Rust
/// call gets a decision.
/// The C functions of a Rust call, or the reason it has none.
#[cfg(test)]
type Counterpart = Result<&'static [&'static str], &'static str>;

#[cfg(test)]
const COUNTERPARTS: &[(&str, &str, Counterpart)] = &[
    ("SortPlan", "record", Ok(&["vkalgo_sort_record"])),
    (
        "SortPlan",
        "memory_requirements",
        Ok(&["vkalgo_sort_plan_memory_requirements"]),
    ),
    ("SortPlan", "tile_size", Ok(&["vkalgo_sort_plan_tile_size"])),
    ("SortPlan", "pass_count", Ok(&["vkalgo_sort_plan_pass_count"])),
    (
        "SortPlan",
        "result_location",
        Ok(&["vkalgo_sort_plan_result_in_alternate"]),
    ),
    ("SortPlan", "desc", Err("the caller's own desc")),
    ("SortPlan", "path", Err("a tuning query for tests and benchmarks")),
    (
        "SortPlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SortPlan",
        "small_limit",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SortPlan",
        "resident_limit",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SortPlan",
        "auto_small_limit",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SortPlan",
        "resident_merges",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SortPlan",
        "resident_counters_apart",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("ScanPlan", "record", Ok(&["vkalgo_scan_record"])),
    ("ReduceByKeyPlan", "record", Ok(&["vkalgo_reduce_by_key_record"])),
    (
        "ReduceByKeyPlan",
        "memory_requirements",
        Ok(&["vkalgo_reduce_by_key_plan_memory_requirements"]),
    ),
    (
        "ReduceByKeyPlan",
        "tile_size",
        Ok(&["vkalgo_reduce_by_key_plan_tile_size"]),
    ),
    ("ReduceByKeyPlan", "desc", Err("the caller's own desc")),
    (
        "ReduceByKeyPlan",
        "path",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "ReduceByKeyPlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("ReducePlan", "record", Ok(&["vkalgo_reduce_record"])),
    (
        "ReducePlan",
        "memory_requirements",
        Ok(&["vkalgo_reduce_plan_memory_requirements"]),
    ),
    ("ReducePlan", "desc", Err("the caller's own desc")),
    ("HistogramPlan", "record", Ok(&["vkalgo_histogram_record"])),
    (
        "HistogramPlan",
        "memory_requirements",
        Ok(&["vkalgo_histogram_plan_memory_requirements"]),
    ),
    ("HistogramPlan", "desc", Err("the caller's own desc")),
    (
        "HistogramPlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "HistogramPlan",
        "shared_counts",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SegmentedSortPlan",
        "record",
        Ok(&["vkalgo_segmented_sort_record"]),
    ),
    (
        "SegmentedSortPlan",
        "memory_requirements",
        Ok(&["vkalgo_segmented_sort_plan_memory_requirements"]),
    ),
    ("SegmentedSortPlan", "desc", Err("the caller's own desc")),
    (
        "SegmentedSortPlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SegmentedSortPlan",
        "tile_size",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SegmentedSortPlan",
        "small_limit",
        Ok(&["vkalgo_segmented_sort_plan_small_limit"]),
    ),
    (
        "SegmentedSortPlan",
        "small_segments_only",
        Err("the caller's own bound against the small limit"),
    ),
    (
        "SegmentedSortPlan",
        "tiny_segments_only",
        Err("the caller's own bound against 64"),
    ),
    (
        "SegmentedSortPlan",
        "rounds",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("SelectPlan", "record", Ok(&["vkalgo_select_record"])),
    (
        "SelectPlan",
        "memory_requirements",
        Ok(&["vkalgo_select_plan_memory_requirements"]),
    ),
    ("SelectPlan", "desc", Err("the caller's own desc")),
    (
        "SelectPlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SelectPlan",
        "path",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "ReducePlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "ScanPlan",
        "memory_requirements",
        Ok(&["vkalgo_scan_plan_memory_requirements"]),
    ),
    ("ScanPlan", "tile_size", Ok(&["vkalgo_scan_plan_tile_size"])),
    ("ScanPlan", "small_limit", Ok(&["vkalgo_scan_plan_small_limit"])),
    ("ScanPlan", "path", Err("a tuning query for tests and benchmarks")),
    ("ScanPlan", "desc", Err("the caller's own desc")),
    ("SplitPlan", "record", Ok(&["vkalgo_multisplit_record"])),
    (
        "SplitPlan",
        "memory_requirements",
        Ok(&["vkalgo_multisplit_plan_memory_requirements"]),
    ),
    (
        "SplitPlan",
        "path",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SplitPlan",
        "small_limit",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SplitPlan",
        "column_length",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("SplitPlan", "desc", Err("the caller's own desc")),
    ("MergePlan", "record", Ok(&["vkalgo_merge_record"])),
    (
        "MergePlan",
        "memory_requirements",
        Ok(&["vkalgo_merge_plan_memory_requirements"]),
    ),
    ("MergePlan", "tile_size", Ok(&["vkalgo_merge_plan_tile_size"])),
    (
        "MergePlan",
        "small_limit",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "MergePlan",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("MergePlan", "desc", Err("the caller's own desc")),
    ("SetOpPlan", "record", Ok(&["vkalgo_sorted_set_op_record"])),
    (
        "SetOpPlan",
        "memory_requirements",
        Ok(&["vkalgo_sorted_set_op_plan_memory_requirements"]),
    ),
    (
        "SetOpPlan",
        "tile_size",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "SetOpPlan",
        "path",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("SetOpPlan", "desc", Err("the caller's own desc")),
    ("MergeSortPlan", "record", Ok(&["vkalgo_merge_sort_record"])),
    (
        "MergeSortPlan",
        "record_segmented",
        Ok(&["vkalgo_merge_sort_record_segmented"]),
    ),
    (
        "MergeSortPlan",
        "memory_requirements",
        Ok(&["vkalgo_merge_sort_plan_memory_requirements"]),
    ),
    (
        "MergeSortPlan",
        "tile_size",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "MergeSortPlan",
        "rounds",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("MergeSortPlan", "desc", Err("the caller's own desc")),
    ("HashMap", "new", Ok(&["vkalgo_hash_map_create"])),
    (
        "HashMap",
        "new_uninitialized",
        Err("C maps on vkalgo's memory are cleared at creation"),
    ),
    ("HashMap", "new_in", Ok(&["vkalgo_hash_map_create_in"])),
    (
        "HashMap",
        "new_uninitialized_in",
        Ok(&["vkalgo_hash_map_create_in"]),
    ),
    (
        "HashMap",
        "memory_requirements",
        Ok(&["vkalgo_hash_map_memory_requirements"]),
    ),
    ("HashMap", "insert", Ok(&["vkalgo_hash_map_insert_host"])),
    (
        "HashMap",
        "insert_or_apply",
        Ok(&["vkalgo_hash_map_insert_or_apply_host"]),
    ),
    (
        "HashMap",
        "insert_with_status",
        Ok(&["vkalgo_hash_map_insert_status_host"]),
    ),
    ("HashMap", "find", Ok(&["vkalgo_hash_map_find_host"])),
    ("HashMap", "contains", Ok(&["vkalgo_hash_map_contains_host"])),
    ("HashMap", "erase", Ok(&["vkalgo_hash_map_erase_host"])),
    ("HashMap", "size", Ok(&["vkalgo_hash_map_size_host"])),
    ("HashMap", "stats", Ok(&["vkalgo_hash_map_stats_host"])),
    ("HashMap", "rehash", Ok(&["vkalgo_hash_map_rehash_host"])),
    ("HashMap", "clear", Ok(&["vkalgo_hash_map_clear_host"])),
    (
        "HashMap",
        "retrieve_all",
        Ok(&["vkalgo_hash_map_retrieve_all_host"]),
    ),
    (
        "HashMap",
        "retrieve_all_into",
        Ok(&["vkalgo_hash_map_retrieve_all_host"]),
    ),
    ("HashMap", "capacity", Ok(&["vkalgo_hash_map_capacity"])),
    ("HashMap", "device_view", Ok(&["vkalgo_hash_map_device_view"])),
    (
        "HashMap",
        "record_barrier",
        Ok(&["vkalgo_hash_map_record_barrier"]),
    ),
    ("HashMap", "record_clear", Ok(&["vkalgo_hash_map_record_clear"])),
    ("HashMap", "record_insert", Ok(&["vkalgo_hash_map_record_insert"])),
    (
        "HashMap",
        "record_insert_or_apply",
        Ok(&["vkalgo_hash_map_record_insert_or_apply"]),
    ),
    ("HashMap", "record_find", Ok(&["vkalgo_hash_map_record_find"])),
    ("HashMap", "record_erase", Ok(&["vkalgo_hash_map_record_erase"])),
    ("HashMap", "record_size", Ok(&["vkalgo_hash_map_record_size"])),
    (
        "HashMap",
        "record_retrieve_all",
        Ok(&["vkalgo_hash_map_record_retrieve_all"]),
    ),
    (
        "HashMap",
        "record_rehash_into",
        Ok(&["vkalgo_hash_map_record_rehash_into"]),
    ),
    ("HashMap", "key_type", Err("the caller's own desc")),
    ("HashMap", "value_type", Err("the caller's own desc")),
    ("HashMap", "context", Err("C keeps the context handle itself")),
    (
        "HashMap",
        "on_caller_memory",
        Err("the caller chose create or create_in"),
    ),
    (
        "HashMap",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("HashMap", "num_buckets", Ok(&["vkalgo_hash_map_device_view"])),
    ("HashMap", "max_probes", Ok(&["vkalgo_hash_map_device_view"])),
    ("HashMap", "slot_bytes", Ok(&["vkalgo_hash_map_device_view"])),
    ("HashMap", "bucket_slots", Ok(&["vkalgo_hash_map_device_view"])),
    ("HashMap", "bucket_bytes", Ok(&["vkalgo_hash_map_device_view"])),
    ("HashMap", "memory_bytes", Ok(&["vkalgo_context_memory_usage"])),
    (
        "HashMap",
        "packed_insert",
        Err("a typed Rust convenience over insert"),
    ),
    ("HashMultimap", "new", Ok(&["vkalgo_hash_multimap_create"])),
    (
        "HashMultimap",
        "insert",
        Ok(&["vkalgo_hash_multimap_insert_host"]),
    ),
    ("HashMultimap", "size", Ok(&["vkalgo_hash_multimap_size"])),
    ("HashMultimap", "count", Ok(&["vkalgo_hash_multimap_count_host"])),
    (
        "HashMultimap",
        "retrieve",
        Ok(&["vkalgo_hash_multimap_retrieve_host"]),
    ),
    (
        "HashMultimap",
        "retrieve_into",
        Ok(&["vkalgo_hash_multimap_retrieve_host"]),
    ),
    ("HashMultimap", "clear", Ok(&["vkalgo_hash_multimap_clear_host"])),
    ("HashMultimap", "capacity", Ok(&["vkalgo_hash_multimap_capacity"])),
    (
        "HashMultimap",
        "device_view",
        Ok(&["vkalgo_hash_multimap_device_view"]),
    ),
    (
        "HashMultimap",
        "record_barrier",
        Ok(&["vkalgo_hash_multimap_record_barrier"]),
    ),
    (
        "HashMultimap",
        "record_clear",
        Ok(&["vkalgo_hash_multimap_record_clear"]),
    ),
    (
        "HashMultimap",
        "record_insert",
        Ok(&["vkalgo_hash_multimap_record_insert"]),
    ),
    (
        "HashMultimap",
        "record_count",
        Ok(&["vkalgo_hash_multimap_record_count"]),
    ),
    (
        "HashMultimap",
        "record_retrieve",
        Ok(&["vkalgo_hash_multimap_record_retrieve"]),
    ),
    (
        "HashMultimap",
        "record_size",
        Ok(&["vkalgo_hash_multimap_record_size"]),
    ),
    ("HashMultimap", "key_type", Err("the caller's own desc")),
    ("HashMultimap", "value_type", Err("the caller's own desc")),
    (
        "HashMultimap",
        "context",
        Err("C keeps the context handle itself"),
    ),
    (
        "HashMultimap",
        "tuning",
        Err("a tuning query for tests and benchmarks"),
    ),
    (
        "HashMultimap",
        "num_buckets",
        Ok(&["vkalgo_hash_multimap_device_view"]),
    ),
    (
        "HashMultimap",
        "max_probes",
        Ok(&["vkalgo_hash_multimap_device_view"]),
    ),
    (
        "HashMultimap",
        "slot_bytes",
        Ok(&["vkalgo_hash_multimap_device_view"]),
    ),
    (
        "HashMultimap",
        "bucket_slots",
        Ok(&["vkalgo_hash_multimap_device_view"]),
    ),
    (
        "HashMultimap",
        "bucket_bytes",
        Ok(&["vkalgo_hash_multimap_device_view"]),
    ),
    (
        "HashMultimap",
        "memory_bytes",
        Ok(&["vkalgo_context_memory_usage"]),
    ),
    (
        "HashMultimap",
        "packed_insert",
        Err("a tuning query for tests and benchmarks"),
    ),
    ("GpuSet", "new", Ok(&["vkalgo_set_create"])),
    ("GpuSet", "new_in", Ok(&["vkalgo_set_create_in"])),
    (
        "GpuSet",
        "memory_requirements",
        Ok(&["vkalgo_set_memory_requirements"]),
    ),
    (
        "GpuSet",
        "from_values",
        Ok(&["vkalgo_set_create", "vkalgo_set_insert_host"]),
    ),
    ("GpuSet", "insert", Ok(&["vkalgo_set_insert_host"])),
    ("GpuSet", "remove", Ok(&["vkalgo_set_remove_host"])),
    ("GpuSet", "insert_range", Ok(&["vkalgo_set_insert_range_host"])),
    ("GpuSet", "run_optimize", Ok(&["vkalgo_set_run_optimize_host"])),
    ("GpuSet", "shrink_to_fit", Ok(&["vkalgo_set_shrink_to_fit_host"])),
    ("GpuSet", "pack", Ok(&["vkalgo_set_pack_host"])),
    ("GpuSet", "unpack", Ok(&["vkalgo_set_unpack_host"])),
    ("GpuSet", "is_packed", Ok(&["vkalgo_set_is_packed"])),
    ("GpuSet", "memory_bytes", Ok(&["vkalgo_set_memory_bytes"])),
    ("GpuSet", "device_view", Ok(&["vkalgo_set_device_view"])),
    ("GpuSet", "contains", Ok(&["vkalgo_set_contains_host"])),
    ("GpuSet", "contains_flags", Ok(&["vkalgo_set_contains_host"])),
    ("GpuSet", "minimum", Ok(&["vkalgo_set_minimum"])),
    ("GpuSet", "maximum", Ok(&["vkalgo_set_maximum"])),
    ("GpuSet", "rank", Ok(&["vkalgo_set_rank_host"])),
    ("GpuSet", "select", Ok(&["vkalgo_set_select_host"])),
    ("GpuSet", "cardinality", Ok(&["vkalgo_set_cardinality_host"])),
    ("GpuSet", "op_many", Ok(&["vkalgo_set_op_many"])),
    (
        "GpuSet",
        "op_many_cardinality",
        Ok(&["vkalgo_set_op_many_cardinality"]),
    ),
    (
        "GpuSet",
        "op_many_cardinality_scratch_bytes",
        Ok(&["vkalgo_set_op_many_cardinality_scratch_bytes"]),
    ),
    (
        "GpuSet",
        "record_op_many_cardinality",
        Ok(&["vkalgo_set_record_op_many_cardinality"]),
    ),
    ("GpuSet", "assign_many", Ok(&["vkalgo_set_op_many"])),
    ("GpuSet", "record_op_many", Ok(&["vkalgo_set_record_op_many"])),
    (
        "GpuSet",
        "op_many_scratch_bytes",
        Ok(&["vkalgo_set_op_many_scratch_bytes"]),
    ),
    ("GpuSet", "op_batch", Ok(&["vkalgo_set_op_batch"])),
    ("GpuSet", "from_values_many", Ok(&["vkalgo_set_from_values_many"])),
    ("GpuSet", "serialize_many", Ok(&["vkalgo_set_serialize_many"])),
    ("GpuSet", "deserialize_many", Ok(&["vkalgo_set_deserialize_many"])),
    ("GpuSet", "to_array_many", Ok(&["vkalgo_set_to_array_many"])),
    ("GpuSet", "cardinalities", Ok(&["vkalgo_set_cardinalities"])),
    ("GpuSet", "equals", Ok(&["vkalgo_set_equals"])),
    ("GpuSet", "is_subset", Ok(&["vkalgo_set_is_subset"])),
    (
        "GpuSet",
        "range_cardinality",
        Ok(&["vkalgo_set_range_cardinality_host"]),
    ),
    ("GpuSet", "assign", Ok(&["vkalgo_set_op_host"])),
    ("GpuSet", "op", Ok(&["vkalgo_set_create", "vkalgo_set_op_host"])),
    ("GpuSet", "assign_batch", Ok(&["vkalgo_set_op_batch"])),
    (
        "GpuSet",
        "op_cardinality",
        Ok(&["vkalgo_set_op_cardinality_host"]),
    ),
    (
        "GpuSet",
        "op_cardinality_batch",
        Ok(&["vkalgo_set_op_cardinality_batch_host"]),
    ),
    ("GpuSet", "to_array", Ok(&["vkalgo_set_to_array_host"])),
    ("GpuSet", "to_vec", Ok(&["vkalgo_set_to_array_host"])),
    ("GpuSet", "filter", Ok(&["vkalgo_set_filter_host"])),
    ("GpuSet", "serialize", Ok(&["vkalgo_set_serialize_host"])),
    ("GpuSet", "serialized_size", Ok(&["vkalgo_set_serialize_host"])),
    ("GpuSet", "deserialize", Ok(&["vkalgo_set_deserialize_host"])),
    ("GpuSet", "reserve", Ok(&["vkalgo_set_reserve_host"])),
    (
        "GpuSet",
        "reserve_for_op",
        Ok(&["vkalgo_set_reserve_for_op_host"]),
    ),
    (
        "GpuSet",
        "pool_blocks",
        Err("a pool-size estimate for Rust callers of new_in"),
    ),
    ("GpuSet", "context", Err("C keeps the context handle itself")),
    (
        "GpuSet",
        "on_caller_memory",
        Err("the caller chose create or create_in"),
    ),
    ("GpuSet", "insert_plan", Ok(&["vkalgo_set_insert_plan_create"])),
    ("GpuSet64", "new", Ok(&["vkalgo_set64_create"])),
    (
        "GpuSet64",
        "from_values",
        Ok(&["vkalgo_set64_create", "vkalgo_set64_insert"]),
    ),
    ("GpuSet64", "context", Err("C keeps the context handle itself")),
    ("GpuSet64", "is_empty", Ok(&["vkalgo_set64_cardinality"])),
    (
        "GpuSet64",
        "high_keys",
        Err("the layout's high keys, a diagnostic for Rust callers and tests"),
    ),
    ("GpuSet64", "memory_bytes", Ok(&["vkalgo_set64_memory_bytes"])),
    ("GpuSet64", "pack", Ok(&["vkalgo_set64_pack"])),
    ("GpuSet64", "insert", Ok(&["vkalgo_set64_insert"])),
    ("GpuSet64", "remove", Ok(&["vkalgo_set64_remove"])),
    ("GpuSet64", "contains", Ok(&["vkalgo_set64_contains"])),
    ("GpuSet64", "cardinality", Ok(&["vkalgo_set64_cardinality"])),
    ("GpuSet64", "to_array", Ok(&["vkalgo_set64_to_array"])),
    ("GpuSet64", "to_vec", Ok(&["vkalgo_set64_to_array"])),
    ("GpuSet64", "minimum", Ok(&["vkalgo_set64_minimum"])),
    ("GpuSet64", "maximum", Ok(&["vkalgo_set64_maximum"])),
    ("GpuSet64", "op", Ok(&["vkalgo_set64_op"])),
    ("GpuSet64", "op_cardinality", Ok(&["vkalgo_set64_op_cardinality"])),
    ("GpuSet64", "equals", Ok(&["vkalgo_set64_equals"])),
    ("GpuSet64", "is_subset", Ok(&["vkalgo_set64_is_subset"])),
    (
        "GpuSet64",
        "serialized_size",
        Ok(&["vkalgo_set64_serialized_size"]),
    ),
    ("GpuSet64", "serialize", Ok(&["vkalgo_set64_serialize"])),
    ("GpuSet64", "deserialize", Ok(&["vkalgo_set64_deserialize"])),
    (
        "GpuSet64",
        "deserialize_prefix",
        Ok(&["vkalgo_set64_deserialize_prefix"]),
    ),
    ("GpuSet", "record_barrier", Ok(&["vkalgo_set_record_barrier"])),
    (
        "GpuSet",
        "record_requirements",
        Ok(&["vkalgo_set_record_requirements"]),
    ),
    ("GpuSet", "record_op", Ok(&["vkalgo_set_record_op"])),
    ("GpuSet", "record_op_batch", Ok(&["vkalgo_set_record_op_batch"])),
    (
        "GpuSet",
        "op_batch_scratch_bytes",
        Ok(&["vkalgo_set_op_batch_scratch_bytes"]),
    ),
    (
        "GpuSet",
        "record_op_cardinality",
        Ok(&["vkalgo_set_record_op_cardinality"]),
    ),
    (
        "GpuSet",
        "record_op_cardinality_batch",
        Ok(&["vkalgo_set_record_op_cardinality_batch"]),
    ),
    (
        "GpuSet",
        "record_insert_sorted",
        Ok(&["vkalgo_set_record_insert_sorted"]),
    ),
    (
        "GpuSet",
        "record_insert_range",
        Ok(&["vkalgo_set_record_insert_range"]),
    ),
    (
        "GpuSet",
        "record_run_optimize",
        Ok(&["vkalgo_set_record_run_optimize"]),
    ),
    ("GpuSet", "record_insert", Ok(&["vkalgo_set_record_insert"])),
    ("GpuSet", "record_contains", Ok(&["vkalgo_set_record_contains"])),
    ("GpuSet", "record_rank", Ok(&["vkalgo_set_record_rank"])),
    ("GpuSet", "record_select", Ok(&["vkalgo_set_record_select"])),
    ("GpuSet", "record_min_max", Ok(&["vkalgo_set_record_min_max"])),
    ("GpuSet", "record_filter", Ok(&["vkalgo_set_record_filter"])),
    ("GpuSet", "record_to_array", Ok(&["vkalgo_set_record_to_array"])),
    (
        "GpuSet",
        "record_range_cardinality",
        Ok(&["vkalgo_set_record_range_cardinality"]),
    ),
];

/// The public, documented (not `#[doc(hidden)]`) methods of `impl <ty> {` blocks in
/// `sources`, with those of the `macro_rules!` macros such a block invokes (src/hash/table.rs
/// writes the accessors a map and a multimap share once, as a macro).
#[cfg(test)]
fn public_methods(sources: &[&str], ty: &str) -> Vec<String> {
    let mut methods = Vec::new();
    for source in sources {
        let mut in_impl = false;
        let mut lines = Vec::new();
        for line in source.lines() {
            if line.starts_with("impl ") {
                in_impl = line.trim_end() == format!("impl {ty} {{");
                continue;
            }
            if line == "}" {
                in_impl = false;
            }
            if !in_impl {
                continue;
            }
            match macro_invoked(line) {
                Some(name) => lines.extend(sources.iter().flat_map(|s| macro_body(s, name))),
                None => lines.push(line),
            }
        }
        methods.extend(public_fns(&lines));
    }
    methods
}

/// The macro a line of an impl block invokes (`    name!(...);`), if it does.
#[cfg(test)]
fn macro_invoked(line: &str) -> Option<&str> {
    let call = line.strip_prefix("    ")?.trim_end().strip_suffix(");")?;
    let (name, _) = call.split_once("!(")?;
    name.chars()
        .all(|c| c.is_alphanumeric() || c == '_')
        .then_some(name)
}

/// The lines of `macro_rules! name { ... }` in `source` (none where it is not defined there),
/// re-indented as if they stood in an impl block.
#[cfg(test)]
fn macro_body<'a>(source: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("macro_rules! {name} {{");
    source
        .lines()
        .skip_while(|l| l.trim_end() != head)
        .skip(1)
        .take_while(|l| *l != "}")
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect()
}

/// The public, documented (not `#[doc(hidden)]`) functions of the lines of an impl block.
#[cfg(test)]
fn public_fns(lines: &[&str]) -> Vec<String> {
    let mut methods = Vec::new();
    let mut hidden = false;
    for line in lines {
        let trimmed = line.trim_start();
        if line.starts_with("    #[") || line.starts_with("    ///") {
            hidden |= trimmed.contains("doc(hidden)");
            continue;
        }
        for prefix in ["    pub fn ", "    pub unsafe fn "] {
            if let Some(rest) = line.strip_prefix(prefix) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !hidden {
                    methods.push(name);
                }
            }
        }
        hidden = false;
    }
    methods
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Rust source file of the library crate.
    fn library_sources() -> Vec<(String, String)> {
        fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).expect("src") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("source");
                    out.push((path.display().to_string(), text));
                }
            }
        }
        let mut out = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src"),
            &mut out,
        );
        out
    }

    #[test]
    fn every_rust_call_has_a_c_counterpart_or_a_reason() {
        let header = include_str!("../../../include/vkalgo.h");
        let sources = library_sources();
        let sources: Vec<&str> = sources.iter().map(|(_, s)| s.as_str()).collect();
        let types = [
            "SortPlan",
            "ScanPlan",
            "ReducePlan",
            "HistogramPlan",
            "SelectPlan",
            "ReduceByKeyPlan",
            "SegmentedSortPlan",
            "SplitPlan",
            "MergePlan",
            "SetOpPlan",
            "MergeSortPlan",
            "HashMap",
            "HashMultimap",
            "GpuSet",
            "GpuSet64",
        ];
        let mut missing = Vec::new();
        for ty in types {
            let methods = public_methods(&sources, ty);
            assert!(
                !methods.is_empty(),
                "no public methods of {ty} found: the parser is out of date"
            );
            for method in methods {
                match COUNTERPARTS.iter().find(|(t, m, _)| *t == ty && *m == method) {
                    None => missing.push(format!("{ty}::{method}: not in COUNTERPARTS")),
                    Some((_, _, Ok(c_names))) => {
                        for c in c_names.iter() {
                            if !header.contains(&format!(" {c}(")) {
                                missing.push(format!("{ty}::{method}: {c} is not in vkalgo.h"));
                            }
                        }
                    }
                    Some((_, _, Err(_))) => {}
                }
            }
        }
        assert!(missing.is_empty(), "the C ABI lacks:\n{}", missing.join("\n"));
    }

    /// The table names no method that is gone (a stale entry would hide a missing one).
    #[test]
    fn the_table_has_no_stale_entries() {
        let sources = library_sources();
        let sources: Vec<&str> = sources.iter().map(|(_, s)| s.as_str()).collect();
        let stale: Vec<String> = COUNTERPARTS
            .iter()
            .filter(|(ty, method, _)| !public_methods(&sources, ty).iter().any(|m| m == method))
            .map(|(ty, method, _)| format!("{ty}::{method}"))
            .collect();
        assert!(
            stale.is_empty(),
            "COUNTERPARTS names methods that are gone: {stale:?}"
        );
    }
}
