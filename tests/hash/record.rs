//! The record layer end to end, and lookups from a user shader.

use super::*;

/// The record layer end to end: offsets, indirect counts below the maximum (nothing past the
/// count is written), find/contains/erase outputs, size, retrieve_all into a too-small output,
/// and the record-layer rehash with a swap.
#[test]
fn end_to_end() {
    let ctx = context();
    let mut map = HashMap::new(&ctx, &desc::<u64, u32>(5000)).unwrap();
    let mut model = HashModel::new();
    let mut rng = Rng(77);
    let keys: Vec<u64> = (0..3000).map(|_| u64::random(&mut rng)).collect();
    let values: Vec<u32> = (0..3000).map(|_| rng.next_u32()).collect();
    // Indirect count 2000 of max 3000, at a 24-byte offset.
    let rec = record_insert(
        &ctx,
        &map,
        &keys,
        &values,
        RecordOptions {
            offset: 24,
            indirect: Some(2000),
            ..Default::default()
        },
    );
    assert!(rec.status[..2000].iter().all(|&s| s <= 1));
    assert!(
        rec.status[2000..].iter().all(|&s| s == 0xA5A5_A5A5),
        "status written past the count"
    );
    assert_eq!(rec.failed, 0);
    let k64: Vec<u64> = keys[..2000].to_vec();
    let v64: Vec<u64> = values[..2000].iter().map(|&v| v as u64).collect();
    model.insert(&k64, &v64, &[true; 2000]);
    check_size(&map, &model, "indirect insert");

    // find + erase + size + retrieve through the record layer in one command buffer.
    let n = keys.len() as u64;
    let mut buf = GpuBuffer::new(&ctx, 1 << 20, MemoryLocation::CpuToGpu, "t").unwrap();
    let (k_at, v_at, f_at, e_at, c_at, s_at) = (16u64, 65536u64, 131072u64, 196608u64, 262144u64, 262160u64);
    let (rk_at, rv_at) = (327680u64, 393216u64);
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[k_at as usize..(k_at + n * 8) as usize].copy_from_slice(bytemuck::cast_slice(&keys));
        m[c_at as usize..c_at as usize + 4].copy_from_slice(&2500u32.to_le_bytes());
    }
    let erase_n = 500u64; // erase keys[1000..1500]
    let find = HashFindArgs {
        keys: buf.sub_range(k_at, n * 8),
        values: Some(buf.sub_range(v_at, n * 4)),
        found: Some(buf.sub_range(f_at, n * 4)),
        count: ElementCount::Indirect(buf.sub_range(c_at, 4)),
        max_count: n,
    };
    let erase = HashEraseArgs {
        keys: buf.sub_range(k_at + 1000 * 8, erase_n * 8),
        erased: Some(buf.sub_range(e_at, erase_n * 4)),
        count: ElementCount::Direct(erase_n),
        max_count: 0,
    };
    let retrieve = HashRetrieveArgs {
        keys: buf.sub_range(rk_at, 100 * 8),
        values: Some(buf.sub_range(rv_at, 100 * 4)),
        capacity: 100,
        count_out: buf.sub_range(s_at + 4, 4),
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(&ctx, cmd);
        map.record_find(cmd, &find)?;
        map.record_barrier(cmd);
        map.record_erase(cmd, &erase)?;
        map.record_barrier(cmd);
        map.record_size(
            cmd,
            &HashSizeArgs {
                out: buf.sub_range(s_at, 4),
            },
        )?;
        map.record_retrieve_all(cmd, &retrieve)?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let words = |at: u64, len: u64| -> Vec<u32> {
        bytemuck::cast_slice(&m[at as usize..(at + len * 4) as usize]).to_vec()
    };
    let (vals, found) = (words(v_at, n), words(f_at, n));
    for i in 0..2500 {
        model
            .check_find(keys[i], found[i] == 1, vals[i] as u64)
            .unwrap_or_else(|e| panic!("record find {i}: {e}"));
    }
    assert!(vals[2500..]
        .iter()
        .chain(&found[2500..])
        .all(|&w| w == 0xA5A5_A5A5));
    let erased = words(e_at, erase_n);
    assert!(erased.iter().all(|&e| e == 1));
    model.erase(&keys[1000..1500]);
    assert_eq!(words(s_at, 1)[0], model.len() as u32, "record_size");
    assert_eq!(words(s_at + 4, 1)[0], model.len() as u32, "retrieve count_out");
    let got_keys: Vec<u64> = bytemuck::cast_slice(&m[rk_at as usize..rk_at as usize + 800]).to_vec();
    let got_values = words(rv_at, 100);
    for (k, v) in got_keys.iter().zip(&got_values) {
        model.check_find(*k, true, *v as u64).unwrap();
    }
    assert!(m[rk_at as usize + 800..rk_at as usize + 808]
        .iter()
        .all(|&b| b == 0xA5));
    check_size(&map, &model, "record ops");

    // Record-layer rehash into a bigger map, then swap.
    let mut bigger = HashMap::new(&ctx, &desc::<u64, u32>(20_000)).unwrap();
    ctx.submit_and_wait(|cmd| unsafe {
        map.record_rehash_into(
            cmd,
            &HashRehashArgs {
                dst: &bigger,
                failed_count: None,
            },
        )
    })
    .unwrap();
    std::mem::swap(&mut map, &mut bigger);
    drop(bigger);
    assert_eq!(map.capacity(), 20_014); // 2 slots per 32-byte bucket, 10007 buckets
    assert_eq!(map.stats().unwrap().tombstones, 0);
    check_size(&map, &model, "record rehash");
    check_lookups::<u64, u32>(&map, &mut model, &keys, "record rehash");
}

/// Runs the user shader for the map's types on `query`: (values, found, contains).
fn user_shader_lookup<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    map: &HashMap,
    query: &[K],
) -> (Vec<V>, Vec<u32>, Vec<u32>) {
    let spirv: Vec<u32> = crate::user_shader::user_spirv!(
        "user_lookup",
        K::TYPE == HashKeyType::U64,
        V::TYPE == HashValueType::U64
    );
    let n = query.len() as u64;
    let (kb, vb) = (std::mem::size_of::<K>() as u64, std::mem::size_of::<V>() as u64);
    let mut keys = GpuBuffer::new(ctx, n * kb, MemoryLocation::CpuToGpu, "user keys").unwrap();
    keys.mapped().unwrap()[..(n * kb) as usize].copy_from_slice(bytemuck::cast_slice(query));
    let mut outs = GpuBuffer::new(ctx, n * (vb + 8) + 64, MemoryLocation::GpuToCpu, "user outputs").unwrap();
    let (v_at, f_at, c_at) = (0u64, n * vb, n * vb + n * 4);
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Push {
        view: vkalgo::HashMapDeviceView,
        keys: u64,
        values_out: u64,
        found_out: u64,
        contains_out: u64,
        count: u32,
        pad: u32,
    }
    let push = Push {
        view: map.device_view(),
        keys: keys.address(),
        values_out: outs.address() + v_at,
        found_out: outs.address() + f_at,
        contains_out: outs.address() + c_at,
        count: n as u32,
        pad: 0,
    };
    crate::user_shader::run_user_shader(ctx, &spirv, &push, n as u32);
    let m = outs.mapped().unwrap();
    let values: Vec<V> = bytemuck::cast_slice(&m[v_at as usize..f_at as usize]).to_vec();
    let found: Vec<u32> = bytemuck::cast_slice(&m[f_at as usize..c_at as usize]).to_vec();
    let contains: Vec<u32> = bytemuck::cast_slice(&m[c_at as usize..(c_at + n * 4) as usize]).to_vec();
    (values, found, contains)
}

/// A user shader compiled at test time against glsl/public/vkalgo_hash_map.glsl looks keys up
/// through the map's device view; its results must match the model.
#[test]
fn lookups_from_a_user_shader() {
    let ctx = context();
    fn run<K: HashTestKey, V: HashTestValue>(ctx: &Context, seed: u64) {
        for bucket_bytes in [32, 64] {
            run_bucket::<K, V>(ctx, seed, bucket_bytes);
        }
    }
    fn run_bucket<K: HashTestKey, V: HashTestValue>(ctx: &Context, seed: u64, bucket_bytes: u32) {
        let desc = HashMapDesc {
            bucket_bytes: Some(bucket_bytes),
            ..desc::<K, V>(3000)
        };
        let map = HashMap::new(ctx, &desc).unwrap();
        assert_eq!(
            map.device_view().bucket_slots as u64 * map.slot_bytes(),
            bucket_bytes as u64
        );
        let mut model = HashModel::new();
        let mut rng = Rng(seed);
        let keys: Vec<K> = (0..2600).map(|_| K::random(&mut rng)).collect();
        let values: Vec<V> = (0..2600).map(|_| V::from_u64(rng.next_u64())).collect();
        insert(&map, &mut model, &keys[..2000], &values[..2000]);
        map.erase(&keys[..100]).unwrap();
        model.erase(&keys[..100].iter().map(|k| k.to_u64()).collect::<Vec<_>>());
        let mut query = keys.clone(); // 100 erased, 1900 present, 600 absent
        query.push(K::from_u64(K::MAX));
        query.push(K::from_u64(K::MAX - 1));
        let n = query.len();
        let (value_out, found_out, contains_out) = user_shader_lookup::<K, V>(ctx, &map, &query);
        for i in 0..n {
            model
                .check_find(query[i].to_u64(), found_out[i] == 1, value_out[i].to_u64())
                .unwrap_or_else(|e| panic!("user shader {:?}/{:?}: {e}", K::TYPE, V::TYPE));
            assert_eq!(contains_out[i], found_out[i], "contains vs find at {i}");
        }
    }
    run::<u32, u32>(&ctx, 1);
    run::<u32, u64>(&ctx, 2);
    run::<u64, u32>(&ctx, 3);
    run::<u64, u64>(&ctx, 4);
}
