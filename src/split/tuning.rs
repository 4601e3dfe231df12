//! The multisplit's tuning tables: which path [`SplitPath::Auto`] takes, tile lengths, tiles a
//! workgroup, the first tile's order, ballots or the table of lane masks, when the direct path
//! shuffles first, and the shapes CPU drivers take. The NVIDIA rows come from measurement; the
//! evidence of every row is in `docs/tuning/split.md` under its anchor.

use super::desc::{BucketFn, SplitDesc};
use super::tiles::{FirstTileOrder, TileWrite};
#[cfg(doc)]
use super::SplitPath;
use super::{id_bits, MAX_BUCKETS};
use crate::core::tuning::{first_row, rows_for, DeviceClass, Devices, TuningRow};
use crate::ValueType;

/// Which elements a row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Elements {
    /// Every split.
    Any,
    /// Keys alone, of any width.
    KeysAlone,
    /// 4-byte keys alone.
    Keys4,
    /// Keys of any width with u32 values.
    U32Values,
    /// 4-byte keys with u32 values (u32 -> u32 pairs).
    Pairs4,
}

/// Which bucket functions a row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum By {
    /// Every bucket function.
    Any,
    /// BITS or GLSL.
    BitsOrGlsl,
    /// BITS.
    Bits,
    /// GLSL.
    Glsl,
    /// IDS.
    Ids,
    /// Every bucket function but IDS.
    NotIds,
}

/// Which bucket counts a row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Buckets {
    /// `lo..=hi` buckets.
    In(u32, u32),
    /// As many buckets as a lane group has lanes (the device's smallest subgroup).
    GroupLanes,
}

/// Every bucket count.
const ANY_M: Buckets = Buckets::In(1, MAX_BUCKETS);

/// The condition of a row: which splits, on which tile path.
#[derive(Clone, Copy, Debug)]
pub(super) struct Splits {
    /// The tile path (`None`: any, or not on a tile path).
    pub write: Option<TileWrite>,
    /// The elements.
    pub elements: Elements,
    /// The bucket functions.
    pub by: By,
    /// The bucket counts.
    pub buckets: Buckets,
}

impl Splits {
    /// Whether `desc` on the tile path `write` (lane groups of `group_lanes` lanes) is one of
    /// these splits.
    pub(super) fn hold(&self, desc: &SplitDesc, write: Option<TileWrite>, group_lanes: u32) -> bool {
        let four = desc.key_type.bytes() == 4;
        let elements = match self.elements {
            Elements::Any => true,
            Elements::KeysAlone => desc.value_type == ValueType::None,
            Elements::Keys4 => four && desc.value_type == ValueType::None,
            Elements::U32Values => desc.value_type == ValueType::U32,
            Elements::Pairs4 => four && desc.value_type == ValueType::U32,
        };
        let by = match self.by {
            By::Any => true,
            By::BitsOrGlsl => matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl),
            By::Bits => desc.bucket_fn == BucketFn::Bits,
            By::Glsl => desc.bucket_fn == BucketFn::Glsl,
            By::Ids => desc.bucket_fn == BucketFn::Ids,
            By::NotIds => desc.bucket_fn != BucketFn::Ids,
        };
        let m = desc.bucket_count;
        let buckets = match self.buckets {
            Buckets::In(lo, hi) => (lo..=hi).contains(&m),
            Buckets::GroupLanes => m == group_lanes,
        };
        (self.write.is_none() || self.write == write) && elements && by && buckets
    }
}

/// A row of the tables over splits.
type Row<C> = TuningRow<Splits, C>;

/// A row's condition, briefly.
const fn on(write: Option<TileWrite>, elements: Elements, by: By, buckets: Buckets) -> Splits {
    Splits {
        write,
        elements,
        by,
        buckets,
    }
}

const DIRECT: Option<TileWrite> = Some(TileWrite::Direct);
const STAGED: Option<TileWrite> = Some(TileWrite::Staged);
const SUBGROUP: Option<TileWrite> = Some(TileWrite::SubgroupStaged);

/// The shapes that differ between GPUs and CPU drivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DeviceShape {
    /// Invocations of a workgroup (at least the largest subgroup).
    pub workgroup_size: u32,
    /// Most steps of a lane group's column.
    pub max_column_steps: u64,
    /// Steps a lane of the column paths loads before ranking any.
    pub column_batch: u32,
    /// Largest count of the one-workgroup path (the matrix's size bounds it further).
    pub small_cap: u64,
    /// 16-byte vectors a lane of the tile count's register form loads at once.
    pub count_load_vectors: u32,
}

const GPU_SHAPE: DeviceShape = DeviceShape {
    workgroup_size: 256,
    max_column_steps: 1 << 16,
    column_batch: 8,
    small_cap: 16384,
    count_load_vectors: 8,
};

/// The device shapes: GPUs keep many loads in flight; CPU drivers stop an invocation's loop
/// after 65535 iterations and compile long unrolled batches slowly.
pub(super) const DEVICE_SHAPES: &[TuningRow<(), DeviceShape>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: GPU_SHAPE,
        why: "loads in flight, measured",
        anchor: "device-shapes",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: GPU_SHAPE,
        why: "the NVIDIA shape as default",
        anchor: "device-shapes",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: DeviceShape {
            workgroup_size: 64,
            max_column_steps: 2048,
            column_batch: 1,
            small_cap: 4096,
            count_load_vectors: 2,
        },
        why: "loop limit, slow compiles",
        anchor: "device-shapes",
    },
];

/// The shape for a device of `class`.
pub(super) fn device_shape(class: DeviceClass) -> DeviceShape {
    first_row(DEVICE_SHAPES, class, |_| true).map_or(GPU_SHAPE, |row| row.choice)
}

/// The tile path [`SplitPath::Auto`] takes before it considers the Onesweep split: the first
/// row that holds and whose path fits the device.
pub(super) const AUTO_TILE: &[Row<TileWrite>] = &[
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Pairs4, By::Bits, Buckets::In(3, 12)),
        choice: TileWrite::SubgroupStaged,
        why: "no workgroup barrier",
        anchor: "auto-subgroup-staged-pairs",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Pairs4, By::Glsl, Buckets::In(3, 7)),
        choice: TileWrite::SubgroupStaged,
        why: "no workgroup barrier",
        anchor: "auto-subgroup-staged-pairs",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Keys4, By::BitsOrGlsl, Buckets::In(11, 32)),
        choice: TileWrite::SubgroupStaged,
        why: "beats Onesweep and direct",
        anchor: "auto-subgroup-staged-keys",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Pairs4, By::BitsOrGlsl, Buckets::In(4, 32)),
        choice: TileWrite::Staged,
        why: "bucket recomputed, beats Onesweep",
        anchor: "auto-staged-pairs",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Keys4, By::BitsOrGlsl, Buckets::In(1, 10)),
        choice: TileWrite::Direct,
        why: "subgroup positions, beats the rest",
        anchor: "auto-direct-keys",
    },
];

/// The tile paths [`SplitPath::Auto`] may take for `desc`, best first (the caller takes the
/// first that fits).
pub(super) fn auto_tiles(
    desc: &SplitDesc,
    class: DeviceClass,
    group_lanes: u32,
) -> impl Iterator<Item = TileWrite> + '_ {
    rows_for(AUTO_TILE, class, move |w| w.hold(desc, None, group_lanes)).map(|row| row.choice)
}

/// Most buckets [`SplitPath::Auto`] writes straight from registers where no [`AUTO_TILE`] row
/// nor the Onesweep split took the split (more are staged). The rows marked with the staged
/// path (the IDS rows) hold only where that path would find per-subgroup starts
/// ([`subgroup_positions`]); the others for every split.
pub(super) const DIRECT_MAX_BUCKETS: &[Row<u32>] = &[
    TuningRow {
        devices: Devices::Any,
        when: on(STAGED, Elements::KeysAlone, By::Ids, ANY_M),
        choice: 23,
        why: "staged with starts wins above",
        anchor: "direct-max-buckets-ids",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(STAGED, Elements::Any, By::Ids, ANY_M),
        choice: 3,
        why: "staged with starts wins above",
        anchor: "direct-max-buckets-ids",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::KeysAlone, By::Any, ANY_M),
        choice: 32,
        why: "staging wins above",
        anchor: "direct-max-buckets",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Any, By::Any, ANY_M),
        choice: 4,
        why: "staging wins above",
        anchor: "direct-max-buckets",
    },
];

/// Most buckets [`SplitPath::Auto`] writes straight from registers for `desc` (see
/// [`DIRECT_MAX_BUCKETS`]).
pub(super) fn direct_max_buckets(desc: &SplitDesc, class: DeviceClass, group_lanes: u32) -> u32 {
    let staged_starts = subgroup_positions(desc, TileWrite::Staged, group_lanes);
    first_row(DIRECT_MAX_BUCKETS, class, |w| {
        (w.write.is_none() || staged_starts) && w.hold(desc, w.write, group_lanes)
    })
    .map_or(4, |row| row.choice)
}

/// Fewest buckets [`SplitPath::Auto`] takes the Onesweep split for (below, the tile paths).
pub(super) const ONESWEEP_MIN_BUCKETS: &[Row<u32>] = &[
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::KeysAlone, By::Any, ANY_M),
        choice: 8,
        why: "tile paths win below",
        anchor: "onesweep-min-buckets",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Any, By::Any, ANY_M),
        choice: 4,
        why: "tile paths win below",
        anchor: "onesweep-min-buckets",
    },
];

/// Fewest buckets [`SplitPath::Auto`] takes the Onesweep split for `desc`.
pub(super) fn onesweep_min_buckets(desc: &SplitDesc, class: DeviceClass) -> u32 {
    first_row(ONESWEEP_MIN_BUCKETS, class, |w| w.hold(desc, None, 0)).map_or(4, |row| row.choice)
}

/// Elements per invocation of a tile where the plan does not give them.
pub(super) const TILE_ITEMS: &[Row<u32>] = &[
    TuningRow {
        devices: Devices::Cpu,
        when: on(None, Elements::Any, By::Any, ANY_M),
        choice: 4,
        why: "short tests, quick compiles",
        anchor: "device-shapes",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: on(SUBGROUP, Elements::KeysAlone, By::Any, ANY_M),
        choice: 12,
        why: "longer runs per subgroup",
        anchor: "tile-items-subgroup-staged-keys",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: on(SUBGROUP, Elements::Any, By::Any, ANY_M),
        choice: 4,
        why: "occupancy of the staged pool",
        anchor: "tile-items-subgroup-staged-pairs",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: on(STAGED, Elements::Pairs4, By::NotIds, Buckets::In(1, 16)),
        choice: 7,
        why: "smaller staged tile",
        anchor: "tile-items-staged-pairs",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: on(STAGED, Elements::Pairs4, By::Ids, Buckets::In(1, 32)),
        choice: 7,
        why: "smaller staged tile",
        anchor: "tile-items-staged-pairs",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: on(None, Elements::Any, By::Any, ANY_M),
        choice: 8,
        why: "loads in flight",
        anchor: "tile-items",
    },
];

/// Default elements per invocation of a tile of `desc` on the tile path `write`.
pub(super) fn tile_items(desc: &SplitDesc, write: TileWrite, class: DeviceClass) -> u32 {
    first_row(TILE_ITEMS, class, |w| w.hold(desc, Some(write), 0)).map_or(8, |row| row.choice)
}

/// Tiles one workgroup of the tile scatter takes in turn, loading the next tile while it ranks
/// one (a power of two).
pub(super) const SCATTER_TILES_PER_GROUP: &[Row<u32>] = &[
    TuningRow {
        devices: Devices::Any,
        when: on(SUBGROUP, Elements::KeysAlone, By::Any, Buckets::GroupLanes),
        choice: 2,
        why: "every lane a counter",
        anchor: "tiles-per-group-keys-full-group",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(SUBGROUP, Elements::KeysAlone, By::Any, ANY_M),
        choice: 4,
        why: "loads overlap ranking",
        anchor: "tiles-per-group-keys",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(SUBGROUP, Elements::U32Values, By::Any, Buckets::In(1, 4)),
        choice: 2,
        why: "loads overlap ranking",
        anchor: "tiles-per-group-pairs",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(DIRECT, Elements::U32Values, By::Any, Buckets::In(1, 4)),
        choice: 2,
        why: "loads overlap ranking",
        anchor: "tiles-per-group-pairs",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Any, By::Any, ANY_M),
        choice: 1,
        why: "more tiles slower",
        anchor: "tiles-per-group-pairs",
    },
];

/// Tiles one workgroup of the tile scatter of `desc` on the tile path `write` takes.
pub(super) fn scatter_tiles_per_group(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> u32 {
    // Identical on every device class.
    first_row(SCATTER_TILES_PER_GROUP, DeviceClass::Nvidia, |w| {
        w.hold(desc, Some(write), group_lanes)
    })
    .map_or(1, |row| row.choice)
}

/// The condition of a [`FIRST_TILE_ORDER`] row: the splits, and where set, whether the scatter
/// ranks through the table of lane masks and whether its subgroups find their own starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct OrderWhen {
    /// The splits.
    pub splits: Splits,
    /// Ranked through the table of lane masks ([`match_table`]).
    pub match_table: Option<bool>,
    /// Per-subgroup starts ([`subgroup_positions`]).
    pub positions: Option<bool>,
}

const fn order(write: Option<TileWrite>, by: By, elements: Elements, buckets: Buckets) -> OrderWhen {
    OrderWhen {
        splits: on(write, elements, by, buckets),
        match_table: None,
        positions: None,
    }
}

/// How a workgroup of the tile scatter that takes one tile orders its start: the three orders
/// cost the same instructions, the driver schedules each variant differently with each.
pub(super) const FIRST_TILE_ORDER: &[TuningRow<OrderWhen, FirstTileOrder>] = &[
    TuningRow {
        devices: Devices::Any,
        when: order(STAGED, By::Ids, Elements::Any, ANY_M),
        choice: FirstTileOrder::ZeroLoad,
        why: "id loads go out with the rest",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: OrderWhen {
            match_table: Some(true),
            ..order(STAGED, By::Bits, Elements::Any, ANY_M)
        },
        choice: FirstTileOrder::CheckLoadZero,
        why: "measured fastest",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: order(STAGED, By::Any, Elements::Any, Buckets::In(17, MAX_BUCKETS)),
        choice: FirstTileOrder::LoadZero,
        why: "measured fastest from 5 id bits",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: OrderWhen {
            positions: Some(true),
            ..order(STAGED, By::Any, Elements::Any, ANY_M)
        },
        choice: FirstTileOrder::LoadZero,
        why: "measured fastest",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: order(STAGED, By::Any, Elements::Any, ANY_M),
        choice: FirstTileOrder::CheckLoadZero,
        why: "others slower",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: order(SUBGROUP, By::Bits, Elements::Any, ANY_M),
        choice: FirstTileOrder::ZeroLoad,
        why: "measured fastest",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: order(SUBGROUP, By::Any, Elements::Any, ANY_M),
        choice: FirstTileOrder::LoadZero,
        why: "measured fastest",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: order(DIRECT, By::Any, Elements::KeysAlone, ANY_M),
        choice: FirstTileOrder::LoadZero,
        why: "measured fastest",
        anchor: "first-tile-order",
    },
    TuningRow {
        devices: Devices::Any,
        when: order(DIRECT, By::Any, Elements::Any, ANY_M),
        choice: FirstTileOrder::CheckLoadZero,
        why: "others no faster",
        anchor: "first-tile-order",
    },
];

/// The first tile's order of `desc` on the tile path `write`, ranked through the table of lane
/// masks or not (`match_table`), with per-subgroup starts or not (`positions`).
pub(super) fn first_tile_order(
    desc: &SplitDesc,
    write: TileWrite,
    match_table: bool,
    positions: bool,
) -> FirstTileOrder {
    // Identical on every device class.
    first_row(FIRST_TILE_ORDER, DeviceClass::Nvidia, |w| {
        w.splits.hold(desc, Some(write), 0)
            && w.match_table.unwrap_or(match_table) == match_table
            && w.positions.unwrap_or(positions) == positions
    })
    .map_or(FirstTileOrder::CheckLoadZero, |row| row.choice)
}

/// Fewest bucket-id bits for which the tile scatter ranks through the table of lane masks
/// ([`match_table`]): with fewer, a ballot per id bit costs less than the table's shared atomic,
/// load, store and barrier per element. CPU drivers take it from 2 buckets, which is where the
/// tests cover it.
pub(super) const MATCH_TABLE_MIN_ID_BITS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: 4,
        why: "ballots cheaper below",
        anchor: "match-table",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: 4,
        why: "the NVIDIA value as default",
        anchor: "match-table",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: 1,
        why: "test coverage",
        anchor: "match-table",
    },
];

/// Whether the tile scatter ranks through a table of lane masks in shared memory instead of one
/// ballot per id bit (glsl/split/tile_scatter.comp MATCH_TABLE; the tables lie where the tile
/// is staged after the ranking, so the plan also asks for 2 items a lane): register counters
/// (`m` at most `group_lanes`) on subgroups of at most 32 lanes, from
/// [`MATCH_TABLE_MIN_ID_BITS`] id bits, for the splits measured: 4-byte keys alone by BITS or
/// GLSL on the subgroup-staged path, 4-byte keys with u32 values by BITS or GLSL on the staged
/// path with per-subgroup starts and one tile a workgroup.
pub(super) fn match_table(
    desc: &SplitDesc,
    write: TileWrite,
    group_lanes: u32,
    max_subgroup: u32,
    class: DeviceClass,
) -> bool {
    let bits_or_glsl = matches!(desc.bucket_fn, BucketFn::Bits | BucketFn::Glsl);
    let four_byte_keys = desc.key_type.bytes() == 4;
    let takes = match write {
        TileWrite::SubgroupStaged => four_byte_keys && desc.value_type == ValueType::None && bits_or_glsl,
        TileWrite::Staged => {
            four_byte_keys
                && desc.value_type == ValueType::U32
                && bits_or_glsl
                && subgroup_positions(desc, write, group_lanes)
                && scatter_tiles_per_group(desc, write, group_lanes) == 1
        }
        TileWrite::Direct => false,
    };
    let min_bits = first_row(MATCH_TABLE_MIN_ID_BITS, class, |_| true).map_or(4, |row| row.choice);
    takes && desc.bucket_count <= group_lanes && max_subgroup <= 32 && id_bits(desc.bucket_count) >= min_bits
}

/// Fewest buckets for which the direct path with subgroup positions takes every element's
/// position before it stores any (fewer store each right after its position's shuffle).
pub(super) const SHUFFLES_FIRST_MIN_BUCKETS: &[TuningRow<(), u32>] = &[TuningRow {
    devices: Devices::Any,
    when: (),
    choice: 8,
    why: "the driver's schedule",
    anchor: "shuffles-first",
}];

/// Fewest buckets for which the direct path shuffles first (see
/// [`SHUFFLES_FIRST_MIN_BUCKETS`]).
pub(super) fn shuffles_first_min_buckets() -> u32 {
    SHUFFLES_FIRST_MIN_BUCKETS[0].choice
}

/// Most buckets the tile count keeps in registers (8-bit fields, four buckets a register; two
/// registers at most). Keys alone, whose tiles are longer, count in shared memory above 4.
pub(super) const COUNT_REGISTERS_MAX_BUCKETS: &[Row<u32>] = &[
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::KeysAlone, By::Any, ANY_M),
        choice: 4,
        why: "longer tiles, shared wins above",
        anchor: "count-registers",
    },
    TuningRow {
        devices: Devices::Any,
        when: on(None, Elements::Any, By::Any, ANY_M),
        choice: 8,
        why: "two registers of 8-bit fields",
        anchor: "count-registers",
    },
];

/// Most buckets the tile count of `desc` keeps in registers.
pub(super) fn count_registers_max_buckets(desc: &SplitDesc) -> u32 {
    // Identical on every device class.
    first_row(COUNT_REGISTERS_MAX_BUCKETS, DeviceClass::Nvidia, |w| {
        w.hold(desc, None, 0)
    })
    .map_or(8, |row| row.choice)
}

/// Whether each subgroup of the tile scatter finds its buckets' output starts itself (the
/// scanned matrix's entry plus the counter rows of the subgroups before it), so that no
/// workgroup turns the rows into positions: register counters (`m` at most `group_lanes`) on
/// the direct path for keys alone and u32 -> u32 pairs, on the subgroup-staged path for keys
/// alone, on the staged path for 4-byte keys alone or with 4-byte values; by any bucket function
/// but IDS, and by IDS for keys alone into 2 buckets and on the staged path (the splits that
/// measured faster: docs/tuning/split.md#subgroup-positions).
pub(super) fn subgroup_positions(desc: &SplitDesc, write: TileWrite, group_lanes: u32) -> bool {
    let path_takes = match write {
        TileWrite::Direct => {
            desc.value_type == ValueType::None
                || (desc.value_type == ValueType::U32 && desc.key_type.bytes() == 4)
        }
        TileWrite::SubgroupStaged => desc.value_type == ValueType::None,
        TileWrite::Staged => {
            desc.key_type.bytes() == 4 && matches!(desc.value_type, ValueType::None | ValueType::U32)
        }
    };
    path_takes
        && desc.bucket_count <= group_lanes
        && (desc.bucket_fn != BucketFn::Ids
            || write == TileWrite::Staged
            || (desc.value_type == ValueType::None && id_bits(desc.bucket_count) == 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;
    use crate::KeyType;

    const DOC: &str = include_str!("../../docs/tuning/split.md");

    #[test]
    fn every_row_has_an_anchor() {
        assert_anchors(DEVICE_SHAPES, DOC);
        assert_anchors(AUTO_TILE, DOC);
        assert_anchors(DIRECT_MAX_BUCKETS, DOC);
        assert_anchors(ONESWEEP_MIN_BUCKETS, DOC);
        assert_anchors(TILE_ITEMS, DOC);
        assert_anchors(SCATTER_TILES_PER_GROUP, DOC);
        assert_anchors(FIRST_TILE_ORDER, DOC);
        assert_anchors(MATCH_TABLE_MIN_ID_BITS, DOC);
        assert_anchors(SHUFFLES_FIRST_MIN_BUCKETS, DOC);
        assert_anchors(COUNT_REGISTERS_MAX_BUCKETS, DOC);
    }

    /// The GPU classes choose alike; CPU drivers differ only in their shapes, tile lengths and
    /// the table of lane masks.
    #[test]
    fn gpu_classes_choose_alike() {
        assert_eq!(
            device_shape(DeviceClass::Nvidia),
            device_shape(DeviceClass::OtherGpu)
        );
        assert_eq!(device_shape(DeviceClass::Cpu).workgroup_size, 64);
        for m in [2, 3, 4, 8, 12, 16, 32] {
            for value_type in [ValueType::None, ValueType::U32] {
                for bucket_fn in [BucketFn::Bits, BucketFn::Glsl, BucketFn::Ids] {
                    let desc = SplitDesc::new(KeyType::U32, value_type, m, bucket_fn, 1 << 20);
                    for write in [TileWrite::Direct, TileWrite::Staged, TileWrite::SubgroupStaged] {
                        let items = |class| tile_items(&desc, write, class);
                        assert_eq!(items(DeviceClass::Nvidia), items(DeviceClass::OtherGpu));
                        assert_eq!(items(DeviceClass::Cpu), 4);
                    }
                    let auto = |class| auto_tiles(&desc, class, 32).collect::<Vec<_>>();
                    assert_eq!(auto(DeviceClass::Nvidia), auto(DeviceClass::Cpu));
                    assert_eq!(auto(DeviceClass::Nvidia), auto(DeviceClass::OtherGpu));
                }
            }
        }
    }

    /// The tile lengths the plan took before the table: 12 for keys alone subgroup-staged, 4
    /// for pairs there, 7 for the staged u32 -> u32 pairs measured, 8 elsewhere.
    #[test]
    fn tile_items_keep_their_values() {
        let desc = |value_type, m, bucket_fn| SplitDesc::new(KeyType::U32, value_type, m, bucket_fn, 1 << 20);
        let (keys, pairs, gpu) = (ValueType::None, ValueType::U32, DeviceClass::Nvidia);
        let (sub, staged, direct) = (TileWrite::SubgroupStaged, TileWrite::Staged, TileWrite::Direct);
        for (d, write, items) in [
            (desc(keys, 16, BucketFn::Glsl), sub, 12),
            (desc(pairs, 4, BucketFn::Glsl), sub, 4),
            (desc(pairs, 16, BucketFn::Splitters), staged, 7),
            (desc(pairs, 17, BucketFn::Glsl), staged, 8),
            (desc(pairs, 32, BucketFn::Ids), staged, 7),
            (desc(pairs, 33, BucketFn::Ids), staged, 8),
            (desc(ValueType::U64, 8, BucketFn::Glsl), staged, 8),
            (desc(keys, 8, BucketFn::Glsl), staged, 8),
            (desc(pairs, 2, BucketFn::Glsl), direct, 8),
        ] {
            assert_eq!(tile_items(&d, write, gpu), items, "{d:?} {write:?}");
        }
    }
}
