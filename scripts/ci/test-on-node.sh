#!/usr/bin/env bash
# Runs the test suite again on another Node.js major (22, 24, ...), with that runtime taken from the npm registry
# (the node-<platform>-<arch> packages hold the official binaries and headers), so CI needs no other download.
# better-sqlite3 is built against that runtime's headers and the original build is put back afterwards.
set -euo pipefail
major="${1:?usage: test-on-node.sh <major>}"
cd "$(dirname "$0")/../.."

platform="$(node -p 'process.platform')"
arch="$(node -p 'process.arch')"
runtime_dir="$PWD/node_modules/.cache/node-$major"
if [ ! -x "$runtime_dir/bin/node" ]; then
  rm -rf "$runtime_dir" && mkdir -p "$runtime_dir"
  tarball="$(cd "$runtime_dir" && npm pack --silent "node-$platform-$arch@$major")"
  tar xzf "$runtime_dir/$tarball" -C "$runtime_dir" --strip-components=1
  rm -f "$runtime_dir/$tarball"
fi
echo "== tests on Node $("$runtime_dir/bin/node" -v)"

addon="node_modules/better-sqlite3/build"
saved="$(mktemp -d)"
cp -a "$addon" "$saved/build"
restore() { rm -rf "$addon" && cp -a "$saved/build" "$addon" && rm -rf "$saved"; }
trap restore EXIT INT TERM

# Native addons (here and in the installs some tests make) build against this runtime's headers.
export PATH="$runtime_dir/bin:$PATH" npm_config_nodedir="$runtime_dir"
npm rebuild better-sqlite3 --build-from-source >/dev/null
node node_modules/vitest/vitest.mjs run
