//! Build script of the C ABI: generates the C header with cbindgen into OUT_DIR (the committed
//! `include/vkalgo.h` is checked against it by a test; `VKALGO_UPDATE_HEADER=1 cargo build -p
//! vkalgo-ffi` rewrites it), with the version macros taken from the crate version.

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let version = |part: &str| -> u32 {
        std::env::var(format!("CARGO_PKG_VERSION_{part}"))
            .unwrap()
            .parse()
            .unwrap()
    };
    generate_header(&root, &out, version("MAJOR"), version("MINOR"), version("PATCH"));
}

fn generate_header(root: &std::path::Path, out: &std::path::Path, major: u32, minor: u32, patch: u32) {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=VKALGO_UPDATE_HEADER");
    let mut config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    config.after_includes = Some(format!(
        "\n// Version of the library these declarations belong to (vkalgo_version() gives the\n\
         // version of the library loaded at run time).\n\
         #define VKALGO_VERSION_MAJOR {major}\n\
         #define VKALGO_VERSION_MINOR {minor}\n\
         #define VKALGO_VERSION_PATCH {patch}\n"
    ));
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .generate()
        .expect("cbindgen failed on src/");
    bindings.write_to_file(out.join("vkalgo.h"));
    if std::env::var("VKALGO_UPDATE_HEADER").is_ok_and(|v| v == "1") {
        bindings.write_to_file(root.join("../../include/vkalgo.h"));
    }
}
