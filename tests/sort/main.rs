//! Radix sort on the Vulkan device (lavapipe in CI), compared exactly with a stable CPU sort:
//! every path, every key type, pairs (stability), descending, bit ranges, adversarial data,
//! sizes around the tile and the small-path limit, the record layer with offsets and indirect
//! counts, and bad input through the Rust API and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod onesweep;
mod record;
mod resident;

use common::*;
use vkalgo::ash::vk;
use vkalgo::sort::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, MemoryLocation, SortArgs, SortDesc, SortKey, SortOptions,
    SortPath, SortResult, SortTuning, SortValue, ValueType,
};

const PATHS: [SortPath; 4] = [
    SortPath::Auto,
    SortPath::Small,
    SortPath::Safe,
    SortPath::Onesweep,
];

/// The plan's tile and small-path capacity for the default tuning of (key, value) types (Auto
/// plans leave the small path at one tile where Onesweep runs: sizes around the tile cover it).
fn geometry(ctx: &Context, key_type: KeyType, value_type: ValueType) -> (usize, usize) {
    let plan = ctx
        .sort_plan(&SortDesc::new(key_type, value_type, 1 << 20))
        .expect("plan");
    (plan.tile_size() as usize, plan.small_limit() as usize)
}

/// Sorts pairs (key, input index) on the GPU and checks keys and values exactly against the
/// stable CPU sort (the values prove stability).
fn check_pairs<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    options: &SortOptions,
    what: &str,
) {
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    check_pairs_with_values(ctx, keys, values, options, what);
}

/// Pairs with 8-byte values (the input index in the high word, so both value words matter),
/// compared exactly with the stable CPU sort.
fn check_wide_pairs<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    options: &SortOptions,
    what: &str,
) {
    let values: Vec<u64> = (0..keys.len() as u64).map(|i| i << 33 | 5).collect();
    check_pairs_with_values(ctx, keys, values, options, what);
}

/// Sorts `keys` with distinct `values` and compares both exactly with the stable CPU sort.
fn check_pairs_with_values<K, V>(ctx: &Context, keys: &[K], values: Vec<V>, options: &SortOptions, what: &str)
where
    K: SortKey + PartialEq + std::fmt::Debug,
    V: SortValue + PartialEq + std::fmt::Debug,
{
    let mut got_keys = keys.to_vec();
    let mut got_values = values.clone();
    ctx.sort_pairs_with(&mut got_keys, &mut got_values, options)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut want_keys = keys.to_vec();
    let mut want_values = values;
    reference::sort_pairs(
        &mut want_keys,
        Some(&mut want_values),
        options.begin_bit,
        options.end_bit,
        options.descending,
    );
    // Bit patterns, so NaNs compare exactly.
    let bits = |k: &[K]| -> Vec<u8> { bytemuck::cast_slice(k).to_vec() };
    if bits(&got_keys) != bits(&want_keys) || got_values != want_values {
        let first = got_values.iter().zip(&want_values).position(|(a, b)| a != b);
        panic!(
            "{what}: n={} first difference at {first:?}: got {:?} want {:?}",
            keys.len(),
            first.map(|i| (got_keys[i], got_values[i])),
            first.map(|i| (want_keys[i], want_values[i]))
        );
    }
}

/// Keys only, compared bit for bit with the CPU sort.
fn check_keys<K: SortKey + std::fmt::Debug>(ctx: &Context, keys: &[K], options: &SortOptions, what: &str) {
    let mut got = keys.to_vec();
    ctx.sort_keys_with(&mut got, options)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut want = keys.to_vec();
    reference::sort_pairs::<K, u32>(
        &mut want,
        None,
        options.begin_bit,
        options.end_bit,
        options.descending,
    );
    let got_bits: &[u8] = bytemuck::cast_slice(&got);
    let want_bits: &[u8] = bytemuck::cast_slice(&want);
    assert!(got_bits == want_bits, "{what}: n={} keys differ", keys.len());
}

fn special_f32() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7F80_0001), // signalling NaN
        f32::from_bits(0xFFC0_1234), // negative NaN with payload
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1), // smallest denormal
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007F_FFFF), // largest denormal
        f32::MAX,
        f32::MIN,
        1.0,
        -1.0,
    ];
    v.extend(v.clone());
    v
}

fn special_f64() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7FF0_0000_0000_0001),
        f64::from_bits(0xFFF8_0000_0000_1234),
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::MAX,
        f64::MIN,
        1.0,
        -1.0,
    ];
    v.extend(v.clone());
    v
}

/// Random keys of every type with the special values mixed in.
fn mixed<K: Copy>(n: usize, rng: &mut Rng, random: impl Fn(&mut Rng) -> K, specials: &[K]) -> Vec<K> {
    (0..n)
        .map(|i| {
            if i % 7 == 3 {
                specials[(rng.next_u32() as usize) % specials.len()]
            } else {
                random(rng)
            }
        })
        .collect()
}

/// Runs a sort through the record layer with keys, values, alternates and scratch at odd
/// offsets inside larger buffers, poisoned around the data; checks the result where the plan
/// says it is and that nothing outside the first `count` elements changed.
fn record_layer_case(ctx: &Context, path: SortPath, max_count: usize, count: usize, indirect: bool) {
    record_layer_case_at(ctx, path, None, 256, max_count, count, indirect);
}

/// [`record_layer_case`] with a tuning and the byte offset (a multiple of 4) of every data
/// range in its buffer.
fn record_layer_case_at(
    ctx: &Context,
    path: SortPath,
    tuning: Option<SortTuning>,
    offset: u64,
    max_count: usize,
    count: usize,
    indirect: bool,
) {
    let desc = SortDesc {
        path,
        tuning,
        ..SortDesc::new(KeyType::U32, ValueType::U32, max_count as u64)
    };
    let plan = ctx.sort_plan(&desc).expect("plan");
    let req = plan.memory_requirements();
    let bytes = max_count as u64 * 4;
    let total = offset + bytes + 256; // keys and values start mid-buffer
    let lead = (offset / 4) as usize; // words before the ranges
    let mut rng = Rng(count as u64 + 5);
    // Keys below 1000: the upper two digits are the same in every key (on the Onesweep path,
    // those passes copy their tiles in place).
    let keys: Vec<u32> = (0..max_count).map(|_| rng.next_u32() % 1000).collect();
    let mut initial = vec![POISON; (total / 4) as usize];
    initial[lead..lead + max_count].copy_from_slice(&keys);
    let values: Vec<u32> = (0..max_count as u32).collect();
    let mut initial_values = vec![POISON; (total / 4) as usize];
    initial_values[lead..lead + max_count].copy_from_slice(&values);
    let host = |data: &[u32], name: &str| {
        let mut b = GpuBuffer::new(ctx, total, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().unwrap()[..data.len() * 4].copy_from_slice(bytemuck::cast_slice(data));
        b
    };
    let mut keys_buffer = host(&initial, "keys");
    let mut values_buffer = host(&initial_values, "values");
    let mut keys_alt = host(&vec![POISON; (total / 4) as usize], "keys alt");
    let mut values_alt = host(&vec![POISON; (total / 4) as usize], "values alt");
    let scratch = GpuBuffer::new(ctx, req.scratch.size + 512, MemoryLocation::GpuOnly, "scratch").unwrap();
    let count_buffer = host(&[count as u32, 0, 0, 0], "count");
    let args = SortArgs {
        keys: keys_buffer.sub_range(offset, bytes),
        values: Some(values_buffer.sub_range(offset, bytes)),
        keys_alt: keys_alt.sub_range(offset, bytes),
        values_alt: Some(values_alt.sub_range(offset, bytes)),
        scratch: scratch.sub_range(256, req.scratch.size),
        count: if indirect {
            ElementCount::Indirect(count_buffer.sub_range(0, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
    };
    let mut location = None;
    ctx.submit_and_wait(|cmd| unsafe {
        location = Some(plan.record(cmd, &args)?);
        common::compute_to_host(ctx, cmd);
        Ok(())
    })
    .expect("submit");
    let location = location.unwrap();
    assert_eq!(location, plan.result_location());
    let (k, v) = match location {
        SortResult::InPlace => (read(&mut keys_buffer), read(&mut values_buffer)),
        SortResult::Alternate => (read(&mut keys_alt), read(&mut values_alt)),
    };
    let mut want_keys = keys[..count].to_vec();
    let mut want_values = values[..count].to_vec();
    reference::sort_pairs(&mut want_keys, Some(&mut want_values), 0, 0, false);
    let what =
        format!("{path:?} {tuning:?} offset {offset} max {max_count} count {count} indirect {indirect}");
    assert_eq!(&k[lead..lead + count], &want_keys[..], "{what}: keys");
    assert_eq!(&v[lead..lead + count], &want_values[..], "{what}: values");
    // Poison before the ranges and past `count` is untouched in every buffer.
    for (name, b) in [
        ("keys", &mut keys_buffer),
        ("values", &mut values_buffer),
        ("keys_alt", &mut keys_alt),
        ("values_alt", &mut values_alt),
    ] {
        let data = read(b);
        assert!(
            data[..lead].iter().all(|&x| x == POISON),
            "{what}: {name} written before its range"
        );
        let is_original = |i: usize| match name {
            "keys" => data[i] == keys[i - lead],
            "values" => data[i] == values[i - lead],
            _ => data[i] == POISON,
        };
        assert!(
            (lead + count..lead + max_count).all(is_original),
            "{what}: {name} written past count"
        );
        let past: Vec<(usize, u32)> = data[lead + max_count..]
            .iter()
            .enumerate()
            .filter(|(_, &x)| x != POISON)
            .map(|(i, &x)| (i, x))
            .take(8)
            .collect();
        assert!(past.is_empty(), "{what}: {name} written past its range: {past:?}");
    }
}
