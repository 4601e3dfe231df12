// The join's two tables, generated from the seed exactly as examples/hash_join/data.rs
// generates them (integer arithmetic only), so that bench/cuda/cuco_join.cu and the Rust
// example join the very same rows; both print the tables' checksum to show it.
//
// R: 2^log2r rows; its distinct keys are the first three quarters of a list of unique keys; row
// i takes key index j = (i * 0x9e3779b1) mod 2^log2r, j itself below three quarters and
// j - 3/4 * 2^log2r above (the first quarter of the keys has two rows, the rest one).
// S: 2^log2s rows; one in ten misses (a key of the last quarter, never in R); the others draw a
// rank r in [1, 2^log2r) log-uniformly (a Zipf law of exponent 1) and take key index
// (r - 1) mod (3/4 * 2^log2r).
// Payloads: R's fmix32(i ^ salt) & 0x7fffffff; S's scramble31(i ^ salt), a bijection of 31-bit
// values (s_row_of inverts it). Neither is ever the all-ones sentinel.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace join {

constexpr uint32_t kMask31 = 0x7fffffffu;

// murmur3's fmix32: a bijection of uint32_t.
inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

// n distinct keys: fmix32(i ^ salt) for i = 0, 1, ..., the two largest values skipped.
inline std::vector<uint32_t> unique_keys(size_t n, uint32_t salt) {
  std::vector<uint32_t> keys;
  keys.reserve(n);
  for (uint32_t i = 0; keys.size() < n; ++i) {
    const uint32_t k = fmix32(i ^ salt);
    if (k < 0xfffffffeu) keys.push_back(k);
  }
  return keys;
}

// A bijection of [0, 2^31): odd multiplications and right xorshifts modulo 2^31.
inline uint32_t scramble31(uint32_t x) {
  x = ((x & kMask31) * 0x2c1b3c6du) & kMask31;
  x ^= x >> 16;
  x = (x * 0x297a2d39u) & kMask31;
  return x ^ (x >> 15);
}

// The inverse of an odd number modulo 2^32 (Newton's iteration).
inline uint32_t inverse_odd(uint32_t c) {
  uint32_t inv = c;
  for (int k = 0; k < 5; ++k) inv *= 2u - c * inv;
  return inv;
}

// The inverse of y = x ^ (x >> s) on 31-bit values.
inline uint32_t unxorshift(uint32_t y, int s) {
  uint32_t x = y;
  for (int k = 0; k < 3; ++k) x = y ^ (x >> s);
  return x;
}

// The inverse of scramble31 on [0, 2^31).
inline uint32_t unscramble31(uint32_t y) {
  uint32_t x = unxorshift(y, 15);
  x = (x * inverse_odd(0x297a2d39u)) & kMask31;
  x = unxorshift(x, 16);
  return (x * inverse_odd(0x2c1b3c6du)) & kMask31;
}

// A table of (key, payload) rows, as two columns.
struct Table {
  std::vector<uint32_t> keys;
  std::vector<uint32_t> payloads;
};

// R, S, and the salt of S's payloads (for s_row_of).
struct Tables {
  Table r;
  Table s;
  uint32_t s_salt = 0;
};

// The S row whose payload is `payload` (a row index at or past S's rows: no row has it).
inline uint32_t s_row_of(const Tables& t, uint32_t payload) {
  return unscramble31(payload) ^ (t.s_salt & kMask31);
}

// The salts of one seed: keys, R's payloads, S's draws, S's payloads.
inline std::array<uint32_t, 4> salts(uint32_t seed) {
  const uint32_t base = fmix32(seed * 0x9e3779b9u + 0x632be5abu);
  return {fmix32(base ^ 0x5bd1e995u), fmix32(base ^ 0x2545f491u), fmix32(base ^ 0x68e31da4u),
          fmix32(base ^ 0x1b873593u)};
}

// A rank in [1, 2^log2), log-uniform in x (uniform on uint32_t): 2^(log2 * x / 2^32) in 16.16
// fixed point, the fraction of the power linearly interpolated.
inline uint64_t log_uniform_rank(uint32_t x, uint32_t log2) {
  const uint64_t t = (uint64_t(log2) * x) >> 16;
  return ((uint64_t(1) << (t >> 16)) * (0x10000u + (t & 0xffffu))) >> 16;
}

// R (2^log2r rows, log2r >= 2) and S (2^log2s rows) of `seed`.
inline Tables tables(uint32_t log2r, uint32_t log2s, uint32_t seed) {
  const std::array<uint32_t, 4> salt = salts(seed);
  const uint32_t nr = 1u << log2r, distinct = nr - nr / 4, ns = 1u << log2s;
  const std::vector<uint32_t> unique = unique_keys(nr, salt[0]);
  Tables t;
  t.s_salt = salt[3];
  for (uint32_t i = 0; i < nr; ++i) {
    const uint32_t j = (i * 0x9e3779b1u) & (nr - 1);
    t.r.keys.push_back(unique[j < distinct ? j : j - distinct]);
    t.r.payloads.push_back(fmix32(i ^ salt[1]) & kMask31);
  }
  for (uint32_t i = 0; i < ns; ++i) {
    const uint32_t h = fmix32(i ^ salt[2]);
    if (h % 10 == 0) {
      t.s.keys.push_back(unique[distinct + fmix32(h) % (nr / 4)]);
    } else {
      const uint64_t rank = log_uniform_rank(fmix32(h ^ 0x7f4a7c15u), log2r);
      t.s.keys.push_back(unique[(rank - 1) % distinct]);
    }
    t.s.payloads.push_back(scramble31(i ^ salt[3]));
  }
  return t;
}

// FNV-1a over R's keys, R's payloads, S's keys and S's payloads, a uint32_t at a time.
inline uint32_t checksum(const Tables& t) {
  uint32_t h = 0x811c9dc5u;
  for (const std::vector<uint32_t>* c : {&t.r.keys, &t.r.payloads, &t.s.keys, &t.s.payloads}) {
    for (uint32_t v : *c) h = (h ^ v) * 0x01000193u;
  }
  return h;
}

}  // namespace join
