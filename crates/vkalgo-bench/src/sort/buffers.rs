//! The sort benchmark's buffers: allocated once at the largest size any case needs (as an
//! engine would), shared by every case.

use super::{Case, Options, SCRATCH_BYTES};
use ash::vk;
use vkalgo::{ElementCount, GpuBuffer, KeyType, Result, SortArgs, ValueType};
use vkalgo_bench::harness::Bench;

/// The unsorted input (pristine, restored before every sort), the keys sorted in place and
/// their alternates, the same three for values where a case has them, and the scratch.
pub(super) struct Buffers {
    pub(super) pristine_keys: GpuBuffer,
    pub(super) keys: GpuBuffer,
    pub(super) keys_alt: GpuBuffer,
    /// Pristine values, values, values alternate.
    pub(super) values: Option<(GpuBuffer, GpuBuffer, GpuBuffer)>,
    pub(super) scratch: GpuBuffer,
}

impl Buffers {
    /// Allocates the buffers for the largest size and the widest keys and values of `cases`.
    pub(super) fn new(b: &Bench, o: &Options, cases: &[(&str, (&str, KeyType, ValueType))]) -> Result<Self> {
        let max_n = 1u64 << o.sizes.iter().copied().max().unwrap_or(16);
        let max_key_bytes = max_n * cases.iter().map(|(_, c)| c.1.bytes()).max().unwrap_or(4);
        let max_value_bytes = max_n * cases.iter().map(|(_, c)| c.2.bytes()).max().unwrap_or(0);
        let gpu = |bytes: u64, name: &str| b.buffer(bytes.max(16), name);
        let pristine_keys = gpu(max_key_bytes, "bench pristine keys")?;
        let keys = gpu(max_key_bytes, "bench keys")?;
        let keys_alt = gpu(max_key_bytes, "bench keys alt")?;
        let values = if max_value_bytes > 0 {
            Some((
                gpu(max_value_bytes, "bench pristine values")?,
                gpu(max_value_bytes, "bench values")?,
                gpu(max_value_bytes, "bench values alt")?,
            ))
        } else {
            None
        };
        Ok(Buffers {
            scratch: gpu(SCRATCH_BYTES, "bench sort scratch")?,
            pristine_keys,
            keys,
            keys_alt,
            values,
        })
    }

    /// The value buffers of case `c` (none for keys only).
    pub(super) fn values_of(&self, c: &Case) -> Option<&(GpuBuffer, GpuBuffer, GpuBuffer)> {
        self.values
            .as_ref()
            .filter(|_| c.n() as u64 * c.value_type.bytes() > 0)
    }

    /// (key bytes, value bytes) of case `c`.
    fn bytes(c: &Case) -> (u64, u64) {
        (
            c.n() as u64 * c.key_type.bytes(),
            c.n() as u64 * c.value_type.bytes(),
        )
    }

    /// The arguments of case `c`'s sort on these buffers.
    pub(super) fn sort_args(&self, c: &Case) -> SortArgs {
        let (key_bytes, value_bytes) = Self::bytes(c);
        let values = self.values_of(c);
        SortArgs {
            keys: self.keys.sub_range(0, key_bytes),
            values: values.map(|(_, v, _)| v.sub_range(0, value_bytes)),
            keys_alt: self.keys_alt.sub_range(0, key_bytes),
            values_alt: values.map(|(_, _, a)| a.sub_range(0, value_bytes)),
            scratch: self.scratch.range(),
            count: ElementCount::Direct(c.n() as u64),
        }
    }

    /// Records the restore of case `c`'s unsorted input (keys, then values) by compute copies.
    ///
    /// # Safety
    /// `cmd` is recording on `b`'s device.
    pub(super) unsafe fn restore(&self, b: &Bench, c: &Case, cmd: vk::CommandBuffer) -> Result<()> {
        let (key_bytes, value_bytes) = Self::bytes(c);
        let (from, to) = (
            self.pristine_keys.sub_range(0, key_bytes),
            self.keys.sub_range(0, key_bytes),
        );
        b.ctx.record_compute_copy(cmd, &from, &to)?;
        if let Some((pristine_values, values, _)) = self.values_of(c) {
            let from = pristine_values.sub_range(0, value_bytes);
            b.ctx
                .record_compute_copy(cmd, &from, &values.sub_range(0, value_bytes))?;
        }
        Ok(())
    }
}
