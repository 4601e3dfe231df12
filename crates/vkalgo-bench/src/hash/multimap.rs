//! The hash benchmark's multimap case, as bench/cuda/cuco_bench.cu's `multimap`: N pairs
//! (N / MULT distinct keys, MULT values each) inserted into an empty multimap; then as many
//! queries as there are distinct keys, every other one absent, counted (a u32 per query) and
//! retrieved. The retrieve row times the exclusive scan of the counts and the retrieve at
//! those offsets: cuco's retrieve writes its matches through an atomic output counter and
//! needs no offsets, so count + retrieve is each side's whole lookup.

use super::multimap_data::Pairs;
use super::{all_commands_barrier, Hash, Options, Row};
use vkalgo::{
    Context, ElementCount, GpuBuffer, HashKeyType, HashMapDesc, HashMultimap, HashMultimapCountArgs,
    HashMultimapInsertArgs, HashMultimapOffsets, HashMultimapRetrieveArgs, HashValueType, MemoryLocation,
    Result, ScanArgs, ScanDesc, ScanOp, ScanPlan,
};
use vkalgo_bench::harness::{download, median, upload};

/// The case's device buffers.
struct Buffers {
    keys: GpuBuffer,
    values: GpuBuffer,
    queries: GpuBuffer,
    counts: GpuBuffer,
    offsets: GpuBuffer,
    out: GpuBuffer,
    scratch: GpuBuffer,
}

/// The case on the device: the multimap, the scan of the counts, the buffers (uploaded) and
/// the arguments of each operation.
struct Case {
    mm: HashMultimap,
    scan: ScanPlan,
    buf: Buffers,
    insert: HashMultimapInsertArgs,
    count: HashMultimapCountArgs,
    scan_args: ScanArgs,
    retrieve: HashMultimapRetrieveArgs,
}

impl Case {
    /// Allocates and uploads the case's buffers and makes the multimap (of
    /// 2^multimap_log2cap slots, the first tuning and bucket size).
    fn new(ctx: &Context, o: &Options, p: &Pairs) -> Result<Case> {
        let (n, q, total) = (p.pair_keys.len() as u64, p.distinct, p.total());
        let scan = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, q))?;
        let gpu = |bytes: u64, name: &str| GpuBuffer::new(ctx, bytes.max(16), MemoryLocation::GpuOnly, name);
        let buf = Buffers {
            keys: gpu(4 * n, "multimap keys")?,
            values: gpu(4 * n, "multimap values")?,
            queries: gpu(4 * q, "multimap queries")?,
            counts: gpu(4 * q, "multimap counts")?,
            offsets: gpu(4 * q, "multimap offsets")?,
            out: gpu(4 * total, "multimap out")?,
            scratch: gpu(scan.memory_requirements().scratch.size, "multimap scan scratch")?,
        };
        upload(ctx, &buf.keys, &p.pair_keys)?;
        upload(ctx, &buf.values, &(0..n as u32).collect::<Vec<u32>>())?;
        upload(ctx, &buf.queries, &p.queries)?;
        let desc = HashMapDesc {
            tuning: o.tunings[0],
            bucket_bytes: o.buckets[0],
            ..HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 1 << o.multimap_log2cap)
        };
        let mm = HashMultimap::new(ctx, &desc)?;
        let insert = HashMultimapInsertArgs {
            keys: buf.keys.sub_range(0, 4 * n),
            values: buf.values.sub_range(0, 4 * n),
            count: ElementCount::Direct(n),
            max_count: n,
            failed_count: None,
        };
        let count = HashMultimapCountArgs {
            keys: buf.queries.sub_range(0, 4 * q),
            counts_out: buf.counts.sub_range(0, 4 * q),
            count: ElementCount::Direct(q),
            max_count: q,
        };
        let scan_args = ScanArgs {
            input: count.counts_out,
            output: buf.offsets.sub_range(0, 4 * q),
            scratch: buf.scratch.range(),
            count: ElementCount::Direct(q),
        };
        let retrieve = HashMultimapRetrieveArgs {
            keys: count.keys,
            offsets: HashMultimapOffsets::U32(scan_args.output),
            values_out: buf.out.sub_range(0, 4 * total.max(1)),
            capacity: total,
            tags: None,
            count: ElementCount::Direct(q),
            max_count: q,
        };
        Ok(Case {
            mm,
            scan,
            buf,
            insert,
            count,
            scan_args,
            retrieve,
        })
    }
}

impl Hash<'_> {
    /// The multimap case with `mult` values per key: insert, count and retrieve rows, each the
    /// median of `--reps` after a warm-up (inserts after a clear), then verified: the size,
    /// every query's count, the offsets and every query's values as a multiset.
    pub(super) fn multimap(&mut self, mult: u32) -> Result<()> {
        let (ctx, reps) = (self.b.ctx, self.o.reps + 1);
        let p = Pairs::new(1u64 << self.o.multimap_log2n, mult.into());
        let c = Case::new(ctx, &self.o, &p)?;
        let mm = &c.mm;
        // SAFETY (every recording): the multimap, the plan and the buffers are live; full
        // barriers between the operations.
        let clear = |cmd, _| {
            unsafe { mm.record_clear(cmd) }?;
            all_commands_barrier(ctx, cmd);
            Ok(())
        };
        let nothing = |_, _| Ok(());
        self.b.warm()?;
        let insert_ms = self
            .b
            .time_regions(reps, clear, |cmd, _| unsafe { mm.record_insert(cmd, &c.insert) })?;
        self.b.warm()?;
        let count_ms = self
            .b
            .time_regions(reps, nothing, |cmd, _| unsafe { mm.record_count(cmd, &c.count) })?;
        self.b.warm()?;
        let retrieve_ms = self.b.time_regions(reps, nothing, |cmd, _| unsafe {
            c.scan.record(cmd, &c.scan_args)?;
            all_commands_barrier(ctx, cmd);
            mm.record_retrieve(cmd, &c.retrieve)
        })?;
        let n = p.pair_keys.len() as u64;
        let size_ok = mm.size()? == n;
        let (counts_ok, values_ok) = self.multimap_check(&p, &c.buf)?;
        for (op, n, times, ok) in [
            ("multimap_insert", n, insert_ms, size_ok),
            ("multimap_count", p.distinct, count_ms, counts_ok),
            (
                "multimap_retrieve",
                p.distinct,
                retrieve_ms,
                counts_ok && values_ok,
            ),
        ] {
            let (variant, ms) = (format!("mult{mult}"), median(times[1..].to_vec()));
            self.push(Row {
                op,
                variant,
                n,
                ms,
                ok,
            });
        }
        Ok(())
    }

    /// (Whether every count is right, whether the offsets are their exclusive prefix and
    /// every query's values are its pairs' values).
    fn multimap_check(&self, p: &Pairs, buf: &Buffers) -> Result<(bool, bool)> {
        let ctx = self.b.ctx;
        let q = p.distinct as usize;
        let counts: Vec<u32> = download(ctx, &buf.counts, q)?;
        let offsets: Vec<u32> = download(ctx, &buf.offsets, q)?;
        let out: Vec<u32> = download(ctx, &buf.out, p.total() as usize)?;
        let mut at = 0u32;
        let mut values_ok = true;
        for (i, (&offset, &c)) in offsets.iter().zip(&p.counts).enumerate() {
            values_ok &= offset == at;
            let start = (offset as usize).min(out.len());
            let mut got = out[start..(start + c as usize).min(out.len())].to_vec();
            got.sort_unstable();
            values_ok &= got == p.values_of(i as u64);
            at += c;
        }
        Ok((counts == p.counts, values_ok))
    }
}
