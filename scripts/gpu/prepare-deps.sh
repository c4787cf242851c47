#!/usr/bin/env bash
# Fills the carried-dependency folder (default .gpu-deps/, gitignored) from this machine's Debian packages,
# for a build machine that has a compiler, CMake and LibTorch but none of the project's other packages
# (the CUDA machine; docs/gpu.md). The folder is a CMake prefix: `-DJZ_CARRIED_DEPS=DIR` puts it first.
#
#   header-only, with Debian's relocatable CMake configs: nlohmann_json, CLI11, Eigen3 (Eigen/ only)
#   zstd: Debian's static libzstd.a (C, needs only libc) and its headers, with a small zstdConfig.cmake
#   GoogleTest: Debian's source (googletest only, no gmock); scripts/gpu/build.sh builds it with the build
#     machine's compiler, so that no C++ library built by Debian's g++ meets another libstdc++
#   not carried: cpp-httplib (Debian's is a shared library with OpenSSL/brotli behind it; the GPU build
#     sets JZ_WITH_WEB=OFF), OpenMP (libgomp comes with the compiler), iconv (glibc), LibTorch.
#
# Usage: scripts/gpu/prepare-deps.sh [DIR]   Idempotent: does nothing when DIR is current (same package
# versions, same script); else rebuilds it in DIR.tmp and swaps it in.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DEST="${1:-$ROOT/.gpu-deps}"
PKGS=(nlohmann-json3-dev libcli11-dev libeigen3-dev libzstd-dev googletest)
ARCH_LIB=/usr/lib/x86_64-linux-gnu

missing=()
for p in "${PKGS[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "prepare-deps: missing Debian packages: ${missing[*]} (bash scripts/install-deps.sh installs them)" >&2
  exit 1
fi

stamp() {
  for p in "${PKGS[@]}"; do dpkg-query -W -f='${Package} ${Version}\n' "$p"; done
  echo "script $(sha256sum "$0" | cut -c1-16)"
}
MANIFEST=jz-carried-deps.txt
if [ -f "$DEST/$MANIFEST" ] && [ "$(sed -n '/^# packages/,/^# end/p' "$DEST/$MANIFEST" | sed '1d;$d')" = "$(stamp)" ]; then
  echo "prepare-deps: $DEST is up to date ($(du -sh "$DEST" | cut -f1))"
  exit 0
fi

TMP="$DEST.tmp"
rm -rf "$TMP"
mkdir -p "$TMP"/{include/eigen3,lib/cmake/zstd,share/cmake,share/eigen3,src/googletest/googletest}

# Header-only packages: headers plus Debian's configs, which locate the prefix relative to themselves
# (share/cmake/<pkg>/ -> three levels up), so the same layout makes them point into DEST.
cp -a /usr/include/nlohmann /usr/include/CLI "$TMP/include/"
cp -a /usr/include/eigen3/Eigen "$TMP/include/eigen3/"
cp -a /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 "$TMP/share/cmake/"
cp -a /usr/share/eigen3/cmake "$TMP/share/eigen3/"

# zstd: static library only. Debian's own zstdTargets also names the shared library and refuses to load
# without it, hence this config of our own (the top CMakeLists.txt links zstd::libzstd_static when carried).
cp -a /usr/include/zstd.h /usr/include/zstd_errors.h /usr/include/zdict.h "$TMP/include/"
cp -a "$ARCH_LIB/libzstd.a" "$TMP/lib/"
ZSTD_VERSION="$(dpkg-query -W -f='${Version}' libzstd-dev | sed 's/[+~-].*//')"
cat >"$TMP/lib/cmake/zstd/zstdConfig.cmake" <<CMAKE
# Written by scripts/gpu/prepare-deps.sh: Debian's static libzstd $ZSTD_VERSION, carried with the tree.
get_filename_component(_jz_zstd_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET zstd::libzstd_static)
  add_library(zstd::libzstd_static STATIC IMPORTED)
  set_target_properties(zstd::libzstd_static PROPERTIES
    IMPORTED_LOCATION "\${_jz_zstd_prefix}/lib/libzstd.a"
    INTERFACE_INCLUDE_DIRECTORIES "\${_jz_zstd_prefix}/include")
endif()
set(zstd_VERSION $ZSTD_VERSION)
unset(_jz_zstd_prefix)
CMAKE

# GoogleTest source: the top CMakeLists (it sets the version) and googletest/ without docs, samples, tests.
cp -a /usr/src/googletest/CMakeLists.txt "$TMP/src/googletest/"
cp -a /usr/src/googletest/googletest/{CMakeLists.txt,cmake,include,src} "$TMP/src/googletest/googletest/"

{
  echo "# janggi-zero carried dependencies, made by scripts/gpu/prepare-deps.sh on $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# use: cmake -DJZ_CARRIED_DEPS=<this folder> (scripts/gpu/build.sh does this)"
  echo "# packages"
  stamp
  echo "# end"
} >"$TMP/$MANIFEST"

rm -rf "$DEST"
mv "$TMP" "$DEST"
echo "prepare-deps: wrote $DEST ($(du -sh "$DEST" | cut -f1), $(find "$DEST" -type f | wc -l) files)"
