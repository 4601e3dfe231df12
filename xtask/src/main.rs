//! Developer tasks of the vkalgo workspace (`cargo xtask <task>`; the alias is in
//! `.cargo/config.toml`).
//!
//! - `shaders`: compiles every permutation of `glsl/` with `glslc` (Debian/Ubuntu package
//!   `glslc`; `GLSLC` names another), reflects each module's push-constant block, strips the
//!   debug instructions, deflates the modules and writes `src/core/shaders/spirv.bin` and
//!   `src/core/shaders/table.rs`, which the library embeds (and the benchmark's fill kernel,
//!   `crates/vkalgo-bench/src/fresh.spv`). Users of the library never run it.
//! - `shaders --check`: the same into memory, failing when the committed files differ (CI's
//!   drift check).

// The compiler configuration the library compiles GLSL bucket functions with at run time (its
// embedded files and include resolution are the library's half).
#[allow(dead_code)]
#[path = "../../src/core/shaders/compiler.rs"]
mod compiler;
mod permutations;
mod spirv;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Version of the `spirv.bin` layout; the library refuses any other.
const PACK_FORMAT: u32 = 1;
/// First bytes of `spirv.bin`.
const PACK_MAGIC: &[u8; 8] = b"VKALSPV\0";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["shaders"] => shaders(false),
        ["shaders", "--check"] => shaders(true),
        _ => Err("usage: cargo xtask shaders [--check]".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask/..).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// One compiled permutation.
struct Compiled {
    name: String,
    push_constants: Vec<(String, u32)>,
    spirv: Vec<u8>,
}

fn shaders(check: bool) -> Result<(), String> {
    let root = root();
    let glslc = std::env::var("GLSLC").unwrap_or_else(|_| "glslc".into());
    let version = Command::new(&glslc)
        .arg("--version")
        .output()
        .map_err(|e| format!("{glslc}: {e} (install the glslc package, or set GLSLC)"))?;
    let version = String::from_utf8_lossy(&version.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    let table = permutations::all();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Compiled, String>>>> =
        Mutex::new((0..table.len()).map(|_| None).collect());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(permutation) = table.get(i) else {
                    break;
                };
                let compiled = compile(
                    &glslc,
                    &root,
                    &permutation.name,
                    permutation.file,
                    &permutation.defines,
                );
                results.lock().unwrap()[i] = Some(compiled);
            });
        }
    });
    let compiled: Vec<Compiled> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.unwrap())
        .collect::<Result<_, _>>()?;
    let (pack, rust) = render(&table, &compiled, &version);
    let dir = root.join("src/core/shaders");
    let mut outputs = vec![
        (dir.join("spirv.bin"), pack),
        (dir.join("table.rs"), rust.into_bytes()),
    ];
    // Plain SPIR-V next to its source, for programs that must not need a compiler at run time:
    // the benchmark's fill kernel, and a caller's shaders using glsl/public/ (tests/hash/, tests/set/).
    let fresh = compile(
        &glslc,
        &root,
        "fresh",
        "../crates/vkalgo-bench/src/fresh.comp",
        &[],
    )?;
    outputs.push((root.join("crates/vkalgo-bench/src/fresh.spv"), fresh.spirv));
    let user = compile(&glslc, &root, "user_set", "../tests/shaders/user_set.comp", &[])?;
    outputs.push((root.join("tests/shaders/user_set.spv"), user.spirv));
    for (key, key64) in [("k32", "0"), ("k64", "1")] {
        for (value, value64) in [("v32", "0"), ("v64", "1")] {
            let defines = [("KEY64", key64.to_string()), ("VALUE64", value64.to_string())];
            let name = format!("user_lookup_{key}_{value}");
            let user = compile(
                &glslc,
                &root,
                &name,
                "../tests/shaders/user_lookup.comp",
                &defines,
            )?;
            outputs.push((root.join(format!("tests/shaders/{name}.spv")), user.spirv));
            let name = format!("user_multimap_{key}_{value}");
            let user = compile(
                &glslc,
                &root,
                &name,
                "../tests/shaders/user_multimap.comp",
                &defines,
            )?;
            outputs.push((root.join(format!("tests/shaders/{name}.spv")), user.spirv));
        }
    }
    let total: usize = compiled.iter().map(|c| c.spirv.len()).sum();
    if check {
        let stale: Vec<String> = outputs
            .iter()
            .filter(|(path, bytes)| std::fs::read(path).ok().as_deref() != Some(&bytes[..]))
            .map(|(path, _)| path.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        if !stale.is_empty() {
            return Err(format!(
                "{} out of date with glsl/ (run `cargo xtask shaders` and commit)",
                stale.join(", ")
            ));
        }
        println!("{} shaders: the committed SPIR-V matches glsl/", compiled.len());
    } else {
        for (path, bytes) in &outputs {
            std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        println!(
            "{} shaders, {total} bytes of SPIR-V, {} bytes packed",
            compiled.len(),
            outputs[0].1.len()
        );
    }
    Ok(())
}

/// Compiles one permutation in the library's compiler configuration (src/core/shaders/compiler.rs)
/// with debug info, for the reflection, then strips it.
fn compile(
    glslc: &str,
    root: &Path,
    name: &str,
    file: &str,
    defines: &[(&str, String)],
) -> Result<Compiled, String> {
    let mut cmd = Command::new(glslc);
    cmd.current_dir(root)
        .args(compiler::glslc_args())
        .arg("-g")
        .args(defines.iter().map(|(k, v)| format!("-D{k}={v}")))
        .args(["-o", "-"])
        .arg(format!("{}/{file}", compiler::GLSL_DIR));
    let output = cmd.output().map_err(|e| format!("{glslc}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "shader {name} ({file}):\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let words = spirv::words(&output.stdout).map_err(|e| format!("shader {name}: {e}"))?;
    let push_constants = spirv::push_constant_members(&words).map_err(|e| format!("shader {name}: {e}"))?;
    let spirv = spirv::strip_debug(&words)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    Ok(Compiled {
        name: name.to_string(),
        push_constants,
        spirv,
    })
}

/// FNV-1a, 64 bits.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The pack (`spirv.bin`) and the Rust table (`table.rs`). Pack layout, little-endian: magic
/// (8 bytes), format (u32), shader count (u32), table id (u64: FNV-1a of the names, one per
/// line), reserved (u64); then per shader: data offset, deflated length, SPIR-V length (u32
/// each) and the SPIR-V's FNV-1a (u64); then the raw-deflate streams.
fn render(
    table: &[permutations::Permutation],
    compiled: &[Compiled],
    glslc_version: &str,
) -> (Vec<u8>, String) {
    let names: String = compiled.iter().map(|c| format!("{}\n", c.name)).collect();
    let table_id = fnv1a64(names.as_bytes());
    let mut header = Vec::new();
    header.extend_from_slice(PACK_MAGIC);
    header.extend_from_slice(&PACK_FORMAT.to_le_bytes());
    header.extend_from_slice(&(compiled.len() as u32).to_le_bytes());
    header.extend_from_slice(&table_id.to_le_bytes());
    header.extend_from_slice(&0u64.to_le_bytes());
    let mut data = Vec::new();
    for c in compiled {
        let packed = miniz_oxide::deflate::compress_to_vec(&c.spirv, 10);
        header.extend_from_slice(&(data.len() as u32).to_le_bytes());
        header.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        header.extend_from_slice(&(c.spirv.len() as u32).to_le_bytes());
        header.extend_from_slice(&fnv1a64(&c.spirv).to_le_bytes());
        data.extend_from_slice(&packed);
    }
    header.extend_from_slice(&data);

    let mut rust = String::new();
    rust.push_str(
        "// @generated by `cargo xtask shaders` from glsl/ and xtask/src/permutations.rs; do not edit.\n",
    );
    writeln!(rust, "// {glslc_version}").unwrap();
    rust.push_str("\nuse super::ShaderSource;\n\n");
    rust.push_str("/// Identifies the permutation list `spirv.bin` was generated with.\n");
    writeln!(rust, "pub(super) const TABLE_ID: u64 = {table_id:#018x};\n").unwrap();
    // Standalone permutations are named by their constants; family members only through their
    // family's typed lookup.
    for (i, (c, p)) in compiled.iter().zip(table).enumerate() {
        let visibility = if p.slot.is_none() { "pub(crate) " } else { "" };
        writeln!(
            rust,
            "{visibility}const {}: ShaderSource = ShaderSource::packed({:?}, {i});",
            c.name.to_uppercase(),
            c.name
        )
        .unwrap();
    }
    render_families(&mut rust, table);
    rust.push_str("\n/// Every shader of the pack, in pack order.\n");
    rust.push_str("pub(crate) const ALL_SHADERS: &[ShaderSource] = &[\n");
    for c in compiled {
        writeln!(rust, "    {},", c.name.to_uppercase()).unwrap();
    }
    rust.push_str("];\n\n");
    rust.push_str(
        "/// The push-constant block of each shader, (member name, byte offset) in member order,\n\
         /// reflected before the debug names were stripped; in pack order.\n\
         #[cfg(test)]\n\
         pub(super) const PUSH_CONSTANT_MEMBERS: &[&[(&str, u32)]] = &[\n",
    );
    for c in compiled {
        let members: Vec<String> = c
            .push_constants
            .iter()
            .map(|(n, o)| format!("({n:?}, {o})"))
            .collect();
        writeln!(rust, "    &[{}],", members.join(", ")).unwrap();
    }
    rust.push_str("];\n");
    (header, rust)
}

/// The axis enums (each once) and, per family, its table (flat, indexed by its axes in order)
/// and its typed lookup.
fn render_families(rust: &mut String, table: &[permutations::Permutation]) {
    let mut axes: Vec<&permutations::Axis> = Vec::new();
    for family in permutations::FAMILIES {
        for axis in family.axes {
            if !axes.iter().any(|a| a.name == axis.name) {
                axes.push(axis);
            }
        }
    }
    for axis in axes {
        writeln!(rust, "\n/// {}", axis.doc).unwrap();
        rust.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq)]\n");
        writeln!(rust, "pub(crate) enum {} {{", axis.name).unwrap();
        for (variant, doc) in axis.variants {
            writeln!(rust, "    /// {doc}\n    {variant},").unwrap();
        }
        rust.push_str("}\n");
    }
    for family in permutations::FAMILIES {
        let len: usize = family.axes.iter().map(|a| a.variants.len()).product();
        let mut slots: Vec<Option<String>> = vec![None; len];
        for p in table {
            let Some((f, coords)) = &p.slot else { continue };
            if !std::ptr::eq(*f, *family) {
                continue;
            }
            let index = family
                .axes
                .iter()
                .zip(coords)
                .fold(0, |acc, (axis, &c)| acc * axis.variants.len() + c);
            assert!(slots[index].is_none(), "{}: two permutations in one slot", p.name);
            slots[index] = Some(p.name.to_uppercase());
        }
        let table_name = format!("{}_TABLE", family.function.to_uppercase());
        let dims: Vec<String> = family.axes.iter().map(|a| a.name.to_string()).collect();
        writeln!(
            rust,
            "\n/// The {} family, indexed by [{}].",
            family.function,
            dims.join("][")
        )
        .unwrap();
        writeln!(rust, "static {table_name}: [Option<ShaderSource>; {len}] = [").unwrap();
        for slot in slots {
            match slot {
                Some(name) => writeln!(rust, "    Some({name}),").unwrap(),
                None => rust.push_str("    None,\n"),
            }
        }
        rust.push_str("];\n");
        let params: Vec<String> = family
            .axes
            .iter()
            .map(|a| format!("{}: {}", a.param, a.name))
            .collect();
        let mut index = String::new();
        for (i, axis) in family.axes.iter().enumerate() {
            if i == 0 {
                index = format!("{} as usize", axis.param);
            } else {
                index = format!("({index}) * {} + {} as usize", axis.variants.len(), axis.param);
            }
        }
        writeln!(rust, "\n/// {}", family.doc).unwrap();
        writeln!(
            rust,
            "pub(crate) fn {}({}) -> Option<&'static ShaderSource> {{\n    {table_name}[{index}].as_ref()\n}}",
            family.function,
            params.join(", ")
        )
        .unwrap();
    }
}
