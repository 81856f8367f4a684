#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs ctest; then again
# under AddressSanitizer + UndefinedBehaviorSanitizer; then installs grain into a
# temporary prefix and builds and runs the example application against it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"

echo "== build and test (Release)"
bash "$root/scripts/build.sh" "$root/build"
(cd "$root/build" && ctest --output-on-failure -j "$(nproc)")

echo "== build and test under ASan + UBSan"
bash "$root/scripts/build.sh" "$root/build-sanitize" -DGRAIN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
(cd "$root/build-sanitize" && ctest --output-on-failure -j "$(nproc)")

echo "== install, then build examples/app with find_package(grain) and pkg-config"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$root/build" --prefix "$prefix" >/dev/null
cmake -S "$root/examples/app" -B "$prefix/app-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/app-build" >/dev/null
STARPU_SILENT=1 "$prefix/app-build/app"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" g++ -o "$prefix/app-pc" "$root/examples/app/main.cpp" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs grain) -Wl,-rpath,"$prefix/lib"
STARPU_SILENT=1 "$prefix/app-pc"
echo "example: both builds ran and returned info 0"
