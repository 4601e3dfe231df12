// The CPU side of bench/cuda/cuco_join.cu: a hash join of S with R on std::unordered_map (R's
// payloads grouped by key), the exact check of a GPU join's pairs against it, and the group-by
// of S (the sum of its payloads per key, wrapping).
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "join_data.h"

namespace join {

// R indexed by key: each key's payloads at payloads[start, start + len).
class Reference {
 public:
  Reference(const Table& r, const Table& s) : payloads_(r.keys.size()) {
    index_.reserve(r.keys.size());
    for (uint32_t k : r.keys) ++index_[k].second;
    uint32_t start = 0;
    for (auto& kv : index_) {
      kv.second.first = start;
      start += kv.second.second;
    }
    std::unordered_map<uint32_t, uint32_t> filled;
    filled.reserve(index_.size());
    for (size_t i = 0; i < r.keys.size(); ++i) {
      payloads_[index_[r.keys[i]].first + filled[r.keys[i]]++] = r.payloads[i];
    }
    for (uint32_t k : s.keys) total_ += matches(k).second;
  }

  // R's payloads of `key`: (first, count).
  std::pair<const uint32_t*, uint32_t> matches(uint32_t key) const {
    const auto it = index_.find(key);
    if (it == index_.end()) return {nullptr, 0};
    return {payloads_.data() + it->second.first, it->second.second};
  }

  // Joined pairs in all.
  uint64_t total() const { return total_; }

 private:
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> index_;
  std::vector<uint32_t> payloads_;
  uint64_t total_ = 0;
};

// The pairs of a join, as columns: pair j is (probe_keys[j], s_payloads[j]) from S and
// (contained_keys[j], r_payloads[j]) from R.
struct Pairs {
  std::vector<uint32_t> probe_keys, s_payloads, contained_keys, r_payloads;
};

// Checks a join's pairs, in any order: each S payload names its row (s_row_of); each row must
// get exactly its key's R payloads, as a multiset, with its key on both sides. Returns "" when
// right, else what is wrong.
inline std::string check_join(const Reference& ref, const Tables& t, const Pairs& p) {
  const size_t ns = t.s.keys.size(), n = p.s_payloads.size();
  if (n != ref.total() || p.probe_keys.size() != n || p.contained_keys.size() != n || p.r_payloads.size() != n) {
    return std::to_string(n) + " pairs, expected " + std::to_string(ref.total());
  }
  std::vector<uint64_t> start(ns + 1, 0);
  for (size_t j = 0; j < n; ++j) {
    const uint32_t row = s_row_of(t, p.s_payloads[j]);
    if (row >= ns || p.probe_keys[j] != t.s.keys[row] || p.contained_keys[j] != t.s.keys[row]) {
      return "pair " + std::to_string(j) + ": keys or S payload not of one S row";
    }
    ++start[row + 1];
  }
  for (size_t i = 0; i < ns; ++i) start[i + 1] += start[i];
  std::vector<uint64_t> at(start.begin(), start.end() - 1);
  std::vector<uint32_t> grouped(n);
  for (size_t j = 0; j < n; ++j) grouped[at[s_row_of(t, p.s_payloads[j])]++] = p.r_payloads[j];
  std::vector<uint32_t> want;
  for (size_t i = 0; i < ns; ++i) {
    const auto m = ref.matches(t.s.keys[i]);
    want.assign(m.first, m.first + m.second);
    std::sort(want.begin(), want.end());
    std::sort(grouped.begin() + start[i], grouped.begin() + start[i + 1]);
    if (!std::equal(want.begin(), want.end(), grouped.begin() + start[i], grouped.begin() + start[i + 1])) {
      return "S row " + std::to_string(i) + ": R payloads differ from the CPU join's";
    }
  }
  return "";
}

// The group-by of S: the sum (wrapping) of its payloads per key.
inline std::unordered_map<uint32_t, uint32_t> group_by(const Table& s) {
  std::unordered_map<uint32_t, uint32_t> sums;
  for (size_t i = 0; i < s.keys.size(); ++i) sums[s.keys[i]] += s.payloads[i];
  return sums;
}

}  // namespace join
