//! Multisplit on the Vulkan device (lavapipe in CI), compared exactly with a stable CPU
//! counting sort: every bucket function, every key type, pairs with 4- and 8-byte values
//! (their values prove stability), bucket counts 1..65536, sizes around the column length,
//! adversarial data, GLSL with parameters and repeated sources, the record layer with offsets
//! and indirect counts, bad input (nothing changed), and GLSL bucket functions that are not
//! pure (no write outside the outputs, the status bit, nothing changed by the host calls).

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod glsl;
mod host;
mod impure;
mod paths;
mod record;

use common::*;
use vkalgo::split::reference;
use vkalgo::{
    BucketFn, Bucketing, Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, ScanDesc, ScanOp,
    SortKey, SortTuning, SplitArgs, SplitDesc, SplitPath, ValueType,
};

/// The CPU buckets of `keys` for a bucketing.
fn cpu_buckets<K: SortKey>(keys: &[K], bucketing: &Bucketing<K>) -> (Vec<u32>, u32) {
    match *bucketing {
        Bucketing::Bits {
            bucket_count,
            bit_offset,
        } => (
            keys.iter()
                .map(|&k| reference::bits_bucket(k, bucket_count, bit_offset))
                .collect(),
            bucket_count,
        ),
        Bucketing::Splitters(s) => (
            keys.iter().map(|&k| reference::splitters_bucket(k, s)).collect(),
            s.len() as u32 + 1,
        ),
        Bucketing::Ids { bucket_count, ids } => (ids.to_vec(), bucket_count),
        Bucketing::Glsl { .. } => panic!("GLSL buckets come from the caller"),
    }
}

/// Splits keys with their input indices as values (u32) on the GPU and compares keys,
/// values and offsets exactly with the CPU counting sort.
fn check<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    bucketing: &Bucketing<K>,
    cpu: Option<(&[u32], u32)>,
    what: &str,
) {
    let (buckets, m) = match cpu {
        Some((b, m)) => (b.to_vec(), m),
        None => cpu_buckets(keys, bucketing),
    };
    let mut want_keys = keys.to_vec();
    let mut want_values: Vec<u32> = (0..keys.len() as u32).collect();
    let want_offsets = reference::multisplit(&mut want_keys, Some(&mut want_values), &buckets, m);
    let mut got_keys = keys.to_vec();
    let mut got_values: Vec<u32> = (0..keys.len() as u32).collect();
    let offsets = ctx
        .multisplit_pairs(&mut got_keys, &mut got_values, bucketing)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(offsets, want_offsets, "{what}: offsets");
    assert!(got_values == want_values, "{what}: values (stability) differ");
    assert!(same_bits(&got_keys, &want_keys), "{what}: keys differ");
    // Keys only.
    let mut only = keys.to_vec();
    let offsets = ctx
        .multisplit(&mut only, bucketing)
        .unwrap_or_else(|e| panic!("{what} keys only: {e}"));
    assert_eq!(offsets, want_offsets, "{what}: keys-only offsets");
    assert!(same_bits(&only, &want_keys), "{what}: keys-only keys differ");
}

/// Bitwise equality (NaN keys compare equal to themselves).
fn same_bits<K: SortKey>(a: &[K], b: &[K]) -> bool {
    bytemuck::cast_slice::<K, u8>(a) == bytemuck::cast_slice::<K, u8>(b)
}

/// A BITS bucketing for any key type.
fn bits<K>(bucket_count: u32, bit_offset: u32) -> Bucketing<'static, K> {
    Bucketing::Bits {
        bucket_count,
        bit_offset,
    }
}

/// Float bit patterns the key-type tests mix in: -0.0, +0.0, +inf, -inf, a quiet NaN and a
/// negative NaN.
const FLOAT_SPECIALS: [u32; 6] = [0x8000_0000, 0, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0xFFC0_0001];

/// `n` random words with `specials` (float bit patterns) at every seventh place.
fn words_with_specials(rng: &mut Rng, n: usize, specials: &[u32]) -> Vec<u32> {
    (0..n)
        .map(|i| {
            if i % 7 == 0 {
                specials[i / 7 % specials.len()]
            } else {
                rng.next_u32()
            }
        })
        .collect()
}

/// The keys made from `words` and the splitters made from `picks`, sorted in the key order
/// (the first repeated where `repeat`: an empty bucket).
fn keys_and_splitters<K: TestKey>(words: &[u32], picks: &[u32], repeat: bool) -> (Vec<K>, Vec<K>) {
    let made = |xs: &[u32]| -> Vec<K> { xs.iter().enumerate().map(|(i, &x)| K::from_word(x, i)).collect() };
    let mut splitters = made(picks);
    splitters.sort_by_key(|k| k.ordered_bits());
    if repeat {
        splitters[1] = splitters[0];
    }
    (made(words), splitters)
}

/// Splits the keys made from `words` by the splitters made from `picks` (sorted in the key
/// order, the first repeated where `repeat`: an empty bucket) and, with `bits`, by BITS
/// (bucket count, bit offset) as well.
fn check_splitters<K: TestKey>(
    ctx: &Context,
    words: &[u32],
    picks: &[u32],
    repeat: bool,
    bits_too: Option<(u32, u32)>,
    what: &str,
) {
    let (keys, splitters) = keys_and_splitters::<K>(words, picks, repeat);
    let m = picks.len() + 1;
    check(
        ctx,
        &keys,
        &Bucketing::Splitters(&splitters),
        None,
        &format!("{what} splitters m={m}"),
    );
    if let Some((bucket_count, offset)) = bits_too {
        check(
            ctx,
            &keys,
            &bits(bucket_count, offset),
            None,
            &format!("{what} bits {bucket_count}"),
        );
    }
}

/// Doubles for the GLSL bucket functions on signs and fractions: element i is, by i % 4, the
/// double with bits `bits` (any value, NaNs and infinities too), a fraction in [0, 1) and a
/// negative whole number (both from `small`), or NaN.
fn mixed_f64(i: usize, bits: u64, small: usize) -> f64 {
    match i % 4 {
        0 => f64::from_bits(bits),
        1 => (small % 1000) as f64 / 1000.0,
        2 => -((small % 1000) as f64),
        _ => f64::NAN,
    }
}

/// The CPU bucket of those functions: 0 below zero, 1 in [0, 1), `high` otherwise (NaN too).
fn sign_fraction_bucket(k: f64, high: u32) -> u32 {
    if k < 0.0 {
        0
    } else if k < 1.0 {
        1
    } else {
        high
    }
}

/// [`check`] with the caller's bucket ids.
fn check_ids(ctx: &Context, keys: &[u32], ids: &[u32], m: u32, what: &str) {
    let bucketing = Bucketing::Ids { bucket_count: m, ids };
    check(ctx, keys, &bucketing, None, what);
}

/// The plan's column length for u32 keys and `m` buckets (sizes around it are the edges).
fn column_length(ctx: &Context, m: u32) -> usize {
    ctx.split_plan(&SplitDesc::new(
        KeyType::U32,
        ValueType::U32,
        m,
        BucketFn::Ids,
        1 << 16,
    ))
    .expect("plan")
    .column_length() as usize
}

/// The GLSL bucket function of the record-layer cases: key % m, and m (a bad id) for the
/// key 0xFFFFFFFF.
const MOD_OR_BAD: &str =
    "uint vkalgo_bucket(uint k) { return k == 0xFFFFFFFFu ? vkalgo_params.x : k % vkalgo_params.x; }";

/// The record layer with every range mid-buffer, poisoned around, direct or indirect counts,
/// for u32 -> u32 pairs (`desc`: its path and m; IDS, or GLSL [`MOD_OR_BAD`]); `bad` makes
/// one id >= m: the status word reports it and no output is written.
fn record_case(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool, bad: bool) {
    record_case_via(ctx, desc, count, indirect, bad, false);
}

/// Records `args` through the C ABI (`vkalgo_multisplit_plan_create` on a C context over
/// `ctx`'s device, `vkalgo_multisplit_record`) for `desc` (u32 -> u32 pairs by IDS or GLSL
/// [`MOD_OR_BAD`], path Auto) and runs it.
fn record_through_c(ctx: &Context, desc: &SplitDesc, args: &SplitArgs) {
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::split::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let c_range = |r: Option<vkalgo::BufferRange>| {
        r.map_or(
            VkalgoBufferRange {
                buffer: VkBuffer(0),
                offset: 0,
                size: 0,
            },
            |r| VkalgoBufferRange {
                buffer: VkBuffer(r.buffer.as_raw()),
                offset: r.offset,
                size: r.size,
            },
        )
    };
    let glsl = std::ffi::CString::new(MOD_OR_BAD).unwrap();
    let m = desc.bucket_count;
    let cdesc = VkalgoMultisplitDesc {
        key_type: VKALGO_KEY_U32,
        value_type: VKALGO_VALUE_U32,
        bucket_count: m,
        bucket_fn: if desc.bucket_fn == BucketFn::Glsl {
            VKALGO_BUCKET_GLSL
        } else {
            VKALGO_BUCKET_IDS
        },
        bit_offset: 0,
        splitters: std::ptr::null(),
        bucket_ids: std::ptr::null(),
        glsl: if desc.bucket_fn == BucketFn::Glsl {
            glsl.as_ptr()
        } else {
            std::ptr::null()
        },
        params: args.params,
        max_count: desc.max_count,
        ..Default::default()
    };
    let (count, count_buffer) = match args.count {
        ElementCount::Direct(n) => (n, None),
        ElementCount::Indirect(r) => (0, Some(r)),
    };
    let cargs = VkalgoMultisplitArgs {
        keys: c_range(Some(args.keys)),
        values: c_range(args.values),
        keys_out: c_range(Some(args.keys_out)),
        values_out: c_range(args.values_out),
        splitters: c_range(args.splitters),
        bucket_ids: c_range(args.bucket_ids),
        offsets: c_range(Some(args.offsets)),
        scratch: c_range(Some(args.scratch)),
        count,
        count_buffer: c_range(count_buffer),
        params: args.params,
        ..Default::default()
    };
    unsafe {
        let cctx = common::c_context_over(ctx);
        let mut plan = std::ptr::null_mut();
        let r = vkalgo_multisplit_plan_create(cctx, &cdesc, &mut plan);
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        let mut req = VkalgoMemoryRequirements::default();
        vkalgo_multisplit_plan_memory_requirements(plan, &mut req);
        let rust_req = ctx.split_plan(desc).unwrap().memory_requirements();
        assert_eq!(
            (req.scratch.size, req.offsets.size),
            (rust_req.scratch.size, rust_req.offsets.size)
        );
        ctx.submit_and_wait(|cmd| {
            let c_cmd = VkCommandBuffer(cmd.as_raw() as *mut std::ffi::c_void);
            // An extension pointer (none is defined) is refused, and records nothing.
            let extended = VkalgoMultisplitArgs {
                next: &cargs as *const VkalgoMultisplitArgs as *const std::ffi::c_void,
                ..cargs
            };
            assert_eq!(
                vkalgo_multisplit_record(plan, c_cmd, &extended),
                VkalgoResult::VkalgoErrorInvalidArgument
            );
            assert_eq!(
                vkalgo_multisplit_record(plan, c_cmd, &cargs),
                VkalgoResult::VkalgoSuccess
            );
            compute_to_host(ctx, cmd);
            Ok(())
        })
        .expect("submit");
        vkalgo_multisplit_plan_destroy(plan);
        vkalgo_context_destroy(cctx);
    }
}

/// [`record_case`], recorded through the C ABI when `via_c` (path Auto only).
fn record_case_via(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool, bad: bool, via_c: bool) {
    let (path, m, max_count) = (desc.path, desc.bucket_count, desc.max_count as usize);
    let glsl = desc.bucket_fn == BucketFn::Glsl;
    let with_values = desc.value_type != ValueType::None;
    let plan = ctx.split_plan(desc).expect("plan");
    if path != SplitPath::Auto {
        assert_eq!(plan.path(), path);
    }
    let req = plan.memory_requirements();
    let bytes = max_count as u64 * 4;
    // Words before every range: 64 before the outputs, 65 before the inputs (keys, values and
    // ids only 4-byte aligned: the count's 16-byte loads must fall back to single words).
    let pad = 64usize;
    let in_pad = pad + 1;
    let total = (pad as u64 * 4) + bytes.max(req.offsets.size) + 256;
    let mut rng = Rng(count as u64 * 31 + m as u64);
    let mut keys: Vec<u32> = rng.vec_u32(max_count);
    let values: Vec<u32> = (0..max_count as u32).collect();
    let mut ids: Vec<u32> = if glsl {
        keys.iter().map(|&k| k % m).collect()
    } else {
        (0..max_count).map(|_| rng.next_u32() % m).collect()
    };
    if bad && count > 0 {
        ids[count - 1] = m;
        keys[count - 1] = u32::MAX;
    }
    let host = |data: &[u32], name: &str| {
        let mut words = vec![POISON; (total / 4) as usize];
        words[in_pad..in_pad + data.len()].copy_from_slice(data);
        let mut b = GpuBuffer::new(ctx, total, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().unwrap()[..total as usize].copy_from_slice(bytemuck::cast_slice(&words));
        b
    };
    let keys_b = host(&keys, "keys");
    let values_b = host(&values, "values");
    let ids_b = host(&ids, "ids");
    let mut keys_out = host(&[], "keys_out");
    let mut values_out = host(&[], "values_out");
    let mut offsets_b = host(&[], "offsets");
    let mut scratch =
        GpuBuffer::new(ctx, req.scratch.size + 512, MemoryLocation::GpuToCpu, "scratch").unwrap();
    // Dirty scratch (a stale status word and matrix): no path may rely on what it holds.
    scratch.mapped().expect("mapped scratch").fill(0xA5);
    let count_b = host(&[count as u32], "count");
    let at = |b: &GpuBuffer, len: u64| b.sub_range(pad as u64 * 4, len);
    let input_at = |b: &GpuBuffer, len: u64| b.sub_range(in_pad as u64 * 4, len);
    let args = SplitArgs {
        keys: input_at(&keys_b, bytes),
        values: with_values.then(|| input_at(&values_b, bytes)),
        keys_out: at(&keys_out, bytes),
        values_out: with_values.then(|| at(&values_out, bytes)),
        splitters: None,
        bucket_ids: (!glsl).then(|| input_at(&ids_b, bytes)),
        offsets: at(&offsets_b, req.offsets.size),
        scratch: scratch.sub_range(256, req.scratch.size),
        count: if indirect {
            ElementCount::Indirect(input_at(&count_b, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
        params: [m, 0, 0, 0],
    };
    if via_c {
        assert_eq!(path, SplitPath::Auto, "the C ABI plans path Auto");
        record_through_c(ctx, desc, &args);
    } else {
        ctx.submit_and_wait(|cmd| unsafe {
            plan.record(cmd, &args)?;
            compute_to_host(ctx, cmd);
            Ok(())
        })
        .expect("submit");
    }
    let what = format!(
        "{path:?} {:?} {:?} max {max_count} count {count} m {m} indirect {indirect} bad {bad} C {via_c}",
        desc.bucket_fn, desc.value_type
    );
    let status = read(&mut scratch)[64];
    let (ko, vo, oo) = (read(&mut keys_out), read(&mut values_out), read(&mut offsets_b));
    if bad && count > 0 {
        assert_eq!(status, vkalgo::split::STATUS_BAD_BUCKET, "{what}: status");
        for (name, data) in [("keys_out", &ko), ("values_out", &vo), ("offsets", &oo)] {
            assert!(
                data.iter().all(|&x| x == POISON),
                "{what}: {name} written despite a bad id"
            );
        }
        return;
    }
    assert_eq!(status, 0, "{what}: status");
    let mut want_keys = keys[..count].to_vec();
    let mut want_values = values[..count].to_vec();
    let want_offsets = reference::multisplit(&mut want_keys, Some(&mut want_values), &ids[..count], m);
    assert_eq!(&ko[pad..pad + count], &want_keys[..], "{what}: keys");
    if with_values {
        assert_eq!(&vo[pad..pad + count], &want_values[..], "{what}: values");
    } else {
        assert!(
            vo.iter().all(|&x| x == POISON),
            "{what}: values_out written by a keys-alone split"
        );
    }
    let got_offsets: Vec<u64> = oo[pad..pad + m as usize + 1].iter().map(|&x| x as u64).collect();
    assert_eq!(got_offsets, want_offsets, "{what}: offsets");
    for (name, data, len) in [
        ("keys_out", &ko, count),
        ("values_out", &vo, count),
        ("offsets", &oo, m as usize + 1),
    ] {
        assert!(
            data[..pad].iter().all(|&x| x == POISON),
            "{what}: {name} written before its range"
        );
        assert!(
            data[pad + len..].iter().all(|&x| x == POISON),
            "{what}: {name} written past its end"
        );
    }
}

/// The Onesweep path (the sort's one-pass Onesweep with the bucket as its digit; Auto takes
/// it from 16 buckets where the look-back runs): every key type with BITS (bucket bits
/// clipped at the key's top too) and SPLITTERS (repeated splitters, float specials), GLSL
/// with parameters, adversarial data (all keys in one bucket: the copy of a constant digit),
/// sizes around the tile, up to 256 buckets (one digit pass) and above (two passes, offsets
/// searched in the output); the record layer with m = 2..1000, indirect counts, a GLSL id >= m
/// (status set, nothing written), and the look-back fallback forced for every tile.
/// Splits `keys` into `m` buckets by the benchmark's GLSL function, (k * m) >> 32 with m in
/// `vkalgo_params.x`, and checks them.
fn check_scaled_glsl(ctx: &Context, keys: &[u32], m: u32, what: &str) {
    let src = "uint vkalgo_bucket(uint k) { return uint((uint64_t(k) * uint64_t(vkalgo_params.x)) >> 32); }";
    let cpu: Vec<u32> = keys
        .iter()
        .map(|&k| ((k as u64 * m as u64) >> 32) as u32)
        .collect();
    let b = Bucketing::Glsl {
        bucket_count: m,
        source: src,
        params: [m, 0, 0, 0],
    };
    check(ctx, keys, &b, Some((&cpu, m)), &format!("{what} glsl u32 m={m}"));
}

/// The GLSL name of a key type (the parameter of `uint vkalgo_bucket(T key)`).
fn glsl_key_name(key_type: KeyType) -> &'static str {
    match key_type {
        KeyType::U32 => "uint",
        KeyType::I32 => "int",
        KeyType::F32 => "float",
        KeyType::U64 => "uint64_t",
        KeyType::I64 => "int64_t",
        KeyType::F64 => "double",
        other => panic!("no GLSL name for {other:?}"),
    }
}

/// A GLSL bucket function that is not pure: it counts its calls in a buffer (address in
/// `vkalgo_params.y` and `.z`), answers `call % m` (m = `vkalgo_params.x`) to the first
/// `vkalgo_params.w` calls (the counting pass's: one per element) and `m - 1` to every later
/// call, so the pass that places the elements (and the Onesweep ranking, its fallback, the
/// staged paths' second look) sees every element in the last bucket, for which about n / m
/// places were counted. Before the fix the scatter wrote past `keys_out`.
fn two_faced_glsl(key_type: KeyType) -> String {
    format!(
        "layout(buffer_reference, std430, buffer_reference_align = 4) buffer VkalgoTestCalls {{ uint calls; }};\n\
         uint vkalgo_bucket({} key) {{\n\
             VkalgoTestCalls counter = VkalgoTestCalls(uint64_t(vkalgo_params.y) | (uint64_t(vkalgo_params.z) << 32));\n\
             uint call = atomicAdd(counter.calls, 1u);\n\
             return call < vkalgo_params.w ? call % vkalgo_params.x : vkalgo_params.x - 1u;\n\
         }}\n",
        glsl_key_name(key_type)
    )
}

/// A GLSL bucket function with private global state (the review's example): the first call of
/// an invocation answers 0, every later one m - 1 (m = `vkalgo_params.x`). On the small path the
/// same invocations count and then place the elements, so the second walk sees every element in
/// the last bucket.
const PRIVATE_STATE_GLSL: &str = "uint vkalgo_test_calls = 0u;\n\
    uint vkalgo_bucket(uint key) { vkalgo_test_calls += 1u; return vkalgo_test_calls == 1u ? 0u : vkalgo_params.x - 1u; }";

/// Canary words before and after every range of [`two_faced_record`].
const CANARY_WORDS: usize = 64;

/// The record layer with [`two_faced_glsl`] on `desc` (its path, m, key and value types):
/// `count` elements (indirect: from a buffer), every output range (keys_out, values_out,
/// offsets) and the scratch range between canary words. Afterwards the status word holds
/// exactly [`vkalgo::split::STATUS_INCONSISTENT`], every canary is unchanged, nothing past
/// `count` elements of keys_out and values_out is written, and the inputs are unchanged.
fn two_faced_record(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool) {
    two_faced_record_x(ctx, desc, count, indirect, desc.bucket_count);
}

/// [`two_faced_record`] with `vkalgo_params.x` = `x`.
fn two_faced_record_x(ctx: &Context, desc: &SplitDesc, count: usize, indirect: bool, x: u32) {
    let plan = ctx
        .split_plan(desc)
        .unwrap_or_else(|e| panic!("{desc:?}: plan: {e}"));
    if desc.path != SplitPath::Auto {
        assert_eq!(plan.path(), desc.path, "{desc:?}");
    }
    let what = format!(
        "{:?} m={} {:?} -> {:?} count {count} of {} indirect {indirect}",
        plan.path(),
        desc.bucket_count,
        desc.key_type,
        desc.value_type,
        desc.max_count
    );
    let req = plan.memory_requirements();
    let max = desc.max_count as usize;
    let (key_size, value_size) = (desc.key_type.bytes() as usize, desc.value_type.bytes() as usize);
    let with_values = value_size > 0;
    let pad = CANARY_WORDS * 4;
    let mut rng = Rng(count as u64 * 7 + desc.bucket_count as u64);
    let mut bytes = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.next_u32() as u8).collect() };
    let (keys, values) = (bytes(max * key_size), bytes(max * value_size));
    // A buffer of `len` bytes between canaries, holding `data`.
    let framed = |data: &[u8], len: usize, name: &str| {
        let total = pad + len.max(4) + pad;
        let mut words = vec![POISON; total / 4 + 1];
        bytemuck::cast_slice_mut::<u32, u8>(&mut words)[pad..pad + data.len()].copy_from_slice(data);
        let mut b =
            GpuBuffer::new(ctx, (words.len() * 4) as u64, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().unwrap()[..words.len() * 4].copy_from_slice(bytemuck::cast_slice(&words));
        (b, words)
    };
    let (keys_b, keys_before) = framed(&keys, keys.len(), "keys");
    let (values_b, values_before) = framed(&values, values.len(), "values");
    let (mut keys_out, keys_out_before) = framed(&[], max * key_size, "keys_out");
    let (mut values_out, values_out_before) = framed(&[], max * value_size, "values_out");
    let (mut offsets, offsets_before) = framed(&[], req.offsets.size as usize, "offsets");
    let (mut scratch, scratch_before) = framed(&[], req.scratch.size as usize, "scratch");
    let (count_b, _) = framed(&(count as u32).to_le_bytes(), 4, "count");
    let mut calls = GpuBuffer::new(ctx, 16, MemoryLocation::CpuToGpu, "calls").expect("buffer");
    calls.mapped().unwrap()[..16].fill(0);
    let at = |b: &GpuBuffer, len: usize| b.sub_range(pad as u64, len as u64);
    let args = SplitArgs {
        keys: at(&keys_b, max * key_size),
        values: with_values.then(|| at(&values_b, max * value_size)),
        keys_out: at(&keys_out, max * key_size),
        values_out: with_values.then(|| at(&values_out, max * value_size)),
        splitters: None,
        bucket_ids: None,
        offsets: at(&offsets, req.offsets.size as usize),
        scratch: at(&scratch, req.scratch.size as usize),
        count: if indirect {
            ElementCount::Indirect(at(&count_b, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
        params: [
            x,
            calls.address() as u32,
            (calls.address() >> 32) as u32,
            count as u32,
        ],
    };
    ctx.submit_and_wait(|cmd| unsafe {
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let made_calls = read(&mut calls)[0];
    assert!(
        made_calls > count as u32,
        "{what}: {made_calls} calls of the bucket function"
    );
    // (Words: a range's first word is CANARY_WORDS; byte lengths are multiples of 4.)
    let check_frame = |name: &str, got: &[u32], before: &[u32], written_bytes: usize| {
        let first = CANARY_WORDS;
        let end = first + written_bytes / 4;
        assert!(
            got[..first] == before[..first],
            "{what}: {name}: a canary before the range changed"
        );
        if let Some(i) = (end..got.len()).find(|&i| got[i] != before[i]) {
            panic!(
                "{what}: {name}: word {} past the {} written bytes changed ({:#x}; {} changed)",
                i - end,
                written_bytes,
                got[i],
                (end..got.len()).filter(|&i| got[i] != before[i]).count()
            );
        }
    };
    let scratch_words = read(&mut scratch);
    assert_eq!(
        scratch_words[CANARY_WORDS],
        vkalgo::split::STATUS_INCONSISTENT,
        "{what}: status word"
    );
    check_frame(
        "keys_out",
        &read(&mut keys_out),
        &keys_out_before,
        count * key_size,
    );
    check_frame(
        "values_out",
        &read(&mut values_out),
        &values_out_before,
        count * value_size,
    );
    check_frame(
        "offsets",
        &read(&mut offsets),
        &offsets_before,
        req.offsets.size as usize,
    );
    check_frame(
        "scratch",
        &scratch_words,
        &scratch_before,
        req.scratch.size as usize,
    );
    let (mut keys_b, mut values_b) = (keys_b, values_b);
    assert!(read(&mut keys_b) == keys_before, "{what}: keys changed");
    assert!(read(&mut values_b) == values_before, "{what}: values changed");
}
