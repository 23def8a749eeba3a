#!/usr/bin/env bash
# Keeps Nest 11 working: swap every @nestjs/* dev dependency for its Nest 11 line (without
# touching package.json or the lock file), rebuild, and run the tests that exercise the Nest
# surface: module wiring, decorators, scheduling composition, terminus, the testing module, the
# exception filter and microservices, and the packed package.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A NEST11=(
  [@nestjs/common]=11 [@nestjs/core]=11 [@nestjs/testing]=11 [@nestjs/platform-express]=11
  [@nestjs/schedule]=6 [@nestjs/terminus]=11 [@nestjs/microservices]=11 [@nestjs/platform-fastify]=11
)
wanted=()
for pkg in $(node -p "Object.keys(require('./package.json').devDependencies).filter((n) => n.startsWith('@nestjs/')).join(' ')"); do
  [ -n "${NEST11[$pkg]:-}" ] || { echo "ci-nest11: no Nest 11 line known for $pkg" >&2; exit 1; }
  wanted+=("$pkg@${NEST11[$pkg]}")
done
echo "ci-nest11: installing ${wanted[*]}"
npm install --no-save --no-audit --no-fund "${wanted[@]}" >/dev/null
node -e 'const v = require("@nestjs/core/package.json").version; if (!v.startsWith("11.")) { console.error("ci-nest11: @nestjs/core is " + v); process.exit(1); } console.log("ci-nest11: @nestjs/core " + v);'
rm -rf build && npx tsc -p tsconfig.json
node scripts/run-tests.mjs "$@"
