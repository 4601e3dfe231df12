//! CPU reference scans (wrapping u32 sums), the ground truth of the tests and the benchmark.

use super::ScanOp;

/// Scans `input` on the CPU with wrapping u32 addition.
pub fn scan_u32(input: &[u32], op: ScanOp) -> Vec<u32> {
    let mut sum = 0u32;
    input
        .iter()
        .map(|&x| {
            let before = sum;
            sum = sum.wrapping_add(x);
            match op {
                ScanOp::Exclusive => before,
                ScanOp::Inclusive => sum,
            }
        })
        .collect()
}
