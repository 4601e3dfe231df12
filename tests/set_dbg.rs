mod common;
use common::*;
use std::time::Instant;
use vkalgo::GpuSet;
#[test]
fn dbg() {
    let ctx = context();
    let mut rng = Rng(2);
    for n in [1usize, 100, 1000, 10000] {
        let va: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
        let t = Instant::now();
        let a = GpuSet::from_values(&ctx, &va).unwrap();
        let tb = t.elapsed();
        let t = Instant::now();
        a.to_vec().unwrap();
        eprintln!("{n} build {tb:?} to_vec {:?}", t.elapsed());
    }
}
