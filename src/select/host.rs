//! The blocking host calls: upload, record (through the record layer), submit, wait (bounded),
//! download.

use super::{SelectArgs, SelectDesc, SelectMode, SELECT_MAX_COUNT};
use crate::core::buffer::{ElementCount, GpuBuffer};
use crate::core::runner::read_back;
use crate::core::types::{KeyType, ValueType};
use crate::error::{Error, Result};
use crate::sort::{SortKey, SortValue};
use crate::Context;

/// Which elements a host select keeps, with the data the rule needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection<'a> {
    /// Element `i` where `flags[i]` is nonzero (one flag per element).
    Flagged(&'a [u8]),
    /// Where the GLSL predicate `bool vkalgo_select(T key)` of `glsl` is true, with
    /// `vkalgo_params` = `params` ([`SelectMode::If`]).
    If {
        /// GLSL source defining `vkalgo_select`.
        glsl: &'a str,
        /// `uvec4 vkalgo_params`.
        params: [u32; 4],
    },
    /// The first of each run of consecutive keys with equal bits.
    Unique,
}

impl Selection<'_> {
    /// The plan's mode of this selection.
    pub fn mode(&self) -> SelectMode {
        match self {
            Selection::Flagged(_) => SelectMode::Flagged,
            Selection::If { glsl, .. } => SelectMode::If {
                glsl: glsl.to_string(),
            },
            Selection::Unique => SelectMode::Unique,
        }
    }
}

impl Context {
    /// The elements of `keys` that `selection` keeps, in order (see the
    /// [`select`](crate::select) module). Counts over [`SELECT_MAX_COUNT`] and flags of
    /// another length are refused before any work.
    pub fn select<K: SortKey>(&self, keys: &[K], selection: &Selection) -> Result<Vec<K>> {
        let (kept, _, n) = self.select_host_bytes(
            K::KEY_TYPE,
            ValueType::None,
            selection,
            bytemuck::cast_slice(keys),
            None,
        )?;
        Ok(from_bytes::<K>(&kept[..n as usize * std::mem::size_of::<K>()]))
    }

    /// The kept keys of `keys` and their values of `values` (one per key), in order.
    pub fn select_pairs<K: SortKey, V: SortValue>(
        &self,
        keys: &[K],
        values: &[V],
        selection: &Selection,
    ) -> Result<(Vec<K>, Vec<V>)> {
        if values.len() != keys.len() {
            return Err(Error::invalid(format!(
                "select: {} values for {} keys",
                values.len(),
                keys.len()
            )));
        }
        let (kept, kept_values, n) = self.select_host_bytes(
            K::KEY_TYPE,
            V::VALUE_TYPE,
            selection,
            bytemuck::cast_slice(keys),
            Some(bytemuck::cast_slice(values)),
        )?;
        let kept_values = kept_values.unwrap_or_default();
        Ok((
            from_bytes(&kept[..n as usize * std::mem::size_of::<K>()]),
            from_bytes(&kept_values[..n as usize * std::mem::size_of::<V>()]),
        ))
    }

    /// Moves the kept keys of `keys` to its front, in order, and returns their number (the
    /// rest is left as it was). On error `keys` is unchanged.
    pub fn select_in_place<K: SortKey>(&self, keys: &mut [K], selection: &Selection) -> Result<usize> {
        let kept = self.select(keys, selection)?;
        keys[..kept.len()].copy_from_slice(&kept);
        Ok(kept.len())
    }

    /// The one host select behind the typed calls and the C ABI: `keys` and `values` as bytes
    /// of `key_type` and `value_type`. Returns the output keys and values (room for every
    /// element, the kept ones first) and the number kept.
    pub fn select_host_bytes(
        &self,
        key_type: KeyType,
        value_type: ValueType,
        selection: &Selection,
        keys: &[u8],
        values: Option<&[u8]>,
    ) -> Result<(Vec<u8>, Option<Vec<u8>>, u64)> {
        let n = check_host_input(key_type, value_type, selection, keys, values)?;
        let desc = SelectDesc::new(key_type, value_type, selection.mode(), n);
        let plan = self.select_plan(&desc)?;
        if n == 0 {
            return Ok((Vec::new(), values.map(|_| Vec::new()), 0));
        }
        let (key_bytes, value_bytes) = (keys.len() as u64, n * value_type.bytes());
        let flags = match selection {
            Selection::Flagged(f) => {
                let mut padded = f.to_vec();
                padded.resize(f.len().next_multiple_of(4), 0);
                Some(padded)
            }
            _ => None,
        };
        let mut bufs = HostBuffers::default();
        let result = self.select_on_device(&plan, selection, keys, values, flags.as_deref(), &mut bufs);
        if let Err(Error::Timeout(m)) = result {
            // The GPU may still use these buffers: never free them under it.
            bufs.all.into_iter().for_each(GpuBuffer::leak);
            return Err(Error::Timeout(m));
        }
        result?;
        let mut count = [0u32];
        read_back(&mut bufs.all[bufs.count_down], &mut count)?;
        let mut out_keys = vec![0u8; key_bytes as usize];
        read_back(&mut bufs.all[bufs.keys_down], &mut out_keys)?;
        let out_values = match bufs.values_down {
            Some(i) => {
                let mut v = vec![0u8; value_bytes as usize];
                read_back(&mut bufs.all[i], &mut v)?;
                Some(v)
            }
            None => None,
        };
        Ok((out_keys, out_values, count[0] as u64))
    }

    /// Uploads, records the plan and downloads into the buffers of `bufs`.
    fn select_on_device(
        &self,
        plan: &super::SelectPlan,
        selection: &Selection,
        keys: &[u8],
        values: Option<&[u8]>,
        flags: Option<&[u8]>,
        bufs: &mut HostBuffers,
    ) -> Result<()> {
        let n = plan_count(keys, plan);
        let (kb, vb) = (keys.len() as u64, values.map_or(0, |v| v.len() as u64));
        let key_up = bufs.add(self.staging_from(keys)?);
        let keys_in = bufs.add(self.device_buffer(kb, "vkalgo select keys_in")?);
        let keys_out = bufs.add(self.device_buffer(kb, "vkalgo select keys_out")?);
        bufs.keys_down = bufs.add(self.readback_buffer(kb)?);
        let count_dev = bufs.add(self.device_buffer(16, "vkalgo select count")?);
        bufs.count_down = bufs.add(self.readback_buffer(16)?);
        let scratch_bytes = plan.memory_requirements().scratch.size;
        let scratch = bufs.add(self.device_buffer(scratch_bytes, "vkalgo select scratch")?);
        let mut value_bufs = None;
        if let Some(v) = values {
            let up = bufs.add(self.staging_from(v)?);
            let vin = bufs.add(self.device_buffer(vb, "vkalgo select values_in")?);
            let vout = bufs.add(self.device_buffer(vb, "vkalgo select values_out")?);
            bufs.values_down = Some(bufs.add(self.readback_buffer(vb)?));
            value_bufs = Some((up, vin, vout));
        }
        let mut flag_bufs = None;
        if let Some(f) = flags {
            let up = bufs.add(self.staging_from(f)?);
            let dev = bufs.add(self.device_buffer(f.len() as u64, "vkalgo select flags")?);
            flag_bufs = Some((up, dev, f.len() as u64));
        }
        let b = &bufs.all;
        let args = SelectArgs {
            keys_in: b[keys_in].sub_range(0, kb),
            values_in: value_bufs.map(|(_, vin, _)| b[vin].sub_range(0, vb)),
            flags: flag_bufs.map(|(_, dev, bytes)| b[dev].sub_range(0, bytes)),
            keys_out: b[keys_out].sub_range(0, kb),
            values_out: value_bufs.map(|(_, _, vout)| b[vout].sub_range(0, vb)),
            selected_count: b[count_dev].sub_range(0, 4),
            scratch: b[scratch].sub_range(0, scratch_bytes),
            count: ElementCount::Direct(n),
            params: match selection {
                Selection::If { params, .. } => *params,
                _ => [0; 4],
            },
        };
        self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &b[key_up], &b[keys_in], kb);
            if let Some((up, vin, _)) = value_bufs {
                self.record_copy(cmd, &b[up], &b[vin], vb);
            }
            if let Some((up, dev, bytes)) = flag_bufs {
                self.record_copy(cmd, &b[up], &b[dev], bytes);
            }
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            self.record_copy(cmd, &b[keys_out], &b[bufs.keys_down], kb);
            self.record_copy(cmd, &b[count_dev], &b[bufs.count_down], 4);
            if let (Some((_, _, vout)), Some(down)) = (value_bufs, bufs.values_down) {
                self.record_copy(cmd, &b[vout], &b[down], vb);
            }
            self.transfer_to_host(cmd);
            Ok(())
        })
    }
}

/// Elements of type `T` from their bytes (any alignment).
fn from_bytes<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(std::mem::size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}

/// The elements of a host call.
fn plan_count(keys: &[u8], plan: &super::SelectPlan) -> u64 {
    keys.len() as u64 / plan.desc().key_type.bytes()
}

/// The buffers of one host call, kept together so that a timeout can leak them all.
#[derive(Default)]
struct HostBuffers {
    all: Vec<GpuBuffer>,
    keys_down: usize,
    count_down: usize,
    values_down: Option<usize>,
}

impl HostBuffers {
    fn add(&mut self, b: GpuBuffer) -> usize {
        self.all.push(b);
        self.all.len() - 1
    }
}

/// The host-side checks (nothing is uploaded before them): whole keys and values, one value
/// and one flag per key, a count within [`SELECT_MAX_COUNT`]. Returns the count.
fn check_host_input(
    key_type: KeyType,
    value_type: ValueType,
    selection: &Selection,
    keys: &[u8],
    values: Option<&[u8]>,
) -> Result<u64> {
    let kb = key_type.bytes();
    if keys.len() as u64 % kb != 0 {
        return Err(Error::invalid(
            "select: the keys are not whole keys of their type",
        ));
    }
    let n = keys.len() as u64 / kb;
    if n > SELECT_MAX_COUNT {
        return Err(Error::invalid(format!(
            "select: {n} elements exceed {SELECT_MAX_COUNT}"
        )));
    }
    match (value_type, values) {
        (ValueType::None, None) => {}
        (ValueType::None, Some(_)) | (_, None) => {
            return Err(Error::invalid(
                "select: values are given exactly when the value type is not NONE",
            ))
        }
        (vt, Some(v)) if v.len() as u64 != n * vt.bytes() => {
            return Err(Error::invalid(format!(
                "select: {} bytes of values for {n} keys",
                v.len()
            )))
        }
        _ => {}
    }
    if let Selection::Flagged(flags) = selection {
        if flags.len() as u64 != n {
            return Err(Error::invalid(format!(
                "select: {} flags for {n} keys",
                flags.len()
            )));
        }
    }
    Ok(n)
}
