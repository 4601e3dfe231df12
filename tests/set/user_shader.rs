//! A caller's shader (tests/shaders/user_set.comp, compiled against glsl/public/vkalgo_set.glsl)
//! tests membership through the set's device view: every chunk kind, flat and packed.

use super::*;

/// `vkalgo_set_contains` of each query, from the user shader.
fn user_contains(ctx: &vkalgo::Context, set: &GpuSet, queries: &[u32]) -> Vec<u32> {
    let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/shaders/user_set.spv"));
    let spirv = vkalgo::ash::util::read_spv(&mut std::io::Cursor::new(&bytes[..])).unwrap();
    let n = queries.len() as u64;
    let mut values = GpuBuffer::new(ctx, n * 4, MemoryLocation::CpuToGpu, "user queries").unwrap();
    values.mapped().unwrap()[..(n * 4) as usize].copy_from_slice(bytemuck::cast_slice(queries));
    let mut found = GpuBuffer::new(ctx, n * 4, MemoryLocation::GpuToCpu, "user found").unwrap();
    found.mapped().unwrap()[..(n * 4) as usize].fill(0xA5);
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Push {
        view: vkalgo::SetDeviceView,
        values: u64,
        found: u64,
        count: u32,
        pad: u32,
    }
    let push = Push {
        view: set.device_view(),
        values: values.address(),
        found: found.address(),
        count: n as u32,
        pad: 0,
    };
    run_user_shader(ctx, &spirv, &push, n as u32);
    bytemuck::cast_slice(&found.mapped().unwrap()[..(n * 4) as usize]).to_vec()
}

/// Arrays, a bitmap, a full chunk, run chunks of one and of several runs, 0 and 2^32 - 1:
/// every value, its neighbours and random queries agree with the model, flat and packed.
#[test]
fn contains_from_a_user_shader() {
    let ctx = context();
    let mut rng = Rng(88);
    let mut set = GpuSet::new(&ctx).unwrap();
    let mut model = BTreeSet::new();
    let mut values: Vec<u32> = (0..300).map(|_| rng.next_u32()).collect(); // sparse arrays
    values.extend((0..5000).map(|_| 0x0007_0000 | (rng.next_u32() & 0xFFFF))); // a bitmap
    values.extend((0..100).map(|_| 0x0008_0000 | (rng.next_u32() & 0xFFFF))); // an array
    values.extend([0, u32::MAX, 0x0009_FFFF, 0x000A_0000]);
    set.insert(&values).unwrap();
    model.extend(values.iter().copied());
    let mut ranges = vec![(0x0003_0000u64, 0x0004_0000u64), (0x0005_0010, 0x0005_0021)];
    ranges.extend((0..12u64).map(|k| (0x0006_0000 + k * 300, 0x0006_0000 + k * 300 + 1 + k * 7)));
    ranges.push((0xFFFF_0100, 0x1_0000_0000));
    for &(lo, hi) in &ranges {
        set.insert_range(lo, hi).unwrap();
        model.extend((lo..hi).map(|v| v as u32));
    }
    set.run_optimize().unwrap();
    let mut queries: Vec<u32> = model
        .iter()
        .flat_map(|&v| [v, v.wrapping_sub(1), v.wrapping_add(1)])
        .collect();
    queries.extend((0..20_000).map(|_| rng.next_u32()));
    queries.extend((0..20_000).map(|_| rng.next_u32() & 0x000F_FFFF));
    let want: Vec<u32> = queries.iter().map(|v| u32::from(model.contains(v))).collect();
    for packed in [false, true] {
        if packed {
            set.pack().unwrap();
            assert!(set.is_packed());
        }
        assert_eq!(set.device_view().packed, u32::from(packed));
        let got = user_contains(&ctx, &set, &queries);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "packed {packed}: query {:#x}", queries[i]);
        }
    }
}
