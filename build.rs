//! Cargo build script: embeds the default templates and fingerprints the
//! engine.
//!
//! - Every file under `templates/` and `src/init/starter/` is listed in
//!   `$OUT_DIR/embedded.rs` with `include_bytes!`, so new template files are
//!   compiled in without code changes.
//! - On GNU/Linux the `fairdice` command is linked without PIE (see the
//!   end of `main`), for a faster start.
//! - `FAIRDICE_ENGINE_DIGEST` hashes the sources that decide computed
//!   results (engine, analyses; layout is never cached), so the result cache is invalidated
//!   by any change to the maths, even without a version bump.

#[path = "src/hash.rs"]
#[allow(dead_code)]
mod hash;

use std::fs;
use std::path::{Path, PathBuf};

/// Folders whose sources decide computed results.
const ENGINE_SOURCES: &[&str] = &["src/engine", "src/analyses"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));

    let mut embedded = String::new();
    for (name, folder) in [
        ("DEFAULT_TEMPLATES", "templates"),
        ("STARTER", "src/init/starter"),
    ] {
        println!("cargo:rerun-if-changed={folder}");
        embedded.push_str(&embed_list(name, &manifest.join(folder)));
    }
    fs::write(out.join("embedded.rs"), embedded).expect("write embedded.rs");

    let mut digest = hash::Fnv::default();
    for source in ENGINE_SOURCES {
        println!("cargo:rerun-if-changed={source}");
        for file in files_under(&manifest.join(source)) {
            let relative = file.strip_prefix(&manifest).unwrap_or(&file);
            digest.field(relative.to_string_lossy().replace('\\', "/").as_bytes());
            digest.field(&fs::read(&file).expect("read engine source"));
        }
    }
    println!("cargo:rustc-env=FAIRDICE_ENGINE_DIGEST={}", digest.hex());

    // The command itself (not the library, tests or proc macros) is linked
    // position-dependent on GNU/Linux: a position-independent executable
    // has the dynamic loader apply some 12,000 relative relocations at
    // every start, copying the pages they write, about 0.1 ms of the 2 ms
    // of `fairdice eval --json` for a one-roll scenario (benches/README.md,
    // compare_dice.sh). The price is that the executable's own code is not
    // placed at a random address; the libraries, heap and stack still are.
    // (Static linking saved more, but needs `--target` for the proc macros.)
    let target = |key: &str| std::env::var(key).unwrap_or_default();
    if target("CARGO_CFG_TARGET_OS") == "linux" && target("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        link_unwinder_statically();
    }
}

/// Link GCC's unwinder into the command from `libgcc_eh.a` (what `gcc
/// -static-libgcc` does). Every symbol `libgcc_s.so` would give is then
/// defined, so the linker (rust-lld) leaves it out and it is not loaded
/// at start: its constructor asks the processor what it supports, a dozen
/// `cpuid` instructions, and under virtualisation each one traps to the
/// host (about 6 us apiece on our 2-core build machine), 0.1 ms of every
/// start. Panics, `catch_unwind` (`fairdice serve` survives a failed
/// rebuild by it) and backtraces unwind as before: it is the same
/// unwinder. Where the archive is not found, the command links as Rust
/// links it by default.
fn link_unwinder_statically() {
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    let Ok(output) = std::process::Command::new(linker)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
    else {
        return;
    };
    let path = String::from_utf8_lossy(&output.stdout).trim().to_string();
    // Not found, the compiler prints the bare name back.
    if output.status.success() && Path::new(&path).is_absolute() && Path::new(&path).is_file() {
        println!("cargo:rustc-link-arg-bins=-Wl,--whole-archive");
        println!("cargo:rustc-link-arg-bins={path}");
        println!("cargo:rustc-link-arg-bins=-Wl,--no-whole-archive");
    }
}

/// `pub const NAME: &[(&str, &[u8])]` listing every file under `dir`,
/// sorted, by `/`-separated relative path.
fn embed_list(name: &str, dir: &Path) -> String {
    let mut list = format!("/// Files embedded from `{}`.\n", dir.display());
    list.push_str(&format!("pub const {name}: &[(&str, &[u8])] = &[\n"));
    for file in files_under(dir) {
        let relative = file
            .strip_prefix(dir)
            .expect("under dir")
            .to_string_lossy()
            .replace('\\', "/");
        list.push_str(&format!(
            "    ({relative:?}, include_bytes!({:?})),\n",
            file.display().to_string()
        ));
    }
    list.push_str("];\n");
    list
}

/// Every file under `path` (or `path` itself), sorted, skipping hidden ones.
fn files_under(path: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if path.is_file() {
        files.push(path.to_path_buf());
    } else if let Ok(entries) = fs::read_dir(path) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            files.extend(files_under(&entry.path()));
        }
    }
    files.sort();
    files
}
