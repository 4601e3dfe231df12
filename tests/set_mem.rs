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
/// Memory of a set against CRoaring's portable serialization of the same values
/// (docs/benchmarks/2026-11-22-set-memory.md): 2^24 values must fit within 1.25x (the issue's
/// target; measured 1.09-1.17x); 2^20 values are printed only (the fixed chunk directory
/// dominates there).
#[test]
fn memory() {
    let ctx = context();
    let mut rng = Rng(9);
    for log2n in [20u32, 24] {
        for name in ["sparse", "dense", "clustered"] {
            let v = case(name, 1 << log2n, &mut rng);
            let bytes = vkalgo::set::reference::serialize(&v.iter().copied().collect());
            let exact = GpuSet::deserialize(&ctx, &bytes).unwrap();
            let line = format!(
                "2^{log2n} {name}: {} values, Roaring {} B, exact-fit {} B = {:.3}x",
                v.len(),
                bytes.len(),
                exact.memory_bytes(),
                exact.memory_bytes() as f64 / bytes.len() as f64
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
                let ratio = exact.memory_bytes() as f64 / bytes.len() as f64;
                assert!(ratio <= 1.25, "{line}: over 1.25x Roaring's size");
            }
        }
    }
}
