//! A user shader compiled against glsl/public/vkalgo_hash_map.glsl (tests/shaders/
//! user_multimap.comp) counts and walks a multimap's keys through its device view, and looks
//! them up with the map's find; everything must match the model.

use super::*;

#[test]
fn walks_from_a_user_shader() {
    let ctx = context();
    let mut seed = 100;
    for_every_layout!(ctx, |K, V, packed, bucket| {
        if packed == Some(true) {
            continue; // the same table as the key CAS; the shader only reads
        }
        run::<K, V>(&ctx, bucket, seed);
        seed += 1;
    });
}

fn run<K: HashTestKey, V: HashTestValue>(ctx: &Context, bucket: u32, seed: u64) {
    let what = format!("{:?}/{:?} bucket {bucket}", K::TYPE, V::TYPE);
    let mm = multimap::<K, V>(ctx, 4000, None, bucket);
    assert_eq!(
        mm.device_view().bucket_slots as u64 * mm.slot_bytes(),
        bucket as u64
    );
    let mut model = MultimapModel::new();
    let mut rng = Rng(seed);
    let (keys, values, hot, absent) = adversarial::<K, V>(&mut rng, 700);
    insert_all(&mm, &mut model, &keys, &values);
    let mut queries = queries_of(&keys, hot, &absent);
    queries.push(K::from_u64(K::MAX));
    queries.push(K::from_u64(K::MAX - 1));
    let q64 = to64(&queries);
    let mut offsets = vec![0u64];
    for &q in &q64 {
        offsets.push(offsets.last().unwrap() + model.count(q));
    }
    let out = user_shader_walk::<K, V>(ctx, &mm, &queries, &offsets);
    for (i, &q) in q64.iter().enumerate() {
        let count = model.count(q);
        assert_eq!(out.counts[i] as u64, count, "{what}: count of query {i}");
        assert_eq!(out.walked[i] as u64, count, "{what}: walk of query {i}");
        assert_eq!(out.found[i] == 1, count > 0, "{what}: find of query {i}");
        if count > 0 {
            let v = out.find_values[i].to_u64();
            assert!(model.sorted_values(q).contains(&v), "{what}: find gave {v:#x}");
        }
    }
    model
        .check_retrieve(&q64, &offsets, &values64(&out.values))
        .unwrap_or_else(|e| panic!("{what}: walk: {e}"));
}

/// What the user shader wrote.
struct Walked<V> {
    counts: Vec<u32>,
    walked: Vec<u32>,
    values: Vec<V>,
    find_values: Vec<V>,
    found: Vec<u32>,
}

fn user_shader_walk<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    mm: &HashMultimap,
    queries: &[K],
    offsets: &[u64],
) -> Walked<V> {
    let spirv: Vec<u32> = crate::user_shader::user_spirv!(
        "user_multimap",
        K::TYPE == HashKeyType::U64,
        V::TYPE == HashValueType::U64
    );
    let n = queries.len() as u64;
    let total = offsets[queries.len()];
    let (kb, vb) = (K::TYPE.bytes(), V::TYPE.bytes());
    let offsets32: Vec<u32> = offsets[..queries.len()].iter().map(|&o| o as u32).collect();
    // keys, offsets, values, counts, walked, find values, found
    let k_at = 0;
    let o_at = k_at + n * kb;
    let v_at = (o_at + n * 4).next_multiple_of(8);
    let c_at = v_at + total * vb;
    let w_at = c_at + n * 4;
    let f_at = (w_at + n * 4).next_multiple_of(8);
    let found_at = f_at + n * vb;
    let mut buf = poisoned_bytes(ctx, found_at + n * 4);
    put(&mut buf, k_at, queries);
    put(&mut buf, o_at, &offsets32);
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Push {
        view: vkalgo::HashMapDeviceView,
        keys: u64,
        offsets: u64,
        values_out: u64,
        counts_out: u64,
        walked_out: u64,
        find_out: u64,
        found_out: u64,
        count: u32,
        room: u32,
    }
    let base = buf.address();
    let push = Push {
        view: mm.device_view(),
        keys: base + k_at,
        offsets: base + o_at,
        values_out: base + v_at,
        counts_out: base + c_at,
        walked_out: base + w_at,
        find_out: base + f_at,
        found_out: base + found_at,
        count: n as u32,
        room: total as u32,
    };
    crate::user_shader::run_user_shader(ctx, &spirv, &push, n as u32);
    Walked {
        counts: get(&mut buf, c_at, n as usize),
        walked: get(&mut buf, w_at, n as usize),
        values: get(&mut buf, v_at, total as usize),
        find_values: get(&mut buf, f_at, n as usize),
        found: get(&mut buf, found_at, n as usize),
    }
}
