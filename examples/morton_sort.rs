//! The first step of an LBVH builder: Morton codes of random 3-D points, sorted on the GPU
//! together with the point indices.
//!
//! `cargo run --release --example morton_sort [points]` (default 1,000,000).

use std::time::Instant;
use vkalgo::{Context, SortOptions};

/// Spreads the low 10 bits of `v` so that two zero bits separate each of them
/// (bit i moves to bit 3i).
fn spread_bits(v: u32) -> u32 {
    let mut x = v & 0x3ff;
    x = (x | (x << 16)) & 0x0300_00ff;
    x = (x | (x << 8)) & 0x0300_f00f;
    x = (x | (x << 4)) & 0x030c_30c3;
    x = (x | (x << 2)) & 0x0924_9249;
    x
}

/// 30-bit Morton code of a point in the unit cube: 10 bits per axis, interleaved x, y, z.
fn morton3(p: [f32; 3]) -> u32 {
    let q = |c: f32| ((c.clamp(0.0, 1.0) * 1023.0) as u32).min(1023);
    (spread_bits(q(p[0])) << 2) | (spread_bits(q(p[1])) << 1) | spread_bits(q(p[2]))
}

fn main() -> vkalgo::Result<()> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let ctx = Context::new()?;
    println!("device: {}", ctx.device_name());

    // Random points (a small xorshift generator keeps the example dependency-free).
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let points: Vec<[f32; 3]> = (0..n).map(|_| [next(), next(), next()]).collect();
    let mut codes: Vec<u32> = points.iter().map(|&p| morton3(p)).collect();
    let mut indices: Vec<u32> = (0..n as u32).collect();

    // Only the low 30 bits carry information: sorting [0, 30) takes 4 digit passes of 8 bits.
    let options = SortOptions {
        end_bit: 30,
        ..Default::default()
    };
    let start = Instant::now();
    ctx.sort_pairs_with(&mut codes, &mut indices, &options)?;
    println!(
        "sorted {n} Morton codes with their indices in {:.1} ms (host call: upload, sort, download)",
        start.elapsed().as_secs_f64() * 1e3
    );

    // The leaves of the LBVH are now in Morton order; check it.
    let ordered = codes.windows(2).all(|w| w[0] <= w[1]);
    let consistent = codes
        .iter()
        .zip(&indices)
        .all(|(&c, &i)| morton3(points[i as usize]) == c);
    let stable = codes
        .windows(2)
        .zip(indices.windows(2))
        .all(|(c, i)| c[0] != c[1] || i[0] < i[1]);
    println!("ordered: {ordered}, indices consistent: {consistent}, stable: {stable}");
    println!(
        "first leaves: {:?}",
        codes.iter().zip(&indices).take(4).collect::<Vec<_>>()
    );
    if ordered && consistent && stable {
        Ok(())
    } else {
        Err(vkalgo::Error::Internal(
            "the sorted Morton codes are wrong".into(),
        ))
    }
}
