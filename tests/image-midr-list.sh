#!/usr/bin/env bash
# The capability rules read from the image: tests/objects/midr-list.S's arm64_errata[] names only
# Broadcom Vulcan for ThunderX2 erratum 219's PRFM removal, so the report flags the PRFM on
# ThunderX2. A copy of the linked image with ThunderX2 added to that MIDR list (its 12 bytes
# written into the list's end, found by its bytes, not by the harness) is clean on ThunderX2:
# the harness's own tables did not change, the image did.
#   image-midr-list.sh ERRATA_HARNESS TEST_OBJ_DIR
set -uo pipefail

eh=${1:?usage: image-midr-list.sh ERRATA_HARNESS TEST_OBJ_DIR}
objs=${2:?usage: image-midr-list.sh ERRATA_HARNESS TEST_OBJ_DIR}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
py=/usr/bin/python3

. "$here/expect.sh"

# struct midr_range { model, rv_min, rv_max }, little-endian: MIDR_ALL_VERSIONS(MIDR_BRCM_VULCAN)
# (implementer 0x42, part 0x516) then the list's empty end; ThunderX2 is implementer 0x43, part 0x0af.
"$py" - "$objs/midr-list.elf" "$tmp/added.elf" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
vulcan = struct.pack("<3I", 0x420f5160, 0, 0xf0000f)
at = data.find(vulcan + bytes(12))
assert at >= 0 and data.find(vulcan, at + 1) < 0, "the Vulcan line is not found once"
data[at + 12:at + 24] = struct.pack("<3I", 0x430f0af0, 0, 0xf0000f)
open(sys.argv[2], "wb").write(data)
PY
check "the copy differs from the image in the added line alone (at most 12 bytes)" yes \
  "$([ "$(cmp -l "$objs/midr-list.elf" "$tmp/added.elf" | wc -l)" -le 12 ] && echo yes)"

models=(--model thunderx2,vulcan,cortex-a72 --erratum tx2-219 --format json)
status() {  # status JSON MODEL: that model's matrix status
  "$py" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print([c["status"] for c in d["matrix"] if c["model"] == sys.argv[2]][0])' "$1" "$2"
}
source_of() {  # source_of JSON: the PRFM capability's decision, source and rule
  "$py" -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["capabilities"] if c["capability"] == "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM"][0]
print(c["source"] + ": " + c["rule"])' "$1"
}

rc=0; "$eh" report "$objs/midr-list.elf" "${models[@]}" > "$tmp/before.json" || rc=$?
check "the image as built: exit 1 (a finding on an affected model)" 1 "$rc"
check "... ThunderX2 flagged: the PRFM stays" "findings" "$(status "$tmp/before.json" thunderx2)"
check "... Vulcan clean: its list names it" "clean" "$(status "$tmp/before.json" vulcan)"
check "... decided from the image's list" "image data: MIDR_EL1 in Broadcom Vulcan" "$(source_of "$tmp/before.json")"
rc=0; "$eh" report "$tmp/added.elf" "${models[@]}" > "$tmp/after.json" || rc=$?
check "ThunderX2 added to the list in a copy: exit 0" 0 "$rc"
check "... ThunderX2 clean: the PRFM is patched out" "clean" "$(status "$tmp/after.json" thunderx2)"
check "... Vulcan still clean" "clean" "$(status "$tmp/after.json" vulcan)"
check "... Cortex-A72 still not affected" "not affected" "$(status "$tmp/after.json" cortex-a72)"
check "... the list read from the copy" "image data: MIDR_EL1 in Broadcom Vulcan, Cavium ThunderX2" \
  "$(source_of "$tmp/after.json")"
# A kernel no rule table names (its banner says 6.99): audited with what the image states, the
# capability whose test is code the harness does not know listed first, as uncertain.
rc=0; "$eh" report --width 0 "$objs/midr-list.elf" "${models[@]:0:4}" > "$tmp/unknown.txt" || rc=$?
check "an unknown kernel: exit 1 (the finding), not 2" 1 "$rc"
expect "... the uncertain capability listed before the matrix" 0 \
  'midr-list.elf~  kernel 6\.99\.0-test; hand rules of Linux 6\.1 where an entry.s test is code~  1 capability uncertain \(treated as not detected\):~    "Frobnicator erratum 42": has_frobnicator_42\(\), code the harness has no rule for~  capabilities numbered' \
  tr '\n' '~' < "$tmp/unknown.txt"
check "... and in JSON, uncertain, with the release" "uncertain 6.99.0-test 6.1" "$("$py" -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["capabilities"] if c["matches"] == "has_frobnicator_42"][0]
print(c["source"], d["kernel"]["release"], d["kernel"]["rules"])' "$tmp/before.json")"
expect "both reports conform to the schema" 0 "conform" \
  "$py" "$here/check-schema.py" "$here/../harness/schema/report-v1.json" "$tmp/before.json" "$tmp/after.json"

echo "# $failures failed"
[ "$failures" -eq 0 ]
