mod common;
use common::*;
use vkalgo::scan::reference;
use vkalgo::{ScanOp, ScanPath};

#[test]
fn smoke() {
    let ctx = context();
    eprintln!("device: {} lookback={}", ctx.device_name(), ctx.profile().lookback);
    for path in [ScanPath::ReduceThenScan, ScanPath::Lookback] {
        for n in [1usize, 5, 4095, 4096, 4097, 100_000, 1 << 20] {
            let input = Rng(n as u64).vec_u32(n);
            let mut out = vec![0xdeadbeef; n];
            ctx.scan_u32_with_path(&input, &mut out, ScanOp::Exclusive, path).unwrap();
            assert!(out == reference::scan_u32(&input, ScanOp::Exclusive), "{path:?} n={n}");
        }
    }
    assert_no_validation_messages(&ctx);
}
