#!/usr/bin/env bash
# Cross-checks the a53-843419 rule with an implementation of its own, ld.lld's
# --fix-cortex-a53-843419 scanner, on tests/objects/a53-843419.S linked without and with it: every
# sequence lld patches (a __CortexA53843419_<address> veneer for the load or store it moves) is a
# finding of the audit in the unpatched link, at that load or store, and none is left in the
# patched link; where the two disagree it is at the labels that say so (lld_only_*, rule_only_*),
# for the reasons below, and nowhere else. An alternative that patches the sequence in at boot
# (alt_*, on a model that has its capability) is a finding in both links: no linker sees it.
#   a53-843419-lld.sh ERRATA_HARNESS OBJDIR
set -uo pipefail

eh=${1:?usage: a53-843419-lld.sh ERRATA_HARNESS OBJDIR}
objs=${2:?usage: a53-843419-lld.sh ERRATA_HARNESS OBJDIR}
nofix=$objs/a53-843419-nofix.elf
fix=$objs/a53-843419-lldfix.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Exit 1 is the audit's "findings on an affected model"; anything but 0 and 1 is a failure of its own.
audit() {
  local rc=0
  "$eh" audit "$1" --model cortex-a53-r0p4 --erratum a53-843419 --kernel 6.1 --format json > "$2" || rc=$?
  [ "$rc" -le 1 ] || { echo "not ok - audit of $1 exited $rc"; cat "$2"; exit 1; }
}
audit "$nofix" "$tmp/nofix.json"
audit "$fix" "$tmp/fix.json"
llvm-nm "$nofix" > "$tmp/nofix.syms"
llvm-nm "$fix" > "$tmp/fix.syms"

python3 - "$tmp" <<'PY'
import json, sys

tmp = sys.argv[1]
# Why lld and the errata notice part ways at these labels:
reasons = {
    "lld_only_stxr_status_in_rn": "lld does not look at a store-exclusive's status register, "
                                  "which here is the ADRP's Rn: the notice's instruction 2 must not write Rn",
    "rule_only_q0_load": "lld reads the Rt field of a SIMD&FP load as a general-purpose register, "
                         "so ldr q0 looks to it like a write of x0: it leaves the sequence unpatched",
}

def symbols(path):
    out = []
    for line in open(path):
        parts = line.split()
        if len(parts) == 3:
            out.append((int(parts[0], 16), parts[2]))
    return sorted(out)

labels = [(a, n) for a, n in symbols(f"{tmp}/nofix.syms")
          if n.startswith(("hit_", "miss_", "lld_only_", "rule_only_", "alt_"))]

def label_of(addr):
    best = None
    for a, n in labels:
        if a <= addr:
            best = n
    return best

def findings(path):
    doc = json.load(open(path))
    (res,) = [e for e in doc["errata"] if e["erratum"] == "a53-843419"]
    return {label_of(int(f["address"], 16)): (int(f["address"], 16), f["anchor"]) for f in res["findings"]}

lld = {}
for a, n in symbols(f"{tmp}/fix.syms"):
    if n.startswith("__CortexA53843419_"):
        moved = int(n[len("__CortexA53843419_"):], 16)
        lld[label_of(moved)] = moved
rule = findings(f"{tmp}/nofix.json")
left = findings(f"{tmp}/fix.json")
names = [n for _, n in labels]
failures = 0

def check(name, ok, detail=""):
    global failures
    print(("ok - " if ok else "not ok - ") + name + ("" if ok else ": " + detail))
    failures += not ok

want_lld = {n for n in names if n.startswith(("hit_", "lld_only_"))}
want_rule = {n for n in names if n.startswith(("hit_", "rule_only_", "alt_"))}
check(f"lld patches the {len(want_lld)} sequences it should", set(lld) == want_lld,
      f"lld patched {sorted(lld)}")
check(f"the rule finds the {len(want_rule)} sequences of the notice in the unpatched link",
      set(rule) == want_rule, f"found {sorted(rule)}")
both = set(lld) & set(rule)
check(f"on the {len(both)} sequences both see, each finding is the load or store lld moved, "
      "anchored at the ADRP",
      all(rule[n][0] == lld[n] and rule[n][1] == n + "+0x0" for n in both),
      str({n: (hex(rule[n][0]), rule[n][1], hex(lld[n])) for n in both if rule[n][0] != lld[n]}))
for n in sorted((set(lld) ^ set(rule)) - {n for n in names if n.startswith("alt_")}):
    check(f"{n}: {'lld only' if n in lld else 'the rule only'}, as expected ({reasons.get(n, 'no reason known')})",
          n in reasons)
check("the alternatives' sequences, which only the image as patched has, are findings in both links",
      all(n in rule and n in left and n not in lld for n in names if n.startswith("alt_")),
      f"found {sorted(rule)}, left {sorted(left)}")
check("nothing else is left in the patched link but what lld does not patch",
      set(left) == want_rule - set(lld), f"left {sorted(left)}")
sys.exit(1 if failures else 0)
PY
