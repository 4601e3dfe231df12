//! Host convenience sorts: upload, record, submit, wait (bounded), download.

use super::{KeyType, SortArgs, SortDesc, SortKey, SortPath, SortResult, SortTuning, SortValue, ValueType};
use crate::core::buffer::ElementCount;
use crate::core::runner::read_back;
use crate::error::{Error, Result};
use crate::Context;

/// Options of the host sorts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SortOptions {
    /// Largest key first (still stable).
    pub descending: bool,
    /// First order-preserving key bit sorted on.
    pub begin_bit: u32,
    /// One past the last bit sorted on (0: the key's full width).
    pub end_bit: u32,
    /// Which algorithm ([`SortPath::Auto`]: by count and device profile).
    pub path: SortPath,
    /// Kernel tuning (None: [`SortTuning::for_device`]).
    pub tuning: Option<SortTuning>,
}

impl Context {
    /// Sorts `keys` ascending on the GPU (stable; floats in IEEE-754 totalOrder).
    pub fn sort<K: SortKey>(&self, keys: &mut [K]) -> Result<()> {
        self.sort_keys_with(keys, &SortOptions::default())
    }

    /// Sorts `keys` ascending on the GPU and moves `values` (same length) with them; equal keys
    /// keep their input order.
    pub fn sort_pairs<K: SortKey, V: SortValue>(&self, keys: &mut [K], values: &mut [V]) -> Result<()> {
        self.sort_pairs_with(keys, values, &SortOptions::default())
    }

    /// Like [`Context::sort`] with options (direction, bit range, path).
    pub fn sort_keys_with<K: SortKey>(&self, keys: &mut [K], options: &SortOptions) -> Result<()> {
        let desc = host_desc(K::KEY_TYPE, ValueType::None, keys.len(), options);
        self.sort_host_bytes(&desc, bytemuck::cast_slice_mut(keys), None)
    }

    /// Like [`Context::sort_pairs`] with options (direction, bit range, path).
    pub fn sort_pairs_with<K: SortKey, V: SortValue>(
        &self,
        keys: &mut [K],
        values: &mut [V],
        options: &SortOptions,
    ) -> Result<()> {
        if keys.len() != values.len() {
            return Err(Error::invalid(format!(
                "sort: {} keys but {} values",
                keys.len(),
                values.len()
            )));
        }
        let desc = host_desc(K::KEY_TYPE, V::VALUE_TYPE, keys.len(), options);
        self.sort_host_bytes(
            &desc,
            bytemuck::cast_slice_mut(keys),
            Some(bytemuck::cast_slice_mut(values)),
        )
    }

    /// The one host sort behind the typed calls and the C ABI: `keys` and `values` hold
    /// `desc.max_count` elements of the described types. On error they are unchanged.
    pub fn sort_host_bytes(&self, desc: &SortDesc, keys: &mut [u8], values: Option<&mut [u8]>) -> Result<()> {
        let plan = self.sort_plan(desc)?;
        let n = desc.max_count;
        let key_bytes = n * desc.key_type.bytes();
        let value_bytes = n * desc.value_type.bytes();
        if keys.len() as u64 != key_bytes || values.as_ref().map_or(0, |v| v.len() as u64) != value_bytes {
            return Err(Error::Internal(
                "sort: host slices do not match the description".into(),
            ));
        }
        if values.is_some() != (desc.value_type != ValueType::None) {
            return Err(Error::invalid(
                "sort: values must be given exactly when a value type is",
            ));
        }
        if n <= 1 {
            return Ok(());
        }
        let requirements = plan.memory_requirements();
        let key_upload = self.staging_from(keys)?;
        let value_upload = match &values {
            Some(v) => Some(self.staging_from(v)?),
            None => None,
        };
        let device_keys = self.device_buffer(key_bytes, "vkalgo sort keys")?;
        let device_keys_alt = self.device_buffer(key_bytes, "vkalgo sort keys_alt")?;
        let (device_values, device_values_alt) = if value_bytes > 0 {
            (
                Some(self.device_buffer(value_bytes, "vkalgo sort values")?),
                Some(self.device_buffer(value_bytes, "vkalgo sort values_alt")?),
            )
        } else {
            (None, None)
        };
        let scratch = self.device_buffer(requirements.scratch.size, "vkalgo sort scratch")?;
        let mut key_download = self.readback_buffer(key_bytes)?;
        let mut value_download = match value_bytes {
            0 => None,
            bytes => Some(self.readback_buffer(bytes)?),
        };
        let args = SortArgs {
            keys: device_keys.sub_range(0, key_bytes),
            values: device_values.as_ref().map(|b| b.sub_range(0, value_bytes)),
            keys_alt: device_keys_alt.sub_range(0, key_bytes),
            values_alt: device_values_alt.as_ref().map(|b| b.sub_range(0, value_bytes)),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &key_upload, &device_keys, key_bytes);
            if let (Some(up), Some(dst)) = (&value_upload, &device_values) {
                self.record_copy(cmd, up, dst, value_bytes);
            }
            self.transfer_to_compute(cmd);
            let location = plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            let (result_keys, result_values) = match location {
                SortResult::InPlace => (&device_keys, &device_values),
                SortResult::Alternate => (&device_keys_alt, &device_values_alt),
            };
            self.record_copy(cmd, result_keys, &key_download, key_bytes);
            if let (Some(src), Some(down)) = (result_values, &value_download) {
                self.record_copy(cmd, src, down, value_bytes);
            }
            self.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            let buffers = [
                Some(key_upload),
                value_upload,
                Some(device_keys),
                Some(device_keys_alt),
            ];
            let more = [
                device_values,
                device_values_alt,
                Some(scratch),
                Some(key_download),
                value_download,
            ];
            for b in buffers.into_iter().chain(more).flatten() {
                b.leak();
            }
            return Err(Error::Timeout(m));
        }
        submitted?;
        read_back(&mut key_download, keys)?;
        if let (Some(values), Some(down)) = (values, value_download.as_mut()) {
            read_back(down, values)?;
        }
        Ok(())
    }
}

fn host_desc(key_type: KeyType, value_type: ValueType, n: usize, options: &SortOptions) -> SortDesc {
    SortDesc {
        key_type,
        value_type,
        max_count: n as u64,
        begin_bit: options.begin_bit,
        end_bit: options.end_bit,
        descending: options.descending,
        path: options.path,
        tuning: options.tuning,
    }
}
