// LSD radix sort: declarations and the tile ranking shared by every sort pass.
//
// Permutation defines: KEY_BITS (32 or 64), VALUE_WORDS (0: keys only, 1: u32 values,
// 2: u64 values). SPLIT_BUCKETS (with BUCKET_FN and, for GLSL, KEY_TYPE_CODE): the digit
// pass's bucket hook, one pass whose digit is the key's bucket (glsl/common/bucket_fn.glsl)
// instead of 8 key bits; the multisplit runs its Onesweep split through it. Key kind (unsigned,
// signed, float) and direction are a specialization constant (KEY_ORDER), so the order
// transform compiles to what the plan's key type needs.
//
// Digits are RADIX_BITS = 8 bits of the key's ORDER-PRESERVING bits (glsl/common/vkalgo.glsl:
// unsigned keys as they are, signed keys with the sign bit flipped, floats in IEEE-754
// totalOrder, all bits complemented for a descending sort). The keys travel between passes in
// that ordered form: the first pass transforms them as it loads them, the last transforms them
// back as it writes them, and the passes between take digits with a shift and a mask. (CUB's
// radix sort transforms in and out in every pass; transforming at every digit is slower:
// docs/tuning/sort.md#ordered-keys.)
//
// Tile ranking (after Adinets & Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort
// for GPUs", 2022, and the warp-level multisplit of Ashkiani et al., 2016): subgroup s owns a
// contiguous run of the tile; lane l holds the run's keys i * gl_SubgroupSize + l. For each i,
// the lanes holding the same digit find each other (through a shared table of lane masks for
// the digit's low bits and one ballot per high bit) and advance the subgroup's digit counter in
// shared memory by their number. Ranks therefore follow the input order (stable), and the tile
// is then reordered in shared memory so that the global writes of each digit are contiguous.
#ifndef VKALGO_SORT_COMMON_GLSL
#define VKALGO_SORT_COMMON_GLSL

#include "../common/vkalgo.glsl"
// RADIX_BITS, RING_TILES and the scratch offsets shared with src/sort/ (generated from
// src/sort/shared_constants.rs).
#include "../generated/sort.glsl"
#extension GL_KHR_memory_scope_semantics : require
#if defined(SPLIT_BUCKETS) && defined(KEY_TYPE_CODE) && KEY_TYPE_CODE == 5
// GLSL bucket functions of double keys take a double.
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#endif
// SORT_COUNTING_ONLY (the upfront histogram): only the key and digit helpers, no shared memory
// (a kernel's declared shared memory bounds how many of its workgroups an SM holds).
#ifndef SORT_COUNTING_ONLY
#include "../common/workgroup_scan.glsl"
#endif

#if !defined(KEY_BITS) || !defined(VALUE_WORDS)
#error "KEY_BITS and VALUE_WORDS must be defined by the permutation table"
#endif

#ifdef SORT_COHERENT
#define SORT_MEMORY coherent
#else
#define SORT_MEMORY
#endif

#if KEY_BITS == 64
#define KEY_T uint64_t
#define KEY_WORDS 2u
layout(buffer_reference, std430, buffer_reference_align = 8) SORT_MEMORY buffer KeyRef { uint64_t v[]; };
#else
#define KEY_T uint
#define KEY_WORDS 1u
layout(buffer_reference, std430, buffer_reference_align = 4) SORT_MEMORY buffer KeyRef { uint v[]; };
#endif

#if VALUE_WORDS == 2
#define VALUE_T uint64_t
layout(buffer_reference, std430, buffer_reference_align = 8) SORT_MEMORY buffer ValueRef { uint64_t v[]; };
#elif VALUE_WORDS == 1
#define VALUE_T uint
layout(buffer_reference, std430, buffer_reference_align = 4) SORT_MEMORY buffer ValueRef { uint v[]; };
#endif

// ---- 64-bit addressing ----
//
// SPIR-V access-chain indices are signed: a buffer_reference array indexed at 2^31 or more
// addresses memory BEFORE the array on drivers that follow the spec. Every key or value an
// index of which can reach 2^31 is therefore reached through a reference made at its 64-bit
// byte address (key_at, value_at), or from a per-tile base address (tile_keys_at) indexed
// only by an offset within the tile (< TILE_KEYS <= 32768). Computing `base + zext(i) * 4` is
// what the hardware does for an access chain anyway (one wide multiply-add on NVIDIA), so the
// per-element scatter costs the same.
//
// Maximum count (src/sort/mod.rs SORT_MAX_COUNT = 2^32 - 2^15): with tiles of at most 2^15
// keys, tiles * TILE_KEYS <= count + TILE_KEYS - 1 <= 2^32 - 1, so no u32 element index of a
// tile (tile_start + offset in the tile, even past the count in the last tile) wraps, and the
// Onesweep sequence numbers (pass * max_tiles + tile < 8 * 2^27) fit the ring's 30-bit tags.
#define KEY_BYTES (KEY_WORDS * 4u)

// The key at element `index` of the key array at `base`.
KeyRef key_at(uint64_t base, uint index) {
    return KeyRef(base + uint64_t(index) * uint64_t(KEY_BYTES));
}

// The key array of the tile starting at element `tile_start`: index it with offsets in the tile.
KeyRef tile_keys_at(uint64_t base, uint tile_start) {
    return key_at(base, tile_start);
}

#if VALUE_WORDS > 0
#define VALUE_BYTES (VALUE_WORDS * 4u)
ValueRef value_at(uint64_t base, uint index) {
    return ValueRef(base + uint64_t(index) * uint64_t(VALUE_BYTES));
}
#endif

// Must match src/sort/push.rs (SortPush).
layout(push_constant) uniform SortPush {
    uint64_t keys_in;      // this pass's keys
    uint64_t keys_out;     // where this pass writes them
    uint64_t values_in;    // this pass's values (0 without values)
    uint64_t values_out;
    uint64_t scratch;      // counters, histograms, look-back ring or block counts
    uint64_t count_addr;   // 0: use `count`; else the address of a u32 count
    uint count;            // direct element count
    uint max_count;        // the plan's maximum (clamps an indirect count)
    uint begin_bit;        // first key bit sorted on
    uint end_bit;          // one past the last key bit sorted on
    uint pass_index;       // digit pass of this dispatch (0: least significant)
    uint pass_count;       // digit passes of the whole sort
    uint max_tiles;        // tiles of max_count (numbers look-back entries across passes)
    uint blocks;           // safe path: workgroups of the upsweep/downsweep
    uint tiles_per_block;  // histogram and safe path: tiles per workgroup
    uint reserved;         // keeps the block a multiple of 8 bytes
    // The bucket hook (SPLIT_BUCKETS; 0 for sorts): the bucket function's operands
    // (glsl/common/bucket_fn.glsl) and the split's status word.
    uint64_t aux;          // SPLITTERS: the splitter index (bucket_fn.glsl's layout)
    uint64_t split_status; // u32 status word (bit 0: a bucket id >= m; bit 1: inconsistent)
    uint bucket_count;     // m (<= RADIX)
    uint id_bits;          // ceil(log2(m))
    uvec4 params;          // GLSL: vkalgo_params (offset 112: 128 bytes in all)
} pc;

// Parts the staged tile is split into per element word (1 or 2; SortTuning::stage_split).
layout(constant_id = 5) const uint STAGE_SPLIT = 1;
#define RADIX 256u
#define KEYS_PER_THREAD VECS_PER_THREAD
#define TILE_KEYS (WG_SIZE * KEYS_PER_THREAD)
// Rows of per-subgroup digit counters: enough for the smallest subgroup size.
#define HIST_ROWS (WG_SIZE / MIN_SUBGROUP_SIZE)
// Digits owned by one invocation in the per-digit phases (workgroups smaller than RADIX).
#define DIGITS_PER_THREAD ((RADIX + WG_SIZE - 1u) / WG_SIZE)
#define STAGE_WORDS (VALUE_WORDS > KEY_WORDS ? VALUE_WORDS : KEY_WORDS)

// Scratch layout (bytes), shared with src/sort/mod.rs.
#define SCRATCH_TILE_COUNTERS 0ul     // u32 per pass: dynamic tile ids (Onesweep)
// A pass's tile counter starts with this bit set when its digit is the same in every key
// (histogram_scan.comp): its tiles are then copied in place (onesweep.comp copy_tile).
#define CONSTANT_DIGIT_PASS 0x80000000u
#define SCRATCH_TAILS 32ul            // u32 per pass: tail iterators (Onesweep)
#define SCRATCH_HISTOGRAMS 64ul       // u32[8][256]: global digit counts of every pass
// SCRATCH_STATS (generated): Onesweep: u32[16] event counters (src/sort/mod.rs)
// SCRATCH_RING (generated): Onesweep: u64[RING_TILES][256]; safe path: block counts

// ---- keys and digits ----

// The key order (KEY_ORDER: bits 0-1 the key kind, bit 2 descending) and the order transforms
// ordered_bits / raw_bits (glsl/common/vkalgo.glsl, key order).
#define VKALGO_KEY_ORDER
#include "../common/vkalgo.glsl"

uint element_count() {
    return load_count(pc.count_addr, pc.count, pc.max_count);
}

#ifdef SPLIT_BUCKETS
// The bucket hook: the digit is the bucket of a raw key, by SPLITTERS or GLSL. (BITS needs no
// permutation: it is a plain sort pass on bits [bit_offset, bit_offset + log2(m)). IDS has no
// Onesweep split: the bucket of a staged key must come from the key alone.)
#if BUCKET_FN != 1 && BUCKET_FN != 3
#error "SPLIT_BUCKETS takes BUCKET_FN 1 (SPLITTERS) or 3 (GLSL)"
#endif
#include "../common/bucket_fn.glsl"

// Raises STATUS_INCONSISTENT: the bucket function answered differently in the passes (the
// count, the ranking, the scatter, a look-back's own count of a predecessor), so some element
// would have left the place counted for it (it is not written; see onesweep.comp).
void split_report_inconsistent() {
    atomicOr(U32AtomicRef(pc.split_status).v[0], STATUS_INCONSISTENT);
}
#endif

uint tiles_of(uint n) {
    return n / TILE_KEYS + (n % TILE_KEYS != 0u ? 1u : 0u);
}

// The subgroup size; a constant after specialization where the device has only one.
uint tile_stride() {
    return MIN_SUBGROUP_SIZE == MAX_SUBGROUP_SIZE ? MIN_SUBGROUP_SIZE : gl_SubgroupSize;
}

// Index in the tile of key i of this invocation (subgroup-contiguous runs, lane-interleaved).
uint key_index_in_tile(uint i) {
    return (gl_SubgroupID * KEYS_PER_THREAD + i) * tile_stride() + gl_SubgroupInvocationID;
}

// Loads this invocation's elements of the tile at element `tile_start` of the buffer at
// `address` (element type REF's, BYTES each) into dst[0 .. KEYS_PER_THREAD), `zero` past `valid`.
// One 64-bit address per invocation, from which element i lies a constant distance away: fewer
// registers than indexing the buffer (docs/tuning/sort.md#tile-base-address).
// (tile_start + key_index_in_tile(0) is below tiles * TILE_KEYS <= 2^32: no wrap, see above.)
#define LOAD_TILE(REF, BYTES, address, tile_start, valid, dst, zero)                           \
    {                                                                                        \
        REF run_ = REF(address + uint64_t(tile_start + key_index_in_tile(0u)) * (BYTES));    \
        [[unroll]] for (uint i_ = 0; i_ < KEYS_PER_THREAD; ++i_) {                           \
            dst[i_] = key_index_in_tile(i_) < valid ? run_.v[i_ * tile_stride()] : zero;     \
        }                                                                                    \
    }

#ifndef SORT_COUNTING_ONLY
// ---- tile ranking ----

// Diagnostics hook: an includer may define RANK_MARK(phase) to time the ranking's phases.
#ifndef RANK_MARK
#define RANK_MARK(phase)
#endif

// The pass being run and its buffers (set by main: the small-N kernel runs every pass).
uint g_pass;
uint g_digit_shift; // the pass's digit: (ordered key >> g_digit_shift) & g_digit_mask
uint g_digit_mask;
uint64_t g_keys_in;
uint64_t g_keys_out;
uint64_t g_values_in;
uint64_t g_values_out;

// Makes `pass` the pass being run. Its digit is the ordered key's bits begin_bit + 8 * pass up
// to end_bit. The shift and mask are computed here once: the NVIDIA driver recomputed them for
// every key it wrote out (docs/tuning/sort.md#pass-digit-once).
void select_pass(uint pass) {
    g_pass = pass;
    g_digit_shift = pc.begin_bit + pass * RADIX_BITS;
    g_digit_mask = (1u << min(RADIX_BITS, pc.end_bit - g_digit_shift)) - 1u;
}

// Whether the pass being run reads keys in ordered form (every pass but the first) ...
bool keys_in_ordered() {
    return g_pass > 0u;
}

// ... and whether it writes them in the caller's form (the last pass).
bool keys_out_raw() {
    return g_pass + 1u == pc.pass_count;
}

// The digit of the pass being run (select_pass) of a key in ordered form; with SPLIT_BUCKETS
// the pass's 8 bits of the key's bucket (bits [begin_bit, end_bit) of the bucket id: the
// histogram refused buckets >= m).
uint pass_digit(KEY_T ordered) {
#ifdef SPLIT_BUCKETS
    return (bucket_of(raw_bits(ordered), 0ul) >> g_digit_shift) & g_digit_mask;
#else
    return uint(ordered >> g_digit_shift) & g_digit_mask;
#endif
}

// A key as the pass's input holds it, in ordered form.
KEY_T ordered_input_key(KEY_T stored) {
    return keys_in_ordered() ? stored : ordered_bits(stored);
}

// An ordered key in the form the pass writes it.
KEY_T output_key(KEY_T ordered) {
    return keys_out_raw() ? raw_bits(ordered) : ordered;
}

// The digit of the pass being run of a key as the pass's input holds it.
uint stored_key_digit(KEY_T key) {
    return pass_digit(ordered_input_key(key));
}

void use_push_constant_pass() {
    select_pass(pc.pass_index);
    g_keys_in = pc.keys_in;
    g_keys_out = pc.keys_out;
    g_values_in = pc.values_in;
    g_values_out = pc.values_out;
}

// Shared memory of a tile, one pool for two phases: the per-subgroup digit counters while
// ranking (s_hist: one row of RADIX counters per subgroup; counts, then each row's first
// position per digit), then the tile reordered by digit (s_stage: keys, then values).
// stage_keys passes a barrier before overwriting the counters.
#define HIST_WORDS (HIST_ROWS * RADIX)
// Staging rounds per element type (see stage_keys): STAGE_SPLIT parts per element word.
// STAGE_ONE_ROUND (the one-workgroup small-N kernel) stages the whole tile in one round, 8-byte
// elements in a pool twice as large: with one workgroup, shared memory bounds no occupancy,
// and one round saves the barriers of the later rounds (docs/tuning/sort.md#small-one-round).
// The counts are constants, not macros: each use of a macro would emit its own chain of
// specialization-constant operations into the SPIR-V.
#ifdef STAGE_ONE_ROUND
const uint KEY_ROUNDS = 1u;
#if VALUE_WORDS > 0
const uint VALUE_ROUNDS = 1u;
#endif
const uint STAGE_POOL_WORDS = TILE_KEYS * STAGE_WORDS;
#else
const uint STAGE_POOL_WORDS = TILE_KEYS / STAGE_SPLIT;
#endif
#ifdef RESIDENT_COUNTERS_APART
// The resident kernel (glsl/sort/resident.comp) reads constant 5 as its pool layout: 2, the
// digit counters after the whole tile's stage (SortPlan's resident counters apart), so staging
// never overwrites them; 1, one pool for both, the larger of the two.
const bool COUNTERS_APART = STAGE_SPLIT == 2u;
const uint POOL_WORDS = COUNTERS_APART ? HIST_WORDS + STAGE_POOL_WORDS
    : (HIST_WORDS > STAGE_POOL_WORDS ? HIST_WORDS : STAGE_POOL_WORDS);
#else
const uint POOL_WORDS = HIST_WORDS > STAGE_POOL_WORDS ? HIST_WORDS : STAGE_POOL_WORDS;
#endif
#ifndef STAGE_ONE_ROUND
// The fewest rounds for elements of `words` words that fit the pool (sized for the larger of
// the counters and 1 / STAGE_SPLIT of the tile's words) and cover whole steps (divide
// KEYS_PER_THREAD). The plan makes KEYS_PER_THREAD a multiple of words * STAGE_SPLIT, which
// always fits, so the search ends there at the latest. 8-byte keys at 512 x 12/2: 3 rounds.
#define ROUNDS_NEEDED(words) ((TILE_KEYS * (words) + POOL_WORDS - 1u) / POOL_WORDS)
#define ROUNDS_IF_WHOLE(r, otherwise) (KEYS_PER_THREAD % (r) == 0u ? (r) : (otherwise))
#define FIT_ROUNDS(words)                                                                     \
    ROUNDS_IF_WHOLE(ROUNDS_NEEDED(words),                                                     \
    ROUNDS_IF_WHOLE(ROUNDS_NEEDED(words) + 1u,                                                \
    ROUNDS_IF_WHOLE(ROUNDS_NEEDED(words) + 2u, (words) * STAGE_SPLIT)))
const uint KEY_ROUNDS = FIT_ROUNDS(KEY_WORDS);
#if VALUE_WORDS > 0
const uint VALUE_ROUNDS = FIT_ROUNDS(VALUE_WORDS);
#endif
#endif
shared uint s_pool[POOL_WORDS];
#define s_hist s_pool
#define s_stage s_pool
shared uint s_digit_offset[RADIX];   // global index of the tile's digit run - its local start
shared uint s_scan_totals[HIST_ROWS]; // digit scan: one total per subgroup
// Keys match their digit's low MATCH_BITS bits through a per-subgroup table of lane masks (see
// rank_in_subgroup), keys alone and pairs (docs/tuning/sort.md#match-table).
#define MATCH_BITS 5u
#define MATCH_SLOTS (1u << MATCH_BITS)
shared uint s_match[HIST_ROWS * MATCH_SLOTS];

// Registers per key are what limits the workgroups an SM holds, so a key costs one word (two
// for 64-bit keys) plus half a word of rank: ranks are 16-bit (tiles hold at most 32768 keys),
// two per word, NO_RANK for a missing key; digits are recomputed from the keys when needed.
#define NO_RANK 0xFFFFu
#define RANK_WORDS ((KEYS_PER_THREAD + 1u) / 2u)
KEY_T g_keys[KEYS_PER_THREAD];
uint g_ranks[RANK_WORDS];
uint g_tile_count[DIGITS_PER_THREAD]; // this invocation's digits: count in the tile
uint g_local_start[DIGITS_PER_THREAD]; // ... and first position in the ranked tile
#if VALUE_WORDS > 0
VALUE_T g_values[KEYS_PER_THREAD];
#endif

uint get_rank(uint i) {
    return (g_ranks[i >> 1] >> ((i & 1u) * 16u)) & 0xFFFFu;
}

#ifdef SPLIT_BUCKETS
// The Onesweep split: the digit each held key was ranked by (8 bits each), so that its rank
// within the tile is taken with the same digit: the bucket function is evaluated once for the
// ranking (an impure one could answer otherwise a second time and collide two keys in the tile).
uint g_rank_digits[(KEYS_PER_THREAD + 3u) / 4u];

void set_rank_digit(uint i, uint d) {
    g_rank_digits[i >> 2] = bitfieldInsert(g_rank_digits[i >> 2], d, int((i & 3u) * 8u), 8);
}

uint rank_digit(uint i) {
    return bitfieldExtract(g_rank_digits[i >> 2], int((i & 3u) * 8u), 8);
}

// The tile's run of each digit in the ranked tile: first position | end << 16 (positions are
// below TILE_KEYS <= 2^15), written once the tile's look-back is done (onesweep.comp), in the
// match table's words where they are enough (the ranking is done with them), else in words of
// their own. A staged key is written only where its digit, computed again from the key, is the
// run holding its position, and only inside the tile's part of its bucket's range; an empty
// run (0) writes nothing.
const uint SPLIT_RUN_OWN_WORDS = HIST_ROWS * MATCH_SLOTS >= RADIX ? 1u : RADIX;
shared uint s_split_run_own[SPLIT_RUN_OWN_WORDS];

void set_split_run(uint d, uint run) {
    if (HIST_ROWS * MATCH_SLOTS >= RADIX) {
        s_match[d] = run;
    } else {
        s_split_run_own[d] = run;
    }
}

// Whether position `p` of the ranked tile lies in digit d's run (see set_split_run).
bool split_in_run(uint d, uint p) {
    uint run = HIST_ROWS * MATCH_SLOTS >= RADIX ? s_match[d] : s_split_run_own[d];
    return p - (run & 0xFFFFu) < (run >> 16) - (run & 0xFFFFu);
}
#endif

void set_rank(uint i, uint rank) {
    g_ranks[i >> 1] = bitfieldInsert(g_ranks[i >> 1], rank, int((i & 1u) * 16u), 16);
}

// The digits this invocation owns in the per-digit phases: lid * DIGITS_PER_THREAD + j.
uint owned_digit(uint j) {
    return gl_LocalInvocationIndex * DIGITS_PER_THREAD + j;
}

// Zeroes the digit counters of every subgroup. The caller passes a barrier before rank_tile.
void clear_digit_counters() {
    for (uint i = gl_LocalInvocationIndex; i < gl_NumSubgroups * RADIX; i += WG_SIZE) {
        s_hist[i] = 0u;
    }
    for (uint i = gl_LocalInvocationIndex; i < HIST_ROWS * MATCH_SLOTS; i += WG_SIZE) {
        s_match[i] = 0u;
    }
}

// Ranks digit `d` (of a valid key) among the subgroup's keys of this step: the lanes holding
// the same digit find each other, the low bits through a table of lane masks (as in CUB's
// atomic-OR match ranking) and each high bit by a ballot (warp-level multisplit, Ashkiani et
// al. 2016); subgroups wider than 32 lanes use a ballot per bit. Every peer reads the
// subgroup's counter `s_hist[row + d]`, then every peer stores it advanced by their number
// (the same value, so relaxed atomic stores; no branch on the lowest peer:
// docs/tuning/sort.md#rank-counter-stores). `lanes` is
// subgroupBallot(valid), for the wide subgroups: the caller computes it once per tile where
// every key is valid. Returns the counter value + rank among the peers, or NO_RANK for an
// invalid key. Subgroup-uniform control flow.
//
// A load and store, ordered by subgroup barriers, instead of an atomic add whose result the
// leader shuffles to its peers (docs/tuning/sort.md#rank-load-store).
uint rank_in_subgroup(uint d, bool valid, uvec4 lanes, uint row) {
    uint below;
    uint peers_count;
    uint slot = gl_SubgroupID * MATCH_SLOTS + (d & (MATCH_SLOTS - 1u));
    if (MAX_SUBGROUP_SIZE <= 32u) {
        // The low MATCH_BITS bits through the table: each lane ORs its bit into its slot, so
        // the slot holds the lanes sharing those bits; the high bits by ballots. One shared
        // atomic and load replace MATCH_BITS ballots (docs/tuning/sort.md#match-table). The
        // peers clear the slot once every peer has read it.
        // The atomic's result is used (it never holds the lane's own bit, so the OR adds
        // nothing): with the result unused, the NVIDIA driver wraps the atomic in a test of
        // whether all lanes hit one address (MATCH.ALL) on every step
        // (docs/tuning/sort.md#match-atomic-result).
        uint before = 0u;
        if (valid) {
            before = atomicOr(s_match[slot], gl_SubgroupEqMask.x);
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        uint peers = valid ? s_match[slot] | (before & gl_SubgroupEqMask.x) : 0u;
        [[unroll]] for (uint b = MATCH_BITS; b < RADIX_BITS; ++b) {
            bool bit = ((d >> b) & 1u) != 0u;
            uint vote = subgroupBallot(bit).x;
            peers &= bit ? vote : ~vote;
        }
        peers_count = bitCount(peers);
        below = bitCount(peers & gl_SubgroupLtMask.x);
    } else {
        uvec4 peers = lanes;
        [[unroll]] for (uint b = 0; b < RADIX_BITS; ++b) {
            bool bit = ((d >> b) & 1u) != 0u;
            uvec4 vote = subgroupBallot(bit);
            peers &= bit ? vote : ~vote;
        }
        uvec4 lower = peers & gl_SubgroupLtMask;
        peers_count = uint(bitCount(peers.x) + bitCount(peers.y) + bitCount(peers.z) + bitCount(peers.w));
        below = uint(bitCount(lower.x) + bitCount(lower.y) + bitCount(lower.z) + bitCount(lower.w));
    }
    uint base = valid ? s_hist[row + d] : 0u;
    subgroupBarrier(); // every peer has read the counter (and its match slot) before it changes
    if (valid) {
        // (Subgroups wider than 32 lanes never set the match slot; clearing it changes nothing.)
        atomicStore(s_hist[row + d], base + peers_count, gl_ScopeWorkgroup,
                    gl_StorageSemanticsShared, gl_SemanticsRelaxed);
        atomicStore(s_match[slot], 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                    gl_SemanticsRelaxed);
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier(); // the next step reads the stored counter
    return valid ? base + below : NO_RANK;
}

// Exclusive scan over the workgroup of one u32 per invocation with a single barrier: each
// subgroup adds the totals of the subgroups before it. Uniform control flow; s_scan_totals is
// free again after the next barrier.
uint digit_scan(uint x) {
    uint inner = subgroupExclusiveAdd(x);
    uint total = subgroup_total(inner, x);
    if (subgroupElect()) {
        s_scan_totals[gl_SubgroupID] = total;
    }
    barrier();
    uint before = 0u;
    if (gl_LocalInvocationIndex * DIGITS_PER_THREAD < RADIX) {
        for (uint s = 0u; s < gl_SubgroupID; ++s) {
            before += s_scan_totals[s];
        }
    }
    return before + inner;
}

// Loads the tile starting at element `tile_start` (`valid` keys of it exist) and ranks it for
// the pass being run (select_pass). The digit counters must be zero (clear_digit_counters, then a barrier).
// Afterwards g_tile_count / g_local_start hold the owned digits' counts and first positions,
// g_keys the keys in ordered form, and get_rank(i) each key's position in the tile ordered by
// digit (stable). An includer that defines TILE_COUNTS_HOOK gets tile_counts_ready() called as
// soon as g_tile_count is known.
// Uniform control flow; three barriers.
//
// Layout (after Adinets & Merrill, "Onesweep", 2022, and Ashkiani et al., 2016): subgroup s
// owns a contiguous run of the tile; lane l holds the run's keys i * gl_SubgroupSize + l, and
// ranks them in order, one step per i (keys of earlier steps count first: stable).
void rank_tile(uint tile_start, uint valid) {
    LOAD_TILE(KeyRef, KEY_WORDS * 4u, g_keys_in, tile_start, valid, g_keys, KEY_T(0));
    if (!keys_in_ordered()) {
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            g_keys[i] = ordered_bits(g_keys[i]);
        }
    }
    RANK_MARK(2u);
    uint row = gl_SubgroupID * RADIX;
#ifdef SPLIT_BUCKETS
    [[unroll]] for (uint k = 0u; k < (KEYS_PER_THREAD + 3u) / 4u; ++k) {
        g_rank_digits[k] = 0u; // defined bits before the first insert
    }
#endif
    if (valid == TILE_KEYS) {
        // Every tile but the last: a copy of the loop without per-key validity
        // (docs/tuning/sort.md#full-tile-loop).
        uvec4 lanes = subgroupBallot(true);
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
#ifdef SPLIT_BUCKETS
            uint d = pass_digit(g_keys[i]);
            set_rank_digit(i, d);
            set_rank(i, rank_in_subgroup(d, true, lanes, row));
#else
            set_rank(i, rank_in_subgroup(pass_digit(g_keys[i]), true, lanes, row));
#endif
        }
    } else {
        [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
            bool ok = key_index_in_tile(i) < valid;
            uint d = ok ? pass_digit(g_keys[i]) : 0u;
#ifdef SPLIT_BUCKETS
            set_rank_digit(i, d);
#endif
            set_rank(i, rank_in_subgroup(d, ok, subgroupBallot(ok), row));
        }
    }
#ifdef BEFORE_COUNTS_BARRIER_HOOK
    before_counts_barrier(); // the includer's last shared writes before the counts are read
#endif
    barrier();
    RANK_MARK(3u);
    uint thread_total = 0u;
    [[unroll]] for (uint j = 0; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        uint count = 0u;
        if (d < RADIX) {
            [[unroll]] for (uint r = 0; r < HIST_ROWS; ++r) {
                count += r < gl_NumSubgroups ? s_hist[r * RADIX + d] : 0u;
            }
        }
        g_tile_count[j] = count;
        thread_total += count;
    }
#ifdef TILE_COUNTS_HOOK
    tile_counts_ready(); // the includer publishes the counts as early as possible
#endif
    uint start = digit_scan(thread_total);
    [[unroll]] for (uint j = 0; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        g_local_start[j] = start;
        if (d < RADIX) {
            // Each row's counter becomes the row's first position of the digit.
            uint running = start;
            [[unroll]] for (uint r = 0; r < HIST_ROWS; ++r) {
                if (r < gl_NumSubgroups) {
                    uint c = s_hist[r * RADIX + d];
                    s_hist[r * RADIX + d] = running;
                    running += c;
                }
            }
        }
        start += g_tile_count[j];
    }
    barrier();
    [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
        uint rank = get_rank(i);
        if (rank != NO_RANK) {
#ifdef SPLIT_BUCKETS
            set_rank(i, rank + s_hist[row + rank_digit(i)]);
#else
            set_rank(i, rank + s_hist[row + pass_digit(g_keys[i])]);
#endif
        }
    }
}

// Staging: the ranked tile passes through s_stage on its way out, so each digit's run is
// written to global memory contiguously. s_stage holds one word for each of TILE_KEYS /
// STAGE_SPLIT tile elements: shared memory per workgroup is what bounds the workgroups an SM
// holds (docs/tuning/sort.md#stage-split), so the tile goes through in STAGE_SPLIT rounds per element
// word (8-byte elements: twice as many), ranks [0, TILE_KEYS / R) first. Round r of R covers
// ranks [r * TILE_KEYS / R, (r + 1) * TILE_KEYS / R); keys per thread are a multiple of R,
// so every round covers whole steps.
#define ROUND_SLOTS(rounds) (TILE_KEYS / (rounds))
#define ROUND_STEPS(rounds) ((KEYS_PER_THREAD + (rounds) - 1u) / (rounds))

// One stage slot of an 8-byte element: two words.
void stage_u64(uint slot, uint64_t v) {
    s_stage[2u * slot] = uint(v);
    s_stage[2u * slot + 1u] = uint(v >> 32);
}

uint64_t staged_u64(uint slot) {
    return uint64_t(s_stage[2u * slot]) | (uint64_t(s_stage[2u * slot + 1u]) << 32);
}

// Writes the held keys of staging round `round` into s_stage at their ranks.
void stage_key_round(uint round) {
    [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
        uint slot = get_rank(i) - round * ROUND_SLOTS(KEY_ROUNDS); // NO_RANK: out of range
        if (slot < ROUND_SLOTS(KEY_ROUNDS)) {
#if KEY_BITS == 64
            stage_u64(slot, g_keys[i]);
#else
            s_stage[slot] = g_keys[i];
#endif
        }
    }
}

// Stages the first round of keys. Uniform control flow.
void stage_keys() {
    barrier(); // every rank has been read from the counters the stage overwrites
    stage_key_round(0u);
}

#if VALUE_WORDS > 0
// write_staged_keys leaves the digit of each element it wrote here (8 bits each), indexed by
// the element's step m: tile position gl_LocalInvocationIndex + m * WG_SIZE (every round
// covers whole steps).
uint g_out_digits[(KEYS_PER_THREAD + 3u) / 4u];

void set_out_digit(uint m, uint d) {
    g_out_digits[m >> 2] = bitfieldInsert(g_out_digits[m >> 2], d, int((m & 3u) * 8u), 8);
}

uint out_digit(uint m) {
    return bitfieldExtract(g_out_digits[m >> 2], int((m & 3u) * 8u), 8);
}
#endif

#if VALUE_WORDS > 0
// Loads the tile's values (in the layout of the keys) into g_values.
void load_tile_values(uint tile_start, uint valid) {
    LOAD_TILE(ValueRef, VALUE_WORDS * 4u, g_values_in, tile_start, valid, g_values, VALUE_T(0));
}
#endif

// Writes the keys staged for round `round` to keys_out[s_digit_offset[digit] + position].
void write_key_round(uint round, uint valid) {
    [[unroll]] for (uint i = 0; i < ROUND_STEPS(KEY_ROUNDS); ++i) {
        uint q = gl_LocalInvocationIndex + i * WG_SIZE;
        uint p = round * ROUND_SLOTS(KEY_ROUNDS) + q;
        if (q < ROUND_SLOTS(KEY_ROUNDS) && p < valid) {
#if KEY_BITS == 64
            KEY_T key = staged_u64(q);
#else
            KEY_T key = s_stage[q];
#endif
            uint d = pass_digit(key);
#if VALUE_WORDS > 0
            set_out_digit(round * ROUND_STEPS(KEY_ROUNDS) + i, d);
#endif
#ifdef SPLIT_BUCKETS
            // The digit computed again from the staged key must be the one it was ranked by
            // (its run holds p), else the key is not written (see set_split_run).
            if (!split_in_run(d, p)) {
                split_report_inconsistent();
                continue;
            }
#endif
            // (s_digit_offset[d] + p < count: a u32 that wraps nowhere, but may be >= 2^31.)
            key_at(g_keys_out, s_digit_offset[d] + p).v[0] = output_key(key);
        }
    }
}

// Loads the values of the tile at `tile_start` (pairs) for write_staged_keys, unless the
// includer loads them earlier (VALUES_LOADED_EARLY).
void load_values_for_scatter(uint tile_start, uint valid) {
#if VALUE_WORDS > 0 && !defined(VALUES_LOADED_EARLY)
    load_tile_values(tile_start, valid);
#endif
}

// Writes the staged keys to keys_out[s_digit_offset[digit] + position]: contiguous per digit.
// The first round must be staged and s_digit_offset visible (a barrier passed); later rounds
// are staged here. Uniform control flow. An includer that defines LAST_WRITE_ROUND_HOOK gets
// before_last_write_round() called once per tile, before the tile's last round of global
// writes: the last key round here for keys alone, the last value round (scatter_values) for
// pairs.
//
// The values of the tile at `tile_start` (pairs) are loaded once the last round is staged: the
// keys hold no registers any more, and the loads' latency overlaps the last round's writes
// (docs/tuning/sort.md#values-load-point).
void write_staged_keys(uint tile_start, uint valid) {
#if VALUE_WORDS > 0
    [[unroll]] for (uint k = 0u; k < (KEYS_PER_THREAD + 3u) / 4u; ++k) {
        g_out_digits[k] = 0u; // defined bits before the first insert
    }
#endif
    [[unroll]] for (uint round = 0u; round < KEY_ROUNDS; ++round) {
        if (round > 0u) {
            barrier(); // the previous round has been read
            stage_key_round(round);
            barrier();
        }
        if (round + 1u == KEY_ROUNDS) {
            load_values_for_scatter(tile_start, valid);
#if defined(LAST_WRITE_ROUND_HOOK) && VALUE_WORDS == 0
            before_last_write_round();
#endif
        }
        write_key_round(round, valid);
    }
}

#if VALUE_WORDS > 0
// Stages the values of round `round` at their keys' ranks (after a barrier), then writes them
// to their keys' output indices. Uniform control flow.
void scatter_value_round(uint round, uint valid) {
    barrier(); // every staged key (or the previous round) has been read
    [[unroll]] for (uint i = 0; i < KEYS_PER_THREAD; ++i) {
        uint slot = get_rank(i) - round * ROUND_SLOTS(VALUE_ROUNDS);
        if (slot < ROUND_SLOTS(VALUE_ROUNDS)) {
#if VALUE_WORDS == 2
            stage_u64(slot, g_values[i]);
#else
            s_stage[slot] = g_values[i];
#endif
        }
    }
    barrier();
#ifdef LAST_WRITE_ROUND_HOOK
    if (round + 1u == VALUE_ROUNDS) {
        before_last_write_round();
    }
#endif
    [[unroll]] for (uint i = 0; i < ROUND_STEPS(VALUE_ROUNDS); ++i) {
        uint q = gl_LocalInvocationIndex + i * WG_SIZE;
        uint p = round * ROUND_SLOTS(VALUE_ROUNDS) + q;
        if (q < ROUND_SLOTS(VALUE_ROUNDS) && p < valid) {
#if VALUE_WORDS == 2
            VALUE_T v = staged_u64(q);
#else
            VALUE_T v = s_stage[q];
#endif
#ifdef SPLIT_BUCKETS
            uint d = out_digit(round * ROUND_STEPS(VALUE_ROUNDS) + i);
            if (!split_in_run(d, p)) {
                continue; // (its key was not written either)
            }
            value_at(g_values_out, s_digit_offset[d] + p).v[0] = v;
#else
            value_at(g_values_out, s_digit_offset[out_digit(round * ROUND_STEPS(VALUE_ROUNDS) + i)] + p).v[0] = v;
#endif
        }
    }
}

// After write_staged_keys: the values, through the stage in VALUE_ROUNDS rounds.
void scatter_values(uint valid) {
    [[unroll]] for (uint round = 0u; round < VALUE_ROUNDS; ++round) {
        scatter_value_round(round, valid);
    }
}
#endif

// Writes a ranked tile whose s_digit_offset is set (no barrier passed yet) through shared
// memory: keys, then values. Ends with a barrier, so shared memory can be reused.
void scatter_tile(uint tile_start, uint valid) {
    stage_keys();
    barrier();
    write_staged_keys(tile_start, valid);
#if VALUE_WORDS > 0
    scatter_values(valid);
#endif
    barrier();
}

// Exclusive scan over the digits of a 256-entry u32 histogram in global memory: leaves each
// owned digit's prefix in `g_digit_prefix[j]`. Uniform control flow.
uint g_digit_prefix[DIGITS_PER_THREAD];
void scan_global_histogram(uint64_t hist_addr) {
    uint counts[DIGITS_PER_THREAD];
    uint thread_total = 0u;
    [[unroll]] for (uint j = 0; j < DIGITS_PER_THREAD; ++j) {
        uint d = owned_digit(j);
        counts[j] = d < RADIX ? U32Ref(hist_addr).v[d] : 0u;
        thread_total += counts[j];
    }
    uint total;
    uint start = workgroup_exclusive_scan(thread_total, total);
    [[unroll]] for (uint j = 0; j < DIGITS_PER_THREAD; ++j) {
        g_digit_prefix[j] = start;
        start += counts[j];
    }
}

#endif // SORT_COUNTING_ONLY

#endif
