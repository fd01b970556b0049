#!/usr/bin/env bash
# errata-harness report on what arch/arm64/{kernel,mm,kvm}/ of Debian's linux-source-6.1 put into vmlinux
# (arm64-built-in.o, build-arm64.sh): a correct kernel, so every erratum with a static rule on every model
# of the registry is clean, not affected or not exposed, exit 0, booted at EL2 and at EL1, in every format
# (the SARIF read by tests/check-sarif.py, the JUnit by python3-junitparser, the JSON against
# harness/schema/report-v1.json); booted nvhe, the nVHE host vector's PAR_EL1 reads are suppressed
# results (tests/kernel/nvhe-host-vector.suppress); and each workaround-removing mutant of
# build-mutants.sh fails on exactly the models its erratum affects.
#   builtin-report.sh ERRATA_HARNESS WORKDIR
set -euo pipefail

harness=${1:?usage: builtin-report.sh ERRATA_HARNESS WORKDIR}
work=${2:?usage: builtin-report.sh ERRATA_HARNESS WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"
py=/usr/bin/python3

kernel_objects "$here" "$work" mutants
registry_counts "$harness"

# The models that have erratum $1, as `models` lists them.
having() {
  "$harness" models | awk -v e="$1" '/^[a-z0-9]/ { m = $1 } /^  errata:/ { for (i = 2; i <= NF; i++) if ($i == e) print m }' |
    sort | paste -sd,
}
# JUnit: "CLASSNAME NAME RESULT" per testcase, read by junitparser.
junit_cases() {
  "$py" - "$1" <<'PY'
import sys
from junitparser import JUnitXml
for suite in JUnitXml.fromfile(sys.argv[1]):
    for case in suite:
        print(case.classname, case.name, type(case.result[0]).__name__ if case.result else "passed")
PY
}

# 1. Every erratum on every model, booted at EL2 (VHE where the CPU has it) and at EL1: exit 0 in
#    every format, one cell per (erratum, model) of the registry, none with findings.
for boot in el2 el1; do
  b=$work/report-$boot
  for f in text json junit sarif; do
    rc=0; "$harness" report "$obj" --boot "$boot" "${inputs[@]}" --format "$f" --output "$b.$f" || rc=$?
    check "report booted $boot as $f: exit 0" 0 "$rc"
  done
  check "booted $boot: a cell per erratum and model of the registry" "$((nerrata * nmodels)) $((nerrata * nmodels))" \
    "$(jq '.matrix | length' "$b.json") $(jq -r '.matrix[] | "\(.erratum) \(.model)"' "$b.json" | sort -u | wc -l)"
  # (not in kernel: a715-2645198 on the Cortex-A715, a workaround 6.1 does not carry.)
  check "booted $boot: no cell with findings" "clean,not affected,not exposed,not in kernel" \
    "$(jq -r '.matrix[].status' "$b.json" | sort -u | paste -sd,)"
  check "booted $boot: the text is a summary of one screen (at most 50 lines of 80 columns), a line per erratum" \
    "0 0 $nerrata" "$([ "$(wc -l < "$b.text")" -le 50 ]; echo $?) $(awk 'length > 80' "$b.text" | wc -l) $(
      awk '/^erratum +on the models it affects$/ { f = 1; next } f && /^$/ { exit } f && /^[a-z0-9-]+ / { n++ } END { print n + 0 }' "$b.text")"
  check "booted $boot: no hazard in it, no 'not affected' row" "0 0" \
    "$(grep -c HAZARD "$b.text") $(grep -c 'not affected$' "$b.text")"
  "$harness" report "$obj" --boot "$boot" "${inputs[@]}" --all --output "$b.all.text" || true
  check "booted $boot: --all has a line per cell, within 80 columns" "$((nerrata * nmodels)) 0" \
    "$(grep -cE '^[a-z0-9-]+ +[a-z0-9-]+ +[0-9]+  (clean|not affected|not exposed|not in 6\.1)' "$b.all.text") $(awk 'length > 80' "$b.all.text" | wc -l)"
  check "booted $boot: SARIF read by the SARIF object model, no result an error" "ok 0" \
    "$("$py" "$here/../check-sarif.py" "$b.sarif" > "$b.results" && echo ok) $(grep -c ' error ' "$b.results" || true)"
  check "booted $boot: JUnit read by junitparser, a testcase per cell, none failed" "$((nerrata * nmodels)) 0" \
    "$(junit_cases "$b.junit" | wc -l) $(junit_cases "$b.junit" | grep -c ' Failure$' || true)"
done
# The 6.1 tree's own tables: every capability decided from their data or by a hand rule of 6.1, none
# uncertain.
check "every capability decided, none uncertain" "" \
  "$(jq -r '.capabilities[] | select(.source == "uncertain") | .capability' "$work/report-el2.json" | paste -sd' ')"
check "the JSON reports as report-v1.json says" ok \
  "$("$here/../check-schema.py" "$here/../../harness/schema/report-v1.json" "$work"/report-el{2,1}.json > /dev/null && echo ok)"

# 2. Booted nvhe: the nVHE host vector's reads of PAR_EL1 (objdump's) are a77-1508412's only findings,
#    each a suppressed SARIF result on the models that erratum affects.
vector_reads=$(aarch64-linux-gnu-objdump -d "$obj" |
  awk '/^[0-9a-f]+ <__kvm_nvhe___kvm_hyp_host_vector>:/ { base = $1; f = 1; next }
  /^[0-9a-f]+ </ { f = 0 } f && /\tmrs\t[^,]*, par_el1/ { sub(":", "", $1); print base, $1 }' |
  while read -r base at; do printf '__kvm_nvhe___kvm_hyp_host_vector+0x%x\n' $(( 16#$at - 16#$base )); done | sort | paste -sd' ')
[ -n "$vector_reads" ] || { echo "not ok - objdump found no read of PAR_EL1 in the nVHE host vector"; exit 1; }
b=$work/report-nvhe
rc=0; "$harness" report "$obj" --boot nvhe "${inputs[@]}" --suppress "$here/nvhe-host-vector.suppress" --format sarif \
  --output "$b.sarif" || rc=$?
check "report booted nvhe with the host vector suppressed: exit 0" 0 "$rc"
"$py" "$here/../check-sarif.py" "$b.sarif" > "$b.results"
check "booted nvhe: every result is a77-1508412's, suppressed" "a77-1508412 suppressed" \
  "$(awk '{ print $1, $NF }' "$b.results" | sort -u | paste -sd' ')"
check "booted nvhe: at the reads objdump shows" "$vector_reads" "$(awk '{ print $3 }' "$b.results" | sort -u | paste -sd' ')"
check "booted nvhe: on every model a77-1508412 affects" "$(having a77-1508412)" \
  "$(awk '{ print $5 }' "$b.results" | tr , '\n' | sort -u | paste -sd,)"

# 3. The mutants: each fails on exactly the models its erratum affects (KVM's nVHE objects booted nvhe,
#    where they run), in the JUnit and in the SARIF.
#    Every mutant build-mutants.sh made: ERRATUM/OBJECT.o, KVM's nVHE objects named *.nvhe.o.
m=$out/mutants
for mut in $(cd "$m" && ls ./*/*.o | sed 's|^\./||; s|\.o$||'); do
  case $mut in *.nvhe) boot=nvhe ;; *) boot=el2 ;; esac
  e=${mut%/*}
  b=$work/report-mutant-${mut//\//-}
  rc=0; "$harness" report "$m/$mut.o" --boot "$boot" "${inputs[@]}" --erratum "$e" --format junit --output "$b.junit" ||
    rc=$?
  check "mutant $mut booted $boot: exit 1" 1 "$rc"
  check "mutant $mut: the JUnit fails on exactly the models with $e" "$(having "$e")" \
    "$(junit_cases "$b.junit" | awk '$3 == "Failure" { print $2 }' | sort | paste -sd,)"
  "$harness" report "$m/$mut.o" --boot "$boot" "${inputs[@]}" --erratum "$e" --format sarif --output "$b.sarif" || true
  check "mutant $mut: the SARIF's errors name exactly the models with $e" "$(having "$e")" \
    "$("$py" "$here/../check-sarif.py" "$b.sarif" | awk '$2 == "error" { print $5 }' | tr , '\n' | sort -u | paste -sd,)"
done

echo "# $failures failed; total $(( $(date +%s) - start )) s"
[ "$failures" -eq 0 ]
