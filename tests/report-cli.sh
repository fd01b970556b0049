#!/usr/bin/env bash
# The report command's contract on tests/objects/report.S, whose findings are known by hand: the
# erratum x model lines (what each model should show is derived from the models' errata as
# `models` lists them), the findings by symbol+offset with their disassembly, --config, --suppress,
# exit status 0/1/2, --output written whole or not at all; the JSON against
# harness/schema/report-v1.json, the JUnit read by python3-junitparser and the SARIF by the SARIF
# object model of python3-sarif-python-om (tests/check-sarif.py).
#   report-cli.sh ERRATA_HARNESS TEST_OBJ_DIR
set -uo pipefail

eh=${1:?usage: report-cli.sh ERRATA_HARNESS TEST_OBJ_DIR}
objs=${2:?usage: report-cli.sh ERRATA_HARNESS TEST_OBJ_DIR}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
py=/usr/bin/python3

. "$here/expect.sh"

obj=$objs/report.o
k=(--kernel 6.1 --width 0)  # whole lines, for the patterns below; the width is checked on its own
ka=("${k[@]}" --all)        # ... and every (erratum, model) row

# What each model should show, from the models' own errata: report.o breaks tx2-219 (one load in
# a window) and repeat-tlbi (one unrepeated TLBI), and nothing a520-2966298 or a77-1508412 checks.
"$eh" models | awk '/^[a-z0-9-]+$/ { m = $1 } /^  errata:/ { sub(/^  errata: */, ""); print m ": " $0 }' > "$tmp/errata-of"
nmodels=$(wc -l < "$tmp/errata-of")
errata=$("$eh" list --errata | awk -F: '/^[a-z0-9-]+:/ { id = $1 } /^  rule / { print id }')
nerrata=$(wc -w <<< "$errata")
# The errata whose workaround came after 6.1 (list --errata's kernels line): none to look for in a 6.1 image.
later=$("$eh" list --errata | awk -F: '/^[a-z0-9-]+:/ { id = $1 } /^  kernels +[0-9]/ && !/ 6\.1(,|$)/ { print id }')
: > "$tmp/want"
for e in $errata; do
  while read -r m list; do
    m=${m%:}
    case " $list " in
      *" $e "*|*" $e (not exposed) "*) [[ " $later " != *" $e "* ]] || { echo "$e $m not in 6.1" >> "$tmp/want"; continue; } ;;&
      *" $e (not exposed) "*) s="not exposed" ;;
      *" $e "*) case $e in tx2-219|repeat-tlbi) s="1 finding" ;; *) s=clean ;; esac ;;
      *) s="not affected" ;;
    esac
    echo "$e $m $s" >> "$tmp/want"
  done < "$tmp/errata-of"
done
rm -f "$tmp/report.txt"

# Where the two findings are in the file, by hand: .text's sh_offset, plus ttbr_load+0x4 (0x4) and
# tlbi_once+0x8 (0x28 + 0x8); the words there must be the instructions' encodings.
text_off=$((16#$(readelf -SW "$obj" | awk '{ for (i = 1; i < NF; i++) if ($i == ".text") print $(i + 3) }')))
load_off=$((text_off + 0x4)) dsb_off=$((text_off + 0x30))
word() { od -An -tx4 -j "$1" -N4 "$obj" | tr -d ' '; }
check "the word at ttbr_load+0x4 in the file is LDR X3, [X2, #8]" f9400443 "$(word "$load_off")"
check "the word at tlbi_once+0x8 in the file is DSB ISH" d5033b9f "$(word "$dsb_off")"

# ---- text: the summary ---------------------------------------------------------------------------
rc=0; "$eh" report "$obj" "${k[@]}" > "$tmp/report.txt" || rc=$?
check "findings on affected models: exit 1" 1 "$rc"
# The summary line each erratum should have, from $tmp/want: the models it affects grouped by their
# status, the ones with findings first ("hazards 1 on a, b; clean on c; not exposed on d").
awk '{ e = $1; m = $2; s = $0; sub(/^[^ ]+ [^ ]+ /, "", s); if (s == "not affected") next
       if (s == "1 finding") s = "hazards 1"
       if (!(e in seen)) { seen[e] = 1; order[++n] = e }
       k = e SUBSEP s
       if (!(k in models)) { g[e] = g[e] SUBSEP s; models[k] = m } else models[k] = models[k] ", " m }
     END { for (i = 1; i <= n; i++) { e = order[i]; split(substr(g[e], 2), ss, SUBSEP); line = ""
             for (p = 0; p < 2; p++) for (j = 1; j in ss; j++) if ((ss[j] ~ /^hazards/) == (p == 0))
               line = line (line == "" ? "" : "; ") ss[j] " on " models[e SUBSEP ss[j]]
           printf "%s %s\n", e, line == "" ? "affects none of these models" : line } }' "$tmp/want" > "$tmp/want-summary"
awk '/^erratum +on the models it affects$/ { f = 1; next } f && /^$/ { exit } f { e = $1; sub(/^[^ ]+ +/, ""); print e, $0 }' \
  "$tmp/report.txt" > "$tmp/got-summary"
check "a summary line per erratum ($nerrata)" "$nerrata" "$(wc -l < "$tmp/got-summary")"
check "... each naming the models it affects and its status there, as the models' errata say" "" \
  "$(diff "$tmp/want-summary" "$tmp/got-summary")"
check "no 'not affected' in the summary" 0 "$(grep -c 'not affected$' "$tmp/report.txt")"
# The sites: tx2-219's load on the models where 219 shows, repeat-tlbi's DSB on every model it
# affects (both from $tmp/want), each site once under one line naming its models.
on() { awk -v e="$1" '$1 == e && $3 == "1" { printf "%s%s", n++ ? ", " : "", $2 }' "$tmp/want"; }
expect "tx2-219's site under the models it shows on" 0 \
  "~  on $(on tx2-219):~    HAZARD      ttbr_load\+0x4: ldr x3, \[x2, #8\]  \(load, anchor ttbr_load\+0x0\)~" \
  tr '\n' '~' < "$tmp/report.txt"
expect "repeat-tlbi's site once, under the models it affects" 0 \
  "~  on $(on repeat-tlbi):~    HAZARD      tlbi_once\+0x8: dsb ish  \(dsb, anchor tlbi_once\+0x4\)~" \
  tr '\n' '~' < "$tmp/report.txt"
check "it ends with the counts (of the rows above) and what the exit status means" \
  "summary: $(grep -c ' clean$' "$tmp/want") clean, $(grep -c ' 1 finding$' "$tmp/want") with findings, $(grep -c ' not affected$' "$tmp/want") not affected, $(grep -c ' not exposed$' "$tmp/want") not exposed|exit status 1:  a finding on a model its erratum affects that no suppression covers (0: none; 2: bad usage or input)" \
  "$(grep -E '^(summary|exit status)' "$tmp/report.txt" | paste -sd'|')"
check "no colour and no progress when not a terminal" "0 0" \
  "$(grep -c $'\e' "$tmp/report.txt") $("$eh" report "$obj" "${k[@]}" 2>&1 >/dev/null | wc -c)"
script -qec "$eh report $obj --kernel 6.1" /dev/null > "$tmp/tty.txt"
check "colour on a terminal: the hazards in red" 2 "$(grep -c $'^\e\\[1;31m    HAZARD' "$tmp/tty.txt")"
NO_COLOR=1 script -qec "$eh report $obj --kernel 6.1" /dev/null > "$tmp/tty.txt"
check "... and none with NO_COLOR" 0 "$(grep -c $'\e\\[' "$tmp/tty.txt")"

# ---- text: every row (--all) ----------------------------------------------------------------------
"$eh" report "$obj" "${ka[@]}" > "$tmp/report-all.txt"
awk -v n="$nerrata" 'NR > 6 && NF >= 4 && /^[a-z0-9-]+ +[a-z0-9-]+ +[0-9]+  / && c < n * 1000 {
  s = $0; sub(/^[^ ]+ +[^ ]+ +[0-9]+  /, "", s); print $1, $2, s; c++ }' "$tmp/report-all.txt" > "$tmp/got"
check "--all: one line per erratum and model ($nerrata x $nmodels)" "$((nerrata * nmodels))" "$(wc -l < "$tmp/got")"
check "... each line as the models' errata say" "" "$(diff "$tmp/want" "$tmp/got")"
check "... -v the same" "$(cat "$tmp/report-all.txt")" "$("$eh" report "$obj" "${k[@]}" -v)"
"$eh" report "$obj" --kernel 6.1 > "$tmp/report-80.txt"
check "by default every line fits 80 columns" 0 "$(awk 'length > 80' "$tmp/report-80.txt" | wc -l)"
check "... a status too long for its column wrapped under it, not cut" 0 "$(grep -c '\.\.\.$' "$tmp/report-80.txt")"
"$eh" report "$obj" --kernel 6.1 --width 60 > "$tmp/report-60.txt"
check "--width 60: every line fits 60 columns" 0 "$(awk 'length > 60' "$tmp/report-60.txt" | wc -l)"
# (Spaces and line ends dropped: a word longer than a line, a deep build directory's path, is cut.)
check "... and says what --width 0 does, character for character" "$(tr -d ' \n' < "$tmp/report.txt")" \
  "$(tr -d ' \n' < "$tmp/report-60.txt")"
expect "the load in ttbr_load's window, with its anchor" 1 \
  "^    HAZARD      ttbr_load\+0x4: ldr x3, \[x2, #8\]  \(load, anchor ttbr_load\+0x0\)$" "$eh" report "$obj" "${k[@]}"
expect "the unrepeated TLBI's DSB" 1 "^    HAZARD      tlbi_once\+0x8: dsb ish  \(dsb, anchor tlbi_once\+0x4\)$" \
  "$eh" report "$obj" "${k[@]}"
check "ttbr_prfm's PRFM is a NOP on every model tx2-219 affects: not reported" 0 "$(grep -c ttbr_prfm "$tmp/report.txt")"
check "two findings in all: one per erratum broken" 2 "$(grep -c '^    HAZARD' <(sort -u "$tmp/report.txt"))"
expect "--model and --erratum pick" 0 "~tx2-219 +thunderx2 +[0-9]+  1 finding~tx2-219 +cortex-a72 +[0-9]+  not affected~" \
  tr '\n' '~' < <("$eh" report "$obj" "${ka[@]}" --model thunderx2,cortex-a72 --erratum tx2-219)
expect "a model without findings: exit 0" 0 "^tx2-219 +cortex-a72 +1  not affected" \
  "$eh" report "$obj" "${ka[@]}" --model cortex-a72
expect "... whose summary says an erratum affects none of them" 0 "^tx2-219 +affects none of these models$" \
  "$eh" report "$obj" "${k[@]}" --model cortex-a72
# Systems of cores (models/systems.c): an erratum of any core is the system's.
expect "a system with a core that has repeat-tlbi: its finding, exit 1" 1 "^repeat-tlbi +system-a55-a76 +1  1 finding" \
  "$eh" report "$obj" "${ka[@]}" --model system-a55-a76
expect "a system none of whose cores has it: not affected, exit 0" 0 "^repeat-tlbi +system-a53-a72 +1  not affected" \
  "$eh" report "$obj" "${ka[@]}" --model system-a53-a72

# --config: the workarounds off but REPEAT_TLBI's; the PRFM stays on ThunderX2 and is a second finding.
printf 'CONFIG_ARM64_WORKAROUND_REPEAT_TLBI=y\n# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n' > "$tmp/tx2-off.config"
expect "--config: tx2-219's workaround configured out" 1 "^tx2-219 +thunderx2 +[0-9]+  2 findings, workaround configured out$" \
  "$eh" report "$obj" "${ka[@]}" --config "$tmp/tx2-off.config"
expect "... the PRFM it leaves in the window (a long line wrapped)" 0 \
  "~    HAZARD      ttbr_prfm\+0x4: prfm plil1strm, \[x30, #0x400\]  \(prefetch, anchor~ {16}ttbr_prfm\+0x0\)~" \
  tr '\n' '~' < <("$eh" report "$obj" --kernel 6.1 --config "$tmp/tx2-off.config")
expect "... and a clean erratum configured out says so" 1 "^a520-2966298 +cortex-a520-r0p1 +[0-9]+  clean, workaround configured out$" \
  "$eh" report "$obj" "${ka[@]}" --config "$tmp/tx2-off.config"

# --suppress: both findings known safe, so nothing fails.
printf 'tx2-219 ttbr_load+0x4 the test object'"'"'s own load\nrepeat-tlbi tlbi_once+0x8 the test object'"'"'s own TLBI\n' > "$tmp/all.supp"
expect "--suppress covering every finding: exit 0" 0 "^tx2-219 +thunderx2 +[0-9]+  clean, 1 suppressed$" \
  "$eh" report "$obj" "${ka[@]}" --suppress "$tmp/all.supp"
printf 'tx2-219 ttbr_load+0x4 the load\ntx2-219 tlbi_once no TTBR write there\n' > "$tmp/stale.supp"
expect "--suppress: an entry that matches nothing is reported stale" 1 \
  "^stale suppression .*stale.supp:2: tx2-219 tlbi_once matches no finding$" \
  "$eh" report "$obj" "${k[@]}" --suppress "$tmp/stale.supp"
expect "... each suppressed finding listed with its justification" 0 \
  "SUPPRESSED  ttbr_load\+0x4: .*~      suppressed by .*all.supp:1: the test object's own load" \
  tr '\n' '~' < <("$eh" report "$obj" "${ka[@]}" --suppress "$tmp/all.supp")
expect "... and the summary says it" 0 "^tx2-219 +clean, 1 suppressed on thunderx2, vulcan; not exposed, 1 suppressed on thunderx2-nosmt$" \
  "$eh" report "$obj" "${k[@]}" --suppress "$tmp/all.supp"

# ---- bad usage and input: exit 2, naming what is wrong ---------------------------------------------
head -c 100 "$obj" > "$tmp/truncated.o"
expect "a missing file: exit 2 naming it" 2 "nonexistent.o" "$eh" report "$tmp/nonexistent.o" "${k[@]}"
expect "a truncated file: exit 2 naming it" 2 "truncated.o: " "$eh" report "$tmp/truncated.o" "${k[@]}"
expect "an object without capability tables needs a numbering: exit 2" 2 "report.o has no capability tables" \
  "$eh" report "$obj"
expect "unknown model: exit 2" 2 "unknown model 'z80'" "$eh" report "$obj" "${k[@]}" --model thunderx2,z80
expect "unknown erratum: exit 2" 2 "unknown erratum 'tx2-218'" "$eh" report "$obj" "${k[@]}" --erratum tx2-218
expect "unknown format: exit 2" 2 "--format: 'xml' is none of text, json, junit, sarif" \
  "$eh" report "$obj" "${k[@]}" --format xml
expect "two files: exit 2" 2 "unexpected argument" "$eh" report "$obj" "$obj" "${k[@]}"
expect "no file: exit 2" 2 "FILE missing" "$eh" report "${k[@]}"
expect "an option of another command: exit 2" 2 "--seed is not an option of report" "$eh" report "$obj" --seed 1

# --output: written whole, or not at all.
check "--output: nothing on stdout" "" "$("$eh" report "$obj" "${k[@]}" --output "$tmp/out.txt")"
check "--output holds the report" "$(cat "$tmp/report.txt")" "$(cat "$tmp/out.txt")"
echo keep > "$tmp/kept.txt"
expect "--output with bad input: exit 2" 2 "z80" "$eh" report "$obj" "${k[@]}" --model z80 --output "$tmp/kept.txt"
check "... leaves the file as it was" keep "$(cat "$tmp/kept.txt")"
expect "--output into a missing directory: exit 2" 2 "nodir/r.txt" "$eh" report "$obj" "${k[@]}" --output "$tmp/nodir/r.txt"
check "no temporary file left behind" "" "$(ls "$tmp" | grep -v -E '^(errata-of|want|got|report.txt|report-all.txt|want-summary|got-summary|tty.txt|report-80.txt|report-60.txt|out|out.txt|kept.txt|truncated.o|tx2-off.config|all.supp|stale.supp)$')"

# ---- JSON ------------------------------------------------------------------------------------------
"$eh" report "$obj" "${k[@]}" --format json > "$tmp/report.json"
"$eh" report "$obj" "${k[@]}" --format json --config "$tmp/tx2-off.config" --suppress "$tmp/all.supp" > "$tmp/report-supp.json"
"$eh" report "$obj" "${k[@]}" --format json --suppress "$tmp/stale.supp" > "$tmp/report-stale.json"
expect "the JSON reports as report-v1.json says" 0 "^3 documents conform" \
  "$here/check-schema.py" "$here/../harness/schema/report-v1.json" "$tmp/report.json" "$tmp/report-supp.json" \
  "$tmp/report-stale.json"
expect "... and the schema is not satisfied by anything" 1 "at /matrix/0: 'status' is a required property" \
  "$here/check-schema.py" "$here/../harness/schema/report-v1.json" <(jq 'del(.matrix[0].status)' "$tmp/report.json")
check "JSON: the inputs with their SHA-256, the stale suppression" \
  "$(sha256sum < "$obj" | cut -d' ' -f1) $(sha256sum < "$tmp/stale.supp" | cut -d' ' -f1) tx2-219 tlbi_once" \
  "$(jq -r '"\(.inputs.file.sha256) \(.inputs.suppress.sha256) \(.stale[0].erratum) \(.stale[0].where)"' "$tmp/report-stale.json")"
check "JSON: each cell as the models' errata say" "" \
  "$(diff "$tmp/want" <(jq -r '.matrix[] | "\(.erratum) \(.model) \(.text)"' "$tmp/report.json"))"
check "JSON: the findings by erratum, where and what" \
  "tx2-219 ttbr_load+0x4 ldr x3, [x2, #8] $load_off|repeat-tlbi tlbi_once+0x8 dsb ish $dsb_off" \
  "$(jq -r '[.errata[] | .erratum as $e | [.images[].findings[] | "\($e) \(.where) \(.text) \(.file_offset)"] | unique[]] | join("|")' "$tmp/report.json")"

# ---- SARIF 2.1.0 -----------------------------------------------------------------------------------
tx2=$(awk '/ tx2-219/ { sub(/:$/, "", $1); print $1 }' "$tmp/errata-of" | sort | paste -sd,)
rt=$(awk '/ repeat-tlbi/ { sub(/:$/, "", $1); print $1 }' "$tmp/errata-of" | sort | paste -sd,)
"$eh" report "$obj" "${k[@]}" --format sarif --output "$tmp/report.sarif"
check "SARIF: exit status 1 with --output as without" 1 "$?"
"$py" "$here/check-sarif.py" "$tmp/report.sarif" > "$tmp/results" 2>&1
check "SARIF: read by the SARIF object model" 0 "$?"
check "SARIF: the load, at its byte in the file, on the ThunderX2-family models" \
  "tx2-219 error ttbr_load+0x4 $load_off $tx2 " "$(grep '^tx2-219 ' "$tmp/results")"
check "SARIF: every repeat-tlbi result is the DSB at its byte in the file" \
  "repeat-tlbi error tlbi_once+0x8 $dsb_off" "$(awk '/^repeat-tlbi / { print $1, $2, $3, $4 }' "$tmp/results" | sort -u)"
check "SARIF: ... on every model repeat-tlbi affects, once" "$rt" \
  "$(awk '/^repeat-tlbi / { print $5 }' "$tmp/results" | tr , '\n' | sort | paste -sd,)"
check "SARIF: nothing else" 0 "$(grep -c -v -E '^(tx2-219|repeat-tlbi) ' "$tmp/results")"
"$eh" report "$obj" "${k[@]}" --format sarif --suppress "$tmp/all.supp" > "$tmp/supp.sarif"
check "SARIF with --suppress: exit 0" 0 "$?"
check "SARIF: suppressed results carry their suppression" "" \
  "$("$py" "$here/check-sarif.py" "$tmp/supp.sarif" | grep -v ' suppressed$')"
jq '.runs[0].results[0].message = {"markdown": "x"}' "$tmp/report.sarif" > "$tmp/bad1.sarif"
jq '.runs[0].results[0].locations[0].physicalLocation.place = 1' "$tmp/report.sarif" > "$tmp/bad2.sarif"
jq '.runs[0].results[0].ruleIndex = 1' "$tmp/report.sarif" > "$tmp/bad3.sarif"
for bad in bad1 bad2 bad3; do
  "$py" "$here/check-sarif.py" "$tmp/$bad.sarif" > /dev/null
  check "SARIF: the checker refuses a broken log ($bad)" 1 "$?"
done

# ---- JUnit -----------------------------------------------------------------------------------------
"$eh" report "$obj" "${k[@]}" --format junit > "$tmp/report.xml"
"$eh" report "$obj" "${k[@]}" --format junit --suppress "$tmp/all.supp" > "$tmp/supp.xml"
"$eh" report "$obj" "${k[@]}" --format junit --config "$tmp/tx2-off.config" > "$tmp/config.xml"
"$py" - "$tmp/report.xml" "$tmp/supp.xml" "$tmp/config.xml" > "$tmp/cases" <<'PY'
import sys
from junitparser import JUnitXml, Failure, Skipped
for path in sys.argv[1:]:
    for suite in JUnitXml.fromfile(path):
        for case in suite:
            kinds = [type(r).__name__ for r in case.result]
            text = " ".join((r.text or "").replace("\n", " ") for r in case.result if isinstance(r, Failure))
            print(path.rsplit("/", 1)[1], case.classname, case.name, kinds[0] if kinds else "passed", text.strip())
PY
check "JUnit: read by junitparser, a testcase per erratum and model" "$((3 * nerrata * nmodels))" "$(wc -l < "$tmp/cases")"
check "JUnit: each testcase as the models' errata say" "" "$(diff \
  <(sed -e 's/ 1 finding$/ Failure/' -e 's/ not affected$/ Skipped/' -e 's/ not exposed$/ Skipped/' -e 's/ clean$/ passed/' \
       -e 's/ not in 6\.1$/ Skipped/' "$tmp/want") \
  <(awk '$1 == "report.xml" { print $2, $3, $4 }' "$tmp/cases"))"
check "JUnit: the failure names the finding" \
  "report.xml tx2-219 thunderx2 Failure ttbr_load+0x4: ldr x3, [x2, #8]  (load, anchor ttbr_load+0x0)" \
  "$(grep '^report.xml tx2-219 thunderx2 ' "$tmp/cases")"
check "JUnit with every finding suppressed: no failure" 0 "$(grep -c '^supp.xml .* Failure' "$tmp/cases")"
check "JUnit: configured out and clean is skipped" "config.xml a520-2966298 cortex-a520-r0p1 Skipped" \
  "$(grep '^config.xml a520-2966298 cortex-a520-r0p1 ' "$tmp/cases" | sed 's/ *$//')"
check "JUnit: configured out with findings fails" "config.xml tx2-219 thunderx2 Failure" \
  "$(grep '^config.xml tx2-219 thunderx2 ' "$tmp/cases" | cut -d' ' -f1-4)"

echo "# $failures failed"
[ "$failures" -eq 0 ]
