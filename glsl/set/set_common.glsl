// Shared code of the set kernels (src/set/): push constants, the set's control block, the
// chunk directory, the two block pools and their rings, and chunk reads.
//
// A set is a subset of [0, 2^32) cut into 65536 chunks of 2^16 values. Its control buffer
// holds the SetMeta block (pool and ring addresses, ring masks), the ring cursors and the
// directory: per chunk a uvec2 (cardinality 0..65536, block id), in one of two forms (see
// dir_entry): flat (an entry for each of the 65536 chunks, the form every set that is written
// has) or packed (GpuSet::pack: an index of the non-empty chunks and their entries only, for
// sets that are only read). The cardinality alone gives
// the chunk's kind: 0 empty, 65536 full (neither has storage), 1..=ARRAY_MAX a sorted array of
// u16 in the array pool, above that an 8 KiB bitmap in the bitmap pool. A run chunk (Roaring's
// run container) holds r runs of consecutive values: its entry's first word is the cardinality
// | r << RUN_SHIFT (so above any plain cardinality) and each run is a word first | last << 16
// (last included): one run lives in the entry's second word (no storage), 2..RUN_MAX runs in
// one array block (no header). See chunk_card, chunk_runs and result_form.
//
// Array storage: blocks of ARRAY_BLOCK_WORDS u32 words (192 bytes). A chunk of n values uses
// k = array_blocks(n) blocks taken from the array ring in any order; block 0 starts with the
// ids of blocks 1..k-1 (k-1 words), followed by the values, two per word (low half first), in
// one word stream that continues in block 1, 2, ...: word w of the stream lies in block
// w / ARRAY_BLOCK_WORDS at offset w % ARRAY_BLOCK_WORDS.
//
// Pools: each pool has a ring of free block ids (a power-of-two array) with two cursors that
// only grow (mod 2^32): head (next id to take) and tail (next free slot). Free ids are ring
// [head, tail). Kernels take ids with atomicAdd(head) and give them back with atomicAdd(tail)
// (the seed's atomicAdd-and-mask ring). An operation counts the blocks it needs first and
// a one-invocation check pass compares them with the free ids before any write: short of
// blocks, nothing is written and the host grows the pool and runs the operation again. Within
// the write pass, ids are taken only from [head, tail) as it was before the pass and returned
// ones are appended after it, so a freed block is never reused by the same pass.
#ifndef VKALGO_SET_COMMON_GLSL
#define VKALGO_SET_COMMON_GLSL

#include "../common/vkalgo.glsl"
// The sizes, layout and limits shared with src/set/ (generated from src/set/shared_constants.rs).
#include "../generated/set.glsl"
// The lookups a caller's shaders share with the kernels: directory entries, runs, array values,
// contains.
#include "../public/vkalgo_set.glsl"

// Must match src/set/passes.rs (SetPush).
layout(push_constant) uniform SetPush {
    uint64_t meta_d;     // destination set (or the only set)
    uint64_t meta_a;     // first operand
    uint64_t meta_b;     // second operand
    uint64_t scratch;    // operation scratch (counters and chunk lists)
    uint64_t values;     // input values (u32)
    uint64_t out_addr;   // output
    uint64_t count_addr; // indirect count (a u32); 0: direct
    uint64_t range_lo;   // ranges: first value
    uint64_t range_hi;   // ranges: one past the last value (<= 2^32)
    uint count;          // direct count
    uint max_count;      // clamp of an indirect count
    uint op;             // 0 AND, 1 OR, 2 ANDNOT, 3 XOR
    uint mode;           // kernel-specific
    uint grid;           // workgroups of a grid-stride dispatch
    uint aux;            // kernel-specific
    uint64_t jobs;       // SET_BATCH kernels: the dispatch's job table (SetJobRef)
}
#ifdef SET_BATCH
pcb;

// A batch's kernels (the SET_BATCH permutations, src/set/batch.rs) run one job per layer of
// workgroups (gl_WorkGroupID.z): its sets, scratch, status, operation and list capacity come
// from its entry of the job table, everything else from the push constants. set_begin() puts
// both into `pc`, which the code below reads as it reads the push constants elsewhere.
struct SetParams {
    uint64_t meta_d;
    uint64_t meta_a;
    uint64_t meta_b;
    uint64_t scratch;
    uint64_t values;
    uint64_t out_addr;
    uint64_t count_addr;
    uint64_t range_lo;
    uint64_t range_hi;
    uint count;
    uint max_count;
    uint op;
    uint mode;
    uint grid;
    uint aux;
    uint list_cap;
    uint job_flags;
};
// Must match src/set/batch.rs (SetJob): 64 bytes.
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer SetJobRef {
    uint64_t meta_d;
    uint64_t meta_a;
    uint64_t meta_b;
    uint64_t scratch;
    uint64_t out_addr;
    uint op;
    uint list_cap;
    uint flags;
};
#define SET_JOB_BYTES 64ul
// Job flag: the destination has no non-empty chunk (the host knows), so classify skips its
// directory.
#define SET_JOB_EMPTY_D 1u
SetParams pc;

void set_begin() {
    SetJobRef job = SetJobRef(pcb.jobs + uint64_t(gl_WorkGroupID.z) * SET_JOB_BYTES);
    pc = SetParams(job.meta_d, job.meta_a, job.meta_b, job.scratch, pcb.values, job.out_addr,
                   pcb.count_addr, pcb.range_lo, pcb.range_hi, pcb.count, pcb.max_count, job.op,
                   pcb.mode, pcb.grid, pcb.aux, job.list_cap, job.flags);
}
// Entries each of the scratch's chunk lists has room for: the job's bound on listed chunks.
#define LIST_CAP pc.list_cap
#else
pc;

void set_begin() {}
#define LIST_CAP CHUNKS
#endif

// CHUNKS, ARRAY_MAX, ARRAY_BLOCK_WORDS, BITMAP_WORDS (generated). A full chunk's cardinality:
#define FULL 65536u
// Run chunks: an entry's first word is card | runs << RUN_SHIFT; at most RUN_MAX runs (one
// array block's words). RUN_SHIFT, CARD_MASK, RUN_MAX: generated.
// 16-byte vectors of an array chunk's word stream: a block's 48 words are 12 vectors, so no
// vector straddles two blocks (the pools' blocks start at 16-byte multiples).
#define VEC_WORDS 4u
#define BLOCK_VECS (ARRAY_BLOCK_WORDS / VEC_WORDS)

// OP_AND, OP_OR, OP_ANDNOT, OP_XOR (generated): src/core/set_op.rs SetOp.

// Byte offsets in a set's control buffer.
#define META_CURSORS 64ul
// A u32: the number of non-empty chunks, kept exact by the writing passes.
#define META_NONEMPTY 80ul
// A u32: the one-pass cardinality's count of finished workgroups (chunk_update.comp
// FUSED_COUNT, in the first operand's control block), a multiple of its grid between
// operations.
#define META_CARD_TICKET 84ul
// Two u64 (chunk_update.comp CARD_SUMS64, in the first operand's control block, zero between
// operations): the one-pass cardinality's sums, each word with a count of the workgroups that
// added into it from bit CARD_SUMS_GROUP_SHIFT (below it: the partial cardinality in the
// first; the full chunks and, from bit 20, the pairs read in the second).
#define META_CARD_SUMS 88ul
#define CARD_SUMS_GROUP_SHIFT 40
// META_DIR (generated): the directory.

// Pairs of array (or empty) chunks with at most PAIR_SMALL_VALUES values together go to
// small_pairs.comp, with at most PAIR_MEDIUM_VALUES to array_pairs.comp (their result is an
// array too); larger work to chunk_update.comp. small_pairs' 1.4 KiB of shared memory lets
// about 32 pairs share a multiprocessor: sparse sets are mostly such pairs (2^24 random values
// over [0, 2^32) put about 256 in each chunk, so pairs of about 512).
#define PAIR_SMALL_VALUES 640u
#define PAIR_MEDIUM_VALUES 2048u

// Scratch words (src/set/passes.rs clears words 0..30 before each operation, and word 31 before
// the first of a batch).
#define S_WORK_COUNT 0u
#define S_TRIVIAL_COUNT 1u
#define S_NEED_BM 2u
#define S_NEED_AR 3u
#define S_CARD_PARTIAL 4u
#define S_CARD_FULL 5u
#define S_OK 6u
#define S_PAIR_COUNT 7u
#define S_PAIR_MEDIUM_COUNT 8u
// Where the cardinality sums (partial, then full chunks) go: the status's words 5 and 6 for a
// cardinality-only operation (aux 2: its passes add straight into the status, zeroed first,
// with no check pass), else the scratch counters S_CARD_PARTIAL and S_CARD_FULL.
uint64_t card_sums_addr() {
    return pc.aux == 2u ? pc.out_addr + 20ul : pc.scratch + 16ul;
}

// One-pass path (classify, mode 0): an upper bound on the blocks the result needs, and 1 once
// it is computed. See one_pass().
#define S_BOUND_BM 9u
#define S_BOUND_AR 10u
#define S_BOUND_VALID 11u
// bitmap_pairs.comp's list (pairs of bitmaps): its length; the entries fill S_WORK's list
// from the back.
#define S_BITMAP_COUNT 12u
#define S_BITMAPS_ENTRY(i) (S_WORK + LIST_CAP - 1u - (i))
// classify.comp's finished workgroups (the one-pass-only record, aux 1).
#define S_DONE 13u
// The copy list of small_pairs.comp (copy_chunk.glsl: chunks whose result is an operand's
// chunk unchanged, set operations only): its length; the entries (chunk | operand << 16)
// reuse the S_START list, which only inserts of sorted values use.
#define S_COPY_COUNT 14u
#define S_COPIES S_START
// run_pairs.glsl's list (pairs of run chunks): its length; the entries fill S_TRIVIAL's list
// from the back (the two lists hold different chunks).
#define S_RUN_PAIR_COUNT 16u
#define S_RUN_PAIRS_ENTRY(i) (S_TRIVIAL + LIST_CAP - 1u - (i))
#define S_FAILED 31u
// Words S_ORDER_TOTAL and the next (generated): the cardinality order.comp's rank and select
// read (written there by info.comp mode 3 before them).
// Lists of LIST_CAP words each (CHUNKS outside a batch): chunk_update's work (bitmap_pairs'
// from the back), trivial chunks, the chunks' runs of sorted values (start and end index), the
// array pairs' work (small_pairs' from the front, array_pairs' from the back).
// trivial.comp's entries: chunk | FULL (full), | 0 (empty), | TRIVIAL_COPY_A or _B (the entry
// of operand a's or b's chunk, a run chunk of one run).
#define TRIVIAL_COPY_A (1u << 17)
#define TRIVIAL_COPY_B (1u << 18)
// S_WORK (generated): the first list, after the 32 counters.
#define S_TRIVIAL (S_WORK + LIST_CAP)
#define S_START (S_WORK + 2u * LIST_CAP)
#define S_END (S_WORK + 3u * LIST_CAP)
#define S_PAIRS (S_WORK + 4u * LIST_CAP)

layout(buffer_reference, std430, buffer_reference_align = 8) buffer SetMetaRef {
    uint64_t bm_pool;
    uint64_t ar_pool;
    uint64_t bm_ring;
    uint64_t ar_ring;
    uint bm_mask;
    uint ar_mask;
};
layout(buffer_reference, std430, buffer_reference_align = 8) buffer UVec2Ref { uvec2 v[]; };

// Directory forms of the pipeline's sets (specialization constant: src/set/passes.rs sets it per
// pipeline from the sets it records with, so that a pipeline for flat sets has no code for
// packed ones): DIR_PACKED_D, _A, _B (generated) for the sets at pc.meta_d, meta_a, meta_b.
layout(constant_id = 6) const uint DIR_FORMS = 0u;

// Whether the set at `meta` (one of the push constants' sets) has a packed directory. A
// destination that is written is never packed (the host unpacks it first); where it is also
// an operand (in place), its bits agree.
bool dir_packed(uint64_t meta) {
    if (DIR_FORMS == 0u) {
        return false;
    }
    uint bit = meta == pc.meta_d ? DIR_PACKED_D
             : meta == pc.meta_a ? DIR_PACKED_A
             : meta == pc.meta_b ? DIR_PACKED_B : 0u;
    return (DIR_FORMS & bit) != 0u;
}

// Packed directory (at META_DIR): an index of DIR_GROUPS uvec4, one per 64 chunks: the mask
// of its non-empty chunks (two words, chunk 64g + i at bit i), the number of non-empty chunks
// before the group, and 0; then the entries of the non-empty chunks in chunk order. A run
// chunk of several runs keeps its runs as consecutive words of the array pool, its entry's
// second word their first word's index (see run_words_addr): a packed set's blocks are never
// freed, so the runs need no block of their own. A chunk's entry is two dependent loads (the
// index word is shared by 64 chunks). DIR_GROUPS, DIR_INDEX_BYTES: generated. The reads are
// the public include's (glsl/public/vkalgo_set.glsl), through the set's view.

// The view of the set at `meta` for the public lookups (glsl/public/vkalgo_set.glsl).
VkalgoSetView set_view(uint64_t meta) {
    return VkalgoSetView(meta, dir_packed(meta) ? 1u : 0u, 0u);
}

uvec2 dir_entry(uint64_t meta, uint c) {
    return vkalgo_set_entry(set_view(meta), c);
}

// Writes chunk c's entry of a destination (always flat).
void set_dir_entry(uint64_t meta, uint c, uvec2 e) {
    UVec2Ref(meta + META_DIR + uint64_t(c) * 8ul).v[0] = e;
}

// Cursor i: 0 bitmap head, 1 bitmap tail, 2 array head, 3 array tail.
uint64_t cursor_addr(uint64_t meta, uint i) {
    return meta + META_CURSORS + uint64_t(i) * 4ul;
}

// The cardinality and the run count (0: not a run chunk) of a chunk from its entry's first word.
uint chunk_card(uint x) {
    return x & CARD_MASK;
}

uint chunk_runs(uint x) {
    return x >> RUN_SHIFT;
}

uint array_blocks(uint n) {
    uint words = (n + 1u) / 2u;
    return max(1u, (words - 1u + ARRAY_BLOCK_WORDS - 2u) / (ARRAY_BLOCK_WORDS - 1u));
}

// Blocks (bitmap, array) a chunk of cardinality n holds.
uvec2 chunk_blocks(uint n) {
    if (n == 0u || n == FULL) {
        return uvec2(0u);
    }
    return n > ARRAY_MAX ? uvec2(1u, 0u) : uvec2(0u, array_blocks(n));
}

// Blocks (bitmap, array) a chunk holds, from its entry's first word x. Only kernels that define
// SET_RUN_CHUNKS meet run chunks (classify.comp keeps them from the pair and copy kernels, as
// operand and as the destination's old chunk); the others compile the plain chunk_blocks.
uvec2 entry_blocks(uint x) {
#ifdef SET_RUN_CHUNKS
    uint r = chunk_runs(x);
    if (r != 0u) {
        return uvec2(0u, r > 1u ? 1u : 0u);
    }
#endif
    return chunk_blocks(x);
}

// The entry's first word of a result of `card` values and `runs` runs written by a kernel that
// writes run chunks (chunk_update.comp): runs where CRoaring's run_optimize would pick them
// (their 2 + 4r bytes below an array's 2n or, above ARRAY_MAX values, a bitmap's 8192; src/set/
// roaring.rs written_form) and they fit one block (r <= RUN_MAX), else the plain cardinality.
uint result_form(uint card, uint runs) {
    bool run_chunk = card != 0u && card != FULL && runs != 0u && runs <= RUN_MAX
                  && (card > ARRAY_MAX || 2u + 4u * runs < 2u * card);
    return run_chunk ? card | (runs << RUN_SHIFT) : card;
}

// The overlap of two runs (words first | last << 16): its first and last value (first > last
// when they do not overlap).
uvec2 run_overlap(uint ra, uint rb) {
    return uvec2(max(ra & 0xFFFFu, rb & 0xFFFFu), min(ra >> 16, rb >> 16));
}

// Blocks (bitmap, array) enough for any result of lo..hi values: a bitmap block if the result
// may be a bitmap, array blocks for up to min(hi, ARRAY_MAX) values if it may be an array.
uvec2 chunk_blocks_between(uint lo, uint hi) {
    if (hi == 0u || lo == FULL) {
        return uvec2(0u);
    }
    return uvec2(hi > ARRAY_MAX ? 1u : 0u, lo <= ARRAY_MAX ? array_blocks(min(hi, ARRAY_MAX)) : 0u);
}

// The one-pass path of a set operation: when the destination's free blocks cover the bound
// classify computed from the operands' cardinalities (and no earlier operation of the batch
// failed), the counting pass is skipped, the check pass reports the bound as the need, and
// the writing pass runs at once. Every kernel that asks sees the same answer: the counters and
// the destination's cursors do not change between classify and the writing pass.
bool one_pass(uint64_t scratch, uint64_t meta_d) {
    U32Ref s = U32Ref(scratch);
    if (s.v[S_BOUND_VALID] == 0u || s.v[S_FAILED] != 0u) {
        return false;
    }
    U32Ref cur = U32Ref(cursor_addr(meta_d, 0u));
    return s.v[S_BOUND_BM] <= cur.v[1] - cur.v[0] && s.v[S_BOUND_AR] <= cur.v[3] - cur.v[2];
}

// Bitmap block `id` of the bitmap pool whose blocks start at `blocks` (BITMAP_WORDS words each).
uint64_t bitmap_block(uint64_t blocks, uint id) {
    return blocks + uint64_t(id) * uint64_t(BITMAP_WORDS * 4u);
}

uint64_t bitmap_word_addr(uint64_t meta, uint id, uint w) {
    return bitmap_block(SetMetaRef(meta).bm_pool, id) + uint64_t(w) * 4ul;
}

// A set's array pool: its blocks, its ring of free ids and the ring's mask, read once by the
// kernels that take or give back blocks pair after pair (each read is a round trip before the
// access it addresses).
struct ArrayPool {
    uint64_t blocks;
    uint64_t ring;
    uint mask;
};

ArrayPool array_pool(uint64_t meta) {
    SetMetaRef m = SetMetaRef(meta);
    return ArrayPool(m.ar_pool, m.ar_ring, m.ar_mask);
}

// The destination's array pool for a writing pass (write), else nothing: a cardinality-only
// operation has no destination set.
ArrayPool write_pool(bool write) {
    return write ? array_pool(pc.meta_d) : ArrayPool(0ul, 0ul, 0u);
}

// The block id at position pos of the array pool d's ring.
uint pool_ring_id(ArrayPool d, uint pos) {
    return U32Ref(d.ring).v[pos & d.mask];
}

// Block `id` of the array pool whose blocks start at `blocks`.
uint64_t pool_block(uint64_t blocks, uint id) {
    return blocks + uint64_t(id) * uint64_t(ARRAY_BLOCK_WORDS * 4u);
}

uint64_t array_block_addr(uint64_t meta, uint id) {
    return pool_block(SetMetaRef(meta).ar_pool, id);
}

// The first run word of a run chunk of several runs whose entry's second word is y, in the
// array pool at `pool` of a set with a packed directory or not: a block id (flat) or a word
// index (packed).
uint64_t run_words_addr(uint64_t pool, uint y, bool packed) {
    return packed ? pool + uint64_t(y) * 4ul : pool_block(pool, y);
}

// Run i of a run chunk (entry e) of the set at `meta`: first | last << 16.
uint chunk_run_word(uint64_t meta, uvec2 e, uint i) {
    return vkalgo_set_run(set_view(meta), e, i);
}

// Word w of an array chunk's stream (header words first), first block id0, k blocks.
uint array_stream_word(uint64_t meta, uint id0, uint w) {
    return vkalgo_set_array_word(set_view(meta), id0, w);
}

// Vector q of an array chunk's word stream, in block `id` (of the pool whose blocks start at
// `blocks`; the id of block q / BLOCK_VECS of the chunk).
uvec4 stream_vector(uint64_t blocks, uint id, uint q) {
    return U32x4Ref(pool_block(blocks, id)).v[q % BLOCK_VECS];
}

// Word i of vector q of the word stream of an array chunk of n values with h header words:
// whether it is one of the value words, which (j), and the word (an odd n's last word with its
// high half cleared).
bool vector_value_word(uvec4 v, uint q, uint i, uint h, uint n, out uint j, out uint word) {
    uint w = q * VEC_WORDS + i;
    j = w - h;
    word = 2u * j + 1u < n ? v[i] : (v[i] & 0xFFFFu);
    return w >= h && j < (n + 1u) / 2u;
}

// Header words (the ids of blocks 1..) of an array chunk of n values, 0 for an empty one.
// (array_blocks(0) is 1, so the empty case is array_blocks' own; but written without it, and
// with run_word's mask after its select, the driver gave small_pairs.comp more registers and
// fewer resident workgroups: docs/tuning/set.md#small-pairs-registers.)
uint header_words(uint n) {
    return n == 0u ? 0u : array_blocks(n) - 1u;
}

// Word g of a run of n sorted values starting at pc.values[start] as an array stream word:
// values 2g and 2g + 1 (their low 16 bits), the high half 0 past the run's end.
uint run_word(uint n, uint start, uint g) {
    uint lo = U32Ref(u32_addr(pc.values, start + 2u * g)).v[0] & 0xFFFFu;
    uint hi = 2u * g + 1u < n ? U32Ref(u32_addr(pc.values, start + 2u * g + 1u)).v[0] : 0u;
    return lo | ((hi & 0xFFFFu) << 16);
}

// Value j (0..n-1) of an array chunk of n values.
uint array_value(uint64_t meta, uint id0, uint n, uint j) {
    return vkalgo_set_array_value(set_view(meta), id0, n, j);
}

// Whether v is in the set.
bool set_contains(uint64_t meta, uint v) {
    return vkalgo_set_contains(set_view(meta), v);
}

// Bits [lo, hi) of word w (a 32-bit word of a chunk bitmap), lo <= hi <= 65536.
uint range_mask(uint w, uint lo, uint hi) {
    uint b0 = w * 32u;
    uint s = clamp(lo, b0, b0 + 32u) - b0;
    uint e = clamp(hi, b0, b0 + 32u) - b0;
    if (s >= e) {
        return 0u;
    }
    uint width = e - s;
    uint m = width == 32u ? 0xFFFFFFFFu : ((1u << width) - 1u);
    return m << s;
}

#define CLASS_SMALL 0u
#define CLASS_MEDIUM 1u
#define CLASS_CHUNK 2u
#define CLASS_BITMAPS 3u
#define CLASS_RUNS 4u

// Pairs of chunks that are each empty, full (one run) or a run chunk, with at most
// RUN_PAIR_MAX runs together, go to run_pairs.glsl (one invocation a pair, walking the runs):
// the result then has at most that many runs (its run boundaries are the operands'), so it is
// a run chunk in one array block, or an array of at most 2 * RUN_PAIR_MAX + 1 values (where
// result_form prefers it to the runs), which fits one array block too. RUN_PAIR_MAX: generated.

// The runs of a chunk for run_pairs.glsl (entry's first word x): 0 empty, 1 full, r for a run
// chunk, RUN_PAIR_NONE for an array or a bitmap.
#define RUN_PAIR_NONE 0xFFFFu
uint pair_runs(uint x) {
    uint card = chunk_card(x);
    return card == 0u ? 0u : card == FULL ? 1u : chunk_runs(x) != 0u ? chunk_runs(x) : RUN_PAIR_NONE;
}

// Whether a pair of chunks (entries' first words xa, xb) is run_pairs.glsl's.
bool is_run_pair(uint xa, uint xb) {
    return pair_runs(xa) + pair_runs(xb) <= RUN_PAIR_MAX;
}

// Which kernel takes a pair of chunks of na and nb values (or a chunk and a run of nb
// values): small_pairs.comp or array_pairs.comp where both are arrays (or empty) and small
// enough together, else chunk_update.comp.
uint pair_class(uint na, uint nb) {
    if (na <= PAIR_SMALL_VALUES && nb <= PAIR_SMALL_VALUES - na) {
        return CLASS_SMALL;
    }
    if (na <= PAIR_MEDIUM_VALUES && nb <= PAIR_MEDIUM_VALUES - na) {
        return CLASS_MEDIUM;
    }
    return CLASS_CHUNK;
}

// The blocks bound of a chunk whose result may be a run chunk (chunk_update.comp writes one
// where an operand is a run chunk): a result of more than ARRAY_MAX values may then take one
// array block instead of a bitmap.
uvec2 run_bound(uvec2 bound, bool may_run) {
    return may_run ? uvec2(bound.x, max(bound.y, bound.x)) : bound;
}

// Lists chunk c for the kernel of class `cls`.
void list_chunk(uint64_t scratch, uint c, uint cls) {
    if (cls == CLASS_CHUNK) {
        uint i = atomicAdd(U32AtomicRef(scratch).v[S_WORK_COUNT], 1u);
        U32Ref(scratch).v[S_WORK + i] = c;
    } else if (cls == CLASS_BITMAPS) {
        uint i = atomicAdd(U32AtomicRef(scratch).v[S_BITMAP_COUNT], 1u);
        U32Ref(scratch).v[S_BITMAPS_ENTRY(i)] = c;
    } else if (cls == CLASS_RUNS) {
        uint i = atomicAdd(U32AtomicRef(scratch).v[S_RUN_PAIR_COUNT], 1u);
        U32Ref(scratch).v[S_RUN_PAIRS_ENTRY(i)] = c;
    } else if (cls == CLASS_SMALL) {
        uint i = atomicAdd(U32AtomicRef(scratch).v[S_PAIR_COUNT], 1u);
        U32Ref(scratch).v[S_PAIRS + i] = c;
    } else {
        uint i = atomicAdd(U32AtomicRef(scratch).v[S_PAIR_MEDIUM_COUNT], 1u);
        U32Ref(scratch).v[S_PAIRS + LIST_CAP - 1u - i] = c;
    }
}

// The set operation `op` of two words, or of two vectors of words (bitmap_pairs.comp), bit by
// bit.
#define APPLY_OP(op, a, b)                                                                    \
    ((op) == OP_AND ? (a) & (b) : (op) == OP_OR ? (a) | (b) : (op) == OP_ANDNOT ? (a) & ~(b) : (a) ^ (b))
uint apply_op(uint op, uint a, uint b) { return APPLY_OP(op, a, b); }
uvec4 apply_op(uint op, uvec4 a, uvec4 b) { return APPLY_OP(op, a, b); }

// Counts a chunk that became empty or non-empty (one invocation).
void note_nonempty(uint64_t meta, uint old_card, uint new_card) {
    if ((old_card == 0u) != (new_card == 0u)) {
        atomicAdd(U32AtomicRef(meta + META_NONEMPTY).v[0], new_card == 0u ? 0xFFFFFFFFu : 1u);
    }
}

// What a pair pass adds to the shared counters, summed over a workgroup's pairs by its
// invocation 0 and added once when the workgroup ends (pass_sums_flush). One atomic per pair
// on the same few words serializes (docs/tuning/set.md#pass-sums).
struct PassSums {
    uint card_partial;  // values in the result's chunks that are not full
    uint card_full;     // the result's full chunks
    uint need_bm;       // bitmap blocks the results need
    uint need_ar;       // array blocks the results need
    uint nonempty_up;   // destination chunks that became non-empty
    uint nonempty_down; // destination chunks that became empty
};

PassSums pass_sums_new() {
    return PassSums(0u, 0u, 0u, 0u, 0u, 0u);
}

// Adds a counted result of `card` values that needs `need` blocks.
void pass_sums_add(inout PassSums s, uint card, uvec2 need) {
    if (card == FULL) {
        s.card_full++;
    } else {
        s.card_partial += card;
    }
    s.need_bm += need.x;
    s.need_ar += need.y;
}

// Counts a counted pair's result (stage 0 or 2 of the pair kernels).
void pass_sums_count(inout PassSums s, uint card) {
    pass_sums_add(s, card, chunk_blocks(card));
}

// Counts a counted result whose entry's first word is `form` (a run chunk or not).
void pass_sums_count_form(inout PassSums s, uint form) {
    pass_sums_add(s, chunk_card(form), entry_blocks(form));
}

// Counts a written chunk that became empty or non-empty (stage 1).
void pass_sums_written(inout PassSums s, uint old_card, uint new_card) {
    if ((old_card == 0u) != (new_card == 0u)) {
        if (new_card == 0u) {
            s.nonempty_down++;
        } else {
            s.nonempty_up++;
        }
    }
}

// Adds the sums to the counters (one invocation, once per workgroup).
void pass_sums_flush(PassSums s) {
    if (s.card_partial != 0u) {
        atomicAdd(U32AtomicRef(card_sums_addr()).v[0], s.card_partial);
    }
    if (s.card_full != 0u) {
        atomicAdd(U32AtomicRef(card_sums_addr()).v[1], s.card_full);
    }
    if (s.need_bm != 0u) {
        atomicAdd(U32AtomicRef(pc.scratch).v[S_NEED_BM], s.need_bm);
    }
    if (s.need_ar != 0u) {
        atomicAdd(U32AtomicRef(pc.scratch).v[S_NEED_AR], s.need_ar);
    }
    if (s.nonempty_up != s.nonempty_down) {
        atomicAdd(U32AtomicRef(pc.meta_d + META_NONEMPTY).v[0], s.nonempty_up - s.nonempty_down);
    }
}

// Result of `op` on two chunks decided by their cardinalities: returns true and the result's
// source (0 a, 1 b, 2 complement of a, 3 complement of b, 4 empty, 5 full) when decided.
bool decide(uint op, uint ca, uint cb, out uint src) {
    src = 4u;
    if (op == OP_AND) {
        if (ca == 0u || cb == 0u) { src = 4u; return true; }
        if (ca == FULL) { src = 1u; return true; }
        if (cb == FULL) { src = 0u; return true; }
    } else if (op == OP_OR) {
        if (ca == FULL || cb == FULL) { src = 5u; return true; }
        if (ca == 0u) { src = 1u; return true; }
        if (cb == 0u) { src = 0u; return true; }
    } else if (op == OP_ANDNOT) {
        if (ca == 0u || cb == FULL) { src = 4u; return true; }
        if (cb == 0u) { src = 0u; return true; }
        if (ca == FULL) { src = 3u; return true; }
    } else {
        if (ca == 0u) { src = 1u; return true; }
        if (cb == 0u) { src = 0u; return true; }
        if (ca == FULL) { src = 3u; return true; }
        if (cb == FULL) { src = 2u; return true; }
    }
    return false;
}


// The cardinality of a chunk result decided from its source `src` (decide) and the operands'
// cardinalities.
uint source_card(uint src, uint ca, uint cb) {
    return src == 0u ? ca : src == 1u ? cb : src == 2u ? FULL - ca : src == 3u ? FULL - cb : src == 4u ? 0u : FULL;
}

// The cardinality of `op` of two chunks of ca and cb values that share `overlap` values.
uint overlap_card(uint op, uint ca, uint cb, uint overlap) {
    return op == OP_AND ? overlap : op == OP_OR ? ca + cb - overlap : op == OP_ANDNOT ? ca - overlap : ca + cb - 2u * overlap;
}

// The values two run chunks of one run each (their entries' second words) share.
uint single_runs_overlap(uint ra, uint rb) {
    uvec2 both = run_overlap(ra, rb);
    return both.x <= both.y ? both.y - both.x + 1u : 0u;
}

// The cardinality of `op` of two chunks (entries ea, eb) where the entries alone decide it
// (classify.comp's rules: an empty or full operand, or two run chunks of one run each); false
// for a pair whose values must be read.
bool decided_cardinality(uint op, uvec2 ea, uvec2 eb, out uint card) {
    uint ca = chunk_card(ea.x);
    uint cb = chunk_card(eb.x);
    uint src;
    card = 0u;
    if (decide(op, ca, cb, src)) {
        card = source_card(src, ca, cb);
        return true;
    }
    if (chunk_runs(ea.x) == 1u && chunk_runs(eb.x) == 1u) {
        card = overlap_card(op, ca, cb, single_runs_overlap(ea.y, eb.y));
        return true;
    }
    return false;
}

// The destination's pools (cursors 0 and 1 for bitmaps, 2 and 3 for arrays).
#define POOL_BITMAP 0u
#define POOL_ARRAY 1u

// Takes k block ids from the destination's `pool` (one invocation): returns the ring position
// of the first; ring_id gives the ids. The check pass found them free.
uint take_blocks(uint pool, uint k) {
    return atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 2u * pool)).v[0], k);
}

// The destination's block id at ring position pos of `pool`.
uint ring_id(uint pool, uint pos) {
    SetMetaRef m = SetMetaRef(pc.meta_d);
    return pool == POOL_BITMAP ? U32Ref(m.bm_ring).v[pos & m.bm_mask] : U32Ref(m.ar_ring).v[pos & m.ar_mask];
}

// Gives the old storage of a destination chunk (entry e) back, part one (one invocation): a
// bitmap block goes back to its ring at once; for array blocks, takes their slots in the array
// ring and returns the first (0 when the chunk has none).
uint free_chunk_slots(uvec2 e) {
    uvec2 blocks = entry_blocks(e.x);
    if (blocks.x != 0u) {
        uint pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 1u)).v[0], 1u);
        U32Ref(SetMetaRef(pc.meta_d).bm_ring).v[pos & SetMetaRef(pc.meta_d).bm_mask] = e.y;
        return 0u;
    }
    return blocks.y != 0u ? atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 3u)).v[0], blocks.y) : 0u;
}

// A workgroup gives a destination chunk's old blocks back in two parts: free_chunk_begin (one
// invocation), a barrier, then free_chunk_ids (every invocation). One invocation alone, as
// free_chunk_storage_serial does, waits a round trip per array block for its id
// (docs/tuning/set.md#reused-blocks).
// The first ring slot of the old array blocks, from part one to part two.
shared uint s_free_pos;

// Part one, one invocation (e the chunk's old entry).
void free_chunk_begin(uvec2 e) {
    s_free_pos = free_chunk_slots(e);
}

// Part two, every invocation after a barrier that follows part one: the array blocks' ids
// into their slots (block 0's id from the entry, the others from block 0's header); d the
// destination's array pool.
void free_chunk_ids(uvec2 e, ArrayPool d) {
    uint k = entry_blocks(e.x).y;
    uint pos = s_free_pos;
    for (uint b = gl_LocalInvocationIndex; b < k; b += WG_SIZE) {
        uint id = b == 0u ? e.y : U32Ref(pool_block(d.blocks, e.y)).v[b - 1u];
        U32Ref(d.ring).v[(pos + b) & d.mask] = id;
    }
}

// An array result written over the destination chunk's old array blocks (the pair and copy
// kernels), in two parts like free_chunk_begin / free_chunk_ids: the old blocks hold the
// result's first blocks, only the shortfall is taken from the ring and only the surplus given
// back. An operation whose results keep their block counts (a query repeated into the same
// set, an update of a set in place) then makes no atomic round trip on the pools' cursors
// (docs/tuning/set.md#reused-blocks). Writing over the old blocks is safe:
// a chunk's work is one workgroup's, and an operand that is the destination has had its
// chunk read (into shared memory or registers) before the result is stored.
// The ring position of the blocks taken (part one to part two).
shared uint s_take_pos;

// Part one, one invocation: for a result of k array blocks (0 for an empty, full or bitmap
// result) over the destination chunk's old entry old_d, gives a bitmap block back, takes the
// ring slots of the old array blocks past k and the ids of the result's blocks past the old.
void reuse_blocks_begin(uvec2 old_d, uint k) {
    uvec2 old_blocks = entry_blocks(old_d.x);
    uint keep = min(old_blocks.y, k);
    if (old_blocks.x != 0u) {
        free_chunk_slots(old_d);
    }
    if (old_blocks.y > keep) {
        s_free_pos = atomicAdd(U32AtomicRef(cursor_addr(pc.meta_d, 3u)).v[0], old_blocks.y - keep);
    }
    if (k > keep) {
        s_take_pos = take_blocks(POOL_ARRAY, k - keep);
    }
}

// Part two's blocks: b from 0 to this bound (exclusive), spread over the invocations.
uint reuse_blocks_end(uvec2 old_d, uint k) {
    return max(k, entry_blocks(old_d.x).y);
}

// Part two, after a barrier that follows part one: the id of the result's block b (b < k), or
// for k <= b gives old block b back and returns 0. It reads the old chunk's header, so a
// barrier must separate every call from the stores to the result's block 0.
uint reuse_blocks_id(uvec2 old_d, uint k, uint b, ArrayPool d) {
    uint k_old = entry_blocks(old_d.x).y;
    uint keep = min(k_old, k);
    uint old_id = b == 0u ? old_d.y : (b < k_old ? U32Ref(pool_block(d.blocks, old_d.y)).v[b - 1u] : 0u);
    if (b < keep) {
        return old_id;
    }
    if (b < k) {
        return pool_ring_id(d, s_take_pos + (b - keep));
    }
    U32Ref(d.ring).v[(s_free_pos + (b - keep)) & d.mask] = old_id;
    return 0u;
}

// Gives array blocks from..k-1 (1 <= from) of a destination chunk back into the array ring's
// slots from `slot` on, one invocation alone: block 0 is `id0`, the others' ids are in its
// header. Eight header words are loaded before their stores: a store to the ring might alias
// the header, so a load after it would wait a round trip each.
void give_back_header_blocks(ArrayPool d, uint id0, uint from, uint k, uint slot) {
    U32Ref header = U32Ref(pool_block(d.blocks, id0));
    for (uint i = from; i < k; i += 8u) {
        uint ids[8];
        [[unroll]] for (uint j = 0u; j < 8u; j++) {
            ids[j] = i + j < k ? header.v[i + j - 1u] : 0u;
        }
        [[unroll]] for (uint j = 0u; j < 8u; j++) {
            if (i + j < k) {
                U32Ref(d.ring).v[(slot + i + j - from) & d.mask] = ids[j];
            }
        }
    }
}

// Gives a destination chunk's blocks back, one invocation alone (e the chunk's old entry).
void free_chunk_storage_serial(uvec2 e) {
    uint k = entry_blocks(e.x).y;
    uint pos = free_chunk_slots(e);
    if (k == 0u) {
        return;
    }
    ArrayPool d = array_pool(pc.meta_d);
    U32Ref(d.ring).v[pos & d.mask] = e.y;
    give_back_header_blocks(d, e.y, 1u, k, pos + 1u);
}

#endif
