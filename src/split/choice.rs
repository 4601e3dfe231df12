//! The multisplit's path choice and geometry: a pure function of the description and the
//! device's limits (no Vulkan object), reading the tuning tables of `tuning.rs`.

use super::tiles::{double_buffered_rows, TileGeometry, TileWrite};
use super::tuning::{self, DeviceShape};
use super::{BucketFn, SplitDesc, SplitPath};
use crate::core::tuning::DeviceClass;
use crate::error::{Error, Result};

/// Entries of the small path's shared count matrix (glsl/split/small.comp SMALL_WORDS).
pub(super) const SMALL_WORDS: u64 = 4096;
/// Most shared memory (bytes) the counters of one workgroup take.
pub(super) const MAX_COUNTER_BYTES: u64 = 16384;

/// What the path choice knows of the device.
#[derive(Clone, Debug)]
pub(super) struct DeviceLimits {
    /// The device's class, for the tuning tables.
    pub class: DeviceClass,
    /// Lanes of a lane group: the device's smallest subgroup size.
    pub group_lanes: u32,
    /// The device's largest subgroup size.
    pub max_subgroup: u32,
    /// Bytes of shared memory a workgroup may take.
    pub max_shared_memory: u64,
    /// Whether the device profile runs the look-back (decoupled look-back scans and the
    /// Onesweep split).
    pub lookback: bool,
    /// Why the Onesweep split cannot take the split (`None`: it can).
    pub onesweep_refusal: Option<String>,
}

/// The path and geometry of a split.
#[derive(Clone, Debug)]
pub(super) struct Geometry {
    /// Invocations of a workgroup.
    pub workgroup_size: u32,
    /// Steps of a lane group's column (the small and column paths).
    pub column_steps: u32,
    /// Steps each lane loads before ranking them.
    pub batch: u32,
    /// 16-byte vectors a lane of the tile count's register form loads at once.
    pub count_load_vectors: u32,
    /// Largest count of the one-workgroup path.
    pub small_limit: u64,
    /// The tile path (`None`: the column path, or the Onesweep split).
    pub tile: Option<TileGeometry>,
    /// Whether the split is the Onesweep split.
    pub onesweep: bool,
    /// Words of the tile scatter's shared pool (1 on the column path).
    pub counter_words: u32,
    /// Whether the tile scatter ranks through a table of lane masks.
    pub match_table: bool,
    /// Largest number of columns of the count matrix.
    pub max_columns: u64,
    /// Entries of the largest count matrix.
    pub matrix_entries: u64,
}

/// The counter rows and shared pools of the tile paths, and which of them fit the device.
struct TileFits {
    shape: DeviceShape,
    group_lanes: u32,
    max_shared_memory: u64,
    class: DeviceClass,
}

impl TileFits {
    /// Elements per invocation of a tile on the path `write`.
    fn items(&self, desc: &SplitDesc, write: TileWrite) -> u32 {
        match desc.tile_items {
            0 => tuning::tile_items(desc, write, self.class),
            items => items,
        }
    }

    /// Counter rows of a workgroup (one per lane group).
    fn rows(&self) -> u64 {
        (self.shape.workgroup_size / self.group_lanes) as u64
    }

    /// Whether the counter rows (rows x m words) fit the counter budget.
    fn counters_fit(&self, desc: &SplitDesc) -> bool {
        let budget = MAX_COUNTER_BYTES.min(self.max_shared_memory / 2);
        self.rows() * desc.bucket_count as u64 * 4 <= budget
    }

    /// Words of the tile scatter's shared pool on the path `write`: the counter rows; staged,
    /// also the tile (one word per element and key or value word) and two words per bucket.
    fn pool_words(&self, desc: &SplitDesc, write: TileWrite) -> u64 {
        let m = desc.bucket_count as u64;
        let word_size = desc.key_type.bytes().max(desc.value_type.bytes());
        let tile_length = self.shape.workgroup_size as u64 * self.items(desc, write) as u64;
        // Subgroup positions over several tiles a workgroup: two sets of rows, by tile parity.
        let row_sets = if double_buffered_rows(desc, write, self.group_lanes) {
            2
        } else {
            1
        };
        let counters = row_sets * self.rows() * m;
        let words = match write {
            // Per-subgroup starts: the rows after the staged tile and the bucket tables.
            TileWrite::Staged if tuning::subgroup_positions(desc, write, self.group_lanes) => {
                tile_length * (word_size / 4) + 2 * m + counters
            }
            TileWrite::Staged => counters.max(tile_length * (word_size / 4)) + 2 * m,
            TileWrite::SubgroupStaged => counters + tile_length * (word_size / 4),
            TileWrite::Direct => counters,
        };
        words.max(1).next_multiple_of(256)
    }

    /// Whether the tile path `write` fits the device: the counter rows within the budget
    /// (direct); the pool next to the workgroup scan's words in shared memory (staged: the
    /// counter rows may then take more than the budget); subgroup-staged, also `m` at most the
    /// lanes of a lane group.
    fn fits(&self, desc: &SplitDesc, write: TileWrite) -> bool {
        let pool_fits = || {
            (self.pool_words(desc, write) + self.shape.workgroup_size as u64 + 16) * 4
                <= self.max_shared_memory
        };
        match write {
            TileWrite::Direct => self.counters_fit(desc),
            TileWrite::Staged => pool_fits(),
            TileWrite::SubgroupStaged => desc.bucket_count <= self.group_lanes && pool_fits(),
        }
    }
}

/// The tile path of `desc` (`Ok(None)`: no tile path), and whether [`SplitPath::Auto`] took it
/// from the [`tuning::AUTO_TILE`] rows (before the Onesweep split).
fn tile_path(desc: &SplitDesc, fits: &TileFits) -> Result<(Option<TileWrite>, bool)> {
    let m = desc.bucket_count;
    let auto_tile = match desc.path {
        SplitPath::Auto => {
            tuning::auto_tiles(desc, fits.class, fits.group_lanes).find(|&write| fits.fits(desc, write))
        }
        _ => None,
    };
    let direct_max = tuning::direct_max_buckets(desc, fits.class, fits.group_lanes);
    let requested = match desc.path {
        SplitPath::TileDirect => Some(TileWrite::Direct),
        SplitPath::TileStaged => Some(TileWrite::Staged),
        SplitPath::TileSubgroupStaged => Some(TileWrite::SubgroupStaged),
        _ => None,
    };
    let tile = match (desc.path, requested) {
        (SplitPath::Auto, _) if auto_tile.is_some() => auto_tile,
        (SplitPath::Auto, _) if m <= direct_max && fits.fits(desc, TileWrite::Direct) => {
            Some(TileWrite::Direct)
        }
        (SplitPath::Auto, _) if fits.fits(desc, TileWrite::Staged) => Some(TileWrite::Staged),
        (_, Some(write)) if fits.fits(desc, write) => Some(write),
        (_, Some(_)) => {
            return Err(Error::invalid(format!(
                "multisplit: the {:?} path does not fit {m} buckets ({} counter rows, {} shared bytes)",
                desc.path,
                fits.rows(),
                fits.max_shared_memory
            )))
        }
        _ => None,
    };
    Ok((tile, auto_tile.is_some()))
}

/// Whether the split is the Onesweep split (`tile`: the tile path it would take else).
fn takes_onesweep(
    desc: &SplitDesc,
    limits: &DeviceLimits,
    tile: Option<TileWrite>,
    auto_tile: bool,
) -> Result<bool> {
    Ok(match desc.path {
        SplitPath::Onesweep => match &limits.onesweep_refusal {
            Some(why) => {
                return Err(Error::invalid(format!(
                    "multisplit: the Onesweep path does not take this split: {why}"
                )))
            }
            None => true,
        },
        // SPLITTERS stay on a tile path wherever one fits: their search per key makes the
        // Onesweep split slower (docs/tuning/split.md#splitters-tile-paths).
        _ if desc.bucket_fn == BucketFn::Splitters && tile.is_some() => false,
        SplitPath::Auto => {
            !auto_tile
                && limits.lookback
                && desc.bucket_count >= tuning::onesweep_min_buckets(desc, limits.class)
                && limits.onesweep_refusal.is_none()
        }
        _ => false,
    })
}

/// The path and geometry of `desc` on a device with `limits` (the description's own limits
/// checked by the caller).
pub(super) fn choose(desc: &SplitDesc, limits: &DeviceLimits) -> Result<Geometry> {
    let m = desc.bucket_count;
    let class = limits.class;
    let shape = tuning::device_shape(class);
    let group_lanes = limits.group_lanes;
    let workgroup_size = shape.workgroup_size.max(limits.max_subgroup);
    let shape = DeviceShape {
        workgroup_size,
        ..shape
    };
    // Steps per column: a column holds at least 8 steps and 8 elements per bucket, so the
    // count matrix has at most about count / 8 + m entries. (A multiple of 8 steps, so of
    // every batch.)
    let column_steps = (8 * m as u64)
        .div_ceil(group_lanes as u64)
        .clamp(8, shape.max_column_steps)
        .next_multiple_of(8);
    let lane_column_length = column_steps * group_lanes as u64;
    // The one-workgroup path: its matrix (m x columns) in SMALL_WORDS of shared memory, and
    // few enough elements that one workgroup beats several dispatches. (Below 2^15:
    // glsl/split/small.comp keeps a position and its run's end in 16 bits each.)
    let small_limit = (SMALL_WORDS / m as u64 * lane_column_length).min(shape.small_cap);
    if desc.path == SplitPath::Small && (small_limit == 0 || desc.max_count > small_limit) {
        return Err(Error::invalid(format!(
            "multisplit: the small path splits at most {small_limit} elements into {m} buckets; max_count is {}",
            desc.max_count
        )));
    }

    let fits = TileFits {
        shape,
        group_lanes,
        max_shared_memory: limits.max_shared_memory,
        class,
    };
    let (tile, auto_tile) = tile_path(desc, &fits)?;
    let onesweep = takes_onesweep(desc, limits, tile, auto_tile)?;
    let tile = if onesweep { None } else { tile }.map(|write| TileGeometry {
        items: fits.items(desc, write),
        write,
    });
    let column_length = match tile {
        Some(tile) => workgroup_size as u64 * tile.items as u64,
        None => lane_column_length,
    };
    let max_columns = desc.max_count.div_ceil(column_length).max(1);
    let matrix_entries = m as u64 * max_columns;
    // (Lane indices of the dispatch, up to one workgroup past the last column, are u32.)
    let lanes = max_columns * group_lanes as u64 + workgroup_size as u64;
    if !onesweep && (matrix_entries >= u32::MAX as u64 || lanes > u32::MAX as u64) {
        return Err(Error::invalid(format!(
            "multisplit: {m} buckets x {max_columns} columns exceed the count matrix's 2^32 - 1 entries"
        )));
    }
    Ok(Geometry {
        workgroup_size,
        column_steps: column_steps as u32,
        batch: tile.map_or(shape.column_batch, |t| t.items),
        count_load_vectors: shape.count_load_vectors,
        small_limit,
        tile,
        onesweep,
        counter_words: tile.map_or(1, |tile| fits.pool_words(desc, tile.write) as u32),
        match_table: tile.is_some_and(|tile| {
            tile.items >= 2 && tuning::match_table(desc, tile.write, group_lanes, limits.max_subgroup, class)
        }),
        max_columns,
        matrix_entries,
    })
}
