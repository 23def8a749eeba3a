#!/usr/bin/env bash
# The packed library in real projects (fixtures/README.md): for each fixture, a copy outside this
# repository, `npm ci`, the tarball, then the project's own `npm test`, its e2e tests against a
# real ZooKeeper (scripts/with-zookeeper.mjs) and `npm run build`.
#   bash scripts/ci-fixtures.sh [fixture...]     (default: every folder of fixtures/)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d /tmp/nestjs-zk-lock-fixtures.XXXXXX)
trap 'rm -rf "$work"' EXIT

npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(ls "$work"/nestjs-zk-lock-*.tgz)
# The test harness (build/test/support/zk-server.js) that starts the e2e tests' ZooKeeper.
npm run --silent build:test

fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || fixtures=($(cd fixtures && ls -d */ | tr -d /))
for fixture in "${fixtures[@]}"; do
  echo "fixtures: $fixture"
  cp -r "$root/fixtures/$fixture" "$work/$fixture"
  cd "$work/$fixture"
  # As on a machine without a compiler: no install scripts, and no `zookeeper` package (the native
  # driver's C client, an optional peer dependency that npm does not install; removed in case a
  # dependency brought it). The default TypeScript driver needs neither. (Not `--omit=optional`: npm applies it to the whole tree and
  # drops the project's own prebuilt optional binaries too; Vitest then fails in nest12 with
  # "Cannot find module './rolldown-binding.wasi.cjs'".)
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$tarball"
  rm -rf node_modules/zookeeper
  npm test
  # A real connection: the project's e2e tests (test/zookeeper.e2e-spec.ts) on a ZooKeeper of their own.
  node "$root/scripts/with-zookeeper.mjs" npm run test:e2e
  npm run build
  if [ -f tsconfig.node-resolution.json ]; then
    echo "fixtures: $fixture, moduleResolution node"
    npx tsc -p tsconfig.node-resolution.json
  fi
  cd "$root"
done
echo "fixtures: ${#fixtures[@]} passed"
