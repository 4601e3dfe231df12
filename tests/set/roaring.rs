//! The Roaring format: malformed files and runs, the exchange with CRoaring, files read in
//! linear time and memory.

use super::*;

fn roaring_header(cookie: u32, count: u32) -> Vec<u8> {
    let mut v = cookie.to_le_bytes().to_vec();
    v.extend_from_slice(&count.to_le_bytes());
    v
}

/// Malformed serializations are refused; hand-written run containers are read.
#[test]
fn roaring_malformed_and_runs() {
    let ctx = context();
    let mut m: BTreeSet<u32> = [1u32, 5, 70_000].into_iter().collect();
    // A bitmap chunk with no run to spare (every other value): the layout of cookie 12346.
    m.extend(((3 << 16)..((3 << 16) + 10_000)).step_by(2));
    let good = reference::serialize(&m);
    assert_eq!(good[..4], 12346u32.to_le_bytes());
    let s = GpuSet::deserialize(&ctx, &good).unwrap();
    check(&s, &m, "round trip");
    let bad = |bytes: &[u8], what: &str| {
        assert!(
            matches!(GpuSet::deserialize(&ctx, bytes), Err(Error::InvalidArgument(_))),
            "{what} accepted"
        );
        assert!(reference::deserialize(bytes).is_err());
    };
    for len in 0..good.len() {
        bad(&good[..len], &format!("truncated to {len}"));
    }
    let mut t = good.clone();
    t.push(0);
    bad(&t, "trailing byte");
    let mut t = good.clone();
    t[0] = 0x3B; // 12347 without its run bitset
    t[1] = 0x30;
    t[2] = 0xFF;
    t[3] = 0xFF;
    bad(&t, "run cookie with 65536 containers");
    let mut t = good.clone();
    t[0] ^= 1;
    bad(&t, "wrong cookie");
    bad(&roaring_header(12346, 65537), "65537 containers");
    bad(&roaring_header(12346, u32::MAX), "2^32 - 1 containers");
    let mut t = good.clone();
    t[8 + 3 * 4 - 2] = 0; // key of container 3 (= 3) below container 2's (1)
    t[8 + 3 * 4 - 1] = 0;
    bad(&t, "unsorted keys");
    let offsets = 8 + 3 * 4;
    let mut t = good.clone();
    t[offsets] += 2;
    bad(&t, "offset off by two");
    let mut t = good.clone();
    t[offsets + 4 * 2 + 3] = 0x7F;
    bad(&t, "offset out of range");
    let data = offsets + 3 * 4;
    let mut t = good.clone();
    t.swap(data, data + 2); // array values 1, 5 -> 5, 1
    t.swap(data + 1, data + 3);
    bad(&t, "unsorted array");
    let mut t = good.clone();
    t[8 + 2] = 2; // container 0 claims 3 values: its array then overlaps the next container
    bad(&t, "cardinality mismatch");
    // Bitmap container whose popcount disagrees with the header.
    let mut t = good.clone();
    let bitmap_at = data + 2 * 2 + 2;
    t[bitmap_at + 8191] ^= 0x80;
    bad(&t, "bitmap popcount mismatch");
    // Run containers (cookie 12347, fewer than 4 containers: no offsets).
    let mut r = (12347u32 | (1 << 16)).to_le_bytes().to_vec(); // 2 containers
    r.push(0b11); // both are run containers
    r.extend_from_slice(&[0, 0, 9, 0]); // key 0, 10 values
    r.extend_from_slice(&[2, 0, 0xFF, 0xFF]); // key 2, 65536 values
    r.extend_from_slice(&[2, 0, 3, 0, 4, 0, 100, 0, 4, 0]); // runs [3, 8) and [100, 105)
    r.extend_from_slice(&[1, 0, 0, 0, 0xFF, 0xFF]); // one run [0, 65536)
    let s = GpuSet::deserialize(&ctx, &r).unwrap();
    let mut want: BTreeSet<u32> = (3..8).chain(100..105).collect();
    want.extend((2 << 16)..(3 << 16));
    check(&s, &want, "runs");
    let mut t = r.clone();
    t[17] = 2; // second run starts at 2, inside the first
    bad(&t, "overlapping runs");
    let mut t = r.clone();
    t[12] = 10; // header says 11 values
    bad(&t, "run cardinality mismatch");
    let mut t = r.clone();
    t[25] = 1; // run [256, 65792) leaves the chunk
    bad(&t, "run past the chunk");
}

/// Files both ways with CRoaring through pyroaring (tests/roaring_interchange.py). Runs when
/// `python3 -c "import pyroaring"` works; `VKALGO_REQUIRE_PYROARING=1` (scripts/test.sh, which
/// installs it) makes its absence a failure.
#[test]
fn roaring_interchange_with_croaring() {
    let Some(python) = python_with_pyroaring() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("vkalgo-roaring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The script next to this file when built here, else relative to the working directory
    // (a test binary copied to another machine runs from the repository root).
    let built_here = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/roaring_interchange.py");
    let script = if std::path::Path::new(built_here).exists() {
        built_here
    } else {
        "tests/roaring_interchange.py"
    };
    let run = |verb: &str| {
        let out = std::process::Command::new(&python)
            .args([script, verb, dir.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{verb}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run("make");
    let ctx = context();
    let read_u32 = |path: &std::path::Path| -> Vec<u32> {
        std::fs::read(path)
            .unwrap()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let mut cases = 0;
    let mut runs_files = 0;
    for name in ["sparse", "dense", "runs", "empty", "edges"] {
        let bytes = std::fs::read(dir.join(format!("p_{name}.bin"))).unwrap();
        let values = read_u32(&dir.join(format!("p_{name}.u32")));
        // CRoaring -> vkalgo.
        let set = GpuSet::deserialize(&ctx, &bytes).unwrap();
        let model = model_of(&values);
        check(&set, &model, &format!("pyroaring {name}"));
        // pyroaring's sets are run-optimized (its constructor's default; p_runs explicitly):
        // vkalgo picks each chunk's container by the same rule and writes the same bytes.
        assert_eq!(set.serialize().unwrap(), bytes, "{name}: same bytes as CRoaring");
        let cookie = u16::from_le_bytes([bytes[0], bytes[1]]);
        runs_files += usize::from(cookie == 12347);
        // vkalgo -> CRoaring: a set built on the GPU from the values, then modified.
        let mut built = GpuSet::from_values(&ctx, &values).unwrap();
        built.insert(&[42, 1 << 31]).unwrap();
        let mut m2 = model.clone();
        m2.extend([42, 1 << 31]);
        std::fs::write(dir.join(format!("g_{name}.bin")), built.serialize().unwrap()).unwrap();
        let flat: Vec<u8> = m2.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(dir.join(format!("g_{name}.u32")), flat).unwrap();
        cases += 1;
    }
    assert_eq!(cases, 5);
    assert!(
        runs_files >= 2,
        "CRoaring's dense and runs files hold run containers"
    );
    run("check");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Untrusted Roaring files cost time and host memory linear in their size: the whole universe
/// as CRoaring writes it (925,700 bytes; read value by value it took seconds) and 65,536 chunks
/// of one 5,000-value run (an 8 KiB bitmap each, 512 MiB, when read value by value) become
/// directory entries of full and run chunks, no pool block, and write back the same bytes.
#[test]
fn run_files_read_in_linear_time_and_memory() {
    let ctx = context();
    let mut full = GpuSet::new(&ctx).unwrap();
    full.insert_range(0, 1 << 32).unwrap();
    let universe = full.serialize().unwrap();
    assert_eq!(universe.len(), 925_700);
    let runs = vkalgo::set::reference::serialize_runs(65536, |k| vec![((k * 7) as u16 % 60_000, 5000)]);
    // In chunk 3 (a run from 21), 5000 (just past chunk 0's run [0, 5000)), 2^32 - 1.
    let queries = [21 + 3 * 65536, 5000, u32::MAX];
    for (what, bytes, cardinality, want) in [
        ("the universe", &universe, 1u64 << 32, [true; 3]),
        ("runs of 5,000", &runs, 65536 * 5000, [true, false, false]),
    ] {
        let start = std::time::Instant::now();
        let read = GpuSet::deserialize(&ctx, bytes).unwrap();
        let took = start.elapsed();
        assert_eq!(read.cardinality().unwrap(), cardinality, "{what}");
        assert_eq!(read.pool_blocks(), (0, 0), "{what}: only directory entries");
        assert!(took.as_secs_f64() < 10.0, "{what}: {took:?}");
        assert_eq!(&read.serialize().unwrap(), bytes, "{what}");
        let mut found = [false; 3];
        read.contains(&queries, &mut found).unwrap();
        assert_eq!(found, want, "{what}");
    }
}
