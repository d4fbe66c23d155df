#!/usr/bin/env bash
# Builds the CPU backend's native RBM kernels (Maven runs this in engine-cpu's generate-resources phase):
# src/main/native/rbm_cpu.cpp once per instruction set (on x86-64: avx512 with -march=x86-64-v4, avx2 with
# x86-64-v3, generic with the baseline; elsewhere generic only) plus jni.cpp, into liblogz_cpu.so under
# $1/org/logz/cpu/native/<os>-<arch>. Every set is compiled with -ffp-contract=off, so that no multiply-add
# is fused but the ones the sources write (the kernels' bits are defined operation by operation, DESIGN §4.1).
# Philox and the float32 exp2 / float64 log come from kernels-cu/src/main/cuda (philox.cuh, fastmath.cuh), the
# headers the CUDA kernels use, so both backends compile one definition.
# Without a C++ compiler or the JDK's jni.h the library is skipped with a warning and the backend runs its
# Java path (same bits, slower); a set the compiler cannot build is left out with a warning (AVX-512, then AVX2,
# then generic: without generic, the Java path). `logz backends` says which path runs. Unchanged sources are not
# rebuilt; a build that left a set out is tried again next time.
set -euo pipefail

out="$1/org/logz/cpu"
java_home="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/src/main/native"
shared="$here/../kernels-cu/src/main/cuda"
work="$here/target/native-build"
mkdir -p "$work"

stamp="$(cat "$src"/* "$shared/fastmath.cuh" "$shared/philox.cuh" "$here/build.sh" | sha256sum | cut -d' ' -f1)"
# <os>-<arch> from uname (linux-x86_64, linux-aarch64), the directory org.logz.io.NativeLibraries.platform() names
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
arch="$(uname -m)"
library="$out/native/$os-$arch/liblogz_cpu.so"
if [ -f "$library" ] && [ "$(cat "$work/stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "[INFO] native CPU kernels up to date"
  exit 0
fi
cxx="${CXX:-g++}"
if ! command -v "$cxx" >/dev/null 2>&1 || [ ! -f "$java_home/include/jni.h" ]; then
  echo "[WARNING] $cxx or the JDK's jni.h not found: the native CPU kernels are not built; the cpu backend runs its Java path"
  rm -f "$library"
  exit 0
fi
jni_os="$java_home/include/$os"
flags=(-std=c++17 -O3 -fPIC -ffp-contract=off -fno-math-errno -fno-exceptions -Wall -Wextra -Wno-unused-function -Wno-maybe-uninitialized -Wno-uninitialized
       -Wno-unknown-pragmas
       -I"$src" -I"$shared")
# a build that compiles anything starts unstamped: one that leaves a set out must not read as up to date later
rm -f "$work/stamp"
objects=()
built=()
defines=()
if [ "$arch" = "x86_64" ]; then
  sets=("avx512:-march=x86-64-v4" "avx2:-march=x86-64-v3" "generic:-march=x86-64")
else
  sets=("generic:")
fi
# each set on its own: a compiler that cannot build one (g++ before 11 has no -march=x86-64-v4) loses that set, with
# one warning line, and the library holds the others (jni.cpp offers only the sets built); without the generic set
# there is no library and the Java path runs
for set in "${sets[@]}"; do
  name="${set%%:*}"
  march="${set#*:}"
  # shellcheck disable=SC2086
  if "$cxx" "${flags[@]}" $march -DLOGZ_ISA="$name" -c "$src/rbm_cpu.cpp" -o "$work/rbm_$name.o" 2>"$work/rbm_$name.log"; then
    objects+=("$work/rbm_$name.o")
    built+=("$name")
    defines+=("-DLOGZ_BUILT_$(echo "$name" | tr '[:lower:]' '[:upper:]')")
  else
    echo "[WARNING] $cxx could not build the $name kernels ($(grep -m1 -i error "$work/rbm_$name.log" || head -n1 "$work/rbm_$name.log")); the library goes without them"
  fi
done
rm -f "$library"
if [[ ! " ${built[*]} " == *" generic "* ]]; then
  echo "[WARNING] the generic kernels did not build: the native CPU kernels are not built; the cpu backend runs its Java path"
  exit 0
fi
mkdir -p "$(dirname "$library")"
if ! { "$cxx" "${flags[@]}" "${defines[@]}" -I"$java_home/include" -I"$jni_os" -c "$src/jni.cpp" -o "$work/jni.o" \
       && "$cxx" -shared -o "$library.part" "$work/jni.o" "${objects[@]}" -lm; } 2>"$work/jni.log"; then
  echo "[WARNING] $cxx could not build the JNI library ($(head -n1 "$work/jni.log")): the cpu backend runs its Java path"
  rm -f "$library.part"
  exit 0
fi
mv "$library.part" "$library"
if [ "${#built[@]}" = "${#sets[@]}" ]; then
  echo "$stamp" > "$work/stamp"
fi
echo "[INFO] built $library (${built[*]})"
