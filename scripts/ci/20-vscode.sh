#!/usr/bin/env bash
# The VS Code extension offline: install the locked packages, type-check
# against the VS Code API, bundle, package a platform-specific .vsix with
# the server binary, and drive `bin/collvet lsp` with the protocol library
# the extension's client uses (node:test).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root/vscode"
pass=0 fail=0
log=$(mktemp)
trap 'rm -f "$log"; rm -rf "$root/vscode/bin"' EXIT
step() {
  local name=$1
  shift
  if "$@" >"$log" 2>&1; then
    echo "ok   $name"
    pass=$((pass + 1))
  else
    echo "FAIL $name"
    tail -60 "$log" | sed 's/^/    /'
    fail=$((fail + 1))
  fi
}

if [ ! -x "$root/bin/collvet" ]; then
  echo "20-vscode: bin/collvet missing (make build first)"
  echo "20-vscode: 0 passed, 1 failed"
  exit 1
fi
if ! command -v npm >/dev/null; then
  echo "20-vscode: npm not installed (make deps installs it)"
  echo "20-vscode: 0 passed, 1 failed"
  exit 1
fi

step "npm ci" npm ci --no-audit --no-fund
step "tsc --noEmit against @types/vscode" npx tsc --noEmit -p .
step "esbuild bundle" npm run bundle

# A platform-specific package carries the server in bin/.
target=$(node -p 'process.platform + "-" + process.arch')
mkdir -p bin && cp "$root/bin/collvet" bin/collvet
vsix="$root/vscode/collvet-$target.vsix"
check_vsix() {
  # List the package once: `grep -q` in a pipe stops reading at the first
  # match, and the lister's broken pipe then fails the step (pipefail).
  local listing
  npx vsce package --no-dependencies --skip-license --target "$target" -o "$vsix" &&
    listing=$(python3 -m zipfile -l "$vsix") &&
    grep -q 'extension/dist/extension.js' <<<"$listing" &&
    grep -q 'extension/bin/collvet' <<<"$listing" &&
    ! grep -q 'node_modules' <<<"$listing"
}
step "vsce package --target $target" check_vsix

# The node tests print their own TAP summary; show it whole.
if LSP_SERVER="$root/bin/collvet" npm test 2>&1 | tee "$log" | grep -E '^(not )?ok |^# (pass|fail)'; [ "${PIPESTATUS[0]}" -eq 0 ]; then
  echo "ok   node --test (resolution + LSP session against bin/collvet)"
  pass=$((pass + 1))
else
  echo "FAIL node --test"
  grep -E 'error:|timed out|expected|actual' "$log" | head -20 | cut -c1-400 | sed 's/^/    /'
  fail=$((fail + 1))
fi

echo "20-vscode: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
