//! Blocking host calls on a multimap: upload, record (through the record layer), submit, wait
//! (bounded by the context's timeout), download. Arguments are checked before any GPU work; on
//! an argument error nothing changes.

use super::{
    HashMultimap, HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets,
    HashMultimapRetrieveArgs,
};
use crate::core::buffer::{ElementCount, GpuBuffer};
use crate::core::runner::{finish_submission, read_back};
use crate::error::{Error, Result};
use crate::hash::table::{check_host_keys, UploadedPairs};
use crate::hash::{HashKey, HashValue};

/// How often a host retrieve starts over when the multimap changed between its count and its
/// retrieve (host inserts wait for a host retrieve; work the caller records may not).
const RETRIEVE_ATTEMPTS: usize = 4;

/// Where a host retrieve puts the values: the caller's slice (room checked) or a vector sized
/// to the total.
enum ValuesOut<'a, V> {
    Slice(&'a mut [V]),
    Vec(&'a mut Vec<V>),
}

/// What the count submission of a host retrieve leaves: the keys on the device, the
/// exclusive offsets (one more than keys) and the multimap's size when counted.
struct Counted {
    keys: GpuBuffer,
    offsets: Vec<u64>,
    size: u32,
}

impl HashMultimap {
    /// Refuses a key type other than the multimap's, a batch over the maximum and reserved keys.
    fn check_keys<K: HashKey>(&self, what: &str, keys: &[K]) -> Result<()> {
        self.table.check_key_type::<K>(what)?;
        check_host_keys(what, keys, "nothing was done")
    }

    /// Stores every pair `keys[i] -> values[i]`, duplicates included. Reserved keys refuse the
    /// whole batch with [`Error::InvalidArgument`] before any GPU work. Pairs that find no
    /// empty slot within the probe bound are not stored and give [`Error::TableFull`] (with
    /// their number) after the call: every other pair is stored and the size is exact.
    pub fn insert<K: HashKey, V: HashValue>(&self, keys: &[K], values: &[V]) -> Result<()> {
        let what = "hash multimap insert";
        self.table.check_types::<K, V>(what)?;
        if keys.len() != values.len() {
            return Err(Error::invalid(format!(
                "{what}: {} keys but {} values",
                keys.len(),
                values.len()
            )));
        }
        self.check_keys(what, keys)?;
        if keys.is_empty() {
            return Ok(());
        }
        let ctx = &self.ctx;
        let n = keys.len() as u64;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        let _changing = self.host_gate.read().unwrap_or_else(|e| e.into_inner());
        let pairs = UploadedPairs::new(ctx, keys, values, "multimap")?;
        let mut counter = ctx.readback_buffer(16)?;
        let args = HashMultimapInsertArgs {
            keys: pairs.keys.sub_range(0, n * kb),
            values: pairs.values.sub_range(0, n * vb),
            count: ElementCount::Direct(n),
            max_count: n,
            failed_count: Some(counter.sub_range(0, 4)),
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            pairs.record_copies(ctx, cmd);
            ctx.device.cmd_fill_buffer(cmd, counter.buffer(), 0, 16, 0);
            ctx.transfer_to_compute(cmd);
            self.record_insert(cmd, &args)?;
            self.ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(submitted, pairs, counter);
        let mut failed = [0u32];
        read_back(&mut counter, &mut failed)?;
        crate::hash::table::check_failed(what, "pairs", failed[0], n, self.max_probes(), self.capacity())
    }

    /// The number of pairs stored.
    pub fn size(&self) -> Result<u64> {
        let ctx = &self.ctx;
        let mut out = ctx.readback_buffer(16)?;
        let address = out.address();
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            self.record_size_at(cmd, address)?;
            self.ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(submitted, out);
        let mut size = [0u32];
        read_back(&mut out, &mut size)?;
        Ok(size[0] as u64)
    }

    /// `counts[i]` = the number of stored pairs whose key is `keys[i]` (same length). Reserved
    /// keys refuse the batch ([`Error::InvalidArgument`], nothing written).
    pub fn count<K: HashKey>(&self, keys: &[K], counts: &mut [u32]) -> Result<()> {
        let what = "hash multimap count";
        if counts.len() != keys.len() {
            return Err(Error::invalid(format!(
                "{what}: {} keys but room for {} counts",
                keys.len(),
                counts.len()
            )));
        }
        self.check_keys(what, keys)?;
        if keys.is_empty() {
            return Ok(());
        }
        let (_, mut down, _) = self.count_submission(keys)?;
        read_back(&mut down, counts)
    }

    /// Every value of each key: `(offsets, values)` with key `i`'s values at
    /// `values[offsets[i]..offsets[i + 1]]` (in no particular order within a key; `offsets` has
    /// one more entry than `keys`, starting at 0). Reserved keys refuse the batch
    /// ([`Error::InvalidArgument`]).
    pub fn retrieve<K: HashKey, V: HashValue>(&self, keys: &[K]) -> Result<(Vec<u64>, Vec<V>)> {
        let mut offsets = vec![0u64; keys.len() + 1];
        let mut values = Vec::new();
        self.retrieve_impl(keys, &mut offsets, ValuesOut::Vec(&mut values))?;
        Ok((offsets, values))
    }

    /// [`HashMultimap::retrieve`] into the caller's arrays: `offsets` has `keys.len() + 1`
    /// entries, `values` room for the values; returns their total (`offsets[keys.len()]`),
    /// having written `values[..total]`. Room too small: [`Error::InvalidArgument`] naming the
    /// total, with `offsets` written (their last entry is the room needed) and `values`
    /// unchanged. Other errors change neither.
    pub fn retrieve_into<K: HashKey, V: HashValue>(
        &self,
        keys: &[K],
        offsets: &mut [u64],
        values: &mut [V],
    ) -> Result<u64> {
        self.retrieve_impl(keys, offsets, ValuesOut::Slice(values))
    }

    fn retrieve_impl<K: HashKey, V: HashValue>(
        &self,
        keys: &[K],
        offsets: &mut [u64],
        mut out: ValuesOut<V>,
    ) -> Result<u64> {
        let what = "hash multimap retrieve";
        self.table.check_types::<K, V>(what)?;
        if offsets.len() != keys.len() + 1 {
            return Err(Error::invalid(format!(
                "{what}: {} keys need {} offsets, the call has room for {}",
                keys.len(),
                keys.len() + 1,
                offsets.len()
            )));
        }
        self.check_keys(what, keys)?;
        if keys.is_empty() {
            offsets[0] = 0;
            if let ValuesOut::Vec(v) = out {
                v.clear();
            }
            return Ok(0);
        }
        let _alone = self.host_gate.write().unwrap_or_else(|e| e.into_inner());
        for _ in 0..RETRIEVE_ATTEMPTS {
            let counted = self.count_offsets(keys)?;
            let total = counted.offsets[keys.len()];
            let room = match &out {
                ValuesOut::Slice(s) => s.len() as u64,
                ValuesOut::Vec(_) => total,
            };
            if total > room {
                offsets.copy_from_slice(&counted.offsets);
                return Err(Error::invalid(format!(
                    "{what}: the keys have {total} values but the output has room for {room}"
                )));
            }
            let values: &mut [V] = match &mut out {
                ValuesOut::Slice(s) => &mut s[..total as usize],
                ValuesOut::Vec(v) => {
                    v.clear();
                    v.try_reserve_exact(total as usize)
                        .map_err(|_| Error::OutOfMemory(format!("{what}: {total} values on the host")))?;
                    v.resize(total as usize, V::zeroed());
                    &mut v[..]
                }
            };
            match self.retrieve_submission(&counted, values) {
                Ok(true) => {
                    offsets.copy_from_slice(&counted.offsets);
                    return Ok(total);
                }
                Ok(false) => {}
                Err(Error::Timeout(m)) => {
                    counted.keys.leak(); // the GPU may still read them
                    return Err(Error::Timeout(m));
                }
                Err(e) => return Err(e),
            }
        }
        Err(Error::invalid(format!(
            "{what}: the multimap changed between counting and retrieving {RETRIEVE_ATTEMPTS} \
             times (recorded inserts): retrieve while nothing inserts"
        )))
    }

    /// The count submission of a host retrieve (keys not empty), and the u64 exclusive prefix
    /// of the counts.
    fn count_offsets<K: HashKey>(&self, keys: &[K]) -> Result<Counted> {
        let n = keys.len();
        let mut offsets = Vec::new();
        offsets
            .try_reserve_exact(n + 1)
            .map_err(|_| Error::OutOfMemory(format!("hash multimap retrieve: {} offsets", n + 1)))?;
        offsets.push(0u64);
        let (keys_on_device, mut down, size) = self.count_submission(keys)?;
        let mapped = down
            .mapped()
            .ok_or_else(|| Error::Internal("readback buffer is not mapped".into()))?;
        let counts: &[u32] = bytemuck::cast_slice(&mapped[..n * 4]);
        let mut total = 0u64;
        for &c in counts {
            total += c as u64;
            offsets.push(total);
        }
        Ok(Counted {
            keys: keys_on_device,
            offsets,
            size,
        })
    }

    /// Uploads the keys (not empty), counts them and reads the size in the same submission:
    /// (the keys on the device, the counts downloaded (a u32 each), the size).
    fn count_submission<K: HashKey>(&self, keys: &[K]) -> Result<(GpuBuffer, GpuBuffer, u32)> {
        let ctx = &self.ctx;
        let n = keys.len() as u64;
        let kb = self.key_type().bytes();
        let up_keys = ctx.staging_from(keys)?;
        let dev_keys = ctx.device_buffer(n * kb, "vkalgo multimap keys")?;
        let dev_counts = ctx.device_buffer(n * 4, "vkalgo multimap counts")?;
        let down = ctx.readback_buffer(n * 4)?;
        let mut size = ctx.readback_buffer(16)?;
        let size_address = size.address();
        let args = HashMultimapCountArgs {
            keys: dev_keys.sub_range(0, n * kb),
            counts_out: dev_counts.sub_range(0, n * 4),
            count: ElementCount::Direct(n),
            max_count: n,
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &up_keys, &dev_keys, n * kb);
            ctx.transfer_to_compute(cmd);
            self.record_size_at(cmd, size_address)?;
            self.record_count(cmd, &args)?;
            self.ctx.compute_to_host(cmd);
            ctx.compute_to_transfer(cmd);
            ctx.record_copy(cmd, &dev_counts, &down, n * 4);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(submitted, up_keys, dev_keys, dev_counts, down, size);
        let mut words = [0u32];
        read_back(&mut size, &mut words)?;
        Ok((dev_keys, down, words[0]))
    }

    /// The retrieve submission of a host retrieve: `values` (exactly the total) filled, and
    /// whether the size was still the counted one (else nothing is written).
    fn retrieve_submission<V: HashValue>(&self, counted: &Counted, values: &mut [V]) -> Result<bool> {
        let total = values.len() as u64;
        if total == 0 {
            return Ok(true); // nothing to read: the counts are the answer
        }
        let ctx = &self.ctx;
        let n = counted.offsets.len() as u64 - 1;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        let up_offsets = ctx.staging_from(&counted.offsets[..n as usize])?;
        let dev_offsets = ctx.device_buffer(n * 8, "vkalgo multimap offsets")?;
        let dev_values = ctx.device_buffer(total * vb, "vkalgo multimap values out")?;
        let mut down = ctx.readback_buffer(total * vb)?;
        let mut size = ctx.readback_buffer(16)?;
        let size_address = size.address();
        let args = HashMultimapRetrieveArgs {
            keys: counted.keys.sub_range(0, n * kb),
            offsets: HashMultimapOffsets::U64(dev_offsets.sub_range(0, n * 8)),
            values_out: dev_values.sub_range(0, total * vb),
            capacity: total,
            tags: None,
            count: ElementCount::Direct(n),
            max_count: n,
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &up_offsets, &dev_offsets, n * 8);
            ctx.transfer_to_compute(cmd);
            self.record_size_at(cmd, size_address)?;
            self.record_retrieve(cmd, &args)?;
            self.ctx.compute_to_host(cmd);
            ctx.compute_to_transfer(cmd);
            ctx.record_copy(cmd, &dev_values, &down, total * vb);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(submitted, up_offsets, dev_offsets, dev_values, down, size);
        let mut words = [0u32];
        read_back(&mut size, &mut words)?;
        if words[0] != counted.size {
            return Ok(false);
        }
        read_back(&mut down, values)?;
        Ok(true)
    }

    /// Removes every pair (size 0; capacity unchanged).
    pub fn clear(&self) -> Result<()> {
        let _changing = self.host_gate.read().unwrap_or_else(|e| e.into_inner());
        // SAFETY: `cmd` is the runner's recording command buffer.
        self.ctx.submit_and_wait(|cmd| unsafe { self.record_clear(cmd) })
    }
}
