// cuCollections baselines for vkalgo's hash benchmarks, u32 keys and values, each measured in
// both of cuco's configurations: "cg1" (one thread per key, murmur3: its faster configuration)
// and "cg4" (static_map's default: 4-thread groups, xxhash).
//
//   map LOG2CAP LOADS REPS        static_map of 2^LOG2CAP requested slots; per load L, N = L *
//                                 2^LOG2CAP unique keys: insert into the empty map, find the N
//                                 keys (hits), find N other keys (misses), erase the N keys.
//   apply LOG2N LOG2CAP D REPS    insert_or_apply (sum) of 2^LOG2N keys drawn from 2^d distinct
//                                 ones (each d of the comma list D) into an empty map of
//                                 2^LOG2CAP slots.
//   multimap LOG2N MULT LOG2CAP REPS   static_multimap: insert 2^LOG2N pairs (2^LOG2N / MULT
//                                 distinct keys, MULT values each), count and retrieve the
//                                 matches of 2^LOG2N / MULT queries (half present).
//
// Keys as `vkalgo-bench hash` makes them: key i = murmur3 fmix32(i ^ salt), the two largest
// values skipped (vkalgo's reserved keys; here the empty and erased sentinels). Each operation
// is timed alone with CUDA events on a held stream (bench_common.h), median of REPS after a
// warm-up; inserts and erases start from a freshly cleared / filled map outside the timed
// region. Every result is verified (sizes, found values, sums, counts, retrieved pairs).
//
// Build (bench/build_cuda.sh): nvcc -O3 -std=c++17 -arch=sm_90 --expt-extended-lambda
//   -I <cuco>/include -o cuco_bench bench/cuda/cuco_bench.cu
// Output: RESULT cuco_<cfg> hash_<op>_u32 <variant> <N> <median ms> <G keys/s> <capacity>

#include <cuco/static_map.cuh>
#include <cuco/static_multimap.cuh>
#include <cuco/utility/reduction_functors.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#include <algorithm>
#include <string>

#include "bench_common.h"

namespace {

constexpr uint32_t kEmpty = 0xffffffffu;
constexpr uint32_t kErased = 0xfffffffeu;

uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

std::vector<uint32_t> unique_keys(size_t n, uint32_t salt) {
  std::vector<uint32_t> keys;
  keys.reserve(n);
  for (uint32_t i = 0; keys.size() < n; ++i) {
    const uint32_t k = fmix32(i ^ salt);
    if (k < kErased) keys.push_back(k);
  }
  return keys;
}

using Pair = cuco::pair<uint32_t, uint32_t>;
using Cg1 = cuco::linear_probing<1, cuco::murmurhash3_32<uint32_t>>;
using Cg4 = cuco::linear_probing<4, cuco::xxhash_32<uint32_t>>;
template <class Probing>
using Map = cuco::static_map<uint32_t, uint32_t, cuco::extent<size_t>, cuda::thread_scope_device,
                             thrust::equal_to<uint32_t>, Probing>;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "verification failed: %s\n", what);
    std::exit(3);
  }
}

void result(const char* cfg, const std::string& op, const std::string& variant, size_t n,
            const std::vector<float>& ms, size_t capacity) {
  const double med = median(ms);
  std::printf("RESULT\tcuco_%s\thash_%s_u32\t%s\t%zu\t%.4f\t%.3f\t%zu\n", cfg, op.c_str(),
              variant.c_str(), n, med, double(n) / med / 1e6, capacity);
  std::fflush(stdout);
}

__global__ void pack_pairs(const uint32_t* keys, const uint32_t* values, Pair* pairs, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    pairs[i] = Pair{keys[i], values[i]};
  }
}

thrust::device_vector<Pair> make_pairs(const Gpu& gpu, const thrust::device_vector<uint32_t>& keys,
                                       const thrust::device_vector<uint32_t>& values, size_t n) {
  thrust::device_vector<Pair> pairs(n);
  pack_pairs<<<grid_for(n, gpu.sm_count), kBlock, 0, gpu.stream>>>(
      keys.data().get(), values.data().get(), pairs.data().get(), n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
  return pairs;
}

template <class Probing>
void run_map(const Gpu& gpu, const char* cfg, size_t cap, double load, int reps) {
  const size_t n = size_t(load * double(cap));
  const std::vector<uint32_t> host = unique_keys(2 * n, 0x5bd1e995u);
  std::vector<uint32_t> host_values(n);
  for (size_t i = 0; i < n; ++i) host_values[i] = fmix32(host[i] ^ 0x2545f491u) | 1u;
  thrust::device_vector<uint32_t> keys(host.begin(), host.begin() + n);
  thrust::device_vector<uint32_t> misses(host.begin() + n, host.end());
  thrust::device_vector<uint32_t> values(host_values.begin(), host_values.end());
  thrust::device_vector<Pair> pairs = make_pairs(gpu, keys, values, n);
  thrust::device_vector<uint32_t> out(n);
  Map<Probing> map{cap, cuco::empty_key<uint32_t>{kEmpty}, cuco::empty_value<uint32_t>{0},
                   cuco::erased_key<uint32_t>{kErased}};
  char variant[32];
  std::snprintf(variant, sizeof variant, "load%.1f", load);
  std::vector<float> insert_ms, hit_ms, miss_ms, erase_ms;
  for (int r = 0; r < reps + 1; ++r) {
    map.clear(gpu.stream);
    const float ins = time_once(gpu, [&] { map.insert_async(pairs.begin(), pairs.end(), gpu.stream); });
    check(map.size(gpu.stream) == n, "map size after insert");
    const float hit = time_once(gpu, [&] { map.find_async(keys.begin(), keys.end(), out.begin(), gpu.stream); });
    check(thrust::equal(out.begin(), out.end(), values.begin()), "find hits: values");
    const float miss = time_once(gpu, [&] { map.find_async(misses.begin(), misses.end(), out.begin(), gpu.stream); });
    check(thrust::count(out.begin(), out.end(), 0u) == ptrdiff_t(n), "find misses: not found");
    const float era = time_once(gpu, [&] { map.erase_async(keys.begin(), keys.end(), gpu.stream); });
    check(map.size(gpu.stream) == 0, "map size after erase");
    if (r > 0) {  // the first round warms up
      insert_ms.push_back(ins);
      hit_ms.push_back(hit);
      miss_ms.push_back(miss);
      erase_ms.push_back(era);
    }
  }
  result(cfg, "insert", variant, n, insert_ms, map.capacity());
  result(cfg, "find_hit", variant, n, hit_ms, map.capacity());
  result(cfg, "find_miss", variant, n, miss_ms, map.capacity());
  result(cfg, "erase", variant, n, erase_ms, map.capacity());
}

template <class Probing>
void run_apply(const Gpu& gpu, const char* cfg, size_t n, size_t cap, int log2d, int reps) {
  const size_t d = size_t(1) << log2d;
  const std::vector<uint32_t> distinct = unique_keys(d, 0x9e3779b9u);
  std::vector<uint32_t> host(n), host_values(n);
  // Sums by distinct key's index (a flat array: a hash map of 2^26 keys takes minutes here).
  std::vector<uint32_t> sums(d, 0);
  std::vector<uint8_t> seen(d, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t j = fmix32(uint32_t(i) ^ 0x7f4a7c15u) % d;
    host[i] = distinct[j];
    host_values[i] = fmix32(uint32_t(i)) & 0xffu;
    sums[j] += host_values[i];
    seen[j] = 1;
  }
  const size_t present = std::count(seen.begin(), seen.end(), uint8_t(1));
  thrust::device_vector<uint32_t> keys(host.begin(), host.end());
  thrust::device_vector<uint32_t> values(host_values.begin(), host_values.end());
  thrust::device_vector<Pair> pairs = make_pairs(gpu, keys, values, n);
  Map<Probing> map{cap, cuco::empty_key<uint32_t>{kEmpty}, cuco::empty_value<uint32_t>{0}};
  std::vector<float> ms;
  for (int r = 0; r < reps + 1; ++r) {
    map.clear(gpu.stream);
    const float t = time_once(gpu, [&] {
      // The identity equal to the empty-value sentinel: cuco's fastest form of the sum.
      map.insert_or_apply_async(pairs.begin(), pairs.end(), 0u, cuco::reduce::plus{}, gpu.stream);
    });
    if (r > 0) ms.push_back(t);
  }
  check(map.size(gpu.stream) == present, "insert_or_apply: distinct keys");
  thrust::device_vector<uint32_t> dk(distinct.begin(), distinct.end()), dv(d);
  map.find(dk.begin(), dk.end(), dv.begin(), gpu.stream);
  std::vector<uint32_t> got(d);
  thrust::copy(dv.begin(), dv.end(), got.begin());
  for (size_t i = 0; i < d; ++i) check(got[i] == sums[i], "insert_or_apply: sums");
  result(cfg, "insert_or_apply", "distinct2^" + std::to_string(log2d), n, ms, map.capacity());
}

void run_multimap(const Gpu& gpu, size_t n, size_t mult, size_t cap, int reps) {
  const size_t distinct = n / mult;
  const std::vector<uint32_t> host_keys = unique_keys(2 * distinct, 0x1b873593u);
  std::vector<uint32_t> hk(n), hv(n);
  for (size_t i = 0; i < n; ++i) {
    hk[i] = host_keys[i % distinct];
    hv[i] = uint32_t(i);
  }
  // Queries: every other distinct key present, the rest absent.
  std::vector<uint32_t> hq(distinct);
  for (size_t i = 0; i < distinct; ++i) hq[i] = host_keys[i % 2 ? distinct + i : i];
  const size_t expected = ((distinct + 1) / 2) * mult;
  thrust::device_vector<uint32_t> keys(hk.begin(), hk.end()), values(hv.begin(), hv.end());
  thrust::device_vector<uint32_t> queries(hq.begin(), hq.end());
  thrust::device_vector<Pair> pairs = make_pairs(gpu, keys, values, n);
  thrust::device_vector<Pair> matches(expected);
  using Multimap = cuco::static_multimap<uint32_t, uint32_t>;
  size_t capacity = 0;
  std::vector<float> ins_ms, count_ms, ret_ms;
  for (int r = 0; r < reps + 1; ++r) {
    // A new map each round (this multimap has no clear), made outside the timing.
    Multimap mm{cap, cuco::empty_key<uint32_t>{kEmpty}, cuco::empty_value<uint32_t>{kEmpty}, gpu.stream};
    CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
    capacity = mm.get_capacity();
    const float ins = time_once(gpu, [&] { mm.insert(pairs.begin(), pairs.end(), gpu.stream); });
    size_t counted = 0;
    const float cnt = time_once(gpu, [&] { counted = mm.count(queries.begin(), queries.end(), gpu.stream); });
    check(counted == expected, "multimap count");
    Pair* end = nullptr;
    const float ret = time_once(gpu, [&] {
      end = mm.retrieve(queries.begin(), queries.end(), matches.data().get(), gpu.stream);
    });
    check(size_t(end - matches.data().get()) == expected, "multimap retrieve: matches");
    if (r > 0) {
      ins_ms.push_back(ins);
      count_ms.push_back(cnt);
      ret_ms.push_back(ret);
    }
  }
  // Every match is a stored pair of a present query key (values i name their key: hk[i]).
  std::vector<Pair> got(expected);
  thrust::copy(matches.begin(), matches.end(), got.begin());
  std::vector<uint64_t> seen;
  for (const Pair& p : got) {
    check(p.second < n && hk[p.second] == p.first, "multimap retrieve: pair");
    seen.push_back(p.second);
  }
  std::sort(seen.begin(), seen.end());
  check(std::adjacent_find(seen.begin(), seen.end()) == seen.end(), "multimap retrieve: repeats");
  const std::string variant = "mult" + std::to_string(mult);
  result("mm", "multimap_insert", variant, n, ins_ms, capacity);
  result("mm", "multimap_count", variant, distinct, count_ms, capacity);
  result("mm", "multimap_retrieve", variant, distinct, ret_ms, capacity);
}

std::vector<std::string> split(const char* s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = s; *p; ++p) {
    if (*p == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += *p;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cuco_bench map|apply|multimap ... (see the file's header)\n");
    return 2;
  }
  Gpu gpu;
  CUDA_CHECK(cudaStreamCreate(&gpu.stream));
  CUDA_CHECK(cudaEventCreate(&gpu.start));
  CUDA_CHECK(cudaEventCreate(&gpu.stop));
  CUDA_CHECK(cudaDeviceGetAttribute(&gpu.sm_count, cudaDevAttrMultiProcessorCount, 0));
  const std::string what = argv[1];
  auto arg = [&](int i, const char* fallback) { return argc > i ? argv[i] : fallback; };
  if (what == "map") {
    const size_t cap = size_t(1) << parse_log2(arg(2, "27"), 10, 31);
    const int reps = std::atoi(arg(4, "10"));
    for (const std::string& l : split(arg(3, "0.5,0.8"))) {
      run_map<Cg1>(gpu, "cg1", cap, std::stod(l), reps);
      run_map<Cg4>(gpu, "cg4", cap, std::stod(l), reps);
    }
  } else if (what == "apply") {
    const size_t n = size_t(1) << parse_log2(arg(2, "26"), 10, 30);
    const size_t cap = size_t(1) << parse_log2(arg(3, "27"), 10, 31);
    const int reps = std::atoi(arg(5, "10"));
    for (const std::string& d : split(arg(4, "0,10,20,26"))) {
      run_apply<Cg1>(gpu, "cg1", n, cap, std::stoi(d), reps);
      run_apply<Cg4>(gpu, "cg4", n, cap, std::stoi(d), reps);
    }
  } else if (what == "multimap") {
    const size_t n = size_t(1) << parse_log2(arg(2, "24"), 10, 30);
    const size_t mult = size_t(std::atoi(arg(3, "4")));
    const size_t cap = size_t(1) << parse_log2(arg(4, "25"), 10, 31);
    run_multimap(gpu, n, mult, cap, std::atoi(arg(5, "10")));
  } else {
    std::fprintf(stderr, "unknown part %s\n", what.c_str());
    return 2;
  }
  return 0;
}
