//! Table geometry: how a requested capacity becomes buckets, and how far operations probe.

/// Most buckets an operation visits before it gives up (an insert then reports the key as not
/// stored, a lookup as absent). Tables of up to `PROBE_LIMIT` buckets are scanned whole, so an
/// insert into them fails only when no slot at all is free; in larger tables a key needs 4096
/// full buckets in a row to fail, which happens in practice only at loads very near 1. The bound
/// also keeps every loop below lavapipe's cap of loop iterations per invocation (see
/// [`super::HashTuning::for_device`]).
pub const PROBE_LIMIT: u32 = 4096;

/// Bytes of counters in front of the buckets (size, tombstones, retrieve cursor at bytes 0-12;
/// the reclaim's count of tombstones erased since the last one and its flag at bytes 128-136,
/// a cache line of their own; the rest is padding so the buckets start 256-byte aligned).
pub const HEADER_BYTES: u64 = 256;

/// Largest number of slots of a map, 2^31 (the size, tombstone and retrieve counters are u32,
/// bucket indices stay below 2^30). A requested capacity is refused
/// ([`Error::InvalidArgument`](crate::Error)) when its rounding (the `vkalgo::hash` module docs)
/// would exceed it: the largest accepted capacities are [`max_capacity`] = 2,147,483,578 slots
/// with 2-slot buckets, 2,147,483,636 with 4-slot buckets and 2,147,483,192 with 8-slot buckets.
pub const MAX_SLOTS: u64 = 1 << 31;

/// Largest number of keys in one batch (insert, find, contains, erase), 2^32 - 1: counts are
/// u32 on the GPU. Larger batches are refused with [`Error::InvalidArgument`](crate::Error)
/// before anything is recorded or uploaded; the kernels reach every index below it with 64-bit
/// byte addresses and without wrapping arithmetic.
pub const MAX_BATCH: u64 = u32::MAX as u64;

/// The largest capacity accepted for a map with `slots` slots per bucket (2, 4 or 8): the
/// largest prime `p` with `p * slots <= MAX_SLOTS`, times `slots`.
pub fn max_capacity(slots: u64) -> u64 {
    let mut p = MAX_SLOTS / slots;
    while !is_prime(p) {
        p -= 1;
    }
    p * slots
}

/// The bucket count for a requested capacity with `slots` slots per bucket: the smallest prime
/// that is at least `max(2, ceil(capacity / slots))`. A prime count lets double hashing use any
/// step in `1..buckets` and still visit every bucket. `None` when the map would exceed
/// [`MAX_SLOTS`].
pub fn buckets_for_capacity(capacity: u64, slots: u64) -> Option<u64> {
    if capacity == 0 || capacity > MAX_SLOTS {
        return None;
    }
    let mut n = capacity.div_ceil(slots).max(2);
    while !is_prime(n) {
        n += 1;
    }
    (n * slots <= MAX_SLOTS).then_some(n)
}

/// Buckets an operation visits at most in a map of `buckets` buckets.
pub fn max_probes(buckets: u64) -> u32 {
    buckets.min(PROBE_LIMIT as u64) as u32
}

/// Trial division (n < 2^30 here: at most ~16k divisions).
pub fn is_prime(n: u64) -> bool {
    if n < 4 {
        return n >= 2;
    }
    if n % 2 == 0 || n % 3 == 0 {
        return false;
    }
    let mut d = 5u64;
    while d * d <= n {
        if n % d == 0 || n % (d + 2) == 0 {
            return false;
        }
        d += 6;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_round_up_to_prime_bucket_counts() {
        assert_eq!(buckets_for_capacity(0, 4), None);
        assert_eq!(buckets_for_capacity(1, 4), Some(2));
        assert_eq!(buckets_for_capacity(8, 4), Some(2));
        assert_eq!(buckets_for_capacity(9, 4), Some(3));
        assert_eq!(buckets_for_capacity(100, 4), Some(29)); // ceil(100/4) = 25 -> 29
        assert_eq!(buckets_for_capacity(100, 8), Some(13)); // ceil(100/8) = 13
        assert_eq!(buckets_for_capacity(1 << 27, 4), Some((1 << 25) + 35));
        assert_eq!(buckets_for_capacity(MAX_SLOTS + 1, 4), None);
        // The largest capacities, exactly as the docs state them.
        assert_eq!(max_capacity(2), 2_147_483_578);
        assert_eq!(max_capacity(4), 2_147_483_636);
        assert_eq!(max_capacity(8), 2_147_483_192);
        for slots in [2u64, 4, 8] {
            let max = max_capacity(slots);
            assert_eq!(buckets_for_capacity(max, slots), Some(max / slots));
            assert_eq!(buckets_for_capacity(max + 1, slots), None);
        }
        for slots in [2u64, 4, 8] {
            for cap in [1u64, 2, 3, 5, 1000, 12345, 1 << 20, (1 << 20) + 1] {
                let b = buckets_for_capacity(cap, slots).unwrap();
                assert!(is_prime(b) && b * slots >= cap, "{cap} -> {b}");
                // Little waste: the next prime is close.
                assert!(b * slots < cap + slots * 200, "{cap} -> {b}");
            }
        }
    }

    #[test]
    fn primes() {
        let small: Vec<u64> = (0..30).filter(|&n| is_prime(n)).collect();
        assert_eq!(small, vec![2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
        assert!(is_prime(2_147_483_647));
        assert!(!is_prime(2_147_483_649));
    }
}
