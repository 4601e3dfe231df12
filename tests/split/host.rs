//! Multisplits through the host layer: every bucket function, bucket count and size, adversarial
//! buckets, every key type, splitter slots, 8-byte values, unsorted splitters, the 2^21-2^22 case.

use super::*;

#[test]
fn bits_u32_smoke() {
    let ctx = context();
    let mut rng = Rng(1);
    for n in [0usize, 1, 2, 31, 1000, 4097] {
        for m in [1u32, 2, 32, 256, 4096] {
            let keys = rng.vec_u32(n);
            check(
                &ctx,
                &keys,
                &Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: 3,
                },
                None,
                &format!("bits n={n} m={m}"),
            );
        }
    }
}

/// Every bucket function at every bucket count of the list and sizes around the
/// column length: IDS, BITS (powers of two: the key's top bits, then its low bits), SPLITTERS
/// (random, repeated from 4 buckets) and GLSL ((k * m) >> 32), u32 keys.
#[test]
fn every_bucket_fn_bucket_count_and_size() {
    let ctx = context();
    let mut rng = Rng(2);
    for m in [1u32, 2, 3, 31, 32, 33, 256, 257, 4096, 65536] {
        let col = column_length(&ctx, m);
        let mut sizes = vec![0usize, 1, col - 1, col, col + 1, 3 * col + 7];
        if m <= 4096 {
            sizes.push(10_007);
        }
        for n in sizes {
            let keys = rng.vec_u32(n);
            let ids: Vec<u32> = (0..n).map(|_| rng.next_u32() % m).collect();
            check_ids(&ctx, &keys, &ids, m, &format!("ids m={m} n={n}"));
            if m.is_power_of_two() {
                let offset = if n % 2 == 0 && m > 1 {
                    32 - m.trailing_zeros()
                } else {
                    0
                };
                check(&ctx, &keys, &bits(m, offset), None, &format!("bits m={m} n={n}"));
            }
            let mut splitters: Vec<u32> = (1..m).map(|_| rng.next_u32()).collect();
            splitters.sort_unstable();
            if m > 3 {
                splitters[1] = splitters[0];
            }
            let what = format!("splitters m={m} n={n}");
            check(&ctx, &keys, &Bucketing::Splitters(&splitters), None, &what);
            check_scaled_glsl(&ctx, &keys, m, &format!("n={n}"));
        }
    }
}

#[test]
fn adversarial_buckets() {
    let ctx = context();
    let mut rng = Rng(3);
    let n = 5003;
    for m in [2u32, 3, 33, 257] {
        // One bucket holding everything (first, last, middle), sorted and reversed bucket ids,
        // alternating, and most buckets empty.
        let patterns: Vec<(&str, Vec<u32>)> = vec![
            ("all in 0", vec![0; n]),
            ("all in last", vec![m - 1; n]),
            ("all in middle", vec![m / 2; n]),
            (
                "sorted",
                (0..n).map(|i| (i as u64 * m as u64 / n as u64) as u32).collect(),
            ),
            (
                "reversed",
                (0..n)
                    .map(|i| m - 1 - (i as u64 * m as u64 / n as u64) as u32)
                    .collect(),
            ),
            (
                "alternating",
                (0..n).map(|i| if i % 2 == 0 { 0 } else { m - 1 }).collect(),
            ),
            (
                "two buckets",
                (0..n)
                    .map(|_| if rng.next_u32() % 2 == 0 { 1 } else { m - 1 })
                    .collect(),
            ),
        ];
        for (name, ids) in patterns {
            let keys = rng.vec_u32(n);
            check_ids(&ctx, &keys, &ids, m, &format!("ids {name} m={m}"));
        }
    }
}

#[test]
fn bits_every_key_type() {
    let ctx = context();
    let mut rng = Rng(4);
    let n = 3001;
    for (d, (name, gen)) in DISTRIBUTIONS[..6].iter().copied().enumerate() {
        let raw: Vec<u32> = (0..n).map(|i| gen(&mut rng, i)).collect();
        // Every distribution with a few bucket counts; all five on uniform data.
        let all = [(1u32, 0u32), (2, 31), (8, 29), (256, 0), (4096, 20)];
        let cases = if d == 0 { &all[..] } else { &all[1..3] };
        for &(m, offset) in cases {
            let b = Bucketing::Bits {
                bucket_count: m,
                bit_offset: offset,
            };
            let what = format!("bits {name} m={m} offset={offset}");
            check(&ctx, &raw, &b, None, &format!("u32 {what}"));
            let i: Vec<i32> = raw.iter().map(|&x| x as i32).collect();
            check(
                &ctx,
                &i,
                &Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: offset,
                },
                None,
                &format!("i32 {what}"),
            );
            let f: Vec<f32> = raw.iter().map(|&x| f32::from_bits(x)).collect();
            check(
                &ctx,
                &f,
                &Bucketing::Bits {
                    bucket_count: m,
                    bit_offset: offset,
                },
                None,
                &format!("f32 {what}"),
            );
            let wide = |x: u32, i: usize| ((x as u64) << 32) | (x.rotate_left(i as u32 % 32) as u64);
            let u: Vec<u64> = raw.iter().enumerate().map(|(i, &x)| wide(x, i)).collect();
            for off64 in [offset, offset + 32] {
                check(
                    &ctx,
                    &u,
                    &bits(m, off64),
                    None,
                    &format!("u64 {what} off64={off64}"),
                );
                let i: Vec<i64> = u.iter().map(|&x| x as i64).collect();
                check(
                    &ctx,
                    &i,
                    &bits(m, off64),
                    None,
                    &format!("i64 {what} off64={off64}"),
                );
                let f: Vec<f64> = u.iter().map(|&x| f64::from_bits(x)).collect();
                check(
                    &ctx,
                    &f,
                    &bits(m, off64),
                    None,
                    &format!("f64 {what} off64={off64}"),
                );
            }
        }
    }
}

#[test]
fn splitters_every_key_type() {
    let ctx = context();
    let mut rng = Rng(5);
    let n = 4099;
    // Floats with -0.0, +0.0, NaNs and infinities among keys and splitters.
    let specials = [
        0x8000_0000u32,
        0,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0001,
        1,
        0x8000_0001,
    ];
    let raw = words_with_specials(&mut rng, n, &specials);
    for m in [1u32, 2, 3, 33, 257, 4096] {
        let picks: Vec<u32> = (0..m.saturating_sub(1))
            .map(|i| raw[(i as usize * 37) % n])
            .collect();
        // Repeated splitters (from 4 buckets): an empty bucket.
        let repeat = m > 3;
        check_splitters::<u32>(&ctx, &raw, &picks, repeat, None, "u32");
        check_splitters::<i32>(&ctx, &raw, &picks, repeat, None, "i32");
        check_splitters::<f32>(&ctx, &raw, &picks, repeat, None, "f32");
        check_splitters::<u64>(&ctx, &raw, &picks, repeat, None, "u64");
        check_splitters::<i64>(&ctx, &raw, &picks, repeat, None, "i64");
        check_splitters::<f64>(&ctx, &raw, &picks, repeat, None, "f64");
    }
}

/// The splitter index (glsl/split/splitter_index.comp) against splitters that crowd its
/// slots: all equal, spanning the whole key range, a tight cluster with one far outlier, and
/// spans just below, at and above the table's 2^R slots (R = ceil(log2 m) + 1), with keys on
/// every splitter, one either side of it, and around the first one (m = 2: the plain search
/// of up to 64 buckets).
#[test]
fn splitter_index_slots() {
    let ctx = context();
    let mut rng = Rng(11);
    let mut designs: Vec<(String, Vec<u32>)> = Vec::new();
    for m in [2u32, 65, 129, 257] {
        designs.push((format!("all equal m={m}"), vec![0x1234_5678; m as usize - 1]));
        let mut whole: Vec<u32> = (0..m - 1).map(|_| rng.next_u32()).collect();
        whole[0] = 0;
        *whole.last_mut().unwrap() = u32::MAX;
        designs.push((format!("whole range m={m}"), whole));
        let table_slots = 1u32 << (32 - (m - 1).leading_zeros() + 1);
        for span in [table_slots - 1, table_slots, table_slots + 1, 2 * table_slots + 3] {
            let picks: Vec<u32> = (0..m - 1)
                .map(|j| 5000 + (span as u64 * j as u64 / (m as u64 - 2).max(1)) as u32)
                .collect();
            designs.push((format!("span {span} m={m}"), picks));
        }
    }
    let mut cluster: Vec<u32> = (0..200).map(|_| 1000 + rng.next_u32() % 100).collect();
    cluster.push(0xF000_0000);
    designs.push(("cluster and outlier m=202".into(), cluster));
    for (what, picks) in &designs {
        let mut words: Vec<u32> = (0..1500).map(|_| rng.next_u32()).collect();
        words.extend([0, 1, u32::MAX, u32::MAX - 1]);
        words.extend(4990..5400);
        for &p in picks {
            words.extend([p.wrapping_sub(1), p, p.wrapping_add(1)]);
        }
        check_splitters::<u32>(&ctx, &words, picks, false, None, &format!("u32 {what}"));
        check_splitters::<i32>(&ctx, &words, picks, false, None, &format!("i32 {what}"));
        check_splitters::<f32>(&ctx, &words, picks, false, None, &format!("f32 {what}"));
        check_splitters::<u64>(&ctx, &words, picks, false, None, &format!("u64 {what}"));
        check_splitters::<i64>(&ctx, &words, picks, false, None, &format!("i64 {what}"));
    }
}

#[test]
fn eight_byte_values_keep_their_order() {
    let ctx = context();
    let mut rng = Rng(6);
    for (n, m) in [(1usize, 3u32), (777, 3), (9001, 256), (3000, 65536)] {
        let keys: Vec<u64> = (0..n).map(|_| rng.next_u64() % 1000).collect();
        let ids: Vec<u32> = keys.iter().map(|&k| (k % m as u64) as u32).collect();
        let values: Vec<u64> = (0..n as u64).map(|i| i << 33 | 5).collect();
        let mut want_keys = keys.clone();
        let mut want_values = values.clone();
        let want = reference::multisplit(&mut want_keys, Some(&mut want_values), &ids, m);
        let mut got_keys = keys.clone();
        let mut got_values = values.clone();
        let offsets = ctx
            .multisplit_pairs(
                &mut got_keys,
                &mut got_values,
                &Bucketing::Ids {
                    bucket_count: m,
                    ids: &ids,
                },
            )
            .expect("split");
        assert_eq!(offsets, want, "n={n} m={m}");
        assert_eq!(got_keys, want_keys, "n={n} m={m}");
        assert_eq!(got_values, want_values, "n={n} m={m}");
    }
}

#[test]
fn large_split_once() {
    let ctx = context();
    let mut rng = Rng(9);
    let keys = rng.vec_u32(1 << 22);
    let src = "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";
    let cpu: Vec<u32> = keys.iter().map(|&k| ((k as u64 * 1000) >> 32) as u32).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 1000,
            source: src,
            params: [1000, 0, 0, 0],
        },
        Some((&cpu, 1000)),
        "2^22 u32 keys, 1000 GLSL buckets",
    );
}

/// Unsorted splitters through the record layer (the host calls refuse them): whatever
/// buckets they give must be below m (the status word says none was not), so the split is
/// still a stable split of the input: offsets from 0 to n, every input index once, in input order within each bucket, each key
/// with its index. The plain search (10 buckets), the splitter index (100, 300), on the tile
/// paths (Auto) and the Onesweep split.
#[test]
fn unsorted_splitters_stay_below_m() {
    for lookback in [false, true] {
        let ctx = context_with_lookback(lookback);
        let mut rng = Rng(31 + lookback as u64);
        for (m, first) in [
            (10u32, u32::MAX),
            (100, u32::MAX),
            (100, 0),
            (300, u32::MAX),
            (300, 0),
        ] {
            let n = 5000usize;
            let keys = rng.vec_u32(n);
            let mut splitters = rng.vec_u32(m as usize - 1);
            // The first above the last (a span of zero) or below every key but 0.
            splitters[0] = first;
            let path = if lookback {
                SplitPath::Onesweep
            } else {
                SplitPath::Auto
            };
            let desc = SplitDesc {
                path,
                ..SplitDesc::new(KeyType::U32, ValueType::U32, m, BucketFn::Splitters, n as u64)
            };
            let plan = ctx.split_plan(&desc).expect("plan");
            let req = plan.memory_requirements();
            let upload = |data: &[u32], name: &str| {
                let mut b = GpuBuffer::new(
                    &ctx,
                    (data.len() * 4).max(4) as u64,
                    MemoryLocation::CpuToGpu,
                    name,
                )
                .expect("buffer");
                b.mapped().expect("mapped")[..data.len() * 4].copy_from_slice(bytemuck::cast_slice(data));
                b
            };
            let download = |size: u64, name: &str| {
                GpuBuffer::new(&ctx, size.max(4), MemoryLocation::GpuToCpu, name).expect("buffer")
            };
            let indices: Vec<u32> = (0..n as u32).collect();
            let (keys_b, values_b, splitters_b) = (
                upload(&keys, "keys"),
                upload(&indices, "values"),
                upload(&splitters, "splitters"),
            );
            let bytes = n as u64 * 4;
            let (mut keys_out, mut values_out) = (download(bytes, "keys_out"), download(bytes, "values_out"));
            let mut offsets = download(req.offsets.size, "offsets");
            offsets.mapped().expect("mapped").fill(0xEE);
            let mut scratch = download(req.scratch.size, "scratch");
            let args = SplitArgs {
                keys: keys_b.sub_range(0, bytes),
                values: Some(values_b.sub_range(0, bytes)),
                keys_out: keys_out.sub_range(0, bytes),
                values_out: Some(values_out.sub_range(0, bytes)),
                splitters: Some(splitters_b.sub_range(0, (m as u64 - 1) * 4)),
                bucket_ids: None,
                offsets: offsets.sub_range(0, req.offsets.size),
                scratch: scratch.sub_range(0, req.scratch.size),
                count: ElementCount::Direct(n as u64),
                params: [0; 4],
            };
            let what = format!("unsorted splitters {:?} m={m} first={first}", plan.path());
            ctx.submit_and_wait(|cmd| unsafe {
                plan.record(cmd, &args)?;
                compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                read(&mut scratch)[0],
                0,
                "{what}: the status word reports a bucket >= m"
            );
            let offsets = read(&mut offsets);
            let (got_keys, got_values) = (read(&mut keys_out), read(&mut values_out));
            assert_eq!(
                (offsets[0], offsets[m as usize]),
                (0, n as u32),
                "{what}: offsets' ends"
            );
            let mut seen = vec![false; n];
            for b in 0..m as usize {
                assert!(offsets[b] <= offsets[b + 1], "{what}: offsets decrease at {b}");
                let run = &got_values[offsets[b] as usize..offsets[b + 1] as usize];
                assert!(
                    run.windows(2).all(|w| w[0] < w[1]),
                    "{what}: bucket {b} out of input order"
                );
            }
            for (i, &v) in got_values.iter().enumerate() {
                assert!(
                    !std::mem::replace(&mut seen[v as usize], true),
                    "{what}: index {v} twice"
                );
                assert_eq!(got_keys[i], keys[v as usize], "{what}: key of index {v}");
            }
        }
    }
}
