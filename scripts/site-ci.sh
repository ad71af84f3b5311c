#!/usr/bin/env bash
# What CI runs for the site, runnable locally as it is:
#   scripts/site-ci.sh            # build fairdice, run the gates, check site/
#   scripts/site-ci.sh --root DIR # the same for another project folder
# Exit 0 when every gate holds and the committed site/ is current, 1 when a
# gate fails or site/ is stale (run `fairdice build` and commit it), 2 on a
# usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

# --locked: build with exactly the dependency versions in Cargo.lock.
cargo build --locked --release --quiet
cargo run --locked --release --quiet -- check "$@"
