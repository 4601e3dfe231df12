//! GPU sets of u32 on a real Vulkan device (lavapipe in CI), checked against a CPU model
//! (`BTreeSet<u32>`): random sequences of every operation, sparse sets over the whole universe,
//! dense ranges, full chunks, the values 0 and 2^32 - 1, ranges ending at 2^32, pool growth,
//! in-place operations, the record layer, the Roaring serialization (round trips and malformed
//! input) and bad arguments.

mod bad_input;
mod c_abi;
mod c_abi_order;
#[path = "../common/mod.rs"]
mod common;
mod compare;
mod host;
mod many;
mod many_cardinality;
mod many_op;
mod order;
mod packed;
mod pairs;
mod paths;
mod record;
mod roaring;
mod runs;
mod serialize;
mod user_shader;

use common::*;
use std::collections::BTreeSet;
use vkalgo::set::{
    reference, CardinalityPath, FilterPath, OpPath, PACK_MAX_CHUNKS, SET_SCRATCH_BYTES, SET_STATUS_BYTES,
};
use vkalgo::{
    BufferRange, ElementCount, Error, GpuBuffer, GpuSet, GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs,
    GpuSetContainsArgs, GpuSetFilterArgs, GpuSetInsertArgs, GpuSetInsertRangeArgs, GpuSetInsertSortedArgs,
    GpuSetManyCardinalityArgs, GpuSetOpArgs, GpuSetOpBatchArgs, GpuSetOpManyArgs, GpuSetRangeCardinalityArgs,
    GpuSetRunOptimizeArgs, GpuSetToArrayArgs, MemoryLocation, SetOp, SetOpStatus, SetOperand,
};

/// A C set holding `values` on the C context `c` (the C ABI tests' sets).
unsafe fn c_set(c: *mut vkalgo_ffi::VkalgoContext, values: &[u32]) -> *mut vkalgo_ffi::set::VkalgoSet {
    use vkalgo_ffi::set::*;
    let mut s = std::ptr::null_mut();
    assert_eq!(vkalgo_set_create(c, &VkalgoSetDesc::default(), &mut s), OK);
    assert_eq!(vkalgo_set_insert_host(s, values.as_ptr(), values.len()), OK);
    s
}

/// `size` bytes of `b` from its start, as the C ABI takes a range.
fn c_range(b: &GpuBuffer, size: u64) -> vkalgo_ffi::types::VkalgoBufferRange {
    use vkalgo::ash::vk::Handle;
    vkalgo_ffi::types::VkalgoBufferRange {
        buffer: vkalgo_ffi::types::VkBuffer(b.buffer().as_raw()),
        offset: 0,
        size,
    }
}

/// The four set operations.
const OPS: [SetOp; 4] = [SetOp::And, SetOp::Or, SetOp::AndNot, SetOp::Xor];

/// The model of `sets[0] op sets[1] op ...` (ANDNOT: the first minus the union of the rest).
fn many_model(models: &[&BTreeSet<u32>], op: SetOp) -> BTreeSet<u32> {
    match op {
        SetOp::AndNot => {
            let union = models[1..].iter().fold(BTreeSet::new(), |u, m| &u | *m);
            models[0] - &union
        }
        _ => models[1..]
            .iter()
            .fold(models[0].clone(), |acc, m| reference::op(&acc, m, op)),
    }
}

fn model_of(values: &[u32]) -> BTreeSet<u32> {
    values.iter().copied().collect()
}

/// Compares everything observable of `set` with `model`, and checks that every block of its
/// pools is held once or free once.
fn check(set: &GpuSet, model: &BTreeSet<u32>, what: &str) {
    let got = set.to_vec().unwrap();
    let want: Vec<u32> = model.iter().copied().collect();
    assert_eq!(got.len(), want.len(), "{what}: cardinality");
    assert!(
        got == want,
        "{what}: values differ (first difference at {:?})",
        got.iter().zip(&want).position(|(a, b)| a != b)
    );
    assert_eq!(
        set.cardinality().unwrap(),
        want.len() as u64,
        "{what}: cardinality()"
    );
    assert_eq!(
        set.counted_cardinality().unwrap(),
        want.len() as u64,
        "{what}: cardinality counted on the GPU"
    );
    let bytes = set.serialize().unwrap();
    assert_eq!(bytes, reference::serialize(model), "{what}: serialization");
    if let Err(e) = set.verify_pools() {
        panic!("{what}: {e}");
    }
}

/// Two sets built from `va` and `vb`, and their models.
fn operands(ctx: &vkalgo::Context, va: &[u32], vb: &[u32]) -> (GpuSet, GpuSet, BTreeSet<u32>, BTreeSet<u32>) {
    let a = GpuSet::from_values(ctx, va).unwrap();
    let b = GpuSet::from_values(ctx, vb).unwrap();
    (a, b, model_of(va), model_of(vb))
}

/// `a op b` against the models: the result set, and the cardinalities of `a op b` and of
/// `b op a` without materializing them. Returns the model's result.
fn check_op(a: &GpuSet, b: &GpuSet, ma: &BTreeSet<u32>, mb: &BTreeSet<u32>, op: SetOp) -> BTreeSet<u32> {
    let want = reference::op(ma, mb, op);
    check(&GpuSet::op(a, b, op).unwrap(), &want, &format!("{op:?}"));
    assert_eq!(
        GpuSet::op_cardinality(a, b, op).unwrap(),
        want.len() as u64,
        "{op:?} cardinality"
    );
    assert_eq!(
        GpuSet::op_cardinality(b, a, op).unwrap(),
        reference::op(mb, ma, op).len() as u64,
        "{op:?} cardinality, b op a"
    );
    want
}

/// Random values: a mix of sparse values over the universe, a dense cluster, edges.
fn mixed_values(rng: &mut Rng, n: usize, cluster_base: u32) -> Vec<u32> {
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        let x = match i % 4 {
            0 => rng.next_u32(),
            1 => cluster_base.wrapping_add(rng.next_u32() % 20_000),
            2 => cluster_base.wrapping_add(70_000 + rng.next_u32() % 3000),
            _ => [0, 1, u32::MAX, u32::MAX - 1, 65535, 65536][rng.next_u32() as usize % 6],
        };
        v.push(x);
    }
    v
}

/// A scratch buffer for the record-layer set operations.
fn set_scratch(ctx: &vkalgo::Context) -> GpuBuffer {
    GpuBuffer::new(
        ctx,
        vkalgo::set::SET_SCRATCH_BYTES,
        MemoryLocation::GpuOnly,
        "scratch",
    )
    .unwrap()
}

/// `d = a op b` on the one-pass path: the free blocks it needs reserved first.
fn assign_reserved(d: &mut GpuSet, a: SetOperand, b: SetOperand, op: SetOp) {
    d.reserve_for_op(a, b, op).unwrap();
    d.assign(a, b, op).unwrap();
}

fn bytemuck_cast(data: &[u32]) -> &[u8] {
    unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, data.len() * 4) }
}

fn bytemuck_from(words: &[u32]) -> &SetOpStatus {
    assert!(words.len() >= 8);
    unsafe { &*(words.as_ptr() as *const SetOpStatus) }
}

/// Blocks (bitmap, array) a chunk of `n` values holds (the layout in the set module's docs).
fn chunk_blocks(n: usize) -> (u32, u32) {
    match n {
        0 | 65536 => (0, 0),
        n if n > 4096 => (1, 0),
        n => (0, 1.max((n.div_ceil(2) as u32 - 1).div_ceil(47))),
    }
}

/// The blocks a set of these values holds.
fn exact_blocks(model: &BTreeSet<u32>) -> (u32, u32) {
    let mut cards = std::collections::BTreeMap::<u32, usize>::new();
    for v in model {
        *cards.entry(v >> 16).or_default() += 1;
    }
    cards.values().fold((0, 0), |t, &n| {
        let b = chunk_blocks(n);
        (t.0 + b.0, t.1 + b.1)
    })
}

/// The scratch of a recorded set operation and a host-readable status buffer.
fn scratch_and_status(ctx: &vkalgo::Context) -> (GpuBuffer, GpuBuffer) {
    let scratch = set_scratch(ctx);
    let status = GpuBuffer::new(ctx, 64, MemoryLocation::GpuToCpu, "status").unwrap();
    (scratch, status)
}

/// Values in runs: per (chunk, runs, length, gap) that many runs of `length` values, `gap`
/// values apart, from the chunk's start + 3.
fn runs_of(spec: &[(u32, u32, u32, u32)]) -> Vec<u32> {
    let mut v = Vec::new();
    for &(c, runs, len, gap) in spec {
        for r in 0..runs {
            let first = 3 + r * (len + gap);
            v.extend((first..first + len).map(|x| (c << 16) | x));
        }
    }
    v
}

/// `runs` runs of 4..=max_len values (so that `run_optimize` keeps them as runs) with gaps of
/// 1..=max_gap values, in chunk `chunk` from a random start (cut at the chunk's end).
fn random_runs(rng: &mut Rng, chunk: u32, runs: u32, max_len: u32, max_gap: u32) -> Vec<u32> {
    let mut v = Vec::new();
    let mut x = rng.next_u32() % 64;
    for _ in 0..runs {
        let len = 4 + rng.next_u32() % (max_len - 3);
        v.extend((x..(x + len).min(65536)).map(|i| chunk << 16 | i));
        x += len + 1 + rng.next_u32() % max_gap;
        if x >= 65536 {
            break;
        }
    }
    v
}

/// The status of `x op y`'s cardinality recorded on `path` (the status filled with a pattern
/// first, so that a pass that writes nothing shows).
fn recorded_cardinality(
    ctx: &vkalgo::Context,
    scratch: &GpuBuffer,
    status: &mut GpuBuffer,
    x: &GpuSet,
    y: &GpuSet,
    op: SetOp,
    path: CardinalityPath,
) -> SetOpStatus {
    status.mapped().unwrap()[..32].fill(0xA5);
    let range = status.sub_range(0, 32);
    recorded_status(ctx, status, |cmd| unsafe {
        let args = GpuSetCardinalityArgs::new(x, y, op, scratch.range(), range);
        GpuSet::record_op_cardinality(cmd, &GpuSetCardinalityArgs { path, ..args })
    })
}

/// Submits what `record` records into its command buffer (which writes a status to the first
/// 32 bytes of `status`), waits, and reads the status.
fn recorded_status(
    ctx: &vkalgo::Context,
    status: &mut GpuBuffer,
    record: impl FnOnce(vkalgo::ash::vk::CommandBuffer) -> vkalgo::Result<()>,
) -> SetOpStatus {
    ctx.submit_and_wait(|cmd| {
        record(cmd)?;
        unsafe { compute_to_host(ctx, cmd) };
        Ok(())
    })
    .unwrap();
    *bytemuck_from(&read_words(status, 8))
}

/// Values of every kind of chunk side by side in chunks `0..24` (both operands use the same
/// chunks, with kinds drawn per chunk and operand): empty, one value, small, medium and large
/// arrays, bitmaps, full chunks, one run, and run chunks of 2 to 60 runs (run_optimize turns
/// those of up to 48 runs into run chunks).
fn every_kind_values(rng: &mut Rng) -> Vec<u32> {
    let mut v = Vec::new();
    for c in 0..24u32 {
        chunk_of_any_kind(rng, c, &mut v);
    }
    v
}

/// Values of chunk `c` of a kind drawn at random (see [`every_kind_values`]) onto `v`.
fn chunk_of_any_kind(rng: &mut Rng, c: u32, v: &mut Vec<u32>) {
    {
        let base = c << 16;
        match rng.next_u32() % 9 {
            0 => {}
            1 => v.push(base | (rng.next_u32() & 0xFFFF)),
            2 => v.extend((0..1 + rng.next_u32() % 300).map(|_| base | (rng.next_u32() & 0xFFFF))),
            3 => v.extend((0..600 + rng.next_u32() % 1400).map(|_| base | (rng.next_u32() & 0xFFFF))),
            4 => v.extend((0..3000 + rng.next_u32() % 1096).map(|i| base | (i * 13 % 65536))),
            5 => v.extend((0..5000 + rng.next_u32() % 20_000).map(|_| base | (rng.next_u32() & 0xFFFF))),
            6 => v.extend(base..base + 65536),
            7 => {
                let first = rng.next_u32() % 60_000;
                v.extend(base + first..base + first + 1 + rng.next_u32() % (65536 - first));
            }
            _ => {
                let runs = 2 + rng.next_u32() % 59;
                v.extend(random_runs(rng, c, runs, 300, 700));
            }
        }
    }
}
