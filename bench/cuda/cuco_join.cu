// The join and group-by of examples/hash_join.rs with cuCollections, on the same rows
// (join_data.h is the example's generator, written again): R and S tables of (u32 key, u32
// payload) rows, S's keys drawn from R's with a Zipf-like skew, one in ten a miss.
//
//   cuco_join [LOG2R=24] [LOG2S=26] [SEED=1] [REPS=5] [WARM_MS=1000]
//
// Phases, each timed alone with CUDA events on a held stream (bench_common.h), the median of
// REPS after WARM_MS milliseconds of untimed repetitions (at least one), as the example
// warms up:
//   build     legacy cuco::static_multimap<uint32_t, uint32_t> (2 |R| slots, made outside the
//             timing: it has no clear) insert of R's (key, payload) pairs
//   count     pair_count of S's (key, payload) pairs, keys compared (the total, to the host)
//   retrieve  pair_retrieve into the output: pair j is (key, S payload), (key, R payload)
//   groupby   static_map (cuco_bench's cg1: one thread per key, murmur3; 2 min(|R|, |S|)
//             slots, cleared outside the timing) insert_or_apply of S's pairs,
//             cuco::reduce::plus{} with init 0
//   total     build + count + retrieve
// Every result is checked against the CPU (join_check.h): the join's pairs per S row as
// multisets, the group-by's size and every key's sum; a mismatch exits with status 3.
//
// Build (bench/build_cuda.sh): nvcc -O3 -std=c++17 -arch=sm_90 --expt-extended-lambda
//   -I bench/cuda -I <cuco>/include -o cuco_join bench/cuda/cuco_join.cu
// Output: RESULT cuco join_<phase> r2^LOG2R_s2^LOG2S <rows> <median ms> <G rows/s>
//   pairs=<pairs>;tables=<checksum>, as the example prints its RESULT vkalgo lines.

#include <cuco/static_map.cuh>
#include <cuco/static_multimap.cuh>
#include <cuco/utility/reduction_functors.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/zip_iterator.h>

#include <chrono>
#include <string>

#include "bench_common.h"
#include "join_check.h"

namespace {

constexpr uint32_t kEmpty = 0xffffffffu;

using Pair = cuco::pair<uint32_t, uint32_t>;
using Multimap = cuco::static_multimap<uint32_t, uint32_t>;
using GroupMap = cuco::static_map<uint32_t, uint32_t, cuco::extent<size_t>, cuda::thread_scope_device,
                                  thrust::equal_to<uint32_t>,
                                  cuco::linear_probing<1, cuco::murmurhash3_32<uint32_t>>>;

// Pairs match when their keys do (the join's predicate for pair_count / pair_retrieve).
struct KeysEqual {
  __device__ bool operator()(const Pair& a, const Pair& b) const { return a.first == b.first; }
};

void check(const std::string& wrong, const char* what) {
  if (!wrong.empty()) {
    std::fprintf(stderr, "verification failed: %s: %s\n", what, wrong.c_str());
    std::exit(3);
  }
}

// A table's rows as (key, payload) pairs on the device.
thrust::device_vector<Pair> device_pairs(const join::Table& t) {
  std::vector<Pair> host(t.keys.size());
  for (size_t i = 0; i < host.size(); ++i) host[i] = Pair{t.keys[i], t.payloads[i]};
  return thrust::device_vector<Pair>(host.begin(), host.end());
}

// The join's output (pair j: probe_keys[j], s_payloads[j] from S; contained_keys[j],
// r_payloads[j] from R) and the phases' times of every repetition.
struct Run {
  thrust::device_vector<uint32_t> probe_keys, s_payloads, contained_keys, r_payloads;
  std::vector<float> build, count, retrieve, groupby, total;

  // Forgets the times (the warm-up's).
  void clear_times() {
    for (std::vector<float>* t : {&build, &count, &retrieve, &groupby, &total}) t->clear();
  }

  // Room for `pairs` pairs.
  void resize(size_t pairs) {
    for (thrust::device_vector<uint32_t>* c : {&probe_keys, &s_payloads, &contained_keys, &r_payloads}) {
      c->resize(pairs);
    }
  }

  // The pairs, on the host.
  join::Pairs download() const {
    join::Pairs p;
    const std::pair<const thrust::device_vector<uint32_t>*, std::vector<uint32_t>*> copies[] = {
        {&probe_keys, &p.probe_keys},
        {&s_payloads, &p.s_payloads},
        {&contained_keys, &p.contained_keys},
        {&r_payloads, &p.r_payloads}};
    for (const auto& c : copies) {
      c.second->resize(c.first->size());
      thrust::copy(c.first->begin(), c.first->end(), c.second->begin());
    }
    return p;
  }
};

// Writes (key, payload) pairs into two columns (what the legacy retrieve writes through:
// thrust::get on the dereferenced output iterator).
auto columns(thrust::device_vector<uint32_t>& keys, thrust::device_vector<uint32_t>& payloads) {
  return thrust::make_zip_iterator(thrust::make_tuple(keys.begin(), payloads.begin()));
}

// One repetition of the join (a new multimap) and of the group-by (the map cleared).
void repetition(const Gpu& gpu, const thrust::device_vector<Pair>& r,
                const thrust::device_vector<Pair>& s, GroupMap& groups, Run& run) {
  Multimap mm{2 * r.size(), cuco::empty_key<uint32_t>{kEmpty}, cuco::empty_value<uint32_t>{kEmpty},
              gpu.stream};
  CUDA_CHECK(cudaStreamSynchronize(gpu.stream));
  const float build = time_once(gpu, [&] { mm.insert(r.begin(), r.end(), gpu.stream); });
  size_t pairs = 0;
  const float count = time_once(gpu, [&] { pairs = mm.pair_count(s.begin(), s.end(), KeysEqual{}, gpu.stream); });
  if (run.s_payloads.size() != pairs) run.resize(pairs);  // sized outside the timing
  auto probe = columns(run.probe_keys, run.s_payloads);
  auto contained = columns(run.contained_keys, run.r_payloads);
  std::pair<decltype(probe), decltype(contained)> end{probe, contained};
  const float retrieve = time_once(gpu, [&] {
    end = mm.pair_retrieve(s.begin(), s.end(), probe, contained, KeysEqual{}, gpu.stream);
  });
  check(size_t(end.first - probe) == pairs ? "" : "retrieved fewer pairs than counted", "join");
  groups.clear(gpu.stream);
  const float groupby = time_once(gpu, [&] {
    groups.insert_or_apply_async(s.begin(), s.end(), 0u, cuco::reduce::plus{}, gpu.stream);
  });
  run.build.push_back(build);
  run.count.push_back(count);
  run.retrieve.push_back(retrieve);
  run.groupby.push_back(groupby);
  run.total.push_back(build + count + retrieve);
}

// The group-by's check: as many keys as S has, each with its sum.
void check_groups(const Gpu& gpu, GroupMap& groups, const join::Table& s) {
  const std::unordered_map<uint32_t, uint32_t> sums = join::group_by(s);
  check(groups.size(gpu.stream) == sums.size() ? "" : "a different number of keys", "group-by");
  std::vector<uint32_t> keys, want;
  for (const auto& kv : sums) {
    keys.push_back(kv.first);
    want.push_back(kv.second);
  }
  thrust::device_vector<uint32_t> dk(keys.begin(), keys.end()), dv(keys.size());
  groups.find(dk.begin(), dk.end(), dv.begin(), gpu.stream);
  std::vector<uint32_t> got(keys.size());
  thrust::copy(dv.begin(), dv.end(), got.begin());
  check(got == want ? "" : "a key's sum differs from the CPU's", "group-by");
}

void result(const std::string& phase, const std::string& variant, size_t rows,
            const std::vector<float>& ms, const std::string& extra) {
  const double med = median(ms);
  std::printf("RESULT\tcuco\tjoin_%s\t%s\t%zu\t%.6f\t%.4f\t%s\n", phase.c_str(), variant.c_str(), rows, med,
              double(rows) / med / 1e6, extra.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  auto arg = [&](int i, const char* fallback) { return argc > i ? argv[i] : fallback; };
  const int log2r = parse_log2(arg(1, "24"), 2, 30), log2s = parse_log2(arg(2, "26"), 0, 30);
  const uint32_t seed = uint32_t(std::strtoul(arg(3, "1"), nullptr, 10));
  const int reps = std::max(1, std::atoi(arg(4, "5")));
  const double warm_ms = std::max(0.0, std::atof(arg(5, "1000")));
  Gpu gpu;
  CUDA_CHECK(cudaStreamCreate(&gpu.stream));
  CUDA_CHECK(cudaEventCreate(&gpu.start));
  CUDA_CHECK(cudaEventCreate(&gpu.stop));
  const join::Tables t = join::tables(log2r, log2s, seed);
  const join::Reference reference(t.r, t.s);
  const uint32_t tables = join::checksum(t);
  std::printf("R: %zu rows, S: %zu rows (checksum 0x%08x), %llu joined pairs\n", t.r.keys.size(),
              t.s.keys.size(), tables, (unsigned long long)reference.total());
  const thrust::device_vector<Pair> r = device_pairs(t.r), s = device_pairs(t.s);
  GroupMap groups{2 * std::min(t.r.keys.size(), t.s.keys.size()), cuco::empty_key<uint32_t>{kEmpty},
                  cuco::empty_value<uint32_t>{0}};
  Run run;
  const auto warming = std::chrono::steady_clock::now();
  auto warmed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - warming).count();
  };
  int warm_ups = 0;
  do {
    repetition(gpu, r, s, groups, run);
    ++warm_ups;
  } while (warmed_ms() < warm_ms);
  std::printf("warm-up: %d untimed repetitions in %.2f s\n", warm_ups, warmed_ms() / 1e3);
  run.clear_times();
  for (int i = 0; i < reps; ++i) repetition(gpu, r, s, groups, run);
  const join::Pairs pairs = run.download();
  check(join::check_join(reference, t, pairs), "join");
  check_groups(gpu, groups, t.s);
  const std::string variant = "r2^" + std::to_string(log2r) + "_s2^" + std::to_string(log2s);
  char extra[64];
  std::snprintf(extra, sizeof extra, "pairs=%zu;tables=0x%08x", pairs.s_payloads.size(), tables);
  const size_t nr = t.r.keys.size(), ns = t.s.keys.size();
  result("build", variant, nr, run.build, extra);
  result("count", variant, ns, run.count, extra);
  result("retrieve", variant, ns, run.retrieve, extra);
  result("groupby", variant, ns, run.groupby, extra);
  result("total", variant, nr + ns, run.total, extra);
  std::printf("join and group-by match the CPU\n");
  return 0;
}
