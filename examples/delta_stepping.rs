//! Delta-stepping single-source shortest paths (Meyer & Sanders, 2003) on a random directed
//! graph, with the GPU multisplit keeping the buckets, checked against Dijkstra on the CPU.
//!
//! `cargo run --release --example delta_stepping [vertices] [edges per vertex] [delta]`
//! (default 100,000 vertices, 8 edges each, weights 1..=100, delta 40).
//!
//! Each round splits every pending request (tentative distance, vertex) into 64 buckets by a
//! GLSL bucket function, `min((d - base) / delta, 63)`, with `base` and `delta` passed as
//! `vkalgo_params` (one compiled source for every round). Bucket 0, the requests within delta
//! of the smallest pending distance, is settled on the host: its light relaxations (landing in
//! the same bucket) are processed at once, the rest become pending requests for the next
//! split. Because the split is stable, requests of one vertex stay in the order they were
//! made; stale requests (a shorter distance was found since) are skipped.

use std::collections::BinaryHeap;
use std::time::Instant;
use vkalgo::{Bucketing, Context};

/// The bucket of a request: its distance above the round's base, in steps of delta.
const BUCKET_GLSL: &str = "
uint vkalgo_bucket(uint d) {
    // vkalgo_params: x = delta, y = base (the smallest pending distance), z = last bucket
    return min((d - vkalgo_params.y) / vkalgo_params.x, vkalgo_params.z);
}
";
const BUCKETS: u32 = 64;

/// A graph in compressed sparse rows: the edges of vertex v are `targets/weights[start[v]..start[v + 1]]`.
struct Graph {
    start: Vec<usize>,
    targets: Vec<u32>,
    weights: Vec<u32>,
}

fn random_graph(vertices: usize, degree: usize, seed: u64) -> Graph {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut start = Vec::with_capacity(vertices + 1);
    let mut targets = Vec::with_capacity(vertices * degree);
    let mut weights = Vec::with_capacity(vertices * degree);
    for v in 0..vertices {
        start.push(targets.len());
        // A ring edge keeps every vertex reachable; the others are random.
        targets.push(((v + 1) % vertices) as u32);
        weights.push(100);
        for _ in 1..degree {
            targets.push((next() % vertices as u64) as u32);
            weights.push(1 + (next() % 100) as u32);
        }
    }
    start.push(targets.len());
    Graph {
        start,
        targets,
        weights,
    }
}

fn dijkstra(g: &Graph, source: u32) -> Vec<u32> {
    let mut dist = vec![u32::MAX; g.start.len() - 1];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = 0;
    heap.push(std::cmp::Reverse((0u32, source)));
    while let Some(std::cmp::Reverse((d, v))) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        for e in g.start[v as usize]..g.start[v as usize + 1] {
            let (w, nd) = (g.targets[e], d + g.weights[e]);
            if nd < dist[w as usize] {
                dist[w as usize] = nd;
                heap.push(std::cmp::Reverse((nd, w)));
            }
        }
    }
    dist
}

/// Delta-stepping with GPU buckets. Returns the distances and (rounds, requests split).
fn delta_stepping(
    ctx: &Context,
    g: &Graph,
    source: u32,
    delta: u32,
) -> vkalgo::Result<(Vec<u32>, usize, usize)> {
    let mut dist = vec![u32::MAX; g.start.len() - 1];
    dist[source as usize] = 0;
    // Pending requests: keys = tentative distance, values = vertex.
    let mut pending_d = vec![0u32];
    let mut pending_v = vec![source];
    let (mut rounds, mut split_total) = (0, 0);
    while !pending_d.is_empty() {
        // Stale requests need no bucket.
        let mut keep = 0;
        for i in 0..pending_d.len() {
            if pending_d[i] == dist[pending_v[i] as usize] {
                pending_d[keep] = pending_d[i];
                pending_v[keep] = pending_v[i];
                keep += 1;
            }
        }
        pending_d.truncate(keep);
        pending_v.truncate(keep);
        let Some(&base) = pending_d.iter().min() else {
            break;
        };
        rounds += 1;
        split_total += pending_d.len();
        let offsets = ctx.multisplit_pairs(
            &mut pending_d,
            &mut pending_v,
            &Bucketing::Glsl {
                bucket_count: BUCKETS,
                source: BUCKET_GLSL,
                params: [delta, base, BUCKETS - 1, 0],
            },
        )?;
        // Bucket 0: settle it, relaxing light edges into it at once.
        let first = offsets[1] as usize;
        let limit = base + delta;
        let mut current: Vec<(u32, u32)> = pending_d[..first]
            .iter()
            .copied()
            .zip(pending_v[..first].iter().copied())
            .collect();
        let mut next_d = pending_d[first..].to_vec();
        let mut next_v = pending_v[first..].to_vec();
        while let Some((d, v)) = current.pop() {
            if d != dist[v as usize] {
                continue; // stale
            }
            for e in g.start[v as usize]..g.start[v as usize + 1] {
                let (w, nd) = (g.targets[e], d + g.weights[e]);
                if nd < dist[w as usize] {
                    dist[w as usize] = nd;
                    if nd < limit {
                        current.push((nd, w));
                    } else {
                        next_d.push(nd);
                        next_v.push(w);
                    }
                }
            }
        }
        pending_d = next_d;
        pending_v = next_v;
    }
    Ok((dist, rounds, split_total))
}

fn main() -> vkalgo::Result<()> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().ok());
    let vertices = args.next().flatten().unwrap_or(100_000).max(2);
    let degree = args.next().flatten().unwrap_or(8).max(1);
    let delta = args.next().flatten().unwrap_or(40).max(1) as u32;
    let ctx = Context::new()?;
    println!("device: {}", ctx.device_name());
    let g = random_graph(vertices, degree, 0x2545_f491_4f6c_dd1d);
    println!(
        "graph: {vertices} vertices, {} edges, weights 1..=100",
        g.targets.len()
    );

    let t = Instant::now();
    let want = dijkstra(&g, 0);
    let cpu_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let (got, rounds, split) = delta_stepping(&ctx, &g, 0, delta)?;
    let gpu_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "delta-stepping (delta {delta}): {rounds} rounds, {split} requests split into {BUCKETS} buckets on the GPU, {gpu_ms:.1} ms"
    );
    println!("Dijkstra on the CPU: {cpu_ms:.1} ms");
    if got != want {
        let bad = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
        eprintln!(
            "MISMATCH at vertex {bad}: delta-stepping {} vs Dijkstra {}",
            got[bad], want[bad]
        );
        std::process::exit(1);
    }
    let farthest = want.iter().copied().filter(|&d| d != u32::MAX).max().unwrap_or(0);
    println!("distances match Dijkstra (farthest vertex at {farthest})");
    Ok(())
}
