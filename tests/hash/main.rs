//! GPU hash map on a real Vulkan device (lavapipe in CI), checked against the CPU model
//! (`vkalgo::hash::reference::HashModel`): random operation sequences with duplicates in
//! batches, loads past 0.9, every key/value layout, capacities that are not powers of two,
//! overfilled tables, reserved keys, the record layer (offsets, indirect counts, per-key
//! outputs), bad input through the Rust API and the C ABI, and lookups from a user shader
//! compiled at test time against glsl/public/vkalgo_hash_map.glsl.

mod apply;
mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod multimap;
mod reclaim;
mod record;
mod user_shader;

use common::*;
use vkalgo::ash::vk;
use vkalgo::hash::reference::HashModel;
use vkalgo::{
    BufferRange, Context, ElementCount, Error, GpuBuffer, HashEraseArgs, HashFindArgs, HashInsertArgs,
    HashKeyType, HashMap, HashMapDesc, HashRehashArgs, HashRetrieveArgs, HashSizeArgs, HashTuning,
    HashValueType, InsertStatus, MemoryLocation, ReduceOp,
};

fn desc<K: HashTestKey, V: HashTestValue>(capacity: u64) -> HashMapDesc {
    HashMapDesc::new(K::TYPE, V::TYPE, capacity)
}

/// A u32/u32 map of `capacity` slots with the given insert claim (`None`: the device's choice).
fn packed_map(ctx: &Context, packed: Option<bool>, capacity: u64) -> HashMap {
    let desc = HashMapDesc {
        packed_insert: packed,
        ..desc::<u32, u32>(capacity)
    };
    HashMap::new(ctx, &desc).unwrap()
}

/// Inserts through the host layer with per-key status and applies the outcome to the model.
/// Returns how many keys failed.
fn insert<K: HashTestKey, V: HashTestValue>(
    map: &HashMap,
    model: &mut HashModel,
    keys: &[K],
    values: &[V],
) -> usize {
    let mut status = vec![InsertStatus::Reserved; keys.len()];
    let result = map.insert_with_status(keys, values, &mut status);
    let failed = status.iter().filter(|s| !s.stored()).count();
    match result {
        Ok(()) => assert_eq!(failed, 0, "insert succeeded but {failed} keys report not stored"),
        Err(Error::TableFull(m)) => {
            assert!(failed > 0, "TableFull ({m}) but every status says stored");
            assert!(m.contains(&format!("{failed} of")), "{m}");
        }
        Err(e) => panic!("insert: {e}"),
    }
    // All occurrences of one key share its fate.
    let mut fate = std::collections::HashMap::new();
    for (k, s) in keys.iter().zip(&status) {
        assert_ne!(*s, InsertStatus::Reserved);
        let stored = s.stored();
        assert_eq!(
            *fate.entry(k.to_u64()).or_insert(stored),
            stored,
            "key {k:?}: mixed statuses"
        );
    }
    // A key already present is never reported Inserted; one new key is Inserted exactly once.
    let mut inserted = std::collections::HashSet::new();
    for (k, s) in keys.iter().zip(&status) {
        if *s == InsertStatus::Inserted {
            assert!(
                !model.contains(k.to_u64()),
                "key {k:?} was present but reports Inserted"
            );
            assert!(
                inserted.insert(k.to_u64()),
                "key {k:?} Inserted twice in one batch"
            );
        }
        if *s == InsertStatus::Full {
            assert!(!model.contains(k.to_u64()), "present key {k:?} reported Full");
        }
    }
    let keys64: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
    let values64: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
    let stored: Vec<bool> = status.iter().map(|s| s.stored()).collect();
    model.insert(&keys64, &values64, &stored);
    failed
}

/// Looks keys up (find with found flags, and contains) and checks them against the model.
fn check_lookups<K: HashTestKey, V: HashTestValue>(
    map: &HashMap,
    model: &mut HashModel,
    keys: &[K],
    what: &str,
) {
    let mut values = vec![V::from_u64(0xDEAD_BEEF); keys.len()];
    let mut found = vec![false; keys.len()];
    map.find(keys, &mut values, Some(&mut found)).unwrap();
    for i in 0..keys.len() {
        if let Err(e) = model.check_find(keys[i].to_u64(), found[i], values[i].to_u64()) {
            panic!("{what}: find: {e}");
        }
    }
    let mut contained = vec![false; keys.len()];
    map.contains(keys, &mut contained).unwrap();
    assert!(contained == found, "{what}: contains disagrees with find");
    // find without found flags gives the same values.
    let mut values2 = vec![V::from_u64(1); keys.len()];
    map.find(keys, &mut values2, None).unwrap();
    assert!(values2 == values, "{what}: find without flags differs");
}

fn check_size(map: &HashMap, model: &HashModel, what: &str) {
    assert_eq!(map.size().unwrap(), model.len() as u64, "{what}: size");
}

#[derive(Clone, Copy, Default)]
struct RecordOptions {
    offset: u64,
    indirect: Option<u32>,
    /// Insert-or-apply with this operation instead of an insert.
    apply: Option<ReduceOp>,
    /// No per-key statuses asked for (`status` then comes back empty).
    no_statuses: bool,
}

struct Recorded {
    status: Vec<u32>,
    failed: u32,
}

/// Records an insert through the record layer (host-visible buffers at an offset, optionally
/// an indirect count), with status output and failure counter.
fn record_insert<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    map: &HashMap,
    keys: &[K],
    values: &[V],
    opt: RecordOptions,
) -> Recorded {
    let n = keys.len() as u64;
    let (kb, vb) = (std::mem::size_of::<K>() as u64, std::mem::size_of::<V>() as u64);
    let off = opt.offset;
    let mut buf = GpuBuffer::new(
        ctx,
        4 * off + n * (kb + vb + 4) + 64,
        MemoryLocation::CpuToGpu,
        "t",
    )
    .unwrap();
    let (k_at, v_at) = (off, 2 * off + n * kb);
    let s_at = 3 * off + n * (kb + vb);
    let c_at = s_at + n * 4 + off;
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[k_at as usize..(k_at + n * kb) as usize].copy_from_slice(bytemuck::cast_slice(keys));
        m[v_at as usize..(v_at + n * vb) as usize].copy_from_slice(bytemuck::cast_slice(values));
        m[c_at as usize..c_at as usize + 4].copy_from_slice(&0u32.to_le_bytes());
        m[c_at as usize + 8..c_at as usize + 12].copy_from_slice(&opt.indirect.unwrap_or(0).to_le_bytes());
    }
    let args = HashInsertArgs {
        keys: buf.sub_range(k_at, n * kb),
        values: buf.sub_range(v_at, n * vb),
        count: match opt.indirect {
            Some(_) => ElementCount::Indirect(buf.sub_range(c_at + 8, 4)),
            None => ElementCount::Direct(n),
        },
        max_count: n,
        status: (!opt.no_statuses).then(|| buf.sub_range(s_at, n * 4)),
        failed_count: Some(buf.sub_range(c_at, 4)),
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        match opt.apply {
            Some(op) => map.record_insert_or_apply(cmd, &args, op)?,
            None => map.record_insert(cmd, &args)?,
        }
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let status: Vec<u32> = match opt.no_statuses {
        true => Vec::new(),
        false => bytemuck::cast_slice(&m[s_at as usize..(s_at + n * 4) as usize]).to_vec(),
    };
    let failed = u32::from_le_bytes(m[c_at as usize..c_at as usize + 4].try_into().unwrap());
    Recorded { status, failed }
}
