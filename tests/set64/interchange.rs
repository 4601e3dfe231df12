//! Roaring64 files both ways with CRoaring through pyroaring's `BitMap64`
//! (tests/set64/roaring64_interchange.py): vkalgo reads CRoaring's files and writes the same
//! bytes back; CRoaring reads vkalgo's files and writes the same bytes. Runs when
//! `python3 -c "import pyroaring"` works; `VKALGO_REQUIRE_PYROARING=1` (scripts/test.sh, which
//! installs it) makes its absence a failure.

use super::*;

/// A script of this directory: next to this file when built here, else relative to the
/// working directory (a test binary copied to another machine runs from the repository root).
pub(crate) fn script(name: &str) -> String {
    let built_here = format!("{}/tests/set64/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::path::Path::new(&built_here).exists() {
        built_here
    } else {
        format!("tests/set64/{name}")
    }
}

fn read_u64(path: &std::path::Path) -> Vec<u64> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn roaring64_interchange_with_croaring() {
    let Some(python) = python_with_pyroaring() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("vkalgo-roaring64-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = script("roaring64_interchange.py");
    let run = |verb: &str| {
        let out = std::process::Command::new(&python)
            .args([script.as_str(), verb, dir.to_str().unwrap()])
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
    let names = ["empty", "edges", "many_keys", "dense", "runs", "sparse", "mixed"];
    let mut with_runs = 0;
    for name in names {
        let bytes = std::fs::read(dir.join(format!("p_{name}.bin"))).unwrap();
        let values = read_u64(&dir.join(format!("p_{name}.u64")));
        let model = model_of(&values);
        // CRoaring -> vkalgo, and the same bytes back.
        let set = GpuSet64::deserialize(&ctx, &bytes).unwrap();
        check(&set, &model, &format!("pyroaring {name}"));
        assert!(
            set.serialize().unwrap() == bytes,
            "{name}: the bytes CRoaring wrote"
        );
        assert_eq!(
            reference::deserialize(&bytes).unwrap(),
            values,
            "{name}: host reader"
        );
        with_runs += usize::from(bytes.windows(2).any(|w| w == [0x3B, 0x30]));
        // vkalgo -> CRoaring: built on the GPU from the values, then written to.
        let mut built = GpuSet64::from_values(&ctx, &values).unwrap();
        let mut m2 = model.clone();
        let extra = [42, 1 << 40, u64::MAX, (5 << 32) | 7];
        built.insert(&extra).unwrap();
        m2.extend(extra);
        let gone: Vec<u64> = values.iter().copied().step_by(7).collect();
        built.remove(&gone).unwrap();
        for v in &gone {
            m2.remove(v);
        }
        check(&built, &m2, &format!("built {name}"));
        std::fs::write(dir.join(format!("g_{name}.bin")), built.serialize().unwrap()).unwrap();
        let flat: Vec<u8> = m2.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(dir.join(format!("g_{name}.u64")), flat).unwrap();
    }
    assert!(
        with_runs >= 3,
        "CRoaring's dense and run files hold run containers"
    );
    run("check");
    std::fs::remove_dir_all(&dir).unwrap();
}
