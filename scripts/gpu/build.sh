#!/usr/bin/env bash
# Builds janggi-zero against the carried dependencies (scripts/gpu/prepare-deps.sh) and a LibTorch:
# PyTorch's (torch.utils.cmake_prefix_path; with CUDA where it has it) on the GPU machine, or Debian's
# (CPU) here, which shows that the carried folder is all the build needs besides LibTorch. docs/gpu.md.
#
#   scripts/gpu/build.sh [--build-dir DIR] [--deps DIR] [--torch python|debian|auto] [--jobs N]
#                        [--targets "T ..."] [--keep-going] [--verify-carried]
#
# Steps: GoogleTest from the carried source into DIR/_gtest (once), configure (Ninja when there is one,
# JZ_WITH_WEB=OFF: cpp-httplib is not carried), build the targets (default: janggi-zero nn_tests
# mcts_tests). --verify-carried then checks that every package config, third-party header and library came
# from the carried folder, not from /usr. Re-running reuses DIR (an incremental build).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="$ROOT/build-gpu"
DEPS="$ROOT/.gpu-deps"
TORCH=auto
JOBS="$(nproc)"
TARGETS="janggi-zero nn_tests mcts_tests"
VERIFY=0
KEEP=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) BUILD="$(realpath -m "$2")"; shift 2 ;;
    --deps) DEPS="$(realpath -m "$2")"; shift 2 ;;
    --torch) TORCH="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --targets) TARGETS="$2"; shift 2 ;;
    --keep-going) KEEP=(-- -k 0); shift ;;
    --verify-carried) VERIFY=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
say() { echo "build.sh: $*"; }
[ -f "$DEPS/jz-carried-deps.txt" ] || { echo "build.sh: $DEPS is missing: run scripts/gpu/prepare-deps.sh" \
  "on the Debian machine and carry the folder" >&2; exit 1; }

# nvcc is often installed outside PATH.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH="/usr/local/cuda/bin:$PATH"; fi

# LibTorch: python = PyTorch's CMake package (CUDA if the wheel has it); debian = /usr (CPU).
if [ "$TORCH" = auto ]; then
  if python3 -c "import torch" 2>/dev/null; then TORCH=python; else TORCH=debian; fi
fi
TORCH_ARGS=()
case "$TORCH" in
  python)
    TORCH_PREFIX="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
    say "LibTorch from PyTorch $(python3 -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)') at $TORCH_PREFIX"
    TORCH_ARGS+=("-DTorch_DIR=$TORCH_PREFIX/Torch")
    if python3 -c 'import sys, torch; sys.exit(0 if torch.version.cuda else 1)'; then
      command -v nvcc >/dev/null || { echo "build.sh: this PyTorch has CUDA but nvcc is not found" >&2; exit 1; }
      # Torch's CMake config enables CUDA and asks for the architectures; we compile no kernels ourselves.
      if [ -z "${TORCH_CUDA_ARCH_LIST:-}" ]; then
        TORCH_CUDA_ARCH_LIST="$(python3 -c 'import torch; c = torch.cuda.get_device_capability() if torch.cuda.is_available() else (9, 0); print(f"{c[0]}.{c[1]}")')"
        export TORCH_CUDA_ARCH_LIST
      fi
      TORCH_ARGS+=("-DCMAKE_CUDA_COMPILER=$(command -v nvcc)" "-DCMAKE_CUDA_ARCHITECTURES=${TORCH_CUDA_ARCH_LIST//./}")
      say "CUDA: $(nvcc --version | tail -1), arch $TORCH_CUDA_ARCH_LIST"
    fi ;;
  debian)
    say "LibTorch from Debian ($(dpkg-query -W -f='${Version}' libtorch-dev 2>/dev/null || echo '?'), CPU)" ;;
  *) echo "build.sh: --torch must be python, debian or auto" >&2; exit 2 ;;
esac

GEN=()
if command -v ninja >/dev/null; then GEN=(-G Ninja); fi
mkdir -p "$BUILD"
if [ -f "$BUILD/CMakeCache.txt" ] && ! grep -q "^CMAKE_GENERATOR:INTERNAL=${GEN[1]:-Unix Makefiles}$" "$BUILD/CMakeCache.txt"; then
  echo "build.sh: $BUILD was configured with another generator; use a fresh --build-dir" >&2; exit 1
fi

# GoogleTest with this machine's compiler (a C++ library built by Debian's g++ might not link against an
# older libstdc++); static libraries, installed with their CMake config.
GTEST="$BUILD/_gtest"
if [ ! -f "$GTEST/prefix/lib/cmake/GTest/GTestConfig.cmake" ] && [ ! -f "$GTEST/prefix/lib64/cmake/GTest/GTestConfig.cmake" ]; then
  say "GoogleTest from $DEPS/src/googletest"
  cmake -S "$DEPS/src/googletest" -B "$GTEST/build" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF \
    -DINSTALL_GTEST=ON -DCMAKE_INSTALL_PREFIX="$GTEST/prefix" -DCMAKE_INSTALL_LIBDIR=lib \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 >"$BUILD/gtest-configure.log"
  cmake --build "$GTEST/build" -j "$JOBS" >"$BUILD/gtest-build.log"
  cmake --install "$GTEST/build" >"$BUILD/gtest-install.log"
fi

say "configure $BUILD"
cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DJZ_CARRIED_DEPS="$DEPS" -DJZ_WITH_WEB=OFF \
  -DCMAKE_PREFIX_PATH="$GTEST/prefix" -DCMAKE_POLICY_VERSION_MINIMUM=3.5 "${TORCH_ARGS[@]}"
say "build $TARGETS (-j $JOBS)"
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$JOBS" --target $TARGETS "${KEEP[@]}"

if [ "$VERIFY" = 1 ]; then
  bad=0
  for pkg in nlohmann_json zstd Eigen3 CLI11 GTest; do
    dir="$(sed -n "s/^${pkg}_DIR:[A-Z]*=//p" "$BUILD/CMakeCache.txt")"
    case "$dir" in "$DEPS"/*|"$GTEST"/*) say "verify: $pkg config from $dir" ;;
      *) say "verify: FAIL: $pkg config from '$dir'"; bad=1 ;; esac
  done
  if [ "${GEN[1]:-}" = Ninja ]; then
    # Headers every object was compiled with (ninja's dependency log): none of the carried packages from /usr.
    leaks="$(ninja -C "$BUILD" -t deps | grep -E '^ +/usr/(local/)?include/(nlohmann|CLI|eigen3|gtest|gmock|zstd|zdict|httplib)' | sort -u || true)"
    if [ -n "$leaks" ]; then say "verify: FAIL: headers from /usr:"; echo "$leaks" | head -20; bad=1
    else say "verify: no third-party header from /usr ($(ninja -C "$BUILD" -t deps | grep -cE "^ *($DEPS|$GTEST)/") uses of carried ones)"; fi
    links="$(ninja -C "$BUILD" -t commands $TARGETS | grep -oE '/usr/lib[^ ]*(zstd|gtest|httplib)[^ ]*' | sort -u || true)"
    if [ -n "$links" ]; then say "verify: FAIL: libraries from /usr: $links"; bad=1
    else say "verify: zstd and GoogleTest link from the carried folder and $GTEST"; fi
  fi
  for t in $TARGETS; do
    bin="$(find "$BUILD" -maxdepth 3 -type f -name "$t" -perm -u+x | head -1)"
    [ -n "$bin" ] || continue
    # Its own NEEDED entries (ldd would also list what LibTorch itself loads, Debian's libzstd among them).
    if readelf -d "$bin" | grep NEEDED | grep -E 'libzstd|libgtest|httplib'; then
      say "verify: FAIL: $t needs the above"; bad=1
    fi
  done
  [ "$bad" = 0 ] && say "verify: OK" || { say "verify: FAILED"; exit 1; }
fi
say "done: $BUILD"
