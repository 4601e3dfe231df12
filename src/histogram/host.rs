//! The blocking host calls: upload, record (through the record layer), submit, wait (bounded),
//! check the status word, download.

use super::{HistogramArgs, HistogramDesc, HISTOGRAM_MAX_COUNT};
use crate::core::buffer::{ElementCount, GpuBuffer};
use crate::core::runner::read_back;
use crate::error::{Error, Result};
use crate::sort::{KeyType, SortKey};
use crate::split::{BucketFn, Bucketing, HostBucketing, STATUS_BAD_BUCKET};
use crate::Context;

impl Context {
    /// The bucket counts of `keys` on the GPU: `counts[b]` = the keys whose bucket by
    /// `bucketing` (the multisplit's bucket functions) is `b`, for every `b < m`. A bucket id
    /// `>= m` (IDS or GLSL), unsorted splitters, or more than
    /// [`HISTOGRAM_MAX_COUNT`] keys are [`Error::InvalidArgument`]; a GLSL source that does not
    /// compile is [`Error::CompileError`].
    pub fn histogram<K: SortKey>(&self, keys: &[K], bucketing: &Bucketing<K>) -> Result<Vec<u64>> {
        let host = bucketing.to_host()?;
        self.histogram_host_bytes(K::KEY_TYPE, &host, bytemuck::cast_slice(keys))
    }

    /// The one host histogram behind the typed call and the C ABI: `keys` are whole keys of
    /// `key_type` as bytes (IDS reads none of them, but their count is the element count).
    pub fn histogram_host_bytes(
        &self,
        key_type: KeyType,
        bucketing: &HostBucketing,
        keys: &[u8],
    ) -> Result<Vec<u64>> {
        let key_size = key_type.bytes() as usize;
        if keys.len() % key_size != 0 {
            return Err(Error::invalid("histogram: key bytes are not whole keys"));
        }
        let n = (keys.len() / key_size) as u64;
        if n > HISTOGRAM_MAX_COUNT {
            return Err(Error::invalid(format!(
                "histogram: count {n} exceeds {HISTOGRAM_MAX_COUNT}"
            )));
        }
        let m = bucketing.bucket_count;
        let mut desc = HistogramDesc::new(key_type, m, bucketing.bucket_fn, n);
        desc.bit_offset = bucketing.bit_offset;
        desc.glsl = bucketing.glsl.map(str::to_string);
        let plan = self.histogram_plan(&desc)?;
        let aux: Option<&[u8]> = match bucketing.bucket_fn {
            BucketFn::Splitters => {
                let s = bucketing
                    .splitters
                    .ok_or_else(|| Error::invalid("histogram: SPLITTERS needs the splitters"))?;
                if s.len() != (m as usize - 1) * key_size {
                    return Err(Error::invalid(format!(
                        "histogram: SPLITTERS needs bucket_count - 1 = {} splitters",
                        m - 1
                    )));
                }
                crate::split::check_sorted(key_type, s)?;
                (!s.is_empty()).then_some(s)
            }
            BucketFn::Ids => {
                let ids = bucketing
                    .ids
                    .ok_or_else(|| Error::invalid("histogram: IDS needs the bucket ids"))?;
                if ids.len() as u64 != n {
                    return Err(Error::invalid(format!(
                        "histogram: {} bucket ids for {n} keys",
                        ids.len()
                    )));
                }
                Some(bytemuck::cast_slice(ids))
            }
            _ => None,
        };
        if n == 0 {
            return Ok(vec![0; m as usize]);
        }
        let counts = self.run_histogram(&plan, keys, aux, n, bucketing.params)?;
        Ok(counts.into_iter().map(u64::from).collect())
    }

    /// Uploads, records `plan`, waits and downloads the u32 counts (an error where the status
    /// word reports a bad bucket id).
    fn run_histogram(
        &self,
        plan: &super::HistogramPlan,
        keys: &[u8],
        aux: Option<&[u8]>,
        n: u64,
        params: [u32; 4],
    ) -> Result<Vec<u32>> {
        let desc = plan.desc();
        let m = desc.bucket_count as u64;
        let ids = desc.bucket_fn == BucketFn::Ids;
        // IDS reads no key: the keys are not uploaded.
        let key_bytes = if ids { 0 } else { keys.len() as u64 };
        let key_upload = (key_bytes > 0).then(|| self.staging_from(keys)).transpose()?;
        let aux_upload = aux.map(|a| self.staging_from(a)).transpose()?;
        let aux_bytes = aux.map_or(0, |a| a.len() as u64);
        let device_keys = (key_bytes > 0)
            .then(|| self.device_buffer(key_bytes, "vkalgo histogram keys"))
            .transpose()?;
        let device_aux = (aux_bytes > 0)
            .then(|| self.device_buffer(aux_bytes, "vkalgo histogram splitters/ids"))
            .transpose()?;
        let device_counts = self.device_buffer(m * 4, "vkalgo histogram counts")?;
        let scratch = self.device_buffer(
            plan.memory_requirements().scratch.size,
            "vkalgo histogram scratch",
        )?;
        let mut counts_download = self.readback_buffer(m * 4)?;
        let mut status_download = self.readback_buffer(4)?;
        let aux_range = device_aux.as_ref().map(|b| b.sub_range(0, aux_bytes));
        let keys_range = match (&device_keys, aux_range) {
            (Some(k), _) => k.sub_range(0, key_bytes),
            (None, Some(a)) => a, // IDS: not read
            (None, None) => return Err(Error::Internal("histogram: no keys and no ids".into())),
        };
        let args = HistogramArgs {
            keys: keys_range,
            splitters: aux_range.filter(|_| desc.bucket_fn == BucketFn::Splitters),
            bucket_ids: aux_range.filter(|_| ids),
            counts: device_counts.sub_range(0, m * 4),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
            params,
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            if let (Some(up), Some(dst)) = (&key_upload, &device_keys) {
                self.record_copy(cmd, up, dst, key_bytes);
            }
            if let (Some(up), Some(dst)) = (&aux_upload, &device_aux) {
                self.record_copy(cmd, up, dst, aux_bytes);
            }
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            self.record_copy(cmd, &device_counts, &counts_download, m * 4);
            self.record_copy(cmd, &scratch, &status_download, 4);
            self.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(message)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            let all: [Option<GpuBuffer>; 8] = [
                key_upload,
                aux_upload,
                device_keys,
                device_aux,
                Some(device_counts),
                Some(scratch),
                Some(counts_download),
                Some(status_download),
            ];
            all.into_iter().flatten().for_each(GpuBuffer::leak);
            return Err(Error::Timeout(message));
        }
        submitted?;
        let mut status = [0u32; 1];
        read_back(&mut status_download, &mut status)?;
        if status[0] & STATUS_BAD_BUCKET != 0 {
            return Err(Error::invalid(format!(
                "histogram: the bucket function returned a bucket id >= bucket_count {m}"
            )));
        }
        let mut counts = vec![0u32; m as usize];
        read_back(&mut counts_download, &mut counts)?;
        Ok(counts)
    }
}
