//! The hash benchmark's insert-or-apply (group-by) case, as bench/cuda/cuco_bench.cu's
//! `apply`: 2^log2n keys drawn from 2^d distinct ones, summed into an empty map.

use super::{all_commands_barrier, mix32, unique_keys, Hash, Row};
use vkalgo::{
    ElementCount, GpuBuffer, HashFindArgs, HashInsertArgs, HashKeyType, HashMap, HashMapDesc, HashValueType,
    MemoryLocation, ReduceOp, Result,
};
use vkalgo_bench::harness::{download, median, upload};

/// The batch of one case: each key drawn from the distinct keys, its value, and the CPU's
/// reference (per distinct key: its sum, wrapping, and whether it was drawn at all).
struct Batch {
    distinct: Vec<u32>,
    keys: Vec<u32>,
    values: Vec<u32>,
    sums: Vec<u32>,
    drawn: Vec<bool>,
}

impl Batch {
    /// cuco_bench's generator: key i = distinct[fmix32(i ^ 0x7f4a7c15) % 2^log2d], value
    /// fmix32(i) & 0xff.
    fn new(n: usize, log2d: u32) -> Batch {
        let d = 1usize << log2d;
        let distinct = unique_keys(d, 0x9e37_79b9);
        let (mut sums, mut drawn) = (vec![0u32; d], vec![false; d]);
        let (mut keys, mut values) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n as u32 {
            let at = (mix32(i ^ 0x7f4a_7c15) as usize) % d;
            let value = mix32(i) & 0xff;
            keys.push(distinct[at]);
            values.push(value);
            sums[at] = sums[at].wrapping_add(value);
            drawn[at] = true;
        }
        Batch {
            distinct,
            keys,
            values,
            sums,
            drawn,
        }
    }
}

impl Hash<'_> {
    /// One insert-or-apply case: the sum of 2^log2n values over 2^log2d distinct keys into an
    /// empty map (each repetition after a clear, the first one a warm-up), then verified: the
    /// map's size is the number of keys drawn and every distinct key holds its sum (0 when
    /// never drawn: not found).
    pub(super) fn apply(&mut self, log2d: u32) -> Result<()> {
        let (ctx, reps) = (self.b.ctx, self.o.reps);
        let n = 1u64 << self.o.log2n;
        let batch = Batch::new(n as usize, log2d);
        let gpu = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes, MemoryLocation::GpuOnly, name);
        let (key_buf, value_buf) = (gpu(4 * n, "apply keys")?, gpu(4 * n, "apply values")?);
        upload(ctx, &key_buf, &batch.keys)?;
        upload(ctx, &value_buf, &batch.values)?;
        let desc = HashMapDesc {
            tuning: self.o.tunings[0],
            bucket_bytes: self.o.buckets[0],
            ..HashMapDesc::new(HashKeyType::U32, HashValueType::U32, self.o.apply_capacity())
        };
        let map = HashMap::new(ctx, &desc)?;
        let args = HashInsertArgs {
            keys: key_buf.sub_range(0, 4 * n),
            values: value_buf.sub_range(0, 4 * n),
            count: ElementCount::Direct(n),
            max_count: n,
            status: None,
            failed_count: None,
        };
        // SAFETY (both recordings): the map and the buffers are live; full barriers.
        let clear = |cmd, _| {
            unsafe { map.record_clear(cmd) }?;
            all_commands_barrier(ctx, cmd);
            Ok(())
        };
        let apply = |cmd, _| unsafe { map.record_insert_or_apply(cmd, &args, ReduceOp::Sum) };
        self.b.warm()?;
        let times = self.b.time_regions(reps + 1, clear, apply)?;
        drop((key_buf, value_buf));
        let ok = self.apply_check(&map, &batch)?;
        self.push(Row {
            op: "insert_or_apply",
            variant: format!("distinct2^{log2d}"),
            n,
            ms: median(times[1..].to_vec()),
            ok,
        });
        Ok(())
    }

    /// Whether the map holds exactly the batch's sums.
    fn apply_check(&self, map: &HashMap, batch: &Batch) -> Result<bool> {
        let ctx = self.b.ctx;
        let d = batch.distinct.len() as u64;
        let key_buf = GpuBuffer::new(ctx, 4 * d, MemoryLocation::GpuOnly, "apply distinct")?;
        let out_buf = GpuBuffer::new(ctx, 4 * d, MemoryLocation::GpuOnly, "apply sums")?;
        upload(ctx, &key_buf, &batch.distinct)?;
        let args = HashFindArgs {
            keys: key_buf.sub_range(0, 4 * d),
            values: Some(out_buf.sub_range(0, 4 * d)),
            found: None,
            count: ElementCount::Direct(d),
            max_count: d,
        };
        ctx.submit_and_wait(|cmd| {
            // SAFETY: the map and the buffers are live until the submission has completed.
            unsafe { map.record_find(cmd, &args) }?;
            all_commands_barrier(ctx, cmd);
            Ok(())
        })?;
        let got: Vec<u32> = download(ctx, &out_buf, d as usize)?;
        let drawn = batch.drawn.iter().filter(|&&b| b).count() as u64;
        Ok(map.size()? == drawn && got == batch.sums)
    }
}
