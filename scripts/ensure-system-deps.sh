#!/usr/bin/env bash
# Installs what the browser tests need from Debian when it is missing: Chromium (Playwright
# drives Debian's build; no browser download works here) and its old headless shell (the
# journeys' browser: the same engine without the desktop browser's UI, decision 0123), CJK fonts so Chinese renders, and
# nginx, the load balancer of the two-instance journeys (apps/web/e2e-cluster, decision 0103).
# The cluster runner starts its own nginx with its own config; the package's service is not
# started on install (policy-rc.d), so nothing is left listening on port 80.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
fc-list 2>/dev/null | grep -qi 'Noto Sans CJK' || [ -d /usr/share/fonts/opentype/noto ] || need+=(fonts-noto-cjk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "The browser tests need: ${need[*]}. Install them with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "Installing ${need[*]} from Debian..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  # 101: "action forbidden", so the packages' postinst starts no service (Debian's policy-rc.d).
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get install -y -qq "${need[@]}" >/dev/null
