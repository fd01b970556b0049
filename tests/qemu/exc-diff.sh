#!/usr/bin/env bash
# Exception differential test: the snippets of probe/exc-snippets.S each take one synchronous
# exception at EL1, under qemu-system-aarch64 -M virt -cpu cortex-a72 (no EL2 or EL3; probe/exc-bare.c
# dumps ESR_EL1, FAR_EL1, ELR_EL1 and SPSR_EL1) and on the engine (errata-harness exec --model
# cortex-a72 --boot el1, its exception event). ESR and the preferred return address (as an offset
# in the snippet) are compared for every snippet, FAR where the exception sets it (EC 0x20-0x25:
# aborts and alignment faults; Arm ARM: FAR_EL1 is UNKNOWN after other exceptions); SPSR is not,
# the engine not reporting it. Every difference fails unless the README's exception table has a
# row "| `exc` | `SNIPPET` |".
#   exc-diff.sh ERRATA_HARNESS WORKDIR README
set -u
eh=$1 work=$2 readme=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
qemu_require "$work"
probe_build "$work/exc-bare.elf" "$here/probe/exc-bare.c" "$here/probe/exc-snippets.S" "$here/probe/vectors.S" \
  -DPROBE_EL1 || { echo "not ok - the exception probe does not build"; exit 1; }
aarch64-linux-gnu-gcc -c -o "$work/exc-snippets.o" "$here/probe/exc-snippets.S" ||
  { echo "not ok - the snippets do not assemble"; exit 1; }
probe_run "$work/exc-bare.elf" cortex-a72 0 "$work/exc-qemu.txt" ||
  { echo "not ok - the exception probe failed under QEMU"; exit 1; }
mapfile -t names < <(sed -n 's/^snippet \(exc_[a-z0-9_]*\)$/\1/p' "$here/probe/exc-snippets.S")
failures=0 explained=0 agree=0 i=0
for name in "${names[@]}"; do
  qemu=$(sed -n "s/^$i //p" "$work/exc-qemu.txt")
  [ -n "$qemu" ] || { echo "not ok - $name: no line from QEMU"; failures=$((failures + 1)); i=$((i + 1)); continue; }
  "$eh" exec "$work/exc-snippets.o" --symbol "$name" --model cortex-a72 --boot el1 --kernel 6.1 --format json \
    > "$work/exc-$name.json" 2>&1
  harness=$(python3 - "$work/exc-$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exc = [e for e in d["events"] if e["kind"] == "exception"]
if not exc:
    print("none")
else:
    e = exc[0]
    print("ESR=0x%016x FAR=0x%016x ELR+=0x%016x" % (int(e["esr"], 16), int(e["far"], 16),
          int(e["pc"], 16) - int(d["entry"], 16)))
PY
)
  # FAR only where the exception sets it; SPSR not compared.
  norm() {
    local line=$1 esr ec
    [ "$line" = none ] && { echo none; return; }
    esr=$(sed -n 's/.*ESR=\(0x[0-9a-f]*\).*/\1/p' <<<"$line")
    ec=$(( (esr >> 26) & 0x3f ))
    if [ $ec -ge 32 ] && [ $ec -le 37 ]; then sed 's/ SPSR=.*//' <<<"$line"
    else sed 's/ FAR=[^ ]*//; s/ SPSR=.*//' <<<"$line"; fi
  }
  q=$(norm "$qemu") h=$(norm "$harness")
  if [ "$q" = "$h" ]; then
    echo "ok - $name: $q"
    agree=$((agree + 1))
  elif grep -qF "| \`exc\` | \`$name\` |" "$readme"; then
    echo "ok - $name: explained: qemu $q, harness $h"
    explained=$((explained + 1))
  else
    echo "not ok - $name: qemu $q, harness $h (not explained in the README)"
    failures=$((failures + 1))
  fi
  i=$((i + 1))
done
echo "exc-diff: ${#names[@]} snippets, $agree agree, $explained explained differences, $failures unexplained"
[ "$failures" -eq 0 ] && [ ${#names[@]} -gt 0 ]
