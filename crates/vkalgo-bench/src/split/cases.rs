//! The multisplit benchmark's cases: each size, bucket count, type, bucket function and path,
//! and the reduced-bit sort beside them.

use super::{bucket_fn, bucket_of, path_name, Case, Split};
use vkalgo::split::reference;
use vkalgo::{BucketFn, ElementCount, KeyType, Result, SortArgs, SortDesc, SplitDesc, SplitPath, ValueType};
use vkalgo_bench::harness::report;
use vkalgo_bench::harness::{download, random_u32, upload, Timing};

impl Split<'_> {
    /// The cases of 2^log2 keys: the copy on the split's buffers, then each bucket count.
    pub(super) fn size(&mut self, log2: u32) -> Result<()> {
        let (ctx, bufs) = (self.b.ctx, &self.bufs);
        let n = 1usize << log2;
        let nb = n as u64 * 4;
        let input = random_u32(n, log2 as u64 * 31 + 7);
        let iota: Vec<u32> = (0..n as u32).collect();
        upload(ctx, &bufs.keys, &input)?;
        upload(ctx, &bufs.values, &iota)?;
        let (keys, keys_out) = (bufs.keys.sub_range(0, nb), bufs.keys_out.sub_range(0, nb));
        let (copy_ms, copy_gbs) = self.b.check_buffers("multisplit", n as u64, &keys, &keys_out)?;
        report::result("copy_keys", "compute", n as u64, copy_ms, copy_gbs, "0");
        let o = self.o;
        for &m in &o.ms {
            let buckets: Vec<u32> = input.iter().map(|&k| bucket_of(k, m)).collect();
            let (mut keys, mut values) = (input.clone(), iota.clone());
            let offsets = reference::multisplit(&mut keys, Some(&mut values), &buckets, m);
            if o.fns.iter().any(|f| f == "ids") {
                upload(ctx, &self.bufs.ids, &buckets)?;
            }
            if o.fns.iter().any(|f| f == "splitters") && m > 1 {
                let cuts: Vec<u32> = (1..m as u64)
                    .map(|j| (j << 32).div_ceil(m as u64) as u32)
                    .collect();
                upload(ctx, &self.bufs.splitters, &cuts)?;
            }
            let case = Case {
                log2,
                n,
                m,
                copy_gbs,
                keys,
                values,
                offsets,
            };
            self.buckets(&case)?;
        }
        Ok(())
    }

    /// The cases of one bucket count: each type, bucket function and path, then (keys, m a
    /// power of two) the reduced-bit sort.
    fn buckets(&mut self, c: &Case) -> Result<()> {
        let o = self.o;
        for type_name in &o.types {
            let pairs = type_name == "pairs";
            for fn_name in &o.fns {
                let Some(bucket) = bucket_fn(fn_name, c.m) else {
                    continue;
                };
                for &path in &o.paths {
                    self.split_case(c, type_name, fn_name, &bucket, path)?;
                }
            }
            if c.m.is_power_of_two() && c.m > 1 && !pairs {
                self.sort_topbits(c, type_name)?;
            }
        }
        Ok(())
    }

    /// One multisplit: its plan (or a row saying why not), the timed repetitions, the exact
    /// check against the CPU (keys, offsets, values), the row and the record.
    fn split_case(
        &mut self,
        c: &Case,
        ty: &str,
        fn_name: &str,
        bucket: &(BucketFn, Option<String>, u32),
        path: SplitPath,
    ) -> Result<()> {
        let (ctx, bufs, m, n) = (self.b.ctx, &self.bufs, c.m, c.n);
        let pairs = ty == "pairs";
        let (bucket_fn, glsl, bit_offset) = (bucket.0, bucket.1.clone(), bucket.2);
        let value_type = if pairs { ValueType::U32 } else { ValueType::None };
        let desc = SplitDesc {
            glsl,
            bit_offset,
            path,
            tile_items: self.o.tile_items,
            ..SplitDesc::new(KeyType::U32, value_type, m, bucket_fn, n as u64)
        };
        let cells = [
            ty.to_string(),
            fn_name.to_string(),
            format!("{path:?}"),
            m.to_string(),
            format!("2^{}", c.log2),
        ];
        let Some(plan) = self.table.or_skip(ctx.split_plan(&desc), &cells) else {
            return Ok(());
        };
        let args = bufs.split_args(n as u64, m, pairs, bucket_fn, &plan);
        // Warm-up (clocks up), then the timed batch.
        let warm = if ctx.is_cpu_device() { 1 } else { 8 };
        let timing = Timing::warmup_then_warm(warm, self.o.reps);
        // SAFETY: the buffers are live until the end of the run; the batches separate the
        // repetitions with full barriers.
        let ms = self
            .b
            .median(timing, |_| Ok(()), |cmd| unsafe { plan.record(cmd, &args) })?;
        let ok = self.check(c, pairs)?;
        let (path_name, verified) = (path_name(&plan, path, n), self.verdicts.add(ok));
        let variant = format!("{fn_name}_{path_name}");
        let scratch = plan.memory_requirements().scratch.size;
        self.report(c, ty, [fn_name, path_name, &verified], ms, &variant, scratch);
        if self.o.pass_times {
            self.b.pass_times(|cmd| unsafe { plan.record(cmd, &args) })?;
        }
        Ok(())
    }

    /// Whether the last multisplit's output matches the CPU's exactly (keys, offsets and, for
    /// `pairs`, values).
    fn check(&self, c: &Case, pairs: bool) -> Result<bool> {
        let (ctx, bufs) = (self.b.ctx, &self.bufs);
        let got_keys: Vec<u32> = download(ctx, &bufs.keys_out, c.n)?;
        let got_offsets: Vec<u32> = download(ctx, &bufs.offsets, c.m as usize + 1)?;
        let offsets = got_offsets.iter().map(|&x| x as u64);
        let mut ok = got_keys == c.keys && offsets.eq(c.offsets.iter().copied());
        if pairs {
            let got_values: Vec<u32> = download(ctx, &bufs.values_out, c.n)?;
            ok &= got_values == c.values;
        }
        Ok(ok)
    }

    /// The reduced-bit sort on Vulkan, keys only: vkalgo's radix sort on the top log2(m) bits,
    /// in place on the output keys (restored from the input before each repetition).
    fn sort_topbits(&mut self, c: &Case, ty: &str) -> Result<()> {
        let (ctx, bufs, n, nb) = (self.b.ctx, &self.bufs, c.n, c.n as u64 * 4);
        let desc = SortDesc {
            begin_bit: 32 - c.m.trailing_zeros(),
            end_bit: 32,
            ..SortDesc::new(KeyType::U32, ValueType::None, n as u64)
        };
        let plan = ctx.sort_plan(&desc)?;
        let req = plan.memory_requirements();
        if req.scratch.size > bufs.scratch_size {
            return Ok(());
        }
        let sort_args = SortArgs {
            keys: bufs.keys_out.sub_range(0, nb),
            values: None,
            keys_alt: bufs.sort_alt.sub_range(0, nb),
            values_alt: None,
            scratch: bufs.scratch.sub_range(0, req.scratch.size),
            count: ElementCount::Direct(n as u64),
        };
        // SAFETY (here and below): live buffers, full barriers between repetitions.
        let restore = |cmd| unsafe {
            ctx.record_compute_copy(cmd, &bufs.keys.sub_range(0, nb), &bufs.keys_out.sub_range(0, nb))
        };
        let timing = Timing::warmup_then_warm(2, self.o.reps);
        let ms = self.b.median(timing, restore, |cmd| {
            unsafe { plan.record(cmd, &sort_args) }.map(|_| ())
        })?;
        let path = format!("{:?}", plan.path());
        self.report(
            c,
            ty,
            ["sort_topbits", &path, "-"],
            ms,
            "sort_topbits",
            req.scratch.size,
        );
        Ok(())
    }
}
