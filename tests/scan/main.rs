//! Prefix scan on a real Vulkan device (lavapipe in CI), compared exactly with the CPU
//! reference, through the record layer and the host layer, on every path: the u32 sums, and the
//! six key types with sum, min and max (typed.rs; their C ABI in c_abi.rs).

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod lookback;
mod record;
mod typed;

use common::*;
use vkalgo::scan::reference;
use vkalgo::{ScanDesc, ScanOp, ScanPath};

const PATHS: [ScanPath; 2] = [ScanPath::ReduceThenScan, ScanPath::Lookback];

fn check(
    ctx: &vkalgo::Context,
    path: ScanPath,
    op: ScanOp,
    n: usize,
    layout: Layout,
    data: &[u32],
    what: &str,
) {
    let plan = ctx
        .scan_plan(&ScanDesc {
            op,
            path,
            max_count: n as u64,
            tuning: None,
            keep_scratch_zeroed: false,
            ..Default::default()
        })
        .unwrap();
    let got = record_scan(ctx, &plan, data, n as u64, layout).unwrap();
    let expected = reference::scan_u32(data, op);
    if got != expected {
        let first = got.iter().zip(&expected).position(|(a, b)| a != b).unwrap();
        panic!(
            "{what}: {path:?} {op:?} n={n} {layout:?}: first mismatch at {first}: got {} expected {}",
            got[first], expected[first]
        );
    }
}
