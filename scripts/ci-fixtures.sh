#!/usr/bin/env bash
# The packed library in real projects (fixtures/README.md): for each fixture, a copy outside this
# repository, `npm ci`, the tarball, then the project's own `npm test` and `npm run build`.
#   bash scripts/ci-fixtures.sh [fixture...]     (default: every folder of fixtures/)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d /tmp/nestjs-zk-lock-fixtures.XXXXXX)
trap 'rm -rf "$work"' EXIT

npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(ls "$work"/nestjs-zk-lock-*.tgz)

fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || fixtures=($(cd fixtures && ls -d */ | tr -d /))
for fixture in "${fixtures[@]}"; do
  echo "fixtures: $fixture"
  cp -r "$root/fixtures/$fixture" "$work/$fixture"
  cd "$work/$fixture"
  # --ignore-scripts: the zookeeper binding stays unbuilt, as on a machine without a compiler;
  # unit tests on nestjs-zk-lock/testing must not need it.
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$tarball"
  npm test
  npm run build
  if [ -f tsconfig.node-resolution.json ]; then
    echo "fixtures: $fixture, moduleResolution node"
    npx tsc -p tsconfig.node-resolution.json
  fi
  cd "$root"
done
echo "fixtures: ${#fixtures[@]} passed"
