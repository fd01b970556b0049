#!/usr/bin/env bash
# Exception differential test: the snippets of probe/exc-snippets.S each take one synchronous
# exception at EL1, under qemu-system-aarch64 -M virt -cpu cortex-a72 (no EL2 or EL3; probe/exc-bare.c
# dumps ESR_EL1, FAR_EL1, ELR_EL1 and SPSR_EL1) and on the engine (errata-harness exec --model
# cortex-a72 --boot el1, its exception event); those of probe/exc-el2-snippets.S each take one to
# EL2 from EL1 under a hypervisor with HCR_EL2 RW and TVM, under -M virt,virtualization=on
# (probe/exc-bare.c built for EL2 dumps ESR_EL2, FAR_EL2, ELR_EL2 and SPSR_EL2) and on the engine (exec
# --boot nvhe from the snippet's engine_ prologue, which writes HCR_EL2 into the virtual EL2
# register file; its EL2 trap event, or its exception event). ESR and the preferred return address
# (as an offset in the snippet) are compared for every snippet, FAR where the exception sets it
# (EC 0x20-0x25: aborts and alignment faults; Arm ARM: FAR is UNKNOWN after other exceptions);
# SPSR is not, the engine not reporting it. Every difference fails unless the exception table of
# docs/testing.md has a row "| `exc` | `SNIPPET` |".
#   exc-diff.sh ERRATA_HARNESS WORKDIR DOC
set -u
eh=$1 work=$2 doc=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
qemu_require "$work"
probe_build "$work/exc-bare.elf" "$here/probe/exc-bare.c" "$here/probe/exc-snippets.S" "$here/probe/vectors.S" \
  -DPROBE_EL1 || { echo "not ok - the exception probe does not build"; exit 1; }
probe_build "$work/exc-el2-bare.elf" "$here/probe/exc-bare.c" "$here/probe/exc-el2-snippets.S" \
  "$here/probe/exc-el2-call.S" "$here/probe/vectors.S" || { echo "not ok - the EL2 exception probe does not build"; exit 1; }
for s in exc-snippets exc-el2-snippets; do
  aarch64-linux-gnu-gcc -c -o "$work/$s.o" "$here/probe/$s.S" || { echo "not ok - $s.S does not assemble"; exit 1; }
done
probe_run "$work/exc-bare.elf" cortex-a72 0 "$work/exc-qemu.txt" ||
  { echo "not ok - the exception probe failed under QEMU"; exit 1; }
probe_run "$work/exc-el2-bare.elf" cortex-a72 1 "$work/exc-el2-qemu.txt" ||
  { echo "not ok - the EL2 exception probe failed under QEMU"; exit 1; }
failures=0 explained=0 agree=0 total=0

# FAR only where the exception sets it; SPSR not compared.
norm() {
  local line=$1 esr ec
  [ "$line" = none ] && { echo none; return; }
  esr=$(sed -n 's/.*ESR=\(0x[0-9a-f]*\).*/\1/p' <<<"$line")
  ec=$(( (esr >> 26) & 0x3f ))
  if [ $ec -ge 32 ] && [ $ec -le 37 ]; then sed 's/ SPSR=.*//' <<<"$line"
  else sed 's/ FAR=[^ ]*//; s/ SPSR=.*//' <<<"$line"; fi
}

# compare SNIPPETS QEMU_DUMP BOOT PREFIX: each snippet of SNIPPETS.S (by its table's order) run by
# exec from PREFIX+NAME, on the engine, against QEMU's line.
compare() {
  local snippets=$1 dump=$2 boot=$3 prefix=$4 name qemu harness q h i=0 names
  mapfile -t names < <(sed -n 's/^snippet \(exc_[a-z0-9_]*\)$/\1/p' "$here/probe/$snippets.S")
  for name in "${names[@]}"; do
    total=$((total + 1))
    qemu=$(sed -n "s/^$i //p" "$dump")
    i=$((i + 1))
    [ -n "$qemu" ] || { echo "not ok - $name: no line from QEMU"; failures=$((failures + 1)); continue; }
    "$eh" exec "$work/$snippets.o" --symbol "$prefix$name" --model cortex-a72 --boot $boot --kernel 6.1 \
      --format json > "$work/exc-$name.json" 2>&1
    # The ELR as an offset in the snippet: the prologue's distance from it is the symbols'.
    harness=$(python3 - "$work/exc-$name.json" "$(aarch64-linux-gnu-nm "$work/$snippets.o" |
      awk -v p="$prefix$name" -v n="$name" '$3 == p { a = $1 } $3 == n { b = $1 } END { print a, b }')" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
entry_sym, snippet_sym = (int(x, 16) for x in sys.argv[2].split())
base = int(d["entry"], 16) - entry_sym + snippet_sym
exc = [e for e in d["events"] if e["kind"] in ("exception", "el2_entry")]
if not exc:
    print("none")
else:
    e = exc[0]
    if e["kind"] == "el2_entry":  # the trap's ESR_EL2 is in its text; FAR_EL2 is not reported
        esr, far = int(re.search(r"ESR_EL2 (0x[0-9a-f]+)", e["text"]).group(1), 16), 0
    else:
        esr, far = int(e["esr"], 16), int(e["far"], 16)
    print("ESR=0x%016x FAR=0x%016x ELR+=0x%016x" % (esr, far, int(e["pc"], 16) - base))
PY
)
    q=$(norm "$qemu") h=$(norm "$harness")
    if [ "$q" = "$h" ]; then
      echo "ok - $name: $q"
      agree=$((agree + 1))
    elif grep -qF "| \`exc\` | \`$name\` |" "$doc"; then
      echo "ok - $name: explained: qemu $q, harness $h"
      explained=$((explained + 1))
    else
      echo "not ok - $name: qemu $q, harness $h (not explained in $doc)"
      failures=$((failures + 1))
    fi
  done
}

compare exc-snippets "$work/exc-qemu.txt" el1 ""
compare exc-el2-snippets "$work/exc-el2-qemu.txt" nvhe engine_
echo "exc-diff: $total snippets, $agree agree, $explained explained differences, $failures unexplained"
[ "$failures" -eq 0 ] && [ "$total" -gt 0 ]
