#!/usr/bin/env bash
# Cross-checks the a53-835769 rule with clang 14's -mfix-cortex-a53-835769 on the case's snippet,
# where the same C is compiled without the flag (a53_835769_mac_plain) and with it
# (a53_835769_mac_fixed): the rule finds pairs in the first and none in the second, and clang put
# one NOP more in the second for each pair found in the first. The assembly entries are judged as
# written: the pair in a53_835769_asm_before, none in a53_835769_asm_after until its NOP is taken
# out (the case's EH_MUTANT_NO_NOP).
#   a53-835769-clang.sh ERRATA_HARNESS CASES_DIR
set -uo pipefail

eh=${1:?usage: a53-835769-clang.sh ERRATA_HARNESS CASES_DIR}
cases=${2:?usage: a53-835769-clang.sh ERRATA_HARNESS CASES_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

check() {
  if [ "$2" = "$3" ]; then echo "ok - $1: $3"; else echo "not ok - $1: expected $2, got $3"; failures=$((failures + 1)); fi
}

# The functions of ELF that hold findings of a53-835769 on an affected model, one line each with a count.
found_in() {
  local rc=0
  "$eh" audit "$1" --model cortex-a53-r0p2 --erratum a53-835769 --kernel 6.1 --format json > "$tmp/a.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "not ok - audit of $1 exited $rc"; exit 1; }
  python3 -c '
import json, sys
res = [e for e in json.load(open(sys.argv[1]))["errata"] if e["erratum"] == "a53-835769"][0]
names = sorted(f["where"].split("+")[0] for f in res["findings"])
print(" ".join(f"{n}:{names.count(n)}" for n in sorted(set(names))))' "$tmp/a.json"
}

nops() {
  llvm-objdump -d --disassemble-symbols="$2" "$1" | grep -c $'\tnop$' || true
}

elf=$cases/a53-835769.elf
found=$(found_in "$elf")
check "the case's snippet: pairs where the C has no workaround and in the assembly without its NOP" \
  "a53_835769_asm_before:1 a53_835769_mac_plain:1" "$found"
check "with its NOP taken out, a53_835769_asm_after has its pair too" \
  "a53_835769_asm_after:1 a53_835769_asm_before:1 a53_835769_mac_plain:1" \
  "$(found_in "$cases/mutants/a53-835769/EH_MUTANT_NO_NOP.elf")"
pairs=$(echo "$found" | tr ' ' '\n' | sed -n 's/^a53_835769_mac_plain://p')
check "clang -mfix-cortex-a53-835769 put one NOP for each pair the rule finds in the same C without it" \
  "$pairs" "$(( $(nops "$elf" a53_835769_mac_fixed) - $(nops "$elf" a53_835769_mac_plain) ))"
exit $((failures > 0))
