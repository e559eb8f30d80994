#!/usr/bin/env bash
# The pre-commit hook end to end: a scratch git repository uses this
# repository's .pre-commit-hooks.yaml (at HEAD, through `pre-commit
# try-repo` and through an installed git hook); a hazardous file is blocked
# with its finding shown, a clean one passes, and a clean commit passes even
# while a hazardous file sits untracked beside it (the hook reports only on
# the committed files).
#
# pre-commit builds the hook with `go install ./...` in a private GOPATH.
# The shared module cache (warm after make build) is used directly, and the
# module proxy is tried after it, so this also works offline.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
precommit=$(command -v pre-commit || echo /usr/bin/pre-commit)
if [ ! -x "$precommit" ]; then
  echo "30-precommit: pre-commit not installed (make deps installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/pre-commit-home"
export GOMODCACHE="$(go env GOMODCACHE)"
export GOPROXY="file://$GOMODCACHE/cache/download,$(go env GOPROXY)"
export GOSUMDB=off # go.sum still verifies every module
export GOFLAGS=-modcacherw

# The hook repository: a clone of HEAD (try-repo wants a git repository
# with the hooks at a commit).
git clone -q "$root" "$work/hooks" || { echo "0 passed, 1 failed"; exit 1; }
hooks_rev=$(git -C "$work/hooks" rev-parse HEAD)

repo="$work/project"
mkdir -p "$repo/pkg"
cd "$repo"
git init -q .
git config user.email ci@example.invalid
git config user.name ci
git config commit.gpgsign false

# The project's own configuration: discovery stops here, so nothing in the
# directories above the scratch repository applies.
printf '[project]\nname = "scratch"\n\n[tool.collvet]\n' > pyproject.toml

cat > pkg/clean.py <<'PY'
import torch.distributed as dist


def step(t):
    dist.all_reduce(t)
PY
cat > pkg/hazard.py <<'PY'
import threading

import torch.distributed as dist


def worker(t):
    dist.all_reduce(t)


def train(t):
    th = threading.Thread(target=worker, args=(t,))
    th.start()
    dist.all_reduce(t)
    th.join()
PY

pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; sed 's/^/    /' "$2" | tail -40; fail=$((fail + 1)); }

# 1. try-repo (the canonical way to test a hook repository) on the staged
#    files: the hazard is blocked, its finding shown, the clean file beside
#    it not reported.
git add pyproject.toml pkg/clean.py pkg/hazard.py
if "$precommit" try-repo "$work/hooks" collvet >"$work/out1" 2>&1; then
  bad "try-repo: hazardous file blocked (hook passed)" "$work/out1"
elif grep -q 'pkg/hazard.py:[0-9]*:[0-9]*: CV101' "$work/out1" && ! grep -q '^pkg/clean.py:[0-9]*:[0-9]*: CV' "$work/out1"; then
  ok "try-repo: hazardous file blocked with CV101 shown"
else
  bad "try-repo: hazardous file blocked with CV101 shown" "$work/out1"
fi

# 2. Installed as a git hook: a commit of the clean file passes while the
#    hazardous file sits untracked beside it (analysed for context, not
#    reported); a commit of the hazardous file is blocked.
git reset -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $hooks_rev
    hooks:
      - id: collvet
YAML
"$precommit" install >/dev/null 2>&1
git add .pre-commit-config.yaml pyproject.toml pkg/clean.py
if git commit -q -m clean >"$work/out2" 2>&1; then
  ok "git commit: clean commit passes (untracked hazardous file not reported)"
else
  bad "git commit: clean commit passes" "$work/out2"
fi
git add pkg/hazard.py
if git commit -q -m hazard >"$work/out3" 2>&1; then
  bad "git commit: hazardous commit blocked (commit went through)" "$work/out3"
elif grep -q 'pkg/hazard.py:[0-9]*:[0-9]*: CV101' "$work/out3"; then
  ok "git commit: hazardous commit blocked with CV101 shown"
else
  bad "git commit: hazardous commit blocked with CV101 shown" "$work/out3"
fi

echo "30-precommit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
