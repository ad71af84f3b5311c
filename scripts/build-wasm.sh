#!/usr/bin/env bash
# Rebuilds fairdice's browser engine, templates/assets/engine.js, from the
# sources: the crate in wasm/ compiled to WebAssembly by Debian's rustc
# (which builds its own standard library from Debian's sources, so the bytes
# do not depend on a downloaded toolchain), then embedded as base64 in a
# script so a page opened from file:// can load it.
#
#   scripts/build-wasm.sh           rebuild and write the asset
#   scripts/build-wasm.sh --check   rebuild; exit 1 if the committed asset differs
#   scripts/build-wasm.sh --sizes   rebuild, then print where the bytes go
#
# Needs: apt-get install -y rustc-web rust-web-src lld-22 llvm-22 binaryen
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
check=false
sizes=false
case "${1:-}" in
  --check) check=true ;;
  --sizes) sizes=true ;;
  "") ;;
  *) echo "usage: scripts/build-wasm.sh [--check | --sizes]" >&2; exit 2 ;;
esac

rustc=/usr/bin/rustc
objcopy=/usr/bin/llvm-objcopy-22
for tool in "$rustc" "$objcopy" /usr/bin/wasm-opt /usr/bin/python3 /usr/lib/rustlib/src/rust/library/std; do
  [[ -e "$tool" ]] || {
    echo "build-wasm: $tool missing: apt-get install -y rustc-web rust-web-src lld-22 llvm-22 binaryen" >&2
    exit 1
  }
done

target_dir="$root/target/wasm"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"

# Cargo hashes a path dependency outside the building workspace by its
# absolute path, and that hash reaches the module's symbol names: the same
# commit built in two checkouts gave two modules. So the sources are copied
# to one fixed path and built there, whatever the checkout's own path; a
# lock keeps two checkouts on one machine from sharing the copy at once.
# The copy is fresh each time (new modification times), so cargo never
# takes another checkout's files for up to date.
src=/tmp/fairdice-wasm-src
exec 9>/tmp/fairdice-wasm-src.lock
flock 9
rm -rf "$src"
mkdir -p "$src/wasm"
cp -R Cargo.toml Cargo.lock build.rs src templates benches "$src/"
cp -R wasm/Cargo.toml wasm/build.rs wasm/src "$src/wasm/"
cmp -s Cargo.lock wasm/Cargo.lock || cp Cargo.lock wasm/Cargo.lock
cp Cargo.lock "$src/wasm/Cargo.lock"
# A panic traps at once (-Cpanic=immediate-abort): no code formats its
# message (17 KB less); the engine leaves a message of its own for the page
# before each call (wasm/src/main.rs). Panics carry no file, line or column
# (-Zlocation-detail=none): the module
# then changes only when code it runs changes, not when a line moves above
# it, and any path left (from a file!() say) is rewritten, so the module does
# not depend on where the project or the crate sources sit.
export RUSTFLAGS="-Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort --remap-path-prefix=$src=/fairdice --remap-path-prefix=$cargo_home=/cargo"
export RUSTC="$rustc" RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$target_dir"
export SOURCE_DATE_EPOCH=0
# plotters measures text through the page's DOM on the web target, but
# with a fixed estimate everywhere else: compiled as it is for WASI, it
# lays charts out exactly as the native build does, and needs no DOM
# (the engine runs in a Web Worker, which has none).
# The standard library is built with optimize_for_size (smaller sorts and
# number formatting; 21 KB less). The crates are the versions the project's own Cargo.lock pins: the lock is
# copied, and cargo only adds the engine's crate and leaves out the rest.
(cd "$src/wasm" && nice -n 10 cargo build --release --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size -Zprofile-rustflags \
  --config 'profile.release.package.plotters.rustflags=["--cfg", "target_os=\"wasi\"", "-A", "explicit_builtin_cfgs_in_flags"]')

built="$target_dir/wasm32-unknown-unknown/release/fairdice-engine.wasm"
module="$target_dir/fairdice-engine.wasm"
# wasm-bindgen's crates, which plotters and indicatif depend on for the web
# and the engine never calls, leave their own exports and a custom section
# describing them: only the engine's exports and no custom section are kept.
"$objcopy" --remove-section=__wasm_bindgen_unstable --remove-section=producers \
  --remove-section=target_features "$built" "$module.named"
python3 wasm/tools/keep_exports.py "$module.named" "$module.kept" \
  memory fairdice_alloc fairdice_call fairdice_output fairdice_output_len
# binaryen's optimiser (Debian's binaryen) drops what is now unexported and
# shrinks the rest; the features are those rustc enables for wasm32 (all in
# every current browser); names go.
nice -n 10 wasm-opt -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-reference-types --enable-multivalue \
  "$module.kept" -o "$module"
rm "$module.kept"

asset="$root/templates/assets/engine.js"
fresh="$target_dir/engine.js"
{
  echo "// fairdice's engine, compiled to WebAssembly from this project's sources by"
  echo "// scripts/build-wasm.sh; do not edit. $(wc -c <"$module") bytes, base64."
  printf 'self.FAIRDICE_ENGINE = "'
  base64 -w0 "$module"
  echo '";'
} >"$fresh"

if $check && ! cmp -s "$fresh" "$asset"; then
  echo "build-wasm: templates/assets/engine.js differs from what the sources build; run scripts/build-wasm.sh, then cargo run --release -- build, and commit both" >&2
  exit 1
fi
size="$(wc -c <"$module") bytes of WebAssembly, $(gzip -9 -n <"$module" | wc -c) gzipped"
if $check; then
  echo "build-wasm: templates/assets/engine.js matches the sources ($size)"
elif cmp -s "$fresh" "$asset"; then
  echo "build-wasm: templates/assets/engine.js unchanged ($size)"
else
  cp "$fresh" "$asset"
  echo "build-wasm: wrote templates/assets/engine.js ($size); run cargo run --release -- build and commit both"
fi
if $sizes; then
  python3 wasm/tools/sizes.py "$module.named" 40
fi
