//! The Roaring64 reader against CRoaring's on damaged files: tests/set64/roaring64_mutations.py
//! damages valid serializations (bit flips, overwritten, inserted and removed bytes, cut
//! files, counts, keys and 16-bit fields made extreme) and records CRoaring's verdict through
//! pyroaring's `BitMap64`; every file vkalgo accepts, CRoaring must accept with the same values,
//! and every file CRoaring accepts and vkalgo refuses must be refused for a check vkalgo makes
//! and CRoaring does not (`STRICTER`). `VKALGO_FUZZ_FILES` sets the files per seed (default
//! 3000), `VKALGO_FUZZ_SEEDS` the seeds (default "1,2"). Needs python3 with pyroaring, as the
//! interchange test (`VKALGO_REQUIRE_PYROARING=1`: its absence fails).

use super::*;
use std::time::{Duration, Instant};

/// Checks vkalgo makes that CRoaring 5.2.2 does not, by the words of vkalgo's error.
const STRICTER: &[(&str, &str)] = &[
    (
        "trailing bytes after the last bitmap",
        "bytes after the last bitmap (CRoaring stops reading; GpuSet64::deserialize_prefix too)",
    ),
    (
        "but the container starts at",
        "a 32-bit bitmap's offset header must point at each container (CRoaring skips it)",
    ),
    (
        "runs hold",
        "a run container's values must match its header cardinality",
    ),
];

#[test]
fn reader_agrees_with_croaring_on_damaged_files() {
    let Some(python) = python_with_pyroaring() else {
        return;
    };
    let files: usize = std::env::var("VKALGO_FUZZ_FILES").map_or(3000, |v| v.parse().unwrap());
    let seeds = std::env::var("VKALGO_FUZZ_SEEDS").unwrap_or_else(|_| "1,2".into());
    let script = super::interchange::script("roaring64_mutations.py");
    let (mut accepted, mut stricter, mut refused_both) = (0, vec![0usize; STRICTER.len()], 0);
    let mut slowest = Duration::ZERO;
    for seed in seeds.split(',') {
        let dir = std::env::temp_dir().join(format!("vkalgo-fuzz64-{}-{seed}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = std::process::Command::new(&python)
            .args([script.as_str(), dir.to_str().unwrap(), &files.to_string(), seed])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let data = std::fs::read(dir.join("files.bin")).unwrap();
        let verdicts = std::fs::read(dir.join("verdicts.bin")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let mut at = 0;
        for i in 0..files {
            let len = u32::from_le_bytes(data[at..at + 4].try_into().unwrap()) as usize;
            let file = &data[at + 4..at + 4 + len];
            at += 4 + len;
            let v = &verdicts[13 * i..13 * (i + 1)];
            let croaring_accepts = v[0] == 1;
            let cardinality = u64::from_le_bytes(v[1..9].try_into().unwrap());
            let crc = u32::from_le_bytes(v[9..13].try_into().unwrap());
            let what = format!("seed {seed}, file {i} ({len} bytes)");
            let start = Instant::now();
            let ours = reference::deserialize(file);
            slowest = slowest.max(start.elapsed());
            match ours {
                Ok(values) => {
                    assert!(croaring_accepts, "{what}: vkalgo accepts a file CRoaring refuses");
                    assert_eq!(values.len() as u64, cardinality, "{what}: cardinality");
                    assert_eq!(
                        crc32(bytemuck::cast_slice(&values)),
                        crc,
                        "{what}: values differ from CRoaring's"
                    );
                    accepted += 1;
                }
                Err(Error::InvalidArgument(m)) if croaring_accepts => {
                    let k = STRICTER
                        .iter()
                        .position(|(words, _)| m.contains(words))
                        .unwrap_or_else(|| panic!("{what}: CRoaring accepts, vkalgo refuses: {m}"));
                    stricter[k] += 1;
                }
                Err(Error::InvalidArgument(_)) => refused_both += 1,
                Err(e) => panic!("{what}: {e:?}"),
            }
        }
    }
    eprintln!(
        "{accepted} accepted by both, {refused_both} refused by both, refused by vkalgo only: {:?}; \
         slowest read {slowest:?}",
        STRICTER
            .iter()
            .zip(&stricter)
            .map(|((w, _), n)| format!("{w}: {n}"))
            .collect::<Vec<_>>()
    );
    assert!(
        accepted > 0 && refused_both > 0,
        "the mutations reach both outcomes"
    );
    // Linear time: no file of these (at most a few hundred KiB) takes long to read.
    assert!(slowest < Duration::from_secs(2), "slowest read {slowest:?}");
}
