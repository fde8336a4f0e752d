#!/usr/bin/env bash
# The programs the tests start themselves and npm cannot install: redis-server (the catalogue's shared
# cache) and nginx (the multi-replica test's round-robin balancer). Used by .ci/run and
# .github/workflows/ci.yml, so a fork's stock runner and CI install the same. Idempotent and quiet:
# installs only what is missing (Debian / Ubuntu, apt-get; sudo when not root).
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "installing ${missing[*]}"
# A mirror that stops answering fails the install in minutes rather than holding CI for its whole limit.
apt=(-o Acquire::Retries=3 -o Acquire::http::Timeout=30 -o Acquire::https::Timeout=30)
"${sudo[@]}" apt-get "${apt[@]}" update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

# The packages start system services on a systemd machine (a GitHub runner); the tests start their own
# on loopback ports, so stop those.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  for service in "${missing[@]}"; do "${sudo[@]}" systemctl disable --now "$service" >/dev/null 2>&1 || true; done
fi
