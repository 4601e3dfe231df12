//! Reduce-by-key and run-length encoding on a real Vulkan device (lavapipe in CI), exact against
//! the CPU reference (`vkalgo::reduce_by_key::reference`): every key type, value type and
//! operation over adversarial run patterns (one run over every tile, all distinct, random run
//! lengths, runs ending at tile boundaries, signed zeros and NaN bit patterns, wrapping sums),
//! counts around the tiles, both paths (look-back, with its fallback forced, and
//! reduce-then-scan), indirect counts, bad input, and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod record;

use common::*;
use vkalgo::reduce_by_key::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, MemoryLocation, ReduceByKeyArgs, ReduceByKeyDesc,
    ReduceByKeyPath, ReduceByKeyPlan, ReduceByKeyTuning, ReduceOp, ValueType,
};

/// How the runs of a test's keys are laid out.
#[derive(Clone, Copy, Debug)]
pub enum Runs {
    /// One key everywhere: one run over every tile.
    AllEqual,
    /// Every key differs from its neighbours.
    AllDistinct,
    /// Runs of random lengths in 1..=`max`.
    Random(usize),
    /// Runs of exactly `len` keys (a tile's size: every run ends at a tile boundary).
    Fixed(usize),
    /// Runs of random lengths 1..=8 over the type's special values (signed zeros, NaN bits).
    Specials,
}

/// `n` keys of `K` (as bytes) laid out as `runs`.
pub fn keys_bytes<K: TestKey>(n: usize, runs: Runs, rng: &mut Rng) -> Vec<u8> {
    let specials = K::specials();
    let mut keys: Vec<K> = Vec::with_capacity(n);
    let mut run = 0u64;
    while keys.len() < n {
        let len = match runs {
            Runs::AllEqual => n,
            Runs::AllDistinct => 1,
            Runs::Random(max) => 1 + (rng.next_u64() as usize % max),
            Runs::Fixed(len) => len,
            Runs::Specials => 1 + (rng.next_u64() as usize % 8),
        };
        let key = match runs {
            Runs::Specials if !specials.is_empty() => specials[(rng.next_u64() as usize) % specials.len()],
            Runs::AllEqual => K::from_bits64(0x8000_0000_0000_0001),
            _ => K::from_small(run % 1000 + (rng.next_u64() % 2) * 1000),
        };
        run += 1;
        for _ in 0..len.min(n - keys.len()) {
            keys.push(key);
        }
    }
    bytemuck::cast_slice(&keys).to_vec()
}

/// `n` values of `value_type` as (bytes, u64 each): large enough that sums wrap.
pub fn values_for(n: usize, value_type: ValueType, rng: &mut Rng) -> (Vec<u8>, Vec<u64>) {
    match value_type {
        ValueType::U32 => {
            let v: Vec<u32> = (0..n).map(|_| rng.next_u32() | 0x8000_0000).collect();
            (
                bytemuck::cast_slice(&v).to_vec(),
                v.iter().map(|&x| x as u64).collect(),
            )
        }
        ValueType::U64 => {
            let v: Vec<u64> = (0..n).map(|_| rng.next_u64() | (1 << 63)).collect();
            (bytemuck::cast_slice(&v).to_vec(), v)
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// The reference's runs as (key bytes, value bytes in the output's width).
pub fn expected(
    keys: &[u8],
    kb: usize,
    values: &[u64],
    value_type: ValueType,
    op: ReduceOp,
) -> (Vec<u8>, Vec<u8>) {
    let wide = (value_type != ValueType::None).then_some(values);
    let (k, v) = reference::reduce_by_key_bytes(keys, kb, wide, op);
    let out: Vec<u8> = if value_type == ValueType::U64 {
        bytemuck::cast_slice(&v).to_vec()
    } else {
        let narrow: Vec<u32> = v.iter().map(|&x| x as u32).collect();
        bytemuck::cast_slice(&narrow).to_vec()
    };
    (k, out)
}

/// Calls `f` with each key type's `keys_bytes`-making function.
pub fn for_each_key_type(mut f: impl FnMut(KeyType, &dyn Fn(usize, Runs, &mut Rng) -> Vec<u8>)) {
    f(KeyType::U32, &keys_bytes::<u32>);
    f(KeyType::I32, &keys_bytes::<i32>);
    f(KeyType::F32, &keys_bytes::<f32>);
    f(KeyType::U64, &keys_bytes::<u64>);
    f(KeyType::I64, &keys_bytes::<i64>);
    f(KeyType::F64, &keys_bytes::<f64>);
}

/// The runs a record-layer call wrote: (keys, values, run count), plus whether the poison
/// around the outputs held.
pub struct Recorded {
    pub keys: Vec<u8>,
    pub values: Vec<u8>,
    pub runs: u32,
    pub poison_held: bool,
}

/// Runs `plan` through the record layer on one poisoned buffer: the inputs at `offset`, the
/// count direct or a u32 in the buffer (`indirect`).
pub fn record(
    ctx: &Context,
    plan: &ReduceByKeyPlan,
    keys: &[u8],
    values: &[u8],
    offset: u64,
    indirect: Option<u32>,
) -> Recorded {
    record_with_scratch(ctx, plan, keys, values, offset, indirect, None)
}

/// [`record`] with the scratch in `scratch` (whole) where given.
pub fn record_with_scratch(
    ctx: &Context,
    plan: &ReduceByKeyPlan,
    keys: &[u8],
    values: &[u8],
    offset: u64,
    indirect: Option<u32>,
    scratch: Option<&GpuBuffer>,
) -> Recorded {
    let desc = plan.desc();
    let kb = desc.key_type.bytes();
    let ob: u64 = if desc.value_type == ValueType::U64 { 8 } else { 4 };
    let n = keys.len() as u64 / kb;
    let keys_at = offset;
    let values_at = (keys_at + n * kb + 64).next_multiple_of(8);
    let keys_out_at = (values_at + values.len() as u64 + 64).next_multiple_of(8);
    let values_out_at = (keys_out_at + n * kb + 64).next_multiple_of(8);
    let count_at = (values_out_at + n * ob + 64).next_multiple_of(8);
    let run_count_at = count_at + 64;
    let scratch_at = (run_count_at + 64).next_multiple_of(256);
    let scratch_bytes = if scratch.is_some() {
        0
    } else {
        plan.memory_requirements().scratch.size
    };
    let total = scratch_at + scratch_bytes;
    let mut buf = GpuBuffer::new(ctx, total, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[keys_at as usize..(keys_at + n * kb) as usize].copy_from_slice(keys);
        m[values_at as usize..values_at as usize + values.len()].copy_from_slice(values);
        m[count_at as usize..count_at as usize + 4].copy_from_slice(&indirect.unwrap_or(0).to_le_bytes());
    }
    let args = ReduceByKeyArgs {
        keys_in: buf.sub_range(keys_at, n * kb),
        values_in: (desc.value_type != ValueType::None)
            .then(|| buf.sub_range(values_at, values.len() as u64)),
        keys_out: buf.sub_range(keys_out_at, n * kb),
        values_out: buf.sub_range(values_out_at, n * ob),
        run_count: buf.sub_range(run_count_at, 4),
        scratch: match scratch {
            Some(s) => s.range(),
            None => buf.sub_range(scratch_at, scratch_bytes),
        },
        count: match indirect {
            Some(_) => ElementCount::Indirect(buf.sub_range(count_at, 4)),
            None => ElementCount::Direct(n),
        },
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let runs = u32::from_le_bytes(
        m[run_count_at as usize..run_count_at as usize + 4]
            .try_into()
            .unwrap(),
    );
    let r = runs as u64;
    let poisoned = |from: u64, to: u64| m[from as usize..to as usize].iter().all(|&b| b == 0xA5);
    let poison_held = r <= n
        && poisoned(keys_out_at + r * kb, values_out_at)
        && poisoned(values_out_at + r * ob, count_at)
        && poisoned(run_count_at + 4, run_count_at + 64);
    let r = r.min(n);
    Recorded {
        keys: m[keys_out_at as usize..(keys_out_at + r * kb) as usize].to_vec(),
        values: m[values_out_at as usize..(values_out_at + r * ob) as usize].to_vec(),
        runs,
        poison_held,
    }
}
