#!/usr/bin/env bash
# Feeds the tool's reports to consumers that are not ours (JUnit to python3-junitparser, TAP to
# prove, JSON to python3-jsonschema with the schema in the repo, the SVG timeline to rsvg-convert)
# and checks --shard, --seed, --commit, --by-commit and the usage errors from the outside.
#   check_consumers.sh TOOL SCHEMA CASES_DIR WORKDIR
set -uo pipefail

tool=$1
schema=$2
cases=$3
work=$4
# Debian's interpreter: python3-junitparser and python3-jsonschema are installed for it.
py=/usr/bin/python3
failures=0
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 2

ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect RC WHAT CMD...: run CMD (stdout to out, stderr to err) and check its exit status.
expect() {
	local want=$1 what=$2 got
	shift 2
	"$@" >out 2>err
	got=$?
	if [ "$got" = "$want" ]; then
		ok "$what"
		return 0
	fi
	fail "$what: '$*' exited $got, expected $want; stderr: $(head -c 400 err)"
	return 1
}

# The full matrix, as the tool lists it: one "CASE VARIANT MODEL" per line.
"$tool" list --matrix >matrix.txt || fail "list --matrix"
n=$(wc -l <matrix.txt)
[ "$n" -ge 12 ] || fail "the matrix has $n scenarios, tx2-219-prfm alone has 12"

# A cases directory whose trampoline is the mutant without the PRFM alternative: `after` keeps its
# PRFM in the window, so after/thunderx2 and after/vulcan read bug where residual is expected.
mkdir mutant
ln -s "$cases/mutants/tx2-219-prfm/EH_MUTANT_NO_ALTERNATIVE.elf" mutant/tx2-219-prfm.elf
bad=(--case tx2-219-prfm --cases-dir mutant)
# Three instructions are not enough for any row of tx2-219-prfm to finish: all 12 are incomplete.
short=(--case tx2-219-prfm --budget 3)

# ---- JUnit XML, read by junitparser ----------------------------------------------------------
expect 0 "run --format junit --output" "$tool" run --format junit --output all.xml
[ -s out ] && fail "run --output also wrote to stdout"
expect 1 "a run with unexpected outcomes exits 1" "$tool" run "${bad[@]}" --format junit --output fail.xml
expect 1 "a run that does not complete exits 1" "$tool" run "${short[@]}" --format junit --output partial.xml
expect 2 "a run that cannot start exits 2" "$tool" run --cases-dir "$work/none" --format junit --output fatal.xml
ls ./*.xml.* >/dev/null 2>&1 && fail "a temporary report file was left behind"
$py - all.xml fail.xml partial.xml fatal.xml matrix.txt <<'EOF' && ok "junitparser reads the four reports" ||
import sys
from junitparser import JUnitXml, Failure, Error

def cases(path):
    xml = JUnitXml.fromfile(path)
    out = {}
    for suite in xml:
        props = {p.name: p.value for p in suite.properties()}
        assert props.get("seed") == "1", (path, suite.name, props)
        for tc in suite:
            assert tc.classname == suite.name, (tc.classname, suite.name)
            out[(suite.name, tc.name)] = tc
    return xml, out

xml, all_cases = cases(sys.argv[1])
matrix = {(c, f"{v}/{m}") for c, v, m in (l.split() for l in open(sys.argv[5]))}
assert set(all_cases) == matrix, sorted(set(all_cases) ^ matrix)
assert len(all_cases) == len(matrix)
assert all(not tc.result for tc in all_cases.values()), "a failure in a passing run"
assert int(xml.tests) == len(matrix) and int(xml.failures) == 0, (xml.tests, xml.failures)

xml, fail_cases = cases(sys.argv[2])
assert len(fail_cases) == 12, len(fail_cases)
failed = {k: tc for k, tc in fail_cases.items() if tc.result}
assert set(failed) == {("tx2-219-prfm", "after/thunderx2"), ("tx2-219-prfm", "after/vulcan")}, sorted(failed)
for (case, name), tc in failed.items():
    f = tc.result[0]
    assert isinstance(f, Failure), f
    assert f.message == "expected residual, got bug", f.message
    assert "tramp_entry_after+0x20: prfm" in f.text, f.text
assert int(xml.failures) == 2 and int(xml.errors) == 0

xml, partial = cases(sys.argv[3])
assert len(partial) == 12 and int(xml.errors) == 12 and int(xml.failures) == 0, (xml.errors, xml.failures)
for tc in partial.values():
    e = tc.result[0]
    assert isinstance(e, Error) and e.type == "incomplete", tc.result
    assert "did not complete: instruction budget exhausted at tramp_entry_" in e.text, e.text

xml = JUnitXml.fromfile(sys.argv[4])
assert int(xml.errors) == 1, xml.errors
errors = [r for suite in xml for tc in suite for r in tc.result]
assert len(errors) == 1 and isinstance(errors[0], Error) and "--cases-dir" in errors[0].message, errors
EOF
	fail "junitparser"

# ---- TAP, read by prove ----------------------------------------------------------------------
expect 0 "run --format tap" "$tool" run --format tap --output all.tap
expect 1 "failing TAP run" "$tool" run "${bad[@]}" --format tap --output fail.tap
expect 1 "incomplete TAP run" "$tool" run "${short[@]}" --format tap --output partial.tap
prove -e cat all.tap >prove-all.txt 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "^Result: PASS" prove-all.txt && grep -q "Tests=$n," prove-all.txt &&
	! grep -qi "parse error" prove-all.txt; then
	ok "prove passes the full run ($n tests)"
else
	fail "prove on all.tap (exit $rc): $(cat prove-all.txt)"
fi
prove -e cat fail.tap >prove-fail.txt 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "^Result: FAIL" prove-fail.txt && grep -q "Failed 2/12 subtests" prove-fail.txt &&
	! grep -qi "parse error" prove-fail.txt; then
	ok "prove fails the run with 2 unexpected outcomes"
else
	fail "prove on fail.tap (exit $rc): $(cat prove-fail.txt)"
fi
prove -e cat partial.tap >prove-partial.txt 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "Failed 12/12 subtests" prove-partial.txt; then
	ok "prove fails the run with 12 incomplete outcomes"
else
	fail "prove on partial.tap (exit $rc): $(cat prove-partial.txt)"
fi

# ---- JSON, validated against the schema; --shard from the outside --------------------------
expect 0 "run --format json" "$tool" run --format json --output all.json
"$tool" run "${bad[@]}" --format json --output fail.json
"$tool" run "${short[@]}" --format json --output partial.json
"$tool" run --cases-dir "$work/none" --format json --output fatal.json 2>/dev/null
for k in 1 2 3; do
	expect 0 "run --shard $k/3" "$tool" run --shard "$k/3" --format json --output "shard$k.json"
done
$py - "$schema" all.json fail.json partial.json fatal.json shard1.json shard2.json shard3.json <<'EOF' &&
import json, sys
from jsonschema import Draft202012Validator

schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
docs = {}
for path in sys.argv[2:]:
    doc = json.load(open(path))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, f"{path}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    docs[path] = doc

def key(o):
    return (o["case"], o["variant"], o["model"])

whole = docs["all.json"]["outcomes"]
assert docs["all.json"]["summary"]["outcomes"] == len(whole)
assert not docs["all.json"]["summary"]["failed"]
assert docs["all.json"]["error"] is None
assert docs["fail.json"]["summary"] == {"outcomes": 12, "passed": 10, "failed": 2, "incomplete": 0}
assert docs["partial.json"]["summary"] == {"outcomes": 12, "passed": 0, "failed": 12, "incomplete": 12}
assert all(o["outcome"] == "incomplete" and not o["pass"] and o["where"].startswith("0xffff8000")
           for o in docs["partial.json"]["outcomes"])
assert docs["fatal.json"]["outcomes"] == [] and "--cases-dir" in docs["fatal.json"]["error"]
parts = [docs[f"shard{k}.json"] for k in (1, 2, 3)]
seen = [key(o) for p in parts for o in p["outcomes"]]
assert len(seen) == len(set(seen)), "a scenario is in two shards"
assert sorted(seen) == sorted(key(o) for o in whole), "the shards do not make up the whole run"
# The same scenario gives the same outcome and events whichever shard runs it.
by_key = {key(o): o for o in whole}
for p in parts:
    assert p["shard"]["count"] == 3
    for o in p["outcomes"]:
        assert o == by_key[key(o)], key(o)
sizes = sorted(len(p["outcomes"]) for p in parts)
assert sizes[-1] - sizes[0] <= 1, sizes
EOF
	ok "jsonschema validates every report; shards 1/3 2/3 3/3 are disjoint and make up the whole run" ||
	fail "jsonschema / shard union"

# Other shard counts, through the listing (cheaper than running).
for nn in 2 4 5 7; do
	: >union.txt
	for ((k = 1; k <= nn; k++)); do
		"$tool" list --matrix --shard "$k/$nn" >>union.txt || fail "list --matrix --shard $k/$nn"
	done
	if [ "$(sort union.txt)" = "$(sort matrix.txt)" ] && [ "$(sort union.txt | uniq -d)" = "" ]; then
		ok "the $nn shards partition the matrix"
	else
		fail "the $nn shards do not partition the matrix"
	fi
done

# ---- the same seed gives the same bytes, and every report names its seed ---------------------
for fmt in text tap json; do
	"$tool" run --seed 7 --format "$fmt" --output "s7a.$fmt" &&
		"$tool" run --seed 7 --format "$fmt" --output "s7b.$fmt" &&
		cmp -s "s7a.$fmt" "s7b.$fmt" && ok "--seed 7 --format $fmt twice: identical" ||
		fail "--seed 7 --format $fmt twice differs"
done
"$tool" run --seed 7 --format junit --output s7.junit
grep -q ' run, seed 7$' s7a.text && grep -q '^# errata-harness .* run, seed 7$' s7a.tap &&
	grep -q '^  "seed": 7,$' s7a.json && grep -q '<property name="seed" value="7"/>' s7.junit &&
	ok "every format names the seed" || fail "a report does not name its seed"

# ---- selection by commit; --by-commit --------------------------------------------------------
expect 0 "run --commit 9405447" "$tool" run --commit 9405447 --format json --output commit.json
$py - commit.json <<'EOF' && ok "--commit 9405447 selects only cases verifying 9405447ef79b" || fail "--commit"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["outcomes"] and all("9405447ef79b" in o["verifies"] for o in doc["outcomes"])
EOF
expect 0 "run --by-commit" "$tool" run --by-commit
cp out by-commit.txt
$py - by-commit.txt all.json <<'EOF' && ok "--by-commit: one line per seed commit, in order, then totals" ||
import json, sys
lines = open(sys.argv[1]).read().splitlines()
commits = json.load(open(sys.argv[2]))["commits"]
# The header, a line per commit with what its cases showed indented under it, then the totals.
assert len(commits) == 11 and len(lines) == 1 + 2 * 11 + 2, lines
assert " run --by-commit, seed 1" in lines[0], lines[0]
assert all(len(l) <= 80 for l in lines), [l for l in lines if len(l) > 80]
for i, c in enumerate(commits, 1):
    line, detail = lines[2 * i - 1], lines[2 * i]
    assert line.startswith(f"{i:03d} {c['hash']} {c['status']} "), (line, c)
    assert c["subject"].startswith(line[32:].removesuffix("...")), line
    assert detail.startswith("    ") and all(case in detail for case in c["cases"]), detail
    assert (c["status"] == "no-case") == (not c["cases"]), c
    assert c["status"] in ("verified", "no-case"), c
assert lines[4] == "    tx2-219-prfm: bug shown before 2/2, absent after 10/10", lines[4]
assert lines[-2].startswith("11 commits: ") and lines[-1].endswith(" passed, 0 failed"), lines[-2:]
EOF
	fail "--by-commit: $(cat by-commit.txt)"
expect 1 "--by-commit of a run whose before does not reproduce exits 1" \
	"$tool" run --by-commit "${short[@]}"
grep -q '^002 9405447ef79b not-reproduced ' out && ok "... and flags 9405447ef79b" ||
	fail "--by-commit does not flag a before that does not reproduce: $(cat out)"

# ---- the SVG timeline, rendered by rsvg-convert ------------------------------------------------
for v in before after; do
	expect 0 "replay --variant $v --svg" \
		"$tool" replay tx2-219-prfm --model thunderx2 --variant "$v" --svg "$v.svg"
	if rsvg-convert "$v.svg" >"$v.png" && [ -s "$v.png" ] &&
		[ "$(head -c 8 "$v.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
		ok "rsvg-convert renders $v.svg to a PNG"
	else
		fail "rsvg-convert $v.svg"
	fi
done
cmp -s before.png after.png && fail "the before and after timelines render the same" ||
	ok "the before and after timelines render differently"
$py - before.svg <<'EOF' && ok "the before timeline shows the TTBR window and the injected abort" ||
import sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg"
# The legend's key is a window too, without a title.
windows = [e for e in root.iter(ns + "rect") if e.get("class") == "window" and e.find(ns + "title") is not None]
assert len(windows) == 1, len(windows)
assert windows[0].find(ns + "title").text.startswith("window     closed by ISB")
injects = [e for e in root.iter(ns + "g") if (e.get("class") or "").startswith("inject")]
assert len(injects) == 1 and "spurious Data Abort" in injects[0].find(ns + "title").text
EOF
	fail "before.svg lacks the window or the injection"

# Every scenario on thunderx2, replayed as a picture: rendered, it fits a screen (1920 pixels) and is
# not blank (png_check.py decodes the PNG).
while read -r c v m; do
	"$tool" replay "$c" --model "$m" --variant "$v" --svg "tl-$c-$v.svg" >/dev/null 2>&1
	case $? in 0|1) ;; *) fail "replay $c --variant $v --svg"; continue ;; esac
	if rsvg-convert "tl-$c-$v.svg" >"tl-$c-$v.png" && rsvg-convert -z 0.25 "tl-$c-$v.svg" >"tl-$c-$v.small.png" &&
		size=$($py "$here/png_check.py" "tl-$c-$v.png" 1920 "tl-$c-$v.small.png" 2>&1); then
		ok "timeline of $c $v on $m renders, $size"
	else
		fail "timeline of $c $v on $m: $size"
	fi
done < <(grep ' thunderx2$' matrix.txt)

# ---- usage errors: exit 2 with a message, nothing run ------------------------------------------
for bad in 0/3 4/3 1/0 3 1/ /3 x/y 1/3x -1/3; do
	expect 2 "--shard $bad is refused" "$tool" run --shard "$bad" && [ -s err ] && [ ! -s out ] ||
		fail "--shard $bad: no message, or output anyway"
done
expect 2 "--format xml is refused" "$tool" run --format xml
expect 2 "--commit zz is refused" "$tool" run --commit zz
expect 2 "a commit nothing knows is refused" "$tool" run --commit deadbeef
expect 2 "--by-commit with --format json is refused" "$tool" run --by-commit --format json
expect 2 "--svg outside replay is refused" "$tool" run --svg x.svg
expect 2 "--svg - is refused" "$tool" replay tx2-219-prfm --model thunderx2 --variant before --svg -
expect 2 "an unwritable --output is refused" "$tool" run --output "$work/no/such/dir/r.xml"
grep -q "no/such/dir/r.xml" err || fail "the --output message does not name the file"

# ---- no progress on stderr when it is not a terminal ---------------------------------------------
expect 0 "quiet run" "$tool" run --case tx2-219-prfm && [ ! -s err ] && ok "stderr stays empty in CI" ||
	fail "progress or noise on a non-terminal stderr: $(cat err)"

if [ $failures != 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all checks passed"
