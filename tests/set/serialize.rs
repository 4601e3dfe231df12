//! Serializations encoded on the GPU against the CPU reference, byte for byte: every container
//! form CRoaring writes and its boundaries, sets in every storage (built from values, made in
//! bulk with packed directories, results of operations, after run_optimize, read from run
//! files), one at a time and many in one call.

use super::*;

/// Chunk `c`'s values from `lows`.
fn in_chunk(c: u32, lows: impl IntoIterator<Item = u32>) -> Vec<u32> {
    lows.into_iter().map(|x| (c << 16) | x).collect()
}

/// Runs of `len` values every `stride` values from `first`, `count` of them.
fn spaced_runs(first: u32, count: u32, len: u32, stride: u32) -> Vec<u32> {
    (0..count)
        .flat_map(|k| first + k * stride..first + k * stride + len)
        .collect()
}

/// Value lists whose chunks sit on each side of every choice the encoder makes.
fn boundary_lists(rng: &mut Rng) -> Vec<Vec<u32>> {
    let mut lists = vec![
        Vec::new(),
        // An array of 5 values in 2 runs stays an array (10 bytes each way); 6 values in 2
        // runs become runs.
        in_chunk(0, [0, 1, 2, 10, 11]),
        in_chunk(3, [0, 1, 2, 10, 11, 12]),
        // One value; the universe's last values; runs across word edges.
        vec![u32::MAX],
        in_chunk(65535, [31, 32, 63, 64, 65, 65533, 65534, 65535]),
        in_chunk(7, (0..40).map(|i| i * 2)),
        // A bitmap of 2047 runs (8190 bytes as runs) and one of 2048 (the bitmap's 8192).
        in_chunk(1, spaced_runs(0, 2047, 3, 32)),
        in_chunk(2, spaced_runs(0, 2048, 3, 32)),
        // A bitmap of one long run from 0, one ending at 65535, a full chunk.
        in_chunk(4, 0..5000),
        in_chunk(5, 60_000..65536),
        in_chunk(6, 0..65536),
        // Random bitmaps and arrays.
        in_chunk(8, (0..20_000).map(|_| rng.next_u32() & 0xFFFF)),
        in_chunk(9, (0..4096).map(|i| i * 16)),
        in_chunk(10, (0..4097).map(|i| i * 15)),
    ];
    // Three and four chunks with a run container (the offsets are written from four on).
    for chunks in [3u32, 4] {
        lists.push((0..chunks).flat_map(|c| in_chunk(c * 5, 100..200)).collect());
    }
    // Many chunks of one value each, and chunks of every kind.
    lists.push((0..3000u32).map(|c| (c * 17) << 16 | c).collect());
    for _ in 0..4 {
        lists.push(every_kind_values(rng));
    }
    // Everything at once.
    let all: Vec<u32> = lists.iter().take(15).flatten().copied().collect();
    lists.push(all);
    lists
}

/// Each set's serialization against the reference's, one at a time and all in one call.
fn check_serialized(sets: &[GpuSet], models: &[BTreeSet<u32>], what: &str) {
    let refs: Vec<&GpuSet> = sets.iter().collect();
    let (bytes, offsets) = GpuSet::serialize_many(&refs).unwrap();
    assert_eq!(offsets.len(), sets.len() + 1, "{what}: offsets");
    for (i, (s, m)) in sets.iter().zip(models).enumerate() {
        let want = reference::serialize(m);
        let (a, b) = (offsets[i] as usize, offsets[i + 1] as usize);
        assert!(
            bytes[a..b] == want[..],
            "{what}: serialize_many, set {i} of {} values",
            m.len()
        );
        if i % 5 == 0 {
            assert!(s.serialize().unwrap() == want, "{what}: serialize, set {i}");
            assert_eq!(
                s.serialized_size().unwrap(),
                want.len() as u64,
                "{what}: size, set {i}"
            );
        }
    }
}

#[test]
fn encoded_on_the_gpu_as_the_reference_writes() {
    let ctx = context();
    let mut rng = Rng(0x5e_71_a1);
    let lists = boundary_lists(&mut rng);
    let models: Vec<BTreeSet<u32>> = lists.iter().map(|l| model_of(l)).collect();

    // Built from values, one by one (flat directories).
    let single: Vec<GpuSet> = lists
        .iter()
        .map(|l| GpuSet::from_values(&ctx, l).unwrap())
        .collect();
    check_serialized(&single, &models, "from_values");

    // Made in bulk (packed directories where small, shared buffers).
    let mut values = Vec::new();
    let mut offsets = vec![0u64];
    for l in &lists {
        values.extend_from_slice(l);
        offsets.push(values.len() as u64);
    }
    let bulk = GpuSet::from_values_many(&ctx, &values, &offsets).unwrap();
    check_serialized(&bulk, &models, "from_values_many");

    // Results of operations (flat, written by the GPU, chunk counts bounded on the host), and
    // the same sets after run_optimize (run chunks kept as runs).
    let halves: Vec<(GpuSet, GpuSet)> = lists
        .iter()
        .map(|l| {
            let (a, b) = l.split_at(l.len() / 2);
            (
                GpuSet::from_values(&ctx, a).unwrap(),
                GpuSet::from_values(&ctx, b).unwrap(),
            )
        })
        .collect();
    let pairs: Vec<(&GpuSet, &GpuSet)> = halves.iter().map(|(a, b)| (a, b)).collect();
    let mut unions = GpuSet::op_batch(&pairs, SetOp::Or).unwrap();
    check_serialized(&unions, &models, "op_batch results");
    for u in &mut unions {
        u.run_optimize().unwrap();
    }
    check_serialized(&unions, &models, "after run_optimize");
}

#[test]
fn run_files_written_back_as_croaring_would() {
    let ctx = context();
    // Run containers as files may hold them: single values (fewer bytes as an array), many
    // short runs of a bitmap's cardinality (fewer as a bitmap), adjacent runs (one run).
    let files = [
        reference::serialize_runs(3, |k| (0..40).map(|i| ((k * 1000 + i * 7) as u16, 1)).collect()),
        reference::serialize_runs(2, |k| (0..3000).map(|i| ((i * 20 + k) as u16, 3)).collect()),
        reference::serialize_runs(5, |k| vec![(10, 5 + k), (15 + k as u16, 7), (100, 1)]),
        reference::serialize_runs(1, |_| vec![(0, 65536)]),
    ];
    let mut sets = Vec::new();
    let mut models = Vec::new();
    for f in &files {
        let set = GpuSet::deserialize(&ctx, f).unwrap();
        models.push(
            reference::deserialize(f)
                .unwrap()
                .into_iter()
                .collect::<BTreeSet<u32>>(),
        );
        sets.push(set);
    }
    check_serialized(&sets, &models, "run files");
}

#[test]
fn serialize_many_of_no_sets_and_of_empty_sets() {
    let ctx = context();
    assert_eq!(GpuSet::serialize_many(&[]).unwrap(), (Vec::new(), vec![0]));
    let empty = GpuSet::new(&ctx).unwrap();
    let mut emptied = GpuSet::from_values(&ctx, &[5, 6, 1 << 20]).unwrap();
    emptied.remove(&[5, 6, 1 << 20]).unwrap();
    let none = BTreeSet::new();
    check_serialized(&[empty, emptied], &[none.clone(), none], "empty sets");
}

/// A serialization of one bitmap container (cookie 12346), as it is, whatever its runs.
fn bitmap_file(key: u16, bits: &[u64]) -> Vec<u8> {
    let card: u32 = bits.iter().map(|w| w.count_ones()).sum();
    let mut out = Vec::new();
    out.extend_from_slice(&12346u32.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&((card - 1) as u16).to_le_bytes());
    out.extend_from_slice(&16u32.to_le_bytes());
    for w in bits {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Serializations that make every placement the GPU reader does: arrays kept and turned into
/// runs, bitmaps kept, turned into runs and full, run containers turned into a full chunk, runs
/// (touching runs joined), an array and a bitmap; sets of no chunk, of many (a flat
/// directory) and of every kind.
fn placement_files(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut files: Vec<Vec<u8>> = boundary_lists(rng)
        .iter()
        .map(|l| reference::serialize(&model_of(l)))
        .collect();
    // A bitmap container of every value, and one of 42 runs.
    files.push(bitmap_file(3, &[u64::MAX; 1024]));
    let mut striped = vec![0u64; 1024];
    for (w, x) in striped.iter_mut().enumerate() {
        if w % 25 < 2 {
            *x = u64::MAX;
        }
    }
    striped[1023] |= 1 << 63;
    files.push(bitmap_file(9, &striped));
    // Run containers: the whole chunk in two touching runs; 3 runs of a bitmap's cardinality;
    // 60 runs of few values (an array) and of many (a bitmap); touching runs that join.
    files.push(reference::serialize_runs(2, |k| {
        vec![(0, 30_000 + k), (30_000 + k as u16, 35_536 - k)]
    }));
    files.push(reference::serialize_runs(3, |k| {
        vec![(5, 3000), (9000 + k as u16, 4000), (20_000, 1)]
    }));
    files.push(reference::serialize_runs(4, |k| {
        (0..60).map(|i| ((i * 1000 + k) as u16, 3)).collect()
    }));
    files.push(reference::serialize_runs(5, |k| {
        (0..60).map(|i| ((i * 1000 + k) as u16, 500)).collect()
    }));
    files.push(reference::serialize_runs(6, |_| {
        (0..50).map(|i| ((i * 10) as u16, 10)).collect()
    }));
    // No chunk; more chunks than a packed directory takes.
    files.push(reference::serialize(&BTreeSet::new()));
    let many: BTreeSet<u32> = (0..40_000u32).map(|c| c << 16 | (c % 7)).collect();
    files.push(reference::serialize(&many));
    files
}

#[test]
fn deserialized_on_the_gpu_as_the_host_reads() {
    let ctx = context();
    let mut rng = Rng(0xde_5e_71);
    let files = placement_files(&mut rng);
    let mut data = Vec::new();
    let mut offsets = vec![0u64];
    for f in &files {
        data.extend_from_slice(f);
        offsets.push(data.len() as u64);
    }
    let sets = GpuSet::deserialize_many(&ctx, &data, &offsets).unwrap();
    assert_eq!(sets.len(), files.len());
    let models: Vec<BTreeSet<u32>> = files
        .iter()
        .map(|f| reference::deserialize(f).unwrap().into_iter().collect())
        .collect();
    for (i, (s, m)) in sets.iter().zip(&models).enumerate() {
        check(s, m, &format!("deserialize_many, set {i}"));
        // The host reader's set holds the same chunks in the same forms.
        let host = GpuSet::deserialize(&ctx, &files[i]).unwrap();
        assert!(
            s.serialize().unwrap() == host.serialize().unwrap(),
            "set {i}: as the host reads it"
        );
    }
    check_serialized(&sets, &models, "deserialize_many");
    // They take writes and operations like any other.
    let mut first = GpuSet::deserialize_many(&ctx, &data, &offsets)
        .unwrap()
        .swap_remove(4);
    first.insert(&[7, 1 << 30]).unwrap();
    let mut m = models[4].clone();
    m.extend([7, 1 << 30]);
    check(&first, &m, "a set read on the GPU after an insert");
    let union = GpuSet::op(&sets[6], &sets[7], SetOp::Or).unwrap();
    check(
        &union,
        &reference::op(&models[6], &models[7], SetOp::Or),
        "an operation on them",
    );
}
