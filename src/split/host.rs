//! Host convenience multisplits: upload, record, submit, wait (bounded), check the status
//! word, download. In place: the caller's keys (and values) come back split.

use super::{BucketFn, SplitArgs, SplitDesc, STATUS_BAD_BUCKET, STATUS_INCONSISTENT};
use crate::core::buffer::{ElementCount, GpuBuffer};
use crate::core::runner::read_back;
use crate::error::{Error, Result};
use crate::sort::{KeyType, SortKey, SortValue, ValueType};
use crate::Context;

/// A bucket function with its data, for [`Context::multisplit`] and
/// [`Context::multisplit_pairs`] on keys of type `K`.
#[derive(Clone, Copy, Debug)]
pub enum Bucketing<'a, K> {
    /// `(ordered key bits >> bit_offset) & (bucket_count - 1)`; `bucket_count` a power of two.
    Bits {
        /// `m` (a power of two).
        bucket_count: u32,
        /// First order-preserving key bit of the bucket id.
        bit_offset: u32,
    },
    /// `m = splitters.len() + 1` buckets: bucket = the number of splitters `<=` key (sort
    /// order); the splitters must be non-decreasing.
    Splitters(&'a [K]),
    /// One bucket id per element (each `< bucket_count`).
    Ids {
        /// `m`.
        bucket_count: u32,
        /// The bucket id of every element.
        ids: &'a [u32],
    },
    /// GLSL source defining `uint vkalgo_bucket(T key)`, reading `uvec4 vkalgo_params`. It
    /// must be pure (see [`crate::split::BucketFn::Glsl`]): a function found answering
    /// differently in the passes is [`Error::InvalidArgument`], and nothing is changed.
    Glsl {
        /// `m`.
        bucket_count: u32,
        /// The source.
        source: &'a str,
        /// `vkalgo_params` of this call.
        params: [u32; 4],
    },
}

/// A bucketing with its data as bytes, for [`Context::split_host_bytes`] (the typed calls and
/// the C ABI meet there).
pub struct HostBucketing<'a> {
    /// Which bucket function.
    pub bucket_fn: BucketFn,
    /// Number of buckets.
    pub bucket_count: u32,
    /// BITS: the lowest bit of the bucket id in the key.
    pub bit_offset: u32,
    /// SPLITTERS: `bucket_count - 1` keys of the key type.
    pub splitters: Option<&'a [u8]>,
    /// IDS: one per element.
    pub ids: Option<&'a [u32]>,
    /// GLSL: the bucket function's source.
    pub glsl: Option<&'a str>,
    /// GLSL: the four values of `vkalgo_params`.
    pub params: [u32; 4],
}

impl<'a, K: SortKey> Bucketing<'a, K> {
    /// The bucketing with its data as bytes (the multisplit's and the histogram's host calls).
    pub(crate) fn to_host(self) -> Result<HostBucketing<'a>> {
        let none = HostBucketing {
            bucket_fn: BucketFn::Bits,
            bucket_count: 0,
            bit_offset: 0,
            splitters: None,
            ids: None,
            glsl: None,
            params: [0; 4],
        };
        Ok(match self {
            Bucketing::Bits {
                bucket_count,
                bit_offset,
            } => HostBucketing {
                bucket_count,
                bit_offset,
                ..none
            },
            Bucketing::Splitters(splitters) => HostBucketing {
                bucket_fn: BucketFn::Splitters,
                bucket_count: u32::try_from(splitters.len() + 1)
                    .map_err(|_| Error::invalid("multisplit: too many splitters"))?,
                splitters: Some(bytemuck::cast_slice(splitters)),
                ..none
            },
            Bucketing::Ids { bucket_count, ids } => HostBucketing {
                bucket_fn: BucketFn::Ids,
                bucket_count,
                ids: Some(ids),
                ..none
            },
            Bucketing::Glsl {
                bucket_count,
                source,
                params,
            } => HostBucketing {
                bucket_fn: BucketFn::Glsl,
                bucket_count,
                glsl: Some(source),
                params,
                ..none
            },
        })
    }
}

impl Context {
    /// Splits `keys` stably into buckets on the GPU, in place: the keys of bucket 0 first, then
    /// bucket 1, ..., each bucket in input order. Returns the `m + 1` bucket offsets (bucket
    /// `b` is `keys[offsets[b]..offsets[b + 1]]`). A bucket id `>= m`, or a GLSL bucket function
    /// that is not pure (it answered differently in the passes:
    /// [`crate::split::STATUS_INCONSISTENT`]), is [`Error::InvalidArgument`], and then `keys` are
    /// unchanged.
    pub fn multisplit<K: SortKey>(&self, keys: &mut [K], bucketing: &Bucketing<K>) -> Result<Vec<u64>> {
        let host = bucketing.to_host()?;
        self.split_host_bytes(
            K::KEY_TYPE,
            ValueType::None,
            &host,
            bytemuck::cast_slice_mut(keys),
            None,
        )
    }

    /// Like [`Context::multisplit`], moving `values` (same length) with their keys.
    pub fn multisplit_pairs<K: SortKey, V: SortValue>(
        &self,
        keys: &mut [K],
        values: &mut [V],
        bucketing: &Bucketing<K>,
    ) -> Result<Vec<u64>> {
        if keys.len() != values.len() {
            return Err(Error::invalid(format!(
                "multisplit: {} keys but {} values",
                keys.len(),
                values.len()
            )));
        }
        let host = bucketing.to_host()?;
        self.split_host_bytes(
            K::KEY_TYPE,
            V::VALUE_TYPE,
            &host,
            bytemuck::cast_slice_mut(keys),
            Some(bytemuck::cast_slice_mut(values)),
        )
    }

    /// The splitters or bucket ids of `bucketing` in a staging buffer (none for the other
    /// bucket functions, or no splitters), with their bytes.
    fn aux_upload(
        &self,
        bucketing: &HostBucketing,
        n: usize,
        key_type: KeyType,
    ) -> Result<(Option<GpuBuffer>, u64)> {
        let upload = match (bucketing.splitters, bucketing.ids) {
            (Some(s), _) if !s.is_empty() => Some(self.staging_from(s)?),
            (_, Some(ids)) => Some(self.staging_from(ids)?),
            _ => None,
        };
        let bytes = upload.as_ref().map_or(0, |_| match bucketing.bucket_fn {
            BucketFn::Ids => n as u64 * 4,
            _ => (bucketing.bucket_count as u64 - 1) * key_type.bytes(),
        });
        Ok((upload, bytes))
    }

    /// The one host multisplit behind the typed calls and the C ABI. On error (a bad bucket id
    /// or an impure bucket function included: the split runs on copies, read back only when
    /// the status word is clean) `keys` and `values` are unchanged.
    pub fn split_host_bytes(
        &self,
        key_type: KeyType,
        value_type: ValueType,
        bucketing: &HostBucketing,
        keys: &mut [u8],
        values: Option<&mut [u8]>,
    ) -> Result<Vec<u64>> {
        let (n, desc) = host_split_desc(key_type, value_type, bucketing, keys.len(), values.as_deref())?;
        let m = bucketing.bucket_count;
        let plan = self.split_plan(&desc)?;
        if n == 0 {
            return Ok(vec![0; m as usize + 1]);
        }
        let requirements = plan.memory_requirements();
        let key_bytes = keys.len() as u64;
        let value_bytes = n as u64 * value_type.bytes();
        let offsets_bytes = requirements.offsets.size;
        let key_upload = self.staging_from(&*keys)?;
        let value_upload = match &values {
            Some(v) => Some(self.staging_from(v)?),
            None => None,
        };
        let (aux_upload, aux_bytes) = self.aux_upload(bucketing, n, key_type)?;
        let device_keys = self.device_buffer(key_bytes, "vkalgo split keys")?;
        let device_keys_out = self.device_buffer(key_bytes, "vkalgo split keys_out")?;
        let (device_values, device_values_out) = if value_bytes > 0 {
            (
                Some(self.device_buffer(value_bytes, "vkalgo split values")?),
                Some(self.device_buffer(value_bytes, "vkalgo split values_out")?),
            )
        } else {
            (None, None)
        };
        let device_aux = match aux_bytes {
            0 => None,
            bytes => Some(self.device_buffer(bytes, "vkalgo split splitters/ids")?),
        };
        let device_offsets = self.device_buffer(offsets_bytes, "vkalgo split offsets")?;
        let scratch = self.device_buffer(requirements.scratch.size, "vkalgo split scratch")?;
        let mut key_download = self.readback_buffer(key_bytes)?;
        let mut value_download = match value_bytes {
            0 => None,
            bytes => Some(self.readback_buffer(bytes)?),
        };
        let mut offsets_download = self.readback_buffer(offsets_bytes)?;
        let mut status_download = self.readback_buffer(4)?;
        let aux_range = device_aux.as_ref().map(|b| b.sub_range(0, aux_bytes));
        let args = SplitArgs {
            keys: device_keys.sub_range(0, key_bytes),
            values: device_values.as_ref().map(|b| b.sub_range(0, value_bytes)),
            keys_out: device_keys_out.sub_range(0, key_bytes),
            values_out: device_values_out.as_ref().map(|b| b.sub_range(0, value_bytes)),
            splitters: match bucketing.bucket_fn {
                BucketFn::Splitters => aux_range,
                _ => None,
            },
            bucket_ids: match bucketing.bucket_fn {
                BucketFn::Ids => aux_range,
                _ => None,
            },
            offsets: device_offsets.sub_range(0, offsets_bytes),
            scratch: scratch.range(),
            count: ElementCount::Direct(n as u64),
            params: bucketing.params,
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &key_upload, &device_keys, key_bytes);
            if let (Some(up), Some(dst)) = (&value_upload, &device_values) {
                self.record_copy(cmd, up, dst, value_bytes);
            }
            if let (Some(up), Some(dst)) = (&aux_upload, &device_aux) {
                self.record_copy(cmd, up, dst, aux_bytes);
            }
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            self.record_copy(cmd, &device_keys_out, &key_download, key_bytes);
            if let (Some(src), Some(down)) = (&device_values_out, &value_download) {
                self.record_copy(cmd, src, down, value_bytes);
            }
            self.record_copy(cmd, &device_offsets, &offsets_download, offsets_bytes);
            self.record_copy(cmd, &scratch, &status_download, 4);
            self.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(message)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            leak_all([
                Some(key_upload),
                value_upload,
                aux_upload,
                Some(device_keys),
                Some(device_keys_out),
                device_values,
                device_values_out,
                device_aux,
                Some(device_offsets),
                Some(scratch),
                Some(key_download),
                value_download,
                Some(offsets_download),
                Some(status_download),
            ]);
            return Err(Error::Timeout(message));
        }
        submitted?;
        let mut status = [0u32; 1];
        read_back(&mut status_download, &mut status)?;
        check_status(status[0], m)?;
        let mut offsets32 = vec![0u32; m as usize + 1];
        read_back(&mut offsets_download, &mut offsets32)?;
        read_back(&mut key_download, keys)?;
        if let (Some(values), Some(down)) = (values, value_download.as_mut()) {
            read_back(down, values)?;
        }
        Ok(offsets32.into_iter().map(u64::from).collect())
    }
}

/// The description of a host split of `keys_len` bytes of keys (and `values`' bytes), with the
/// host-side checks of the bucketing data (the plan checks the rest): the element count and the
/// description.
fn host_split_desc(
    key_type: KeyType,
    value_type: ValueType,
    bucketing: &HostBucketing,
    keys_len: usize,
    values: Option<&[u8]>,
) -> Result<(usize, SplitDesc)> {
    let key_size = key_type.bytes() as usize;
    if keys_len % key_size != 0 {
        return Err(Error::Internal("multisplit: key bytes are not whole keys".into()));
    }
    let n = keys_len / key_size;
    if values.is_some() != (value_type != ValueType::None) {
        return Err(Error::invalid(
            "multisplit: values must be given exactly when a value type is",
        ));
    }
    if let Some(v) = values {
        if v.len() != n * value_type.bytes() as usize {
            return Err(Error::invalid("multisplit: the values do not match the keys"));
        }
    }
    let m = bucketing.bucket_count;
    let mut desc = SplitDesc::new(key_type, value_type, m, bucketing.bucket_fn, n as u64);
    desc.bit_offset = bucketing.bit_offset;
    desc.glsl = bucketing.glsl.map(str::to_string);
    match bucketing.bucket_fn {
        BucketFn::Splitters => {
            let splitters = bucketing
                .splitters
                .ok_or_else(|| Error::invalid("multisplit: SPLITTERS needs the splitters"))?;
            if m >= 1 && splitters.len() != (m as usize - 1) * key_size {
                return Err(Error::invalid(format!(
                    "multisplit: SPLITTERS needs bucket_count - 1 = {} splitters",
                    m.saturating_sub(1)
                )));
            }
            check_sorted(key_type, splitters)?;
        }
        BucketFn::Ids => {
            let ids = bucketing
                .ids
                .ok_or_else(|| Error::invalid("multisplit: IDS needs the bucket ids"))?;
            if ids.len() != n {
                return Err(Error::invalid(format!(
                    "multisplit: {} bucket ids for {n} elements",
                    ids.len()
                )));
            }
            if let Some(bad) = ids.iter().position(|&id| id >= m) {
                return Err(Error::invalid(format!(
                    "multisplit: bucket id {} of element {bad} is not below bucket_count {m}",
                    ids[bad]
                )));
            }
        }
        _ => {}
    }
    Ok((n, desc))
}

/// Frees nothing of `buffers`: the GPU may still use them (a wait that timed out).
fn leak_all<const N: usize>(buffers: [Option<GpuBuffer>; N]) {
    for b in buffers.into_iter().flatten() {
        b.leak();
    }
}

/// The error the status word reports, if any.
fn check_status(status: u32, m: u32) -> Result<()> {
    if status & STATUS_BAD_BUCKET != 0 {
        return Err(Error::invalid(format!(
            "multisplit: the bucket function returned a bucket id >= bucket_count {m}"
        )));
    }
    if status & STATUS_INCONSISTENT != 0 {
        return Err(Error::invalid(
            "multisplit: the bucket function is not pure: it gave some key a different bucket \
             when the buckets were counted and when the elements were placed",
        ));
    }
    Ok(())
}

/// Refuses splitters that are not non-decreasing in the sort's key order.
pub(crate) fn check_sorted(key_type: KeyType, splitters: &[u8]) -> Result<()> {
    fn sorted<K: SortKey>(bytes: &[u8]) -> bool {
        let keys: Vec<K> = bytes
            .chunks_exact(std::mem::size_of::<K>())
            .map(bytemuck::pod_read_unaligned)
            .collect();
        keys.windows(2)
            .all(|w| w[0].ordered_bits() <= w[1].ordered_bits())
    }
    let ok = match key_type {
        KeyType::U32 => sorted::<u32>(splitters),
        KeyType::I32 => sorted::<i32>(splitters),
        KeyType::F32 => sorted::<f32>(splitters),
        KeyType::U64 => sorted::<u64>(splitters),
        KeyType::I64 => sorted::<i64>(splitters),
        KeyType::F64 => sorted::<f64>(splitters),
    };
    if ok {
        Ok(())
    } else {
        Err(Error::invalid(
            "multisplit: the splitters are not non-decreasing in the key order",
        ))
    }
}
