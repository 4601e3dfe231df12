//! The multisplit benchmark's buffers: allocated once at the largest size and bucket count of
//! the run, shared by every case.

use super::{Options, GLSL};
use vkalgo::{
    BucketFn, Context, ElementCount, GpuBuffer, KeyType, Result, SplitArgs, SplitDesc, SplitPath, SplitPlan,
    ValueType,
};
use vkalgo_bench::harness::Bench;

/// The buffers of the run, every large one allocated first at the largest size (see the sort
/// benchmark) and reused for every case.
pub(super) struct Buffers {
    pub(super) keys: GpuBuffer,
    pub(super) values: GpuBuffer,
    pub(super) ids: GpuBuffer,
    pub(super) keys_out: GpuBuffer,
    pub(super) values_out: GpuBuffer,
    pub(super) sort_alt: GpuBuffer,
    pub(super) offsets: GpuBuffer,
    pub(super) splitters: GpuBuffer,
    pub(super) scratch: GpuBuffer,
    /// Bytes of `scratch`: what the largest plan of the run needs, at least 16 MiB.
    pub(super) scratch_size: u64,
}

/// The scratch bytes of the run: the most any plan of its bucket counts and paths needs at
/// `max_n` keys (the IDS and GLSL plans: the tile paths' matrix, the Onesweep path's
/// alternates), at least 16 MiB.
fn scratch_size(ctx: &Context, o: &Options, max_n: u64) -> u64 {
    let mut scratch_size = 16u64 << 20;
    for &m in &o.ms {
        for path in o
            .paths
            .iter()
            .copied()
            .chain([SplitPath::Auto, SplitPath::GlobalCounters])
        {
            for (bucket_fn, glsl) in [
                (BucketFn::Ids, None),
                (BucketFn::Glsl, Some(GLSL.to_string())),
                (BucketFn::Splitters, None),
            ] {
                let desc = SplitDesc {
                    path,
                    glsl,
                    tile_items: o.tile_items,
                    ..SplitDesc::new(KeyType::U32, ValueType::U32, m, bucket_fn, max_n)
                };
                if let Ok(plan) = ctx.split_plan(&desc) {
                    scratch_size = scratch_size.max(plan.memory_requirements().scratch.size);
                }
            }
        }
    }
    scratch_size
}

impl Buffers {
    /// Allocates the run's buffers for its largest size and bucket count.
    pub(super) fn new(b: &Bench, o: &Options) -> Result<Self> {
        let max_n = 1u64 << o.sizes.iter().copied().max().unwrap_or(16);
        let max_m = o.ms.iter().copied().max().unwrap_or(2) as u64;
        let bytes = max_n * 4;
        let gpu = |bytes: u64, name: &str| b.buffer(bytes.max(16), name);
        let keys = gpu(bytes, "bench split keys")?;
        let values = gpu(bytes, "bench split values")?;
        let ids = gpu(bytes, "bench split ids")?;
        let keys_out = gpu(bytes, "bench split keys out")?;
        let values_out = gpu(bytes, "bench split values out")?;
        let sort_alt = gpu(bytes, "bench sort keys alt")?;
        let offsets = gpu((max_m + 1) * 4, "bench split offsets")?;
        let splitters = gpu(max_m * 4, "bench split splitters")?;
        let scratch_size = scratch_size(b.ctx, o, max_n);
        Ok(Buffers {
            scratch: gpu(scratch_size, "bench split scratch")?,
            keys,
            values,
            ids,
            keys_out,
            values_out,
            sort_alt,
            offsets,
            splitters,
            scratch_size,
        })
    }

    /// The arguments of a multisplit of `n` keys (`pairs`: with their values) into m buckets by
    /// `bucket_fn` on these buffers.
    pub(super) fn split_args(
        &self,
        n: u64,
        m: u32,
        pairs: bool,
        bucket_fn: BucketFn,
        plan: &SplitPlan,
    ) -> SplitArgs {
        let (nb, req) = (n * 4, plan.memory_requirements());
        SplitArgs {
            keys: self.keys.sub_range(0, nb),
            values: pairs.then(|| self.values.sub_range(0, nb)),
            keys_out: self.keys_out.sub_range(0, nb),
            values_out: pairs.then(|| self.values_out.sub_range(0, nb)),
            splitters: (bucket_fn == BucketFn::Splitters && m > 1)
                .then(|| self.splitters.sub_range(0, (m as u64 - 1) * 4)),
            bucket_ids: (bucket_fn == BucketFn::Ids).then(|| self.ids.sub_range(0, nb)),
            offsets: self.offsets.sub_range(0, req.offsets.size),
            scratch: self.scratch.sub_range(0, req.scratch.size),
            count: ElementCount::Direct(n),
            params: [m, 0, 0, 0],
        }
    }
}
