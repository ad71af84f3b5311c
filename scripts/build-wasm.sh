#!/usr/bin/env bash
# Rebuilds fairdice's browser engines, templates/assets/engine-NAME.js, from
# the sources: the crate in wasm/ compiled to WebAssembly by Debian's rustc
# (which builds its own standard library from Debian's sources, so the bytes
# do not depend on a downloaded toolchain), then embedded as base64 in a
# script so a page opened from file:// can load it.
#
#   scripts/build-wasm.sh           rebuild and write the asset
#   scripts/build-wasm.sh --check   rebuild; exit 1 if a committed asset differs
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
# The most bytes of WebAssembly one engine may have.
max_bytes=400000
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
# One module per engine named in src/kinds.rs (an entry's `engine`): each
# holds only its kinds (FAIRDICE_ENGINE, read by src/kinds.rs when it is
# compiled), so a page loads only the engine its form computes with. The
# test site::defaults::tests::every_engine_has_its_asset keeps this list and the
# registry's in step.
engines="anydice dice rules cards"
stale=()
too_big=()
report=()
for engine in $engines; do
  (cd "$src/wasm" && FAIRDICE_ENGINE="$engine" nice -n 10 cargo build --release --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size -Zprofile-rustflags \
    --config 'profile.release.package.plotters.rustflags=["--cfg", "target_os=\"wasi\"", "-A", "explicit_builtin_cfgs_in_flags"]')

  built="$target_dir/wasm32-unknown-unknown/release/fairdice-engine.wasm"
  module="$target_dir/engine-$engine.wasm"
  # wasm-bindgen's crates, which plotters and indicatif depend on for the web
  # and the engine never calls, leave their own exports and a custom section
  # describing them: only the engine's exports and no custom section are kept.
  "$objcopy" --remove-section=__wasm_bindgen_unstable --remove-section=producers \
    --remove-section=target_features "$built" "$module.named"
  python3 wasm/tools/keep_exports.py "$module.named" "$module.kept" \
    memory fairdice_alloc fairdice_call fairdice_output fairdice_output_len
  # binaryen's optimiser (Debian's binaryen) drops what is now unexported and
  # shrinks the rest; the features are those rustc enables for wasm32 (all in
  # every current browser); names go. Flattening and rebuilding the control
  # flow between size passes, run until nothing shrinks, took 4 kB more off
  # the dice engine than -Oz alone.
  nice -n 10 wasm-opt -Oz --flatten --rereloop -Oz -Oz --converge --strip-debug --strip-producers \
    --enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-reference-types --enable-multivalue \
    "$module.kept" -o "$module"
  rm "$module.kept"

  asset="$root/templates/assets/engine-$engine.js"
  fresh="$target_dir/engine-$engine.js"
  {
    echo "// fairdice's engine \"$engine\", compiled to WebAssembly from this project's sources"
    echo "// by scripts/build-wasm.sh; do not edit. $(wc -c <"$module") bytes, base64."
    printf '(self.FAIRDICE_ENGINES = self.FAIRDICE_ENGINES || {})["%s"] = "' "$engine"
    base64 -w0 "$module"
    echo '";'
  } >"$fresh"
  size="engine-$engine.js: $(wc -c <"$module") bytes of WebAssembly, $(gzip -9 -n <"$module" | wc -c) gzipped"
  # A page loads one engine, which stays under 400 kB (issue 40).
  if (( $(wc -c <"$module") > max_bytes )); then
    too_big+=("engine-$engine.js ($(wc -c <"$module") bytes)")
  fi
  if cmp -s "$fresh" "$asset"; then
    report+=("$size, unchanged")
  elif $check; then
    stale+=("engine-$engine.js")
  else
    cp "$fresh" "$asset"
    report+=("$size, written")
  fi
  if $sizes; then
    python3 wasm/tools/sizes.py "$module.named" 40
  fi
done
# An engine no longer built (or the single engine.js of earlier versions).
for asset in "$root"/templates/assets/engine*.js; do
  name="$(basename "$asset" .js)"
  case " $engines " in *" ${name#engine-} "*) continue ;; esac
  if $check; then stale+=("$(basename "$asset") (no engine of that name)"); else rm "$asset"; report+=("$(basename "$asset"): removed"); fi
done

if [[ ${#too_big[@]} -gt 0 ]]; then
  echo "build-wasm: ${too_big[*]} over the $max_bytes bytes of WebAssembly a page may load; run scripts/build-wasm.sh --sizes to see where the bytes go" >&2
  exit 1
fi
if [[ ${#stale[@]} -gt 0 ]]; then
  echo "build-wasm: templates/assets/${stale[*]} differ from what the sources build; run scripts/build-wasm.sh, then cargo run --release -- build, and commit both" >&2
  exit 1
fi
for line in "${report[@]}"; do echo "build-wasm: $line"; done
if $check; then
  echo "build-wasm: every templates/assets/engine-*.js matches the sources"
elif printf '%s\n' "${report[@]}" | grep -q -e ', written' -e 'removed'; then
  echo "build-wasm: run cargo run --release -- build and commit templates/assets with site/"
fi
