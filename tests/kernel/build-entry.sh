#!/usr/bin/env bash
# Builds arch/arm64/kernel/entry.o of Debian's linux-source-6.1 for arm64 defconfig with KPTI and the
# ThunderX2 erratum 219 workaround on, plus a copy of entry.S without the ISB after the trampoline's
# TTBR1_EL1 write; every step is cached in the work directory so a rerun costs seconds. It also installs
# jq, which the kernel tests read the reports with.
#   build-entry.sh WORKDIR    leaves WORKDIR/out/{entry.o,entry-noisb.o,cpucaps.h,config}
set -euo pipefail

work=${1:?usage: build-entry.sh WORKDIR}
mkdir -p "$work"
work=$(cd "$work" && pwd)
src=$work/linux-source-6.1
out=$work/out
tarball=/usr/src/linux-source-6.1.tar.xz
kmake=(make -s -C "$src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j "$(nproc)")
packages=(linux-source-6.1 gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu flex bison bc libssl-dev
          libelf-dev xz-utils make gcc libc6-dev jq)

log() { echo "build-entry: $*" >&2; }

"$(dirname "$0")"/../../harness/install-packages "${packages[@]}"

# A stamp per step, keyed to the tarball, so a new linux-source-6.1 upload starts over.
key=$(stat -c '%s-%Y' "$tarball")
if [ "$(cat "$work/unpacked" 2>/dev/null)" != "$key" ]; then
  log "unpacking $tarball"
  rm -rf "$src" "$out" "$work/prepared"
  tar xf "$tarball" -C "$work"
  cp "$src/arch/arm64/kernel/entry.S" "$work/entry.S.orig"
  echo "$key" > "$work/unpacked"
fi

if [ "$(cat "$work/prepared" 2>/dev/null)" != "$key" ]; then
  log "configuring (defconfig + KPTI + CAVIUM_TX2_ERRATUM_219) and running make prepare"
  "${kmake[@]}" defconfig
  "$src/scripts/config" --file "$src/.config" --enable UNMAP_KERNEL_AT_EL0 \
    --enable CAVIUM_TX2_ERRATUM_219
  "${kmake[@]}" olddefconfig
  for opt in CONFIG_UNMAP_KERNEL_AT_EL0 CONFIG_CAVIUM_TX2_ERRATUM_219; do
    grep -qx "$opt=y" "$src/.config" || { log "$opt did not stay enabled"; exit 1; }
  done
  "${kmake[@]}" prepare
  echo "$key" > "$work/prepared"
fi

# entry.S as shipped, then a copy whose trampoline lost the ISB right after tramp_map_kernel.
entry=$src/arch/arm64/kernel/entry.S
restore() { cp -p "$work/entry.S.orig" "$entry"; }
trap restore EXIT
build_entry() {  # build_entry SOURCE OUTPUT
  [ -f "$2" ] && cmp -s "$1" "$2.src" && return 0
  cp "$1" "$entry"
  touch "$entry"
  "${kmake[@]}" arch/arm64/kernel/entry.o
  cp "$src/arch/arm64/kernel/entry.o" "$2"
  cp "$1" "$2.src"
}
mkdir -p "$out"
sed '/^\ttramp_map_kernel\tx30$/{n;/^alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003$/d}' \
  "$work/entry.S.orig" > "$work/entry-noisb.S"
removed=$(diff "$work/entry.S.orig" "$work/entry-noisb.S" | grep -c '^<' || true)
[ "$removed" = 1 ] || { log "the ISB mutation removed $removed lines, expected 1"; exit 1; }
build_entry "$work/entry.S.orig" "$out/entry.o"
build_entry "$work/entry-noisb.S" "$out/entry-noisb.o"
cp "$src/arch/arm64/include/generated/asm/cpucaps.h" "$out/cpucaps.h"
cp "$src/.config" "$out/config"
sed 's/^CONFIG_CAVIUM_TX2_ERRATUM_219=y$/# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set/' "$out/config" \
  > "$out/config-no219"
grep -q '^# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set$' "$out/config-no219"
