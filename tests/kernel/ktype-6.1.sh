#!/usr/bin/env bash
# The fixed struct layouts of Linux 6.1 (harness/src/image/ktype.c) against the BTF of Debian's 6.1 cloud
# vmlinux (fetched once into WORKDIR/debian, as debian-vmlinux.sh fetches it): test_ktype's
# comparison row, run on that image. Skipped, saying why, when the arm64 archive cannot be reached.
#   ktype-6.1.sh TEST_KTYPE WORKDIR
set -uo pipefail

test_ktype=${1:?usage: ktype-6.1.sh TEST_KTYPE WORKDIR}
work=${2:?usage: ktype-6.1.sh TEST_KTYPE WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)

. "$here/debian-kernel.sh"
if ! debian_kernel "$work"; then
  echo "SKIP: Debian's arm64 kernel cannot be fetched: $skip_reason"
  exit 77
fi
out=$(EH_KTYPE_VMLINUX61="$vmlinux" "$test_ktype" 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || exit "$rc"
# Not skipped: the image was read.
echo "$out" | grep -q '^\[       OK \] test_builtin_agrees_with_btf' || { echo "not ok - the BTF row did not run"; exit 1; }
