//! The check of a set's storage for tests ([`GpuSet::verify_pools`]): every block held by
//! exactly one chunk or free in its ring exactly once.

use super::blocks::array_blocks;
use super::gpu::{le_words, GpuSet};
use super::layout::{ARRAY_BLOCK_BYTES, CARD_MASK, CHUNKS, META_DIR, RUN_SHIFT};
use super::roaring::{ARRAY_MAX, CHUNK_VALUES};
use crate::error::{Error, Result};

impl GpuSet {
    /// Checks the set's storage (for tests): every block of both pools is held by exactly one
    /// chunk or free in its ring exactly once. Blocking. Errors: [`Error::Internal`] naming the
    /// first block found lost, shared or out of range.
    #[doc(hidden)]
    pub fn verify_pools(&self) -> Result<()> {
        let (cursors, rings) = self.download_rings()?;
        let parts = Self::download(
            &self.ctx,
            &[
                (&self.control, META_DIR, self.dir_bytes()),
                (&self.ar_pool, 0, self.ar_blocks as u64 * ARRAY_BLOCK_BYTES),
            ],
        )?;
        let (dir, ar) = (self.flat_directory(&parts[0])?, le_words(&parts[1]));
        let fail = |m: String| Err(Error::Internal(format!("set pools: {m}")));
        let mut held = [
            vec![false; self.bm_blocks as usize],
            vec![false; self.ar_blocks as usize],
        ];
        let mut claim = |pool: usize, id: u32, by: &dyn Fn() -> String| -> Result<()> {
            match held[pool].get_mut(id as usize) {
                None => fail(format!("{} holds block {id} of pool {pool}, out of range", by())),
                Some(true) => fail(format!("{} holds block {id} of pool {pool}, held twice", by())),
                Some(h) => {
                    *h = true;
                    Ok(())
                }
            }
        };
        // A packed set's runs of several runs lie in the array pool's last blocks, after every
        // array's: those blocks are held by the runs together.
        let mut run_words = 0usize;
        let mut packed_runs = Vec::new();
        for c in 0..CHUNKS as usize {
            let (x, id) = (dir[2 * c], dir[2 * c + 1]);
            let (card, runs) = (x & CARD_MASK, x >> RUN_SHIFT);
            let by = || format!("chunk {c} ({card} values, {runs} runs)");
            match card {
                _ if runs > 1 && self.packed.is_some() => {
                    packed_runs.push((id as usize, runs as usize, c));
                    run_words += runs as usize;
                }
                _ if runs > 1 => claim(1, id, &by)?,
                _ if runs == 1 => {}
                0 | CHUNK_VALUES => {}
                n if n > ARRAY_MAX => claim(0, id, &by)?,
                n => {
                    claim(1, id, &by)?;
                    for b in 1..array_blocks(n) as usize {
                        claim(1, ar[id as usize * 48 + b - 1], &by)?;
                    }
                }
            }
        }
        if run_words > 0 {
            let blocks = run_words.div_ceil(48);
            let start = (self.ar_blocks as usize)
                .checked_sub(blocks)
                .ok_or_else(|| Error::Internal(format!("set pools: {run_words} run words")))?;
            let mut end = start * 48;
            packed_runs.sort_unstable();
            for &(first, runs, c) in &packed_runs {
                if first < end || first + runs > self.ar_blocks as usize * 48 {
                    return fail(format!(
                        "chunk {c}: runs at word {first} overlap or leave the pool"
                    ));
                }
                end = first + runs;
            }
            for id in start..self.ar_blocks as usize {
                claim(1, id as u32, &|| "the packed runs".to_string())?;
            }
        }
        for (pool, ring) in rings.iter().enumerate() {
            let ring = le_words(ring);
            let (head, tail) = (cursors[2 * pool], cursors[2 * pool + 1]);
            for i in 0..tail.wrapping_sub(head) {
                let id = ring[(head.wrapping_add(i) as usize) & (ring.len() - 1)];
                claim(pool, id, &|| format!("ring position {}", head.wrapping_add(i)))?;
            }
        }
        for (pool, h) in held.iter().enumerate() {
            if let Some(id) = h.iter().position(|h| !h) {
                return fail(format!("block {id} of pool {pool} is neither held nor free"));
            }
        }
        Ok(())
    }
}
