//! What an engine needs around the algorithms (issue 24), on a real Vulkan device (lavapipe in
//! CI): objects on the caller's memory, memory usage, pipelines created up front and through a
//! saved pipeline cache, warm-up, and debug labels around every pass.

mod common;
use common::*;
use std::time::Instant;
use vkalgo::hash::reference::HashModel;
use vkalgo::{
    Algorithm, Context, ContextOptions, Error, GpuBuffer, HashKeyType, HashMap, HashMapDesc, HashValueType,
    KeyType, MemoryLocation, ScanDesc, ScanOp, SortDesc, ValueType,
};

fn context_with_cache(data: Option<Vec<u8>>) -> TestContext {
    let mut options = ContextOptions::from_env();
    options.validation = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    options.pipeline_cache_data = data;
    TestContext::new(Context::with_options(&options).unwrap())
}

/// A map on the caller's memory behaves like one on vkalgo's (checked against the model), and
/// vkalgo allocates nothing for it; bad ranges are refused, rehash in place too.
#[test]
fn hash_map_on_caller_memory() {
    let ctx = context();
    for (k, v) in [
        (HashKeyType::U32, HashValueType::U32),
        (HashKeyType::U64, HashValueType::U64),
    ] {
        let desc = HashMapDesc::new(k, v, 3000);
        let req = HashMap::memory_requirements(&ctx, &desc).unwrap();
        let own = HashMap::new(&ctx, &desc).unwrap();
        assert_eq!(req.storage.size, own.memory_bytes());
        assert!(req.storage.alignment >= 16 && req.storage.alignment.is_power_of_two());
        drop(own);
        // The caller's buffer, with the map at an aligned offset past other data.
        let offset = 2 * req.storage.alignment;
        let buffer = GpuBuffer::new(
            &ctx,
            offset + req.storage.size + 64,
            MemoryLocation::GpuOnly,
            "caller",
        )
        .unwrap();
        let range = buffer.sub_range(offset, req.storage.size);
        let before = ctx.memory_usage();
        let mut map = unsafe { HashMap::new_in(&ctx, &desc, range) }.unwrap();
        assert!(map.on_caller_memory());
        assert_eq!(
            ctx.memory_usage().allocated_bytes,
            before.allocated_bytes,
            "the map allocates nothing"
        );
        let mut model = HashModel::new();
        let mut rng = Rng(k as u64 * 10 + v as u64);
        let keys: Vec<u64> = (0..2500)
            .map(|_| {
                let x = rng.next_u64();
                if k == HashKeyType::U32 {
                    x % 0xFFFF_FFF0
                } else {
                    x % 0xFFFF_FFFF_FFFF_FFF0
                }
            })
            .collect();
        let values: Vec<u64> = keys.iter().map(|x| x ^ 0x1234_5678).collect();
        let all = vec![true; keys.len()];
        match k {
            HashKeyType::U32 => {
                let k32: Vec<u32> = keys.iter().map(|&x| x as u32).collect();
                let v32: Vec<u32> = values.iter().map(|&x| x as u32).collect();
                map.insert(&k32, &v32).unwrap();
                model.insert(
                    &keys,
                    &values.iter().map(|&x| x as u32 as u64).collect::<Vec<_>>(),
                    &all,
                );
                map.erase(&k32[..500]).unwrap();
                model.erase(&keys[..500]);
                let mut out = vec![0u32; k32.len()];
                let mut found = vec![false; k32.len()];
                map.find(&k32, &mut out, Some(&mut found)).unwrap();
                for i in 0..k32.len() {
                    model.check_find(keys[i], found[i], out[i] as u64).unwrap();
                }
            }
            HashKeyType::U64 => {
                map.insert(&keys, &values).unwrap();
                model.insert(&keys, &values, &all);
                map.erase(&keys[..500]).unwrap();
                model.erase(&keys[..500]);
                let mut out = vec![0u64; keys.len()];
                let mut found = vec![false; keys.len()];
                map.find(&keys, &mut out, Some(&mut found)).unwrap();
                for i in 0..keys.len() {
                    model.check_find(keys[i], found[i], out[i]).unwrap();
                }
            }
            other => panic!("no test for {other:?} keys"),
        }
        assert_eq!(map.size().unwrap(), model.len() as u64);
        let refused = map.rehash(6000);
        assert!(matches!(refused, Err(Error::InvalidArgument(_))), "{refused:?}");
        assert_eq!(map.size().unwrap(), model.len() as u64, "unchanged");
        // Bad ranges: too small, misaligned, null.
        let bad = [
            buffer.sub_range(offset, req.storage.size - 4),
            buffer.sub_range(offset + 4, req.storage.size),
            vkalgo::BufferRange::new(vkalgo::ash::vk::Buffer::null(), 0, req.storage.size),
        ];
        for range in bad {
            let made = unsafe { HashMap::new_uninitialized_in(&ctx, &desc, range) };
            assert!(matches!(made, Err(Error::InvalidArgument(_))), "{range:?}");
        }
        drop(map);
        drop(buffer);
    }
}

/// Small objects reserve small blocks; usage reports what is allocated and held.
#[test]
fn memory_usage_of_small_objects() {
    let ctx = context();
    let before = ctx.memory_usage();
    let map = HashMap::new(&ctx, &HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 100)).unwrap();
    let with_map = ctx.memory_usage();
    assert!(with_map.allocated_bytes >= before.allocated_bytes + map.memory_bytes());
    assert!(
        with_map.reserved_bytes <= before.reserved_bytes + (8 << 20),
        "a 100-slot map reserved {} more bytes",
        with_map.reserved_bytes - before.reserved_bytes
    );
    assert!(with_map.reserved_bytes >= with_map.allocated_bytes);
    drop(map);
    assert_eq!(ctx.memory_usage().allocated_bytes, before.allocated_bytes);
}

/// Host calls free their buffers into the context's cache: the next call of like size takes
/// them (no new memory), they count as reserved, not allocated, and `release_kept_memory`
/// frees them (the allocator may keep the emptied memory blocks).
#[test]
fn host_call_buffers_are_kept_for_reuse() {
    let ctx = context();
    let input: Vec<u32> = (0..1u32 << 18)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 8)
        .collect();
    let want = vkalgo::scan::reference::scan_u32(&input, ScanOp::Exclusive);
    let mut out = vec![0u32; input.len()];
    let before = ctx.memory_usage();
    ctx.scan_u32(&input, &mut out, ScanOp::Exclusive).unwrap();
    assert!(out == want, "first scan");
    let first = ctx.memory_usage();
    assert_eq!(
        first.allocated_bytes, before.allocated_bytes,
        "kept buffers are not allocated"
    );
    assert!(
        first.reserved_bytes > before.reserved_bytes,
        "the first call's buffers are kept"
    );
    out.fill(0);
    ctx.scan_u32(&input, &mut out, ScanOp::Exclusive).unwrap();
    assert!(out == want, "second scan, on kept buffers");
    assert_eq!(ctx.memory_usage(), first, "the second call took the kept buffers");
    ctx.release_kept_memory();
    let released = ctx.memory_usage();
    assert_eq!(released.allocated_bytes, before.allocated_bytes);
    // Freed; whether their memory blocks go back to Vulkan is the allocator's choice.
    assert!(released.reserved_bytes <= first.reserved_bytes);
    ctx.scan_u32(&input, &mut out, ScanOp::Exclusive).unwrap();
    assert!(out == want, "a scan after the release");
}

/// Pipelines come from a saved cache on the next run; data from another device or driver, or
/// garbage, is ignored with a note and everything still works. Prints the first-plan latency
/// with and without the cache.
#[test]
fn pipeline_cache_round_trip() {
    let plans = |ctx: &Context| {
        let start = Instant::now();
        ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1 << 20)).unwrap();
        ctx.sort_plan(&SortDesc::new(KeyType::U32, ValueType::U32, 1 << 20))
            .unwrap();
        start.elapsed()
    };
    let cold = context_with_cache(None);
    assert_eq!(cold.pipeline_cache_note(), None);
    let cold_time = plans(&cold);
    let data = cold.pipeline_cache_data().unwrap();
    assert!(data.len() >= 32, "cache data has at least its header");
    drop(cold);

    let warm = context_with_cache(Some(data.clone()));
    assert_eq!(warm.pipeline_cache_note(), None, "own data is used");
    let warm_time = plans(&warm);
    println!(
        "first scan + sort plans (pipeline creation): {:.1} ms without a saved cache, {:.1} ms with",
        cold_time.as_secs_f64() * 1e3,
        warm_time.as_secs_f64() * 1e3
    );
    let mut keys = vec![3u32, 1, 2];
    warm.sort(&mut keys).unwrap();
    assert_eq!(keys, [1, 2, 3]);
    drop(warm);

    // Another vendor's data, another driver's (UUID), garbage, truncated: ignored, said so.
    let mut other_device = data.clone();
    other_device[8] ^= 0xFF;
    let mut other_driver = data.clone();
    other_driver[20] ^= 0xFF;
    for (bad, why) in [
        (other_device, "device"),
        (other_driver, "driver"),
        (vec![0xAB; 100], "header"),
        (data[..16].to_vec(), "shorter"),
    ] {
        let ctx = context_with_cache(Some(bad));
        let note = ctx.pipeline_cache_note().expect("a note").to_string();
        assert!(note.contains(why), "{note}");
        let mut keys = vec![9u32, 8, 7];
        ctx.sort(&mut keys).unwrap();
        assert_eq!(keys, [7, 8, 9]);
    }
}

/// Warm-up creates pipelines ahead of plans; every dispatch is wrapped in a debug label when
/// VK_EXT_debug_utils is on (as it is with validation).
#[test]
fn warm_up_and_debug_labels() {
    let ctx = context();
    ctx.warm_up(&[
        Algorithm::Scan,
        Algorithm::Sets,
        Algorithm::HashMap,
        Algorithm::Reduce,
    ])
    .unwrap();
    let labels = ctx.debug_labels_recorded();
    let mut out = vec![0u32; 5];
    ctx.scan_u32(&[1, 2, 3, 4, 5], &mut out, ScanOp::Exclusive)
        .unwrap();
    assert_eq!(out, [0, 1, 3, 6, 10]);
    if ctx.validation_enabled() {
        assert!(
            ctx.debug_labels_recorded() > labels,
            "the scan's dispatch was labelled"
        );
    }
}

/// Dispatch marks (the benchmarks' per-pass times): while on, every dispatch vkalgo records is
/// followed by a timestamp, named by its shader, in order, up to the pool's end; none after.
#[test]
fn dispatch_marks_follow_every_dispatch() {
    use ash::vk;
    let ctx = context();
    let d = ctx.device();
    let info = vk::QueryPoolCreateInfo::default()
        .query_type(vk::QueryType::TIMESTAMP)
        .query_count(64);
    let pool = unsafe { d.create_query_pool(&info, None) }.unwrap();
    ctx.submit_and_wait(|cmd| {
        unsafe { d.cmd_reset_query_pool(cmd, pool, 0, 64) };
        Ok(())
    })
    .unwrap();
    let mut keys: Vec<u32> = (0..5000u32).map(|i| i.wrapping_mul(2654435761)).collect();
    unsafe { ctx.begin_dispatch_marks(pool, 1, 64) };
    ctx.sort(&mut keys).unwrap();
    let names = ctx.end_dispatch_marks();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    assert!(
        !names.is_empty()
            && names
                .iter()
                .all(|n| n.starts_with("sort_") || n.starts_with("scan_")),
        "{names:?}"
    );
    let mut stamps = vec![0u64; names.len()];
    unsafe {
        d.get_query_pool_results(
            pool,
            1,
            &mut stamps,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    }
    .unwrap();
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "{stamps:?}");
    // Ended: a later call records no marks, and the next begin starts afresh.
    ctx.sort(&mut keys).unwrap();
    assert!(ctx.end_dispatch_marks().is_empty());
    unsafe { d.destroy_query_pool(pool, None) };
}

/// A set on the caller's memory: fixed pools, exact contents (against a model), operations
/// with sets on vkalgo's memory, exhaustion refused with nothing changed, reserve refused,
/// bad ranges refused, and nothing allocated by vkalgo for it.
#[test]
fn set_on_caller_memory() {
    use std::collections::BTreeSet;
    use vkalgo::{GpuSet, SetOp, SetOperand};
    let ctx = context();
    // Two dense chunks (bitmaps) and a few sparse ones (arrays) fit; a third dense one does not.
    let (bm, ar) = (2u32, 64u32);
    let req = GpuSet::memory_requirements(&ctx, bm, ar).unwrap();
    let offset = req.storage.alignment * 3;
    let buffer = GpuBuffer::new(
        &ctx,
        offset + req.storage.size,
        MemoryLocation::GpuOnly,
        "caller set",
    )
    .unwrap();
    let before = ctx.memory_usage();
    let mut set =
        unsafe { GpuSet::new_in(&ctx, buffer.sub_range(offset, req.storage.size), bm, ar) }.unwrap();
    assert!(set.on_caller_memory());
    assert_eq!(set.pool_blocks(), (bm, ar));
    assert_eq!(
        ctx.memory_usage().allocated_bytes,
        before.allocated_bytes,
        "nothing allocated"
    );
    let mut model = BTreeSet::new();
    let dense: Vec<u32> = (0..6000).map(|i| (7 << 16) + i * 7).collect();
    let sparse: Vec<u32> = (0..300)
        .map(|i| (9 << 16) + i * 101)
        .chain((0..50).map(|i| (200 << 16) | i))
        .collect();
    set.insert(&dense).unwrap();
    set.insert(&sparse).unwrap();
    model.extend(&dense);
    model.extend(&sparse);
    assert_eq!(set.to_vec().unwrap(), model.iter().copied().collect::<Vec<_>>());
    // With a set on vkalgo's memory: OR into the caller's set (one more bitmap chunk fits).
    let other = GpuSet::from_values(&ctx, &(0..5000).map(|i| (3 << 16) + i * 9).collect::<Vec<_>>()).unwrap();
    set.assign(SetOperand::This, SetOperand::Set(&other), SetOp::Or)
        .unwrap();
    model.extend(other.to_vec().unwrap());
    assert_eq!(set.to_vec().unwrap(), model.iter().copied().collect::<Vec<_>>());
    // A third bitmap chunk does not fit: refused, nothing changed.
    let more: Vec<u32> = (0..6000).map(|i| (11 << 16) + i * 5).collect();
    let refused = set.insert(&more);
    assert!(matches!(refused, Err(Error::OutOfMemory(_))), "{refused:?}");
    assert_eq!(
        set.to_vec().unwrap(),
        model.iter().copied().collect::<Vec<_>>(),
        "unchanged"
    );
    assert!(matches!(set.reserve(1, 0), Err(Error::InvalidArgument(_))));
    assert!(matches!(set.shrink_to_fit(), Err(Error::InvalidArgument(_))));
    // Removing frees blocks for reuse: then the chunk fits.
    set.remove(&dense).unwrap();
    for v in &dense {
        model.remove(v);
    }
    set.insert(&more).unwrap();
    model.extend(&more);
    assert_eq!(set.to_vec().unwrap(), model.iter().copied().collect::<Vec<_>>());
    assert_eq!(set.cardinality().unwrap(), model.len() as u64);
    // Bad ranges: too small, misaligned, null.
    for range in [
        buffer.sub_range(offset, req.storage.size - 16),
        buffer.sub_range(offset + 16, req.storage.size),
        vkalgo::BufferRange::new(vkalgo::ash::vk::Buffer::null(), 0, req.storage.size),
    ] {
        let made = unsafe { GpuSet::new_in(&ctx, range, bm, ar) };
        assert!(matches!(made, Err(Error::InvalidArgument(_))), "{range:?}");
    }
    drop(set);
    drop(buffer);
}

/// Many contexts made and dropped one after another in one process, and two alive at once:
/// each sorts correctly. Contexts without validation share one instance, which is never
/// destroyed (NVIDIA's driver refused the thirtieth instance of a process that had created and
/// destroyed 29); those with validation (as CI's) each make and destroy their own.
#[test]
fn many_contexts_in_one_process() {
    let mut rng = Rng(5);
    let keys: Vec<u32> = (0..5000).map(|_| rng.next_u32()).collect();
    let mut want = keys.clone();
    want.sort_unstable();
    let sorted_on = |ctx: &Context, what: &str| {
        let mut got = keys.clone();
        ctx.sort(&mut got).unwrap();
        assert!(got == want, "{what}: keys not sorted");
    };
    let mut plain = ContextOptions::from_env();
    plain.validation = false;
    for i in 0..40 {
        let ctx = Context::with_options(&plain).unwrap_or_else(|e| panic!("context {i}: {e}"));
        sorted_on(&ctx, &format!("context {i}"));
    }
    let (first, second) = (
        Context::with_options(&plain).unwrap(),
        Context::with_options(&plain).unwrap(),
    );
    sorted_on(&second, "the second of two");
    drop(second);
    sorted_on(&first, "the first, after the second was dropped");
    let validated = context();
    sorted_on(&validated, "a context with validation");
}

/// A record range longer than its buffer (a 4096-byte range on a 256-byte buffer) is refused
/// before anything is recorded, as far as Vulkan can tell a buffer's size (its memory
/// requirements): the scan, the sort and the copy say which range, and the buffer after the
/// short one keeps its canary words.
#[test]
fn ranges_past_their_buffer_are_refused() {
    use vkalgo::{BufferRange, ElementCount, Error, GpuBuffer, MemoryLocation, ScanArgs, ScanDesc, ScanOp};
    let ctx = context();
    let n = 1024u64;
    let mut input = GpuBuffer::new(&ctx, 4 * n, MemoryLocation::CpuToGpu, "input").unwrap();
    input.mapped().unwrap()[..4 * n as usize].copy_from_slice(bytemuck::cast_slice(&vec![1u32; n as usize]));
    let short = GpuBuffer::new(&ctx, 256, MemoryLocation::GpuToCpu, "short output").unwrap();
    let mut next = GpuBuffer::new(&ctx, 4 * n, MemoryLocation::GpuToCpu, "next").unwrap();
    next.mapped().unwrap()[..4 * n as usize].fill(0xAB);
    let past = BufferRange::new(short.buffer(), 0, 4 * n);
    let refused = |r: vkalgo::Result<()>, what: &str| match r {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("goes past its buffer"), "{what}: {m}"),
        other => panic!("{what}: {other:?}"),
    };

    let plan = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, n)).unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size.max(16);
    let scratch = GpuBuffer::new(&ctx, scratch_bytes, MemoryLocation::GpuOnly, "scratch").unwrap();
    let args = ScanArgs {
        input: input.range(),
        output: past,
        scratch: scratch.range(),
        count: ElementCount::Direct(n),
    };
    refused(
        ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) }),
        "scan output",
    );
    let sort = ctx
        .sort_plan(&vkalgo::SortDesc::new(
            vkalgo::KeyType::U32,
            vkalgo::ValueType::None,
            n,
        ))
        .unwrap();
    let sort_scratch = GpuBuffer::new(
        &ctx,
        sort.memory_requirements().scratch.size.max(16),
        MemoryLocation::GpuOnly,
        "sort scratch",
    )
    .unwrap();
    let keys = GpuBuffer::new(&ctx, 4 * n, MemoryLocation::GpuOnly, "keys").unwrap();
    let sort_args = vkalgo::SortArgs {
        keys: keys.range(),
        values: None,
        keys_alt: past,
        values_alt: None,
        scratch: sort_scratch.range(),
        count: ElementCount::Direct(n),
    };
    refused(
        ctx.submit_and_wait(|cmd| unsafe { sort.record(cmd, &sort_args).map(|_| ()) }),
        "sort keys_alt",
    );
    refused(
        ctx.submit_and_wait(|cmd| unsafe { ctx.record_compute_copy(cmd, &input.range(), &past) }),
        "copy destination",
    );
    // An offset that puts a range of the buffer's own size past its end.
    let shifted = BufferRange::new(next.buffer(), 256, 4 * n);
    refused(
        ctx.submit_and_wait(|cmd| unsafe { ctx.record_compute_copy(cmd, &input.range(), &shifted) }),
        "copy destination at an offset",
    );
    assert!(next.mapped().unwrap()[..4 * n as usize]
        .iter()
        .all(|&b| b == 0xAB));
    // The same ranges within their buffers work.
    let args = ScanArgs {
        output: next.range(),
        ..args
    };
    ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) })
        .unwrap();
    let out: Vec<u32> = bytemuck::cast_slice(&next.mapped().unwrap()[..4 * n as usize]).to_vec();
    assert_eq!(out, (0..n as u32).collect::<Vec<_>>());
}
