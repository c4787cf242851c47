#!/usr/bin/env bash
# Installs the Debian 12 packages janggi-zero builds and tests with. Idempotent.
set -euo pipefail
PKGS=(build-essential cmake g++ libtorch-dev libeigen3-dev libgtest-dev libbenchmark-dev
      libcli11-dev libyaml-cpp-dev nlohmann-json3-dev libspdlog-dev libzstd-dev
      libcpp-httplib-dev libsqlite3-dev libsodium-dev python3-fonttools libopenblas0-openmp clang libclang-rt-14-dev
      chromium)
# node and npm for the browser test: Debian's, unless a node is already installed (it brings npm).
command -v node >/dev/null 2>&1 || PKGS+=(nodejs)
command -v npm >/dev/null 2>&1 || PKGS+=(npm)
missing=()
for p in "${PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The browser test's driver (puppeteer-core, pinned in tests/browser/package-lock.json; no browser download).
(cd "$(dirname "$0")/../tests/browser" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
