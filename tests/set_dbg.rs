mod common;
use common::*;
use vkalgo::{GpuSet, SetOp};
fn mixed_values(rng: &mut Rng, n: usize, cluster_base: u32) -> Vec<u32> {
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        let x = match i % 4 {
            0 => rng.next_u32(),
            1 => cluster_base.wrapping_add(rng.next_u32() % 20_000),
            2 => cluster_base.wrapping_add(70_000 + rng.next_u32() % 3000),
            _ => [0, 1, u32::MAX, u32::MAX - 1, 65535, 65536][rng.next_u32() as usize % 6],
        };
        v.push(x);
    }
    v
}
#[test]
fn dbg() {
    let ctx = context();
    let mut rng = Rng(2);
    let va = mixed_values(&mut rng, 12_000, 9 << 16);
    let vb = mixed_values(&mut rng, 12_000, (9 << 16) + 10_000);
    let a = GpuSet::from_values(&ctx, &va).unwrap();
    eprintln!("a {:?} {:?}", a.cardinality(), a.pool_blocks());
    let mut b = GpuSet::from_values(&ctx, &vb).unwrap();
    eprintln!("b {:?} {:?}", b.cardinality(), b.pool_blocks());
    b.insert_range(3 << 16, 6 << 16).unwrap();
    eprintln!("range1 {:?}", b.cardinality());
    b.insert_range((9 << 16) + 5, (10 << 16) + 100).unwrap();
    eprintln!("range2 {:?} {:?}", b.cardinality(), b.pool_blocks());
    for op in SetOp::ALL {
        let c = GpuSet::op(&a, &b, op).unwrap();
        eprintln!("{op:?} {:?}", c.cardinality());
    }
}
