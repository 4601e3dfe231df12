//! Creating pipelines ahead of use: [`Context::warm_up`] for whole algorithms, with every key
//! and value type at the default tuning. Plans and objects create their own pipelines when
//! they are made, so recording never compiles anything; warm-up moves that cost to a moment
//! the engine chooses (a loading screen), and a saved pipeline cache
//! ([`Context::pipeline_cache_data`]) makes it cheap on later runs.

use crate::hash::{HashKeyType, HashMapDesc, HashValueType};
use crate::{
    Context, Error, HashMap, KeyType, MergeDesc, MergeSortDesc, Result, ScanDesc, ScanOp, SetOp, SetOpDesc,
    SortDesc, ValueType,
};

/// Algorithms [`Context::warm_up`] creates the pipelines of (the values are the C constants
/// `VKALGO_ALGORITHM_*`, bits of a mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum Algorithm {
    /// Scans of every key type and operation (every path the device's default plans take).
    Scan = 1,
    /// Radix sorts of every key type, keys only and with u32 or u64 values.
    Sort = 2,
    /// Hash maps and multimaps of every key/value layout (default buckets and insert).
    HashMap = 4,
    /// Merges of every key type, keys only and with values.
    Merge = 8,
    /// Merge sorts of every key type, keys only and with values.
    MergeSort = 16,
    /// Sorted-array set operations of every key type.
    SetOps = 32,
    /// Bitmap sets ([`crate::GpuSet`]).
    Sets = 64,
    /// Reduces of every key type and operation.
    Reduce = 128,
    /// Histograms of every key type with the built-in bucket functions (BITS, SPLITTERS and
    /// IDS; a GLSL one is compiled for its plan), shared and global counts.
    Histogram = 256,
    /// Selects of every key and value type, flagged and unique (GLSL predicates compile with
    /// their plans).
    Select = 512,
    /// Reduce-by-key and run-length encoding of every key and value type and operation.
    ReduceByKey = 1024,
    /// Segmented sorts of every key type, keys only and with u32 or u64 values.
    SegmentedSort = 2048,
}

impl Algorithm {
    /// Every algorithm warm-up knows.
    pub const ALL: [Algorithm; 12] = [
        Algorithm::Scan,
        Algorithm::Sort,
        Algorithm::HashMap,
        Algorithm::Merge,
        Algorithm::MergeSort,
        Algorithm::SetOps,
        Algorithm::Sets,
        Algorithm::Reduce,
        Algorithm::Histogram,
        Algorithm::Select,
        Algorithm::ReduceByKey,
        Algorithm::SegmentedSort,
    ];
}

/// Counts the warm-up plans are made for (large enough to take every multi-workgroup path).
const PLAN_COUNT: u64 = 1 << 24;

/// A combination the device cannot run is skipped (its plans would be refused as well).
fn skip_unsupported<T>(made: Result<T>) -> Result<()> {
    match made {
        Ok(_) | Err(Error::Unsupported(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

impl Context {
    /// The histogram's pipelines: every key type and built-in bucket function, with counts
    /// in shared memory (256 buckets) and global (the most buckets).
    fn warm_up_histograms(&self) -> Result<()> {
        use crate::split::{BucketFn, MAX_BUCKETS};
        for k in KeyType::ALL {
            for f in [BucketFn::Bits, BucketFn::Splitters, BucketFn::Ids] {
                for m in [256, MAX_BUCKETS] {
                    let desc = crate::HistogramDesc::new(k, m, f, PLAN_COUNT);
                    skip_unsupported(self.histogram_plan(&desc))?;
                }
            }
        }
        Ok(())
    }

    /// Creates the pipelines of `algorithms` now (through the context's pipeline cache), for
    /// every key and value type at the default tuning, so that later plans and objects of
    /// them find their pipelines made. Multisplit plans are left out: their pipelines depend
    /// on the bucket function (a GLSL one is compiled for its plan) and are made with the plan.
    pub fn warm_up(&self, algorithms: &[Algorithm]) -> Result<()> {
        for &algorithm in algorithms {
            match algorithm {
                Algorithm::Scan => {
                    for k in KeyType::ALL {
                        for combine in crate::ReduceOp::ALL {
                            let desc = ScanDesc::typed(k, combine, ScanOp::Exclusive, PLAN_COUNT);
                            skip_unsupported(self.scan_plan(&desc))?;
                        }
                    }
                }
                Algorithm::Sort => {
                    for k in KeyType::ALL {
                        for v in ValueType::ALL {
                            skip_unsupported(self.sort_plan(&SortDesc::new(k, v, PLAN_COUNT)))?;
                        }
                    }
                }
                Algorithm::HashMap => {
                    for k in [HashKeyType::U32, HashKeyType::U64] {
                        for v in [HashValueType::U32, HashValueType::U64] {
                            let desc = HashMapDesc::new(k, v, 1024);
                            skip_unsupported(HashMap::memory_requirements(self, &desc))?;
                            skip_unsupported(crate::hash::multimap::prepare_kernels(self, &desc))?;
                        }
                    }
                }
                Algorithm::Merge => {
                    for k in KeyType::ALL {
                        for v in ValueType::ALL {
                            skip_unsupported(self.merge_plan(&MergeDesc::new(k, v, PLAN_COUNT, PLAN_COUNT)))?;
                        }
                    }
                }
                Algorithm::MergeSort => {
                    for k in KeyType::ALL {
                        for v in ValueType::ALL {
                            skip_unsupported(self.merge_sort_plan(&MergeSortDesc::new(k, v, PLAN_COUNT)))?;
                        }
                    }
                }
                Algorithm::SetOps => {
                    for k in KeyType::ALL {
                        skip_unsupported(self.set_op_plan(&SetOpDesc::new(
                            k,
                            SetOp::And,
                            PLAN_COUNT,
                            PLAN_COUNT,
                        )))?;
                    }
                }
                Algorithm::Sets => crate::set::prepare_kernels(self)?,
                Algorithm::Reduce => {
                    for k in KeyType::ALL {
                        for op in crate::ReduceOp::ALL {
                            skip_unsupported(self.reduce_plan(&crate::ReduceDesc::new(k, op, PLAN_COUNT)))?;
                        }
                    }
                }
                Algorithm::Histogram => self.warm_up_histograms()?,
                Algorithm::Select => {
                    for k in KeyType::ALL {
                        for v in ValueType::ALL {
                            for mode in [crate::SelectMode::Flagged, crate::SelectMode::Unique] {
                                let desc = crate::SelectDesc::new(k, v, mode, PLAN_COUNT);
                                skip_unsupported(self.select_plan(&desc))?;
                            }
                        }
                    }
                }
                Algorithm::ReduceByKey => {
                    for k in KeyType::ALL {
                        for v in ValueType::ALL {
                            for op in crate::ReduceOp::ALL {
                                let desc = crate::ReduceByKeyDesc::new(k, v, op, PLAN_COUNT);
                                skip_unsupported(self.reduce_by_key_plan(&desc))?;
                            }
                        }
                    }
                }
                Algorithm::SegmentedSort => {
                    for k in KeyType::ALL {
                        for v in ValueType::ALL {
                            let desc = crate::SegmentedSortDesc::new(k, v, PLAN_COUNT, PLAN_COUNT);
                            skip_unsupported(self.segmented_sort_plan(&desc))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
