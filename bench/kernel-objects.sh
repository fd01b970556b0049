#!/usr/bin/env bash
# Builds the kernel objects the audit benchmark reads: arch/arm64/{kernel,mm,kvm}/ of Debian's
# linux-source-6.1 linked into one relocatable object, and entry.o, by the kernel test's own script
# (tests/kernel/build-arm64.sh); cached in the work directory, so a rerun costs seconds.
#   kernel-objects.sh WORKDIR    leaves WORKDIR/out/{arm64-built-in.o,entry.o,cpucaps.h,config}
set -euo pipefail

exec "$(dirname "$0")/../tests/kernel/build-arm64.sh" "${1:?usage: kernel-objects.sh WORKDIR}"
