mod common;
use common::*;
use vkalgo::GpuSet;
fn case(name: &str, n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut v: Vec<u32> = match name {
        "sparse" => (0..n).map(|_| rng.next_u32()).collect(),
        "dense" => (0..n).map(|_| (rng.next_u64() % (2 * n as u64)) as u32).collect(),
        _ => {
            let mut v = Vec::new();
            while v.len() < n {
                let s = rng.next_u32();
                let l = 1 + rng.next_u32() % 4096;
                v.extend((0..l).map(|i| s.wrapping_add(i)));
            }
            v
        }
    };
    v.sort_unstable();
    v.dedup();
    v
}
/// Bytes of the Roaring portable serialization of sorted distinct values with array and bitmap
/// containers only (cookie 12346: 8 header bytes, 8 per container, 2 per value of an array of
/// at most 4096 values, 8192 per bitmap), counted here apart from the library.
fn roaring_bytes_without_runs(v: &[u32]) -> u64 {
    let mut bytes = 8u64;
    let mut i = 0;
    while i < v.len() {
        let j = i + v[i..].iter().take_while(|&&x| x >> 16 == v[i] >> 16).count();
        let card = (j - i) as u64;
        bytes += 8 + if card <= 4096 { 2 * card } else { 8192 };
        i = j;
    }
    bytes
}

/// Memory of a set against Roaring's portable serialization of the same values
/// (docs/benchmarks/2026-11-22-set-memory.md): at 2^24 values within 1.25x the serialization
/// with array and bitmap containers only (measured 1.09-1.17x), and within 1.25x of what
/// CRoaring writes (run containers where smaller, `GpuSet::serialize`) for sparse and dense
/// sets. A clustered set (read back with its run containers as run chunks) takes about 5.4x
/// that, most of it the fixed 512 KiB chunk directory (docs/set-runs-plan.md; issue 23's target
/// is not met there): asserted within 8x, as a guard that its chunks stay run chunks (313x
/// without them). 2^20 values are printed only (the fixed chunk directory dominates there).
#[test]
fn memory() {
    let ctx = context();
    let mut rng = Rng(9);
    for log2n in [20u32, 24] {
        for name in ["sparse", "dense", "clustered"] {
            let v = case(name, 1 << log2n, &mut rng);
            let bytes = vkalgo::set::reference::serialize(&v.iter().copied().collect());
            let plain = roaring_bytes_without_runs(&v);
            let exact = GpuSet::deserialize(&ctx, &bytes).unwrap();
            assert_eq!(exact.serialized_size().unwrap(), bytes.len() as u64);
            let mem = exact.memory_bytes() as f64;
            let line = format!(
                "2^{log2n} {name}: {} values, Roaring {} B (arrays and bitmaps only {} B), exact-fit {} B = {:.3}x ({:.3}x)",
                v.len(),
                bytes.len(),
                plain,
                exact.memory_bytes(),
                mem / bytes.len() as f64,
                mem / plain as f64
            );
            if log2n <= 20 {
                let built = GpuSet::from_values(&ctx, &v).unwrap();
                eprintln!(
                    "{line}; built by insert {} B = {:.3}x",
                    built.memory_bytes(),
                    built.memory_bytes() as f64 / bytes.len() as f64
                );
            } else {
                eprintln!("{line}");
                assert!(
                    mem / plain as f64 <= 1.25,
                    "{line}: over 1.25x Roaring's arrays and bitmaps"
                );
                let limit = if name == "clustered" { 8.0 } else { 1.25 };
                assert!(
                    mem / bytes.len() as f64 <= limit,
                    "{line}: over {limit}x Roaring's size"
                );
            }
        }
    }
}
