#!/usr/bin/env bash
# The tool's outputs compared byte for byte with the expected outputs committed in tests/golden/expected/:
# every scenario run in each format, replays, audit and report of the test objects, list, models, exec and
# the messages of bad input, each with its exit status.
#
# These are characterization outputs: they record what the tool printed when they were last updated, and
# say nothing about whether that is right. Their correctness is asserted by the other tests (the judges,
# the CLI contracts, the consumers, the kernel tests against objdump and the kernel source). This test only
# catches an unintended change: a refactoring that is meant to change no output must leave every file
# here as it is. When an output is meant to change, run with --update and commit the rewritten files in
# the same commit as the change, with the diff reviewed and the commit message saying which lines
# changed and why.
#
#   check.sh [--update] ERRATA_HARNESS TEST_OBJ_DIR OUTDIR
#   check.sh [--update] --debian SERIES ERRATA_HARNESS KERNEL_WORKDIR OUTDIR
#
# ERRATA_HARNESS is the tool of a build tree (its cases are found beside it), TEST_OBJ_DIR the
# assembled tests/objects/ (every *.o and *.elf there is audited and reported), OUTDIR a scratch
# folder for what this run printed. With --debian, the report of Debian's SERIES (6.1 or 6.12) cloud
# vmlinux, fetched into KERNEL_WORKDIR/debian as the kernel tests fetch it, against
# tests/golden/debian-SERIES/. The commands name their inputs by short relative paths; a path that
# still shows (the tool's own, a kernel's) is written @OUT@, @BUILD@, @OBJ@ or @SRC@ for OUTDIR, the
# build tree, TEST_OBJ_DIR (KERNEL_WORKDIR) or the source tree, and JUnit's time attributes @TIME@, so
# the files hold nothing of one machine or one run. Each file is the command's stdout, then a line
# '--- exit N' and its stderr. Files over 100 KB are kept gzipped (gzip -n: the same text gives the
# same bytes); read them with zcat, or `git diff` them after
# `git config diff.gzip.textconv 'gzip -dc'` (tests/golden/.gitattributes).
set -uo pipefail

update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
series=""
if [ "${1:-}" = --debian ]; then series=${2:?usage: check.sh [--update] --debian SERIES ...}; shift 2; fi
usage="usage: check.sh [--update] [--debian SERIES] ERRATA_HARNESS TEST_OBJ_DIR|KERNEL_WORKDIR OUTDIR"
eh=${1:?$usage}
objs=${2:?$usage}
out=${3:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
eh=$(cd "$(dirname "$eh")" && pwd)/$(basename "$eh")
build=$(dirname "$eh")
mkdir -p "$objs"
objs=$(cd "$objs" && pwd)
expected=$here/expected
[ -z "$series" ] || expected=$here/debian-$series
rm -rf "$out"
mkdir -p "$out/got" "$out/work" "$out/run"
out=$(cd "$out" && pwd)
got=$out/got
gzip_over=100000

# Nothing of the caller's environment decides an output: the C locale (sorting, messages), no terminal
# width, the cases of this build tree.
export LC_ALL=C
unset COLUMNS EH_CASES_DIR NO_COLOR

# The longest path is rewritten first, so a build tree inside the source tree reads @BUILD@ and not
# @SRC@/build.
seds=()
for from in "$out=@OUT@" "$build=@BUILD@" "$objs=@OBJ@" "$src=@SRC@"; do
  path=${from%=*}
  seds+=("${#path} $from")
done
sed_args=()
while read -r _ pair; do
  from=${pair%=*} to=${pair##*=}
  sed_args+=(-e "s|$(printf '%s' "$from" | sed 's/[][\.*^$|]/\\&/g')|$to|g")
done < <(printf '%s\n' "${seds[@]}" | sort -rn)
sed_args+=(-e 's/ time="[0-9.]*"/ time="@TIME@"/g')

# g NAME ARGS...: run the tool with ARGS in OUTDIR/work and keep its outputs as got/NAME. Two at a time
# (the outputs do not depend on it): `wait` before reading what a command wrote.
g() {
  local name=$1
  shift
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  (
    rc=0
    cd "$out/work" && "$eh" "$@" > "$out/run/$name.out" 2> "$out/run/$name.err" || rc=$?
    { cat "$out/run/$name.out"; echo "--- exit $rc"; cat "$out/run/$name.err"; } | sed "${sed_args[@]}" > "$got/$name"
  ) &
}
# file NAME PATH: a file a command wrote (an SVG, an --output), kept as got/NAME.
file() {
  wait
  sed "${sed_args[@]}" "$2" > "$got/$1"
}

if [ -n "$series" ]; then
  # ---- Debian's SERIES cloud vmlinux, as tests/kernel/debian-vmlinux.sh fetches and caches it ---------
  # Its report with the image's own numbering and Debian's .config (and, for 6.12, the suppression of
  # tests/kernel/kvm-at-restore.suppress, as that test reports it). The expected file is per ABI: when
  # Debian moves to a new one, there is none, and the test is skipped saying so until it is updated.
  . "$src/tests/kernel/debian-kernel.sh"
  . "$src/tests/kernel/check.sh"
  if ! debian_kernel "$objs" "$series"; then
    echo "SKIP: Debian's arm64 kernel cannot be fetched: $skip_reason"
    exit 77
  fi
  kvm_at_suppress "$series"
  if [ "$update" = 0 ] && [ -z "$(ls "$expected/report-$abi".* 2>/dev/null)" ]; then
    echo "SKIP: no expected report of $abi in $expected (Debian's $series ABI moved on): check.sh --update"
    exit 77
  fi
  g "report-$abi.json" report "$vmlinux" --config "$config" "${at_sup[@]}" --format json
  g "report-$abi" report "$vmlinux" --config "$config" "${at_sup[@]}" --all --width 0
else
  # The inputs by short relative paths (OUTDIR/work/obj, in and cases link to TEST_OBJ_DIR,
  # tests/golden/inputs and the build tree's cases), so that the text a path is wrapped in is the same
  # in every clone.
  ln -s "$objs" "$out/work/obj"
  ln -s "$here/inputs" "$out/work/in"
  ln -s "$build/cases" "$out/work/cases"

  # ---- help: the global help and each command's, which the man page is made of ----------------------
  g help --help
  for cmd in list models run replay audit report exec; do
    g "help-$cmd" "$cmd" --help
  done

  # ---- list ---------------------------------------------------------------------------------------------
  g list list
  g list-matrix list --matrix
  g list-errata list --errata
  g list-errata-markdown list --errata --format markdown
  g list-select list --case tx2-219-prfm,par-el1 --model thunderx2 --variant before
  g list-commit list --matrix --commit 9405447ef79b
  g list-shard list --matrix --shard 2/3
  g list-width list --errata --width 0

  # ---- models -------------------------------------------------------------------------------------------
  g models models
  g models-nvhe models --boot nvhe
  g models-el1 models --boot el1
  g models-5.4 models --kernel 5.4
  g models-6.12 models --kernel 6.12
  g models-thunderx2 models --model thunderx2,system-a55-a76
  g models-config models --model thunderx2 --config in/no-tx2.config
  g models-rules models --rules
  g models-rules-json models --rules --format json
  g models-rules-6.12 models --rules --kernel 6.12
  g models-from models --from in/a72.regs

  # ---- run: every case x variant x model ----------------------------------------------------------------
  g run run --cases-dir cases
  g run-verbose run --cases-dir cases -v --width 0
  g run-tap run --cases-dir cases --format tap
  g run-junit run --cases-dir cases --format junit
  g run-json run --cases-dir cases --format json
  g run-by-commit run --cases-dir cases --by-commit
  g run-seed run --cases-dir cases --seed 7 --case tx2-219-prfm,tx2-219-tvm,kvm-hcr-vse --format tap
  g run-shard run --cases-dir cases --shard 3/4 -v
  g run-budget run --cases-dir cases --case tx2-219-prfm --budget 3 -v
  g run-output run --cases-dir cases --case par-el1 --format junit --output run.xml
  file run-output.xml "$out/work/run.xml"

  # ---- replay: every variant of each case, on the first model where its 'before' shows the bug ----------
  # (else on its first model), as the run's own table above says.
  wait
  while read -r case; do
    model=$(awk -v c="$case" '$2 == "bug" && index($3, c "/before/") == 1 { split($3, p, "/"); print p[3]; exit }' \
      "$got/run")
    [ -n "$model" ] || model=$(awk -v c="$case" '$1 == c { print $3; exit }' "$got/list-matrix")
    for variant in $(awk -v c="$case" -v m="$model" '$1 == c && $3 == m { print $2 }' "$got/list-matrix"); do
      g "replay-$case-$variant-$model" replay --cases-dir cases "$case" --model "$model" --variant "$variant"
    done
  done < <(awk '$1 != "---" { print $1 }' "$got/list-matrix" | uniq)
  g replay-json replay --cases-dir cases tx2-219-tvm --model thunderx2 --variant before --format json
  g replay-svg replay --cases-dir cases tx2-219-tvm --model thunderx2 --variant before --svg replay.svg
  file replay.svg "$out/work/replay.svg"

  # ---- audit and report of every test object ------------------------------------------------------------
  # An object with capability tables of its own is numbered by them; the others by the built-in 6.1
  # numbering. Those the tool refuses keep their message. The objects compiled with -g (ktypes612*, for
  # tests/test_ktype.c) hold the paths of the tree they were built in, so their bytes, and the digests
  # and sizes the outputs name, differ between clones: they are left out.
  for obj in "$objs"/*.o "$objs"/*.elf; do
    o=$(basename "$obj")
    grep -qaF -e "$src" -e "$build" "$obj" && continue
    num=(--kernel 6.1)
    readelf -sW "$obj" | grep -qE ' (arm64_errata|arm64_features)$' && num=()
    g "audit-$o" audit "obj/$o" --model all "${num[@]}"
    g "audit-$o.json" audit "obj/$o" --model all "${num[@]}" --format json
    g "audit-$o-alternatives" audit "obj/$o" --model thunderx2 "${num[@]}" --list-alternatives
    g "report-$o" report "obj/$o" "${num[@]}"
    g "report-$o.json" report "obj/$o" "${num[@]}" --format json
  done
  # The other formats and options on the objects that exercise them most.
  for o in report.o errata61.o callbacks.o; do
    g "audit-$o-verbose" audit "obj/$o" --model thunderx2,cortex-a53-r0p2,cortex-a76-r2p0 --kernel 6.1 -v
    g "audit-$o-alternatives.json" audit "obj/$o" --model thunderx2 --kernel 6.1 --list-alternatives --format json
    g "report-$o-all" report "obj/$o" --kernel 6.1 --all
    g "report-$o.junit" report "obj/$o" --kernel 6.1 --format junit
    g "report-$o.sarif" report "obj/$o" --kernel 6.1 --format sarif
  done
  g audit-regimes-nvhe audit obj/regimes.o --model thunderx2,vulcan --kernel 6.1 --boot nvhe
  g audit-switch-el1 audit obj/switch.nvhe.o --model thunderx2 --kernel 6.1 --boot el1 --format json
  g audit-baseline audit obj/open.o --model thunderx2 --kernel 6.1 --baseline obj/clean.o
  g audit-baseline.json audit obj/open.o --model thunderx2 --kernel 6.1 --baseline obj/clean.o --format json
  g audit-config audit obj/errata61.o --model all --kernel 6.1 --config in/no-tx2.config
  g audit-suppress audit obj/report.o --model thunderx2 --kernel 6.1 --suppress in/report.suppress
  g report-config report obj/report.o --kernel 6.1 --config in/no-tx2.config --all
  g report-suppress report obj/report.o --kernel 6.1 --suppress in/report.suppress --format json
  g report-boot report obj/regimes.o --kernel 6.1 --boot nvhe --model thunderx2,vulcan,cortex-a72
  g report-erratum report obj/errata61.o --kernel 6.1 --erratum tx2-219,repeat-tlbi --format sarif
  g report-model-from report obj/report.o --kernel 6.1 --model-from in/a72.regs
  g report-output report obj/report.o --kernel 6.1 --format json --output report.json
  file report-output.json "$out/work/report.json"

  # ---- exec ---------------------------------------------------------------------------------------------
  g exec-call exec obj/exec.o --kernel 6.1 --symbol call_ext --model cortex-a72
  g exec-ttbr exec obj/exec.o --kernel 6.1 --symbol ttbr_load --reg x2=0x700000000 --model thunderx2
  g exec-ttbr.json exec obj/exec.o --kernel 6.1 --symbol ttbr_load --reg x2=0x700000000 --model thunderx2 --format json
  g exec-summary exec obj/exec.o --kernel 6.1 --symbol spin --budget 50 --model cortex-a72 --summary

  # ---- bad input: the message and the exit status -------------------------------------------------------
  mkdir -p "$out/work/dir.o"
  g bad-command frobnicate
  g bad-option run --frob
  g bad-model run --model nosuchcpu
  g bad-case run --case nope
  g bad-seed run --seed x
  g bad-shard run --shard 5/4
  g bad-format run --format xml
  g bad-replay-model replay tx2-219-prfm
  g bad-replay-cases replay tx2-219-prfm --model thunderx2 --variant before --cases-dir /nonexistent
  g bad-replay-variant replay tx2-219-prfm --model thunderx2 --variant nope
  g bad-boot models --boot vhe
  g bad-kernel models --kernel 4.19
  g bad-audit-model audit obj/rel61.o --kernel 6.1
  g bad-audit-missing audit missing.o --model thunderx2 --kernel 6.1
  g bad-audit-dir audit dir.o --model thunderx2 --kernel 6.1
  g bad-audit-not-elf audit in/a72.regs --model thunderx2 --kernel 6.1
  g bad-audit-both audit obj/rel61.o --model thunderx2 --kernel 6.1 --cpucaps in/a72.regs
  g bad-audit-numbering audit obj/rel61.o --model thunderx2
  g bad-audit-erratum audit obj/rel61.o --model thunderx2 --kernel 6.1 --erratum nope
  g bad-report-config report obj/report.o --kernel 6.1 --config dir.o
  g bad-exec-symbol exec obj/exec.o --kernel 6.1 --symbol nothere --model cortex-a72
fi

# ---- compare, or rewrite ------------------------------------------------------------------------------
wait
# stored NAME: the expected file of got/NAME, plain or gzipped.
stored() {
  if [ -e "$expected/$1.gz" ]; then echo "$expected/$1.gz"; elif [ -e "$expected/$1" ]; then echo "$expected/$1"; fi
}
if [ "$update" = 1 ]; then
  rm -rf "$expected"
  mkdir -p "$expected"
  for f in "$got"/*; do
    n=$(basename "$f")
    if [ "$(wc -c < "$f")" -gt "$gzip_over" ]; then gzip -n -9 < "$f" > "$expected/$n.gz"; else cp "$f" "$expected/$n"; fi
  done
  echo "# wrote $(ls "$got" | wc -l) expected outputs into $expected: review 'git diff' before committing"
  exit 0
fi
failures=0
for f in "$got"/*; do
  n=$(basename "$f")
  e=$(stored "$n")
  if [ -z "$e" ]; then
    echo "not ok - $n: no expected output (tests/golden/expected/$n): a new output, run check.sh --update"
    failures=$((failures + 1))
    continue
  fi
  case $e in *.gz) gzip -dc "$e" > "$out/expected" ;; *) cp "$e" "$out/expected" ;; esac
  if cmp -s "$out/expected" "$f"; then
    echo "ok - $n"
  else
    echo "not ok - $n differs from tests/golden/expected/${e##*/} (the first 40 lines of the diff):"
    diff -u --label "expected/$n" --label "got/$n" "$out/expected" "$f" | head -40 | sed 's/^/    /'
    failures=$((failures + 1))
  fi
done
for e in "$expected"/*; do
  n=$(basename "$e" .gz)
  [ -e "$got/$n" ] || { echo "not ok - $n: expected, but no command here produces it"; failures=$((failures + 1)); }
done
[ "$failures" = 0 ] || { echo "# $failures outputs differ (what this run printed is in $got)"; exit 1; }
echo "# every output is as expected"
