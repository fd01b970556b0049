#!/usr/bin/env bash
# Walker differential test: the cases of tests/qemu/walk_cases.h (levels 0-3, 4K granule, table,
# block and page descriptors, AP, APTable, PXN/UXN, AF, PAN, memory types and shareability,
# translation, access flag, permission and address size faults, each AT op) run by a bare-metal
# image under qemu-system-aarch64 -M virt,virtualization=on -cpu max (probe/walk-bare.c), and
# through harness/src/engine/walk.c (walk_diff). Every difference left after the masks walk_diff justifies
# fails unless the walker table of docs/testing.md has a row "| `walk` | `CLASS` |" for its class.
#   walk-diff.sh WALK_DIFF WORKDIR DOC
set -u
wd=$1 work=$2 doc=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
qemu_require "$work"
probe_build "$work/walk-bare.elf" "$here/probe/walk-bare.c" "$here/probe/vectors.S" -I"$here" ||
  { echo "not ok - the walker probe does not build"; exit 1; }
failures=0 explained=0
# max (48-bit PA, FEAT_LPA2) and cortex-a76 (a 40-bit PA: IPS 48 is capped there).
for cpu in max cortex-a76; do
  out=$work/walk-qemu-$cpu.txt diff=$work/walk-diff-$cpu.txt
  probe_run "$work/walk-bare.elf" $cpu 1 "$out" ||
    { echo "not ok - $cpu: the walker probe failed under QEMU"; failures=$((failures + 1)); continue; }
  grep -q '^# PSTATE.PAN=1' "$out" || { echo "not ok - $cpu: PSTATE.PAN could not be set"; exit 1; }
  "$wd" "$out" > "$diff" || { echo "not ok - $cpu: walk_diff could not compare"; exit 1; }
  while read -r _ class rest; do
    if grep -qF "| \`walk\` | \`$class\` |" "$doc"; then
      explained=$((explained + 1))
    else
      echo "not ok - $cpu: $class $rest (not explained in $doc)"
      failures=$((failures + 1))
    fi
  done < <(grep '^differ' "$diff")
  echo "walk-diff $cpu: $(tail -1 "$diff")"
  grep '^differ' "$diff" | awk '{print $2}' | sort | uniq -c
done
echo "walk-diff: $explained explained differences, $failures unexplained"
[ "$failures" -eq 0 ]
