//! The pair kernels: one-sided chunks, array pairs around the limits, small pairs many per
//! workgroup, copies, bitmap pairs, the 16-bit lists.

use super::*;

/// Chunks present in one operand only, which OR, XOR, ANDNOT (and AND against a full chunk)
/// copy into another set block by block: arrays around the block boundaries (1-2, 95-97, 4095,
/// 4096 values), bitmaps, a full chunk; into a fresh set and into a set whose own chunks there
/// are given back (the pools then hold exactly the result's blocks).
#[test]
fn one_sided_chunks_copied() {
    let ctx = context();
    let sizes = [
        1u32, 2, 95, 96, 97, 1000, 4095, 4096, 4097, 30_000, 65_535, 65_536,
    ];
    let chunk = |c: u32, n: u32| -> Vec<u32> {
        let step = (65_536 / n).max(1);
        (0..n).map(|i| (c << 16) + i * step).collect()
    };
    let (mut va, mut vb, mut vd) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &n) in sizes.iter().enumerate() {
        let i = i as u32;
        va.extend(chunk(i, n)); // a only
        vb.extend(chunk(100 + i, n)); // b only
        va.extend(chunk(200 + i, n)); // a, and b full
        vb.extend(chunk(200 + i, 65_536));
        // The destination's own content where the copies land.
        vd.extend(chunk(i, sizes[sizes.len() - 1 - i as usize]));
        vd.extend(chunk(100 + i, 3000));
    }
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let fresh = GpuSet::op(&a, &b, op).unwrap();
        check(&fresh, &want, &format!("fresh {op:?}"));
        let mut d = GpuSet::from_values(&ctx, &vd).unwrap();
        d.assign(SetOperand::Set(&a), SetOperand::Set(&b), op).unwrap();
        check(&d, &want, &format!("into a filled set {op:?}"));
        d.shrink_to_fit().unwrap();
        assert_eq!(d.pool_blocks(), exact_blocks(&want), "{op:?}: blocks in use");
        check(&d, &want, &format!("shrunk {op:?}"));
    }
}

/// Array chunk pairs around the limits of the array-pair kernels' classes (640 and 2048
/// values together; chunk_update.comp above), one pair per chunk, every operation, with values
/// common to both lists and values in one only; then runs of inserted and removed values (with
/// duplicates) around the same limits.
#[test]
fn array_pairs_around_the_limits() {
    let ctx = context();
    let mut rng = Rng(12);
    let sizes = [
        (0usize, 1usize),
        (1, 0),
        (1, 1),
        (2, 3),
        (256, 256),
        (320, 320),
        (320, 321),
        (640, 0),
        (0, 640),
        (639, 1),
        (640, 1),
        (1000, 24),
        (1024, 1024),
        (2047, 1),
        (2048, 0),
        (2048, 1),
        (1025, 1024),
        (2000, 100),
        (4096, 4096),
    ];
    // Chunk i holds pair i: values drawn from a window 1.5x the larger list, so the lists
    // share about half their values.
    let mut va = Vec::new();
    let mut vb = Vec::new();
    for (i, &(na, nb)) in sizes.iter().enumerate() {
        let base = (i as u32 * 7 + 3) << 16;
        let window = (na.max(nb) as u32 * 3 / 2).clamp(1, 65536);
        for (n, v) in [(na, &mut va), (nb, &mut vb)] {
            let mut chosen = BTreeSet::new();
            while chosen.len() < n {
                chosen.insert(base + rng.next_u32() % window.max(n as u32));
            }
            v.extend(chosen);
        }
    }
    // Pairs whose lists do not interleave (all of a below all of b; the swapped operations
    // give the reverse): a co-rank at the far end of its search interval, which is as long as
    // the shorter list (the search's steps must reach it).
    for (k, &(na, nb)) in [(320usize, 320usize), (300, 340), (1024, 1024)]
        .iter()
        .enumerate()
    {
        let base = ((sizes.len() + k) as u32 * 7 + 3) << 16;
        va.extend((0..na as u32).map(|x| base + 2 * x));
        vb.extend((0..nb as u32).map(|x| base + 2 * na as u32 + 1 + 3 * x));
    }
    let a = GpuSet::from_values(&ctx, &va).unwrap();
    let b = GpuSet::from_values(&ctx, &vb).unwrap();
    let (ma, mb) = (model_of(&va), model_of(&vb));
    check(&a, &ma, "a");
    check(&b, &mb, "b");
    for op in SetOp::ALL {
        check_op(&a, &b, &ma, &mb, op);
        check(
            &GpuSet::op(&b, &a, op).unwrap(),
            &reference::op(&mb, &ma, op),
            &format!("{op:?} swapped"),
        );
    }
    // Runs: insert b's values three times over (duplicates in each chunk's run), then remove a
    // run of a's values with duplicates.
    let mut s = GpuSet::from_values(&ctx, &va).unwrap();
    let mut tripled: Vec<u32> = vb.iter().flat_map(|&x| [x, x, x]).collect();
    tripled.reverse();
    s.insert(&tripled).unwrap();
    let mut m = ma.clone();
    m.extend(&mb);
    check(&s, &m, "insert runs");
    let removed: Vec<u32> = va.iter().step_by(2).flat_map(|&x| [x, x]).collect();
    s.remove(&removed).unwrap();
    for x in &removed {
        m.remove(x);
    }
    check(&s, &m, "remove runs");
}

fn check_blocks_exact(d: &mut GpuSet, want: &BTreeSet<u32>, what: &str) {
    check(d, want, what);
    d.shrink_to_fit().unwrap();
    assert_eq!(d.pool_blocks(), exact_blocks(want), "{what}: blocks in use");
}

/// More small array pairs than the small-pair kernel's workgroups (4096), so that each
/// workgroup takes several pairs, its loads of a pair in flight while it works on the pair
/// before (50 + 50 random values a chunk in its first 4096: AND results of one block or none
/// against bounds of one a pair). On the one-pass path, into a fresh set (every operation),
/// into a filled one whose old blocks go back, and in place (AND, XOR): the right result, and
/// no block lost or given back twice (shrink_to_fit leaves exactly the result's blocks).
#[test]
fn small_pairs_many_per_workgroup() {
    let ctx = context();
    let mut rng = Rng(31);
    let (mut va, mut vb, mut vd) = (Vec::new(), Vec::new(), Vec::new());
    for c in 0..4700u32 {
        for _ in 0..50 {
            va.push((c << 16) | (rng.next_u32() % 4096));
            vb.push((c << 16) | (rng.next_u32() % 4096));
        }
        for _ in 0..(c % 3) * 60 {
            vd.push((c << 16) | (rng.next_u32() & 0xFFFF));
        }
    }
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let mut d = GpuSet::new(&ctx).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a fresh set"));
        if op != SetOp::And && op != SetOp::Xor {
            continue;
        }
        let mut d = GpuSet::from_values(&ctx, &vd).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a filled set"));
        let mut d = GpuSet::from_values(&ctx, &va).unwrap();
        assign_reserved(&mut d, SetOperand::This, SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} in place"));
    }
}

/// More chunks to copy unchanged than the small-pair kernel's workgroups (4096), which copy
/// them after their pairs, so that a workgroup copies several, the next one's directory
/// entries in flight while it copies: arrays of 1 to 1500 values (one block to 17) and bitmaps
/// only in a (3000 chunks) or only in b (1500), and 20 chunks of a whose b chunk is full (AND
/// keeps them). Every operation into a fresh set on the counting path and on the one-pass
/// path; OR and ANDNOT into a filled set whose old blocks go back, and OR in place: the right
/// result, and no block lost or given back twice.
#[test]
fn copies_many_per_workgroup() {
    let ctx = context();
    let mut rng = Rng(47);
    let sizes = [1u32, 95, 96, 200, 1500];
    let mut chunk = |c: u32, i: u32| -> Vec<u32> {
        let n = if i % 64 == 63 {
            5000
        } else {
            sizes[i as usize % sizes.len()]
        };
        let mut v: Vec<u32> = (0..n).map(|_| (c << 16) | (rng.next_u32() & 0xFFFF)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (mut va, mut vb, mut vd) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..3000u32 {
        va.extend(chunk(i, i));
        if i % 3 == 0 {
            vd.extend(chunk(i, i + 1));
        }
    }
    for i in 0..1500u32 {
        vb.extend(chunk(3000 + i, i));
        if i % 4 == 0 {
            vd.extend(chunk(3000 + i, i + 2));
        }
    }
    for i in 0..20u32 {
        va.extend(chunk(5000 + i, i));
    }
    vd.sort_unstable();
    vd.dedup();
    let (a, mut b, ma, mut mb) = operands(&ctx, &va, &vb);
    b.insert_range(5000 << 16, 5020 << 16).unwrap(); // full chunks under 20 of a's
    mb.extend((5000u32 << 16)..(5020u32 << 16));
    for op in SetOp::ALL {
        let want = reference::op(&ma, &mb, op);
        let mut d = GpuSet::op(&a, &b, op).unwrap();
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a fresh set"));
        let mut d = GpuSet::new(&ctx).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a fresh set, reserved"));
        if op != SetOp::Or && op != SetOp::AndNot {
            continue;
        }
        let mut d = GpuSet::from_values(&ctx, &vd).unwrap();
        assign_reserved(&mut d, SetOperand::Set(&a), SetOperand::Set(&b), op);
        check_blocks_exact(&mut d, &want, &format!("{op:?} into a filled set"));
    }
    let mut d = GpuSet::from_values(&ctx, &va).unwrap();
    d.assign(SetOperand::This, SetOperand::Set(&b), SetOp::Or)
        .unwrap();
    check_blocks_exact(&mut d, &reference::op(&ma, &mb, SetOp::Or), "Or in place");
}

/// Pairs of bitmap chunks (both operands above the array limit) whose results are empty, full,
/// small arrays or bitmaps, for every operation: into a new set, in place, and counted only.
#[test]
fn bitmap_pairs_every_result_kind() {
    let ctx = context();
    let c = |chunk: u32, v: u32| (chunk << 16) | v;
    let mut va = Vec::new();
    let mut vb = Vec::new();
    // Chunk 0: evens against odds (AND empty, OR and XOR full).
    va.extend((0..32768).map(|i| c(0, 2 * i)));
    vb.extend((0..32768).map(|i| c(0, 2 * i + 1)));
    // Chunk 1: overlapping ranges (AND a 10-value array, the rest bitmaps).
    va.extend((0..5000).map(|v| c(1, v)));
    vb.extend((4990..10000).map(|v| c(1, v)));
    // Chunk 2: equal bitmaps but for a few values (ANDNOT a small array or empty, XOR small).
    va.extend((0..6000).map(|v| c(2, v)));
    vb.extend((0..6000).filter(|v| v % 1000 != 7).map(|v| c(2, v)));
    // Chunk 3: nearly full chunks (AND a bitmap, OR full).
    va.extend((0..65536).filter(|v| v % 700 != 1).map(|v| c(3, v)));
    vb.extend(
        (0..65536)
            .filter(|v| v % 700 == 1 || v % 900 != 2)
            .map(|v| c(3, v)),
    );
    // Chunk 65535: bitmaps at the top of the universe.
    va.extend((0..65536).step_by(3).map(|v| c(65535, v)));
    vb.extend((0..65536).step_by(5).map(|v| c(65535, v)));
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        let want = check_op(&a, &b, &ma, &mb, op);
        let mut x = GpuSet::from_values(&ctx, &va).unwrap();
        x.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(&x, &want, &format!("{op:?} in place"));
        // Again in place on the result (bitmaps, arrays and full chunks as operand a).
        x.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        check(
            &x,
            &reference::op(&want, &mb, op),
            &format!("{op:?} twice in place"),
        );
    }
}

/// Chunk bitmaps as (key, words) slices, for reference::serialize_bitmaps.
fn as_slices(chunks: &[(u16, Vec<u64>)]) -> impl Iterator<Item = (u16, &[u64])> {
    chunks.iter().map(|(key, words)| (*key, words.as_slice()))
}

/// More pairs of bitmap chunks than the bitmap kernel has workgroups (2100 pairs: two or three
/// for each of lavapipe's 1024 workgroups), so that workgroups walk their part of the list with
/// the next pair's entries loaded ahead, and results of every kind side by side (bitmaps,
/// arrays, empty and full chunks), into a new set and in place. Compared byte for byte with
/// the CPU's serialization of the word-by-word result.
#[test]
fn bitmap_pairs_more_than_the_grid() {
    let ctx = context();
    let mut rng = Rng(0x5eed_b175);
    // About 8192 values a chunk.
    let sparse = |rng: &mut Rng| -> Vec<u64> {
        (0..1024)
            .map(|_| rng.next_u64() & rng.next_u64() & rng.next_u64())
            .collect()
    };
    let (mut ca, mut cb) = (Vec::new(), Vec::new());
    for k in 0..2100u32 {
        let a = sparse(&mut rng);
        let b: Vec<u64> = match k % 5 {
            // AND an array, the other results bitmaps.
            0 => sparse(&mut rng),
            // AND empty, OR and XOR full.
            1 => a.iter().map(|w| !w).collect(),
            // ANDNOT and XOR arrays of about 100 values, AND and OR bitmaps.
            2 => a
                .iter()
                .enumerate()
                .map(|(i, &w)| if i % 10 == 3 { w & w.wrapping_sub(1) } else { w })
                .collect(),
            // ANDNOT and XOR empty.
            3 => a.clone(),
            // Disjoint: AND empty, ANDNOT a itself.
            _ => a
                .iter()
                .map(|&w| !w & (rng.next_u64() & rng.next_u64()))
                .collect(),
        };
        let key = (k * 31) as u16;
        ca.push((key, a));
        cb.push((key, b));
    }
    let bytes_a = reference::serialize_bitmaps(as_slices(&ca));
    let a = GpuSet::deserialize(&ctx, &bytes_a).unwrap();
    let b = GpuSet::deserialize(&ctx, &reference::serialize_bitmaps(as_slices(&cb))).unwrap();
    for op in SetOp::ALL {
        let want: Vec<(u16, Vec<u64>)> = ca
            .iter()
            .zip(&cb)
            .map(|((key, x), (_, y))| (*key, reference::op_bits(x, y, op)))
            .collect();
        let card: u64 = want
            .iter()
            .flat_map(|(_, w)| w)
            .map(|w| w.count_ones() as u64)
            .sum();
        let want = reference::serialize_bitmaps(as_slices(&want));
        let d = GpuSet::op(&a, &b, op).unwrap();
        assert!(d.serialize().unwrap() == want, "{op:?}: serialization");
        assert_eq!(d.cardinality().unwrap(), card, "{op:?}: cardinality");
        assert_eq!(
            GpuSet::op_cardinality(&a, &b, op).unwrap(),
            card,
            "{op:?}: op cardinality"
        );
        let mut x = GpuSet::deserialize(&ctx, &bytes_a).unwrap();
        x.assign(SetOperand::This, SetOperand::Set(&b), op).unwrap();
        assert!(x.serialize().unwrap() == want, "{op:?} in place: serialization");
    }
}

/// The small-pair kernel's 16-bit lists are used exactly where the device has shaderInt16 and
/// `VKALGO_SHADER_INT16` does not say off (scripts/test.sh runs this file both ways, so both
/// permutations meet every test here).
#[test]
fn int16_lists_follow_the_device_and_environment() {
    let ctx = context();
    let features = unsafe { ctx.instance().get_physical_device_features(ctx.physical_device()) };
    let off = std::env::var("VKALGO_SHADER_INT16")
        .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "off" | "0" | "false" | "no"));
    assert_eq!(ctx.profile().int16, features.shader_int16 != 0 && !off);
    // The 16-bit and 32-bit lists give the same sets (a sparse AND / OR over a few chunks).
    let va: Vec<u32> = (0..3000u32)
        .map(|i| i.wrapping_mul(2_654_435_761) % (8 << 16))
        .collect();
    let vb: Vec<u32> = (0..3000u32).map(|i| i.wrapping_mul(40_503) % (8 << 16)).collect();
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        check_op(&a, &b, &ma, &mb, op);
    }
}

/// Small pairs whose values agree in their low 13 bits without being equal (what a filter or
/// hash of the low bits would confuse): in each chunk, a's values are b's moved by a multiple
/// of 8192, a fifth of them not moved; some chunks of a are empty or alone. Every operation's
/// cardinality (both orders) and result against the model.
#[test]
fn small_pairs_values_equal_mod_8192() {
    let ctx = context();
    let mut rng = Rng(61);
    let (mut va, mut vb) = (Vec::new(), Vec::new());
    for c in 0..300u32 {
        let n = 1 + rng.next_u32() % 300;
        for _ in 0..n {
            let low = rng.next_u32() % 8192;
            let hb = rng.next_u32() % 8;
            let ha = if rng.next_u32() % 5 == 0 {
                hb
            } else {
                (hb + 1 + rng.next_u32() % 7) % 8
            };
            vb.push((c << 16) | (hb * 8192 + low));
            if c % 50 != 7 {
                va.push((c << 16) | (ha * 8192 + low));
            }
        }
        if c % 50 == 9 {
            va.push((c << 16) | 0xFFFF); // a value only in a
        }
    }
    for c in 300..310u32 {
        va.push(c << 16); // chunks of a alone
    }
    let (a, b, ma, mb) = operands(&ctx, &va, &vb);
    for op in SetOp::ALL {
        check_op(&a, &b, &ma, &mb, op);
    }
}
