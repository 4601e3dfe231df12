//! The blocking host calls: upload, record (through the record layer), submit, wait (bounded),
//! download.

use super::reference::from_bytes;
use super::{ReduceByKeyArgs, ReduceByKeyDesc, ReduceByKeyValue, REDUCE_BY_KEY_MAX_COUNT};
use crate::core::buffer::{ElementCount, GpuBuffer};
use crate::core::types::{KeyType, ReduceOp, ValueType};
use crate::error::{Error, Result};
use crate::sort::SortKey;
use crate::Context;

/// The runs of a host reduce-by-key, as bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunBytes {
    /// Each run's key.
    pub keys: Vec<u8>,
    /// Each run's value (u32 run lengths for [`ValueType::None`]).
    pub values: Vec<u8>,
    /// The number of runs.
    pub runs: u64,
}

impl Context {
    /// For every maximal run of equal consecutive `keys` (equal bits), its key and `op` over
    /// its `values` (unsigned: sums wrap, minima and maxima compare unsigned), on the GPU (see
    /// the [`reduce_by_key`](crate::reduce_by_key) module). `keys` and `values` must be of one
    /// length, at most [`REDUCE_BY_KEY_MAX_COUNT`].
    pub fn reduce_by_key<K: SortKey, V: ReduceByKeyValue>(
        &self,
        keys: &[K],
        values: &[V],
        op: ReduceOp,
    ) -> Result<(Vec<K>, Vec<V>)> {
        let runs = self.reduce_by_key_host_bytes(
            K::KEY_TYPE,
            V::VALUE_TYPE,
            op,
            bytemuck::cast_slice(keys),
            Some(bytemuck::cast_slice(values)),
        )?;
        Ok((from_bytes(&runs.keys), from_bytes(&runs.values)))
    }

    /// The run-length encoding of `keys` on the GPU: every maximal run of equal consecutive
    /// keys (equal bits) as its key and its length. At most [`REDUCE_BY_KEY_MAX_COUNT`] keys.
    pub fn run_length_encode<K: SortKey>(&self, keys: &[K]) -> Result<(Vec<K>, Vec<u32>)> {
        let runs = self.reduce_by_key_host_bytes(
            K::KEY_TYPE,
            ValueType::None,
            ReduceOp::Sum,
            bytemuck::cast_slice(keys),
            None,
        )?;
        Ok((from_bytes(&runs.keys), from_bytes(&runs.values)))
    }

    /// The one host reduce-by-key behind the typed calls and the C ABI: `keys` whole keys of
    /// `key_type` as bytes, `values` (`None` exactly for [`ValueType::None`]) as many values of
    /// `value_type`. Everything is checked before any GPU work.
    pub fn reduce_by_key_host_bytes(
        &self,
        key_type: KeyType,
        value_type: ValueType,
        op: ReduceOp,
        keys: &[u8],
        values: Option<&[u8]>,
    ) -> Result<RunBytes> {
        let kb = key_type.bytes();
        if keys.len() as u64 % kb != 0 {
            return Err(Error::invalid("reduce_by_key: key bytes are not whole keys"));
        }
        let n = keys.len() as u64 / kb;
        if n > REDUCE_BY_KEY_MAX_COUNT {
            return Err(Error::invalid(format!(
                "reduce_by_key: count {n} exceeds {REDUCE_BY_KEY_MAX_COUNT}"
            )));
        }
        match (value_type, values) {
            (ValueType::None, None) => {}
            (ValueType::None, Some(_)) => {
                return Err(Error::invalid("reduce_by_key: values given with value type NONE"))
            }
            (_, None) => return Err(Error::invalid("reduce_by_key: the values are missing")),
            (v, Some(values)) if values.len() as u64 != n * v.bytes() => {
                return Err(Error::invalid(format!(
                    "reduce_by_key: {} value bytes for {n} keys of {v:?} values",
                    values.len()
                )))
            }
            _ => {}
        }
        let plan = self.reduce_by_key_plan(&ReduceByKeyDesc::new(key_type, value_type, op, n))?;
        if n == 0 {
            return Ok(RunBytes::default());
        }
        self.run_reduce_by_key(&plan, keys, values, n)
    }

    /// Uploads, records `plan`, waits and downloads the runs.
    fn run_reduce_by_key(
        &self,
        plan: &super::ReduceByKeyPlan,
        keys: &[u8],
        values: Option<&[u8]>,
        n: u64,
    ) -> Result<RunBytes> {
        let desc = plan.desc();
        let kb = desc.key_type.bytes();
        let ob: u64 = if desc.value_type == ValueType::U64 { 8 } else { 4 };
        // Inputs: keys, then values at a 16-byte boundary. Outputs: keys, values, run count.
        let values_at = (n * kb).next_multiple_of(16);
        let mut input = keys.to_vec();
        if let Some(v) = values {
            input.resize(values_at as usize, 0);
            input.extend_from_slice(v);
        }
        let in_bytes = input.len() as u64;
        let out_values_at = (n * kb).next_multiple_of(16);
        let count_at = (out_values_at + n * ob).next_multiple_of(16);
        let out_bytes = count_at + 16;
        let upload = self.staging_from(&input)?;
        let device_in = self.device_buffer(in_bytes, "vkalgo reduce_by_key input")?;
        let device_out = self.device_buffer(out_bytes, "vkalgo reduce_by_key output")?;
        let scratch = self.device_buffer(
            plan.memory_requirements().scratch.size,
            "vkalgo reduce_by_key scratch",
        )?;
        let mut download = self.readback_buffer(out_bytes)?;
        let args = ReduceByKeyArgs {
            keys_in: device_in.sub_range(0, n * kb),
            values_in: values.map(|v| device_in.sub_range(values_at, v.len() as u64)),
            keys_out: device_out.sub_range(0, n * kb),
            values_out: device_out.sub_range(out_values_at, n * ob),
            run_count: device_out.sub_range(count_at, 4),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &upload, &device_in, in_bytes);
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            self.record_copy(cmd, &device_out, &download, out_bytes);
            self.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            [upload, device_in, device_out, scratch, download]
                .into_iter()
                .for_each(GpuBuffer::leak);
            return Err(Error::Timeout(m));
        }
        submitted?;
        let mapped = download
            .mapped()
            .ok_or_else(|| Error::Internal("readback buffer is not mapped".into()))?;
        let word =
            |at: u64| u32::from_le_bytes(mapped[at as usize..at as usize + 4].try_into().unwrap_or([0; 4]));
        let runs = word(count_at) as u64;
        if runs == 0 || runs > n {
            return Err(Error::Internal(format!(
                "reduce_by_key: {runs} runs of {n} elements"
            )));
        }
        Ok(RunBytes {
            keys: mapped[..(runs * kb) as usize].to_vec(),
            values: mapped[out_values_at as usize..(out_values_at + runs * ob) as usize].to_vec(),
            runs,
        })
    }
}
