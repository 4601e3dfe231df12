//! Blocking host calls on a map: upload, record (through the record layer), submit, wait
//! (bounded by the context's timeout), download. Arguments are checked before any GPU work;
//! on an argument error nothing changes. Host-visible buffers that shaders write directly are
//! only a few bytes (counters); large outputs go through device-local buffers and copies.

use super::table::{check_host_keys, UploadedPairs};
use super::{
    HashEraseArgs, HashFindArgs, HashInsertArgs, HashKey, HashMap, HashMapDesc, HashMapStats, HashRehashArgs,
    HashRetrieveArgs, HashValue, InsertStatus,
};
use crate::core::buffer::ElementCount;
use crate::core::runner::{finish_submission, read_back};
use crate::core::types::ReduceOp;
use crate::error::{Error, Result};

impl HashMap {
    /// Inserts `keys[i] -> values[i]` (an existing key gets the new value; of duplicates in
    /// the batch one value is stored, unspecified which). Reserved keys refuse the whole batch
    /// with [`Error::InvalidArgument`] before any GPU work. Keys that find no free slot are not
    /// stored and give [`Error::TableFull`] (with their number) after the call: every other key
    /// is stored and the size is exact.
    pub fn insert<K: HashKey, V: HashValue>(&self, keys: &[K], values: &[V]) -> Result<()> {
        self.insert_impl(keys, values, None, None)
    }

    /// [`HashMap::insert`], also reporting each key's [`InsertStatus`] in `status` (same
    /// length; filled also when the result is [`Error::TableFull`]).
    pub fn insert_with_status<K: HashKey, V: HashValue>(
        &self,
        keys: &[K],
        values: &[V],
        status: &mut [InsertStatus],
    ) -> Result<()> {
        if status.len() != keys.len() {
            return Err(Error::invalid(format!(
                "hash insert: {} keys but room for {} statuses",
                keys.len(),
                status.len()
            )));
        }
        self.insert_impl(keys, values, Some(status), None)
    }

    /// An insert (`op` None) or an insert-or-apply of `op`, with optional statuses.
    pub(super) fn insert_impl<K: HashKey, V: HashValue>(
        &self,
        keys: &[K],
        values: &[V],
        status: Option<&mut [InsertStatus]>,
        op: Option<ReduceOp>,
    ) -> Result<()> {
        let what = if op.is_some() {
            "hash insert_or_apply"
        } else {
            "hash insert"
        };
        self.table.check_types::<K, V>(what)?;
        if keys.len() != values.len() {
            return Err(Error::invalid(format!(
                "{what}: {} keys but {} values",
                keys.len(),
                values.len()
            )));
        }
        check_host_keys(what, keys, "nothing was inserted")?;
        if keys.is_empty() {
            return Ok(());
        }
        let ctx = &self.ctx;
        let n = keys.len() as u64;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        let pairs = UploadedPairs::new(ctx, keys, values, "hash")?;
        let want_status = status.is_some();
        let dev_status = ctx.device_buffer(if want_status { n * 4 } else { 16 }, "vkalgo hash status")?;
        let mut down_status = ctx.readback_buffer(if want_status { n * 4 } else { 16 })?;
        let mut counter = ctx.readback_buffer(16)?;
        let args = HashInsertArgs {
            keys: pairs.keys.sub_range(0, n * kb),
            values: pairs.values.sub_range(0, n * vb),
            count: ElementCount::Direct(n),
            max_count: n,
            status: want_status.then(|| dev_status.sub_range(0, n * 4)),
            failed_count: Some(counter.sub_range(0, 4)),
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            pairs.record_copies(ctx, cmd);
            ctx.device.cmd_fill_buffer(cmd, counter.buffer(), 0, 16, 0);
            ctx.transfer_to_compute(cmd);
            match op {
                Some(op) => self.record_insert_or_apply(cmd, &args, op)?,
                None => self.record_insert(cmd, &args)?,
            }
            self.ctx.compute_to_host(cmd);
            if want_status {
                ctx.compute_to_transfer(cmd);
                ctx.record_copy(cmd, &dev_status, &down_status, n * 4);
                ctx.transfer_to_host(cmd);
            }
            Ok(())
        });
        finish_submission!(submitted, pairs, dev_status, down_status, counter);
        if let Some(status) = status {
            let mut codes = vec![0u32; keys.len()];
            read_back(&mut down_status, &mut codes)?;
            for (s, c) in status.iter_mut().zip(codes) {
                *s = InsertStatus::from_code(c)
                    .ok_or_else(|| Error::Internal(format!("{what}: status code {c}")))?;
            }
        }
        let mut failed = [0u32];
        read_back(&mut counter, &mut failed)?;
        super::table::check_failed(what, "keys", failed[0], n, self.max_probes(), self.capacity())
    }

    /// Looks `keys` up: `values[i]` gets the value (0 when absent), `found[i]` (if given)
    /// whether the key is in the map. Slices must have the same length.
    pub fn find<K: HashKey, V: HashValue>(
        &self,
        keys: &[K],
        values: &mut [V],
        found: Option<&mut [bool]>,
    ) -> Result<()> {
        self.table.check_types::<K, V>("hash find")?;
        if values.len() != keys.len() || found.as_ref().is_some_and(|f| f.len() != keys.len()) {
            return Err(Error::invalid(
                "hash find: keys, values and found differ in length",
            ));
        }
        let mut flags = vec![0u32; if found.is_some() { keys.len() } else { 0 }];
        self.lookup(keys, Some(values), found.is_some().then_some(&mut flags[..]))?;
        if let Some(found) = found {
            for (f, &c) in found.iter_mut().zip(&flags) {
                *f = c != 0;
            }
        }
        Ok(())
    }

    /// Whether each key is in the map (`found` has the length of `keys`).
    pub fn contains<K: HashKey>(&self, keys: &[K], found: &mut [bool]) -> Result<()> {
        self.table.check_key_type::<K>("hash contains")?;
        if found.len() != keys.len() {
            return Err(Error::invalid("hash contains: keys and found differ in length"));
        }
        let mut flags = vec![0u32; keys.len()];
        self.lookup::<K, u32>(keys, None, Some(&mut flags))?;
        for (f, &c) in found.iter_mut().zip(&flags) {
            *f = c != 0;
        }
        Ok(())
    }

    /// find/contains: `V` is only used when `values` is given.
    fn lookup<K: HashKey, V: bytemuck::Pod>(
        &self,
        keys: &[K],
        values: Option<&mut [V]>,
        flags: Option<&mut [u32]>,
    ) -> Result<()> {
        super::map::check_batch("hash find", keys.len() as u64)?;
        if keys.is_empty() {
            return Ok(());
        }
        let ctx = &self.ctx;
        let n = keys.len() as u64;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        let up_keys = ctx.staging_from(keys)?;
        let dev_keys = ctx.device_buffer(n * kb, "vkalgo hash keys")?;
        // Outputs the caller did not ask for get a token buffer, on the device as on the host.
        let dev_values =
            ctx.device_buffer(if values.is_some() { n * vb } else { 16 }, "vkalgo hash values")?;
        let dev_flags = ctx.device_buffer(if flags.is_some() { n * 4 } else { 16 }, "vkalgo hash found")?;
        let mut down_values = ctx.readback_buffer(if values.is_some() { n * vb } else { 16 })?;
        let mut down_flags = ctx.readback_buffer(if flags.is_some() { n * 4 } else { 16 })?;
        let args = HashFindArgs {
            keys: dev_keys.sub_range(0, n * kb),
            values: values.is_some().then(|| dev_values.sub_range(0, n * vb)),
            found: flags.is_some().then(|| dev_flags.sub_range(0, n * 4)),
            count: ElementCount::Direct(n),
            max_count: n,
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &up_keys, &dev_keys, n * kb);
            ctx.transfer_to_compute(cmd);
            self.record_find(cmd, &args)?;
            ctx.compute_to_transfer(cmd);
            if args.values.is_some() {
                ctx.record_copy(cmd, &dev_values, &down_values, n * vb);
            }
            if args.found.is_some() {
                ctx.record_copy(cmd, &dev_flags, &down_flags, n * 4);
            }
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(
            submitted,
            up_keys,
            dev_keys,
            dev_values,
            dev_flags,
            down_values,
            down_flags
        );
        if let Some(values) = values {
            read_back(&mut down_values, values)?;
        }
        if let Some(flags) = flags {
            read_back(&mut down_flags, flags)?;
        }
        Ok(())
    }

    /// Erases `keys` (absent and reserved keys are no error); returns how many entries were
    /// erased.
    pub fn erase<K: HashKey>(&self, keys: &[K]) -> Result<u64> {
        self.table.check_key_type::<K>("hash erase")?;
        super::map::check_batch("hash erase", keys.len() as u64)?;
        if keys.is_empty() {
            return Ok(0);
        }
        let before = self.size()?;
        let ctx = &self.ctx;
        let n = keys.len() as u64;
        let kb = self.key_type().bytes();
        let up_keys = ctx.staging_from(keys)?;
        let dev_keys = ctx.device_buffer(n * kb, "vkalgo hash keys")?;
        let args = HashEraseArgs {
            keys: dev_keys.sub_range(0, n * kb),
            erased: None,
            count: ElementCount::Direct(n),
            max_count: n,
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &up_keys, &dev_keys, n * kb);
            ctx.transfer_to_compute(cmd);
            self.record_erase(cmd, &args)
        });
        finish_submission!(submitted, up_keys, dev_keys);
        Ok(before - self.size()?)
    }

    /// The number of live keys.
    pub fn size(&self) -> Result<u64> {
        Ok(self.stats()?.size)
    }

    /// Live keys, tombstones and capacity.
    pub fn stats(&self) -> Result<HashMapStats> {
        let ctx = &self.ctx;
        let mut header = ctx.readback_buffer(16)?;
        let address = header.address();
        let submitted = ctx.submit_and_wait(|cmd| {
            // SAFETY: `cmd` is the runner's recording command buffer; `header` outlives it.
            unsafe {
                self.record_header_copy(cmd, address)?;
                self.ctx.compute_to_host(cmd);
            }
            Ok(())
        });
        finish_submission!(submitted, header);
        let mut words = [0u32; 4];
        read_back(&mut header, &mut words)?;
        Ok(HashMapStats {
            size: words[0] as u64,
            tombstones: words[1] as u64,
            capacity: self.capacity(),
        })
    }

    /// Every live entry, in no particular order.
    pub fn retrieve_all<K: HashKey, V: HashValue>(&self) -> Result<(Vec<K>, Vec<V>)> {
        self.table.check_types::<K, V>("hash retrieve_all")?;
        let size = self.size()? as usize;
        let mut keys = vec![K::zeroed(); size];
        let mut values = vec![V::zeroed(); size];
        let n = self.retrieve_all_into(&mut keys, &mut values)?;
        keys.truncate(n);
        values.truncate(n);
        Ok((keys, values))
    }

    /// Writes every live entry into `keys` and `values` (same length, at least the map's size)
    /// and returns how many. Too small: [`Error::InvalidArgument`] naming the needed count,
    /// nothing written.
    pub fn retrieve_all_into<K: HashKey, V: HashValue>(
        &self,
        keys: &mut [K],
        values: &mut [V],
    ) -> Result<usize> {
        self.table.check_types::<K, V>("hash retrieve_all")?;
        if keys.len() != values.len() {
            return Err(Error::invalid(
                "hash retrieve_all: keys and values differ in length",
            ));
        }
        let size = self.size()?;
        if (keys.len() as u64) < size {
            return Err(Error::invalid(format!(
                "hash retrieve_all: the map holds {size} entries but the output has room for {}",
                keys.len()
            )));
        }
        if size == 0 {
            return Ok(0);
        }
        let ctx = &self.ctx;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        let dev_keys = ctx.device_buffer(size * kb, "vkalgo hash keys out")?;
        let dev_values = ctx.device_buffer(size * vb, "vkalgo hash values out")?;
        let mut down_keys = ctx.readback_buffer(size * kb)?;
        let mut down_values = ctx.readback_buffer(size * vb)?;
        let mut count = ctx.readback_buffer(16)?;
        let args = HashRetrieveArgs {
            keys: dev_keys.sub_range(0, size * kb),
            values: Some(dev_values.sub_range(0, size * vb)),
            capacity: size,
            count_out: count.sub_range(0, 4),
        };
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            self.record_retrieve_all(cmd, &args)?;
            self.ctx.compute_to_host(cmd);
            ctx.compute_to_transfer(cmd);
            ctx.record_copy(cmd, &dev_keys, &down_keys, size * kb);
            ctx.record_copy(cmd, &dev_values, &down_values, size * vb);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(submitted, dev_keys, dev_values, down_keys, down_values, count);
        let mut written = [0u32];
        read_back(&mut count, &mut written)?;
        if written[0] as u64 != size {
            return Err(Error::Internal(format!(
                "hash retrieve_all: size {size} but {} live entries found",
                written[0]
            )));
        }
        let n = size as usize;
        read_back(&mut down_keys, &mut keys[..n])?;
        read_back(&mut down_values, &mut values[..n])?;
        Ok(n)
    }

    /// Removes every entry (size and tombstones 0; capacity unchanged).
    pub fn clear(&self) -> Result<()> {
        // SAFETY: `cmd` is the runner's recording command buffer.
        let submitted = self.ctx.submit_and_wait(|cmd| unsafe { self.record_clear(cmd) });
        if let Err(Error::Timeout(m)) = submitted {
            return Err(Error::Timeout(m));
        }
        submitted
    }

    /// Moves the entries into new storage of `new_capacity` slots (rounded up like a new
    /// map's), dropping tombstones; the same capacity is fine. A capacity below the number of
    /// live keys is refused ([`Error::InvalidArgument`]); if some keys find no slot in the new
    /// storage, [`Error::TableFull`] and the map is unchanged. The device view changes.
    /// A map on the caller's memory ([`HashMap::new_in`]) is refused
    /// ([`Error::InvalidArgument`]): make the new map on new memory of yours and record
    /// [`HashMap::record_rehash_into`].
    pub fn rehash(&mut self, new_capacity: u64) -> Result<()> {
        if self.on_caller_memory() {
            return Err(Error::invalid(
                "hash rehash: the map lives on the caller's memory; create the new map with \
                 HashMap::new_in and record_rehash_into it",
            ));
        }
        let ctx = self.ctx.clone();
        let stats = self.stats()?;
        let desc = HashMapDesc {
            key_type: self.key_type(),
            value_type: self.value_type(),
            capacity: new_capacity,
            packed_insert: Some(self.packed_insert()),
            bucket_bytes: Some(self.bucket_bytes()),
            tuning: Some(self.tuning()),
        };
        if new_capacity == 0 {
            return Err(Error::invalid("hash rehash: capacity 0"));
        }
        if new_capacity < stats.size {
            return Err(Error::invalid(format!(
                "hash rehash: capacity {new_capacity} is below the {} live keys",
                stats.size
            )));
        }
        let mut target = HashMap::new(&ctx, &desc)?;
        let mut counter = ctx.readback_buffer(16)?;
        let failed_range = counter.sub_range(0, 4);
        let submitted = ctx.submit_and_wait(|cmd| unsafe {
            ctx.device.cmd_fill_buffer(cmd, counter.buffer(), 0, 16, 0);
            ctx.transfer_to_compute(cmd);
            self.record_rehash_into(
                cmd,
                &HashRehashArgs {
                    dst: &target,
                    failed_count: Some(failed_range),
                },
            )?;
            self.ctx.compute_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = submitted {
            target.leak();
            counter.leak();
            return Err(Error::Timeout(m));
        }
        submitted?;
        let mut failed = [0u32];
        read_back(&mut counter, &mut failed)?;
        if failed[0] > 0 {
            return Err(Error::TableFull(format!(
                "hash rehash: {} of {} keys found no slot in {} slots; the map is unchanged",
                failed[0],
                stats.size,
                target.capacity()
            )));
        }
        // The old storage is freed with `target` (the GPU is done with it).
        std::mem::swap(self, &mut target);
        Ok(())
    }
}
