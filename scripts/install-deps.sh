#!/usr/bin/env bash
# Installs the Debian packages the test suite needs. Idempotent; skips
# apt when everything is already there.
set -euo pipefail
need=()
[ -d /usr/lib/python3/dist-packages/torch/distributed ] || need+=(python3-torch)
command -v pyflakes3 >/dev/null 2>&1 || [ -x /usr/bin/pyflakes3 ] || need+=(python3-pyflakes)
[ -x /usr/bin/pre-commit ] || need+=(pre-commit)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev) # go test -race needs cgo
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
go mod download
