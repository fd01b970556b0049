#!/usr/bin/env bash
# Walker differential test: the cases of tests/qemu/walk_cases.h (levels 0-3, 4K granule, table,
# block and page descriptors, AP, APTable, PXN/UXN, AF, PAN, memory types and shareability,
# translation, access flag, permission and address size faults, each AT op) run by a bare-metal
# image under qemu-system-aarch64 -M virt,virtualization=on -cpu max (probe/walk-bare.c), and
# through harness/src/walk.c (walk_diff). Every difference left after the masks walk_diff justifies
# fails unless the README's walker table has a row "| `walk` | `CLASS` |" for its class.
#   walk-diff.sh WALK_DIFF WORKDIR README
set -u
wd=$1 work=$2 readme=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
qemu_require "$work"
probe_build "$work/walk-bare.elf" "$here/probe/walk-bare.c" "$here/probe/vectors.S" -I"$here" ||
  { echo "not ok - the walker probe does not build"; exit 1; }
probe_run "$work/walk-bare.elf" max 1 "$work/walk-qemu.txt" ||
  { echo "not ok - the walker probe failed under QEMU"; exit 1; }
grep -q '^# PSTATE.PAN=1' "$work/walk-qemu.txt" || { echo "not ok - PSTATE.PAN could not be set"; exit 1; }
"$wd" "$work/walk-qemu.txt" > "$work/walk-diff.txt" || { echo "not ok - walk_diff could not compare"; exit 1; }
failures=0 explained=0
while read -r _ class rest; do
  if grep -qF "| \`walk\` | \`$class\` |" "$readme"; then
    explained=$((explained + 1))
  else
    echo "not ok - $class $rest (not explained in the README)"
    failures=$((failures + 1))
  fi
done < <(grep '^differ' "$work/walk-diff.txt")
echo "walk-diff: $(tail -1 "$work/walk-diff.txt"), $explained explained differences, $failures unexplained"
grep '^differ' "$work/walk-diff.txt" | awk '{print $2}' | sort | uniq -c
[ "$failures" -eq 0 ]
