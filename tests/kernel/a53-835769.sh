#!/usr/bin/env bash
# Cortex-A53 erratum 835769 on the real kernel. Linux 6.1 has no workaround of its own: the compiler's
# -mfix-cortex-a53-835769 is the workaround, which its Makefiles do not pass and Debian 12's gcc 12 does
# not apply by default, so the kernel test builds the tree with it (kernel-tree.sh) as a kernel for
# affected parts must be built. The mutants are the C files in which gcc without it puts a 64-bit
# multiply-accumulate right after a load, store or prefetch (found once by auditing a build without it):
# compiled again by their own command lines with -mno-fix-cortex-a53-835769, next to the tree's objects.
# The audit flags every mutant on exactly the models the erratum affects, and the objects as built
# (arm64-built-in.o and those files' own) are clean on every model; gcc agrees with the rule: each pair
# found in a mutant is a load, store or prefetch, a NOP and the multiply-accumulate in the tree's object.
#   a53-835769.sh ERRATA_HARNESS WORKDIR
set -euo pipefail

harness=${1:?usage: a53-835769.sh ERRATA_HARNESS WORKDIR}
work=${2:?usage: a53-835769.sh ERRATA_HARNESS WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"

"$here/build-arm64.sh" "$work"
. "$here/kernel-tree.sh"
kernel_tree "$work" a53-835769
inputs=(--cpucaps "$out/cpucaps.h" --config "$out/config")
dir=$work/a53-835769
mkdir -p "$dir"

# The sources whose objects change with the flag (arch/arm64/{kernel,mm,kvm} of the 6.1 tree).
objects=(arch/arm64/kernel/module-plts.o arch/arm64/kernel/elfcore.o arch/arm64/kvm/../../../virt/kvm/kvm_main.o)

# mutant OBJ: the tree's OBJ compiled again by its .cmd line without the workaround, into $dir (cached).
mutant() {
  local obj=$1 name cmdfile cmd dest
  name=$(basename "$obj" .o)
  cmdfile=$src/$(dirname "$obj")/.$name.o.cmd
  dest=$dir/$name-no835769.o
  [ -f "$dest" ] && [ "$dest" -nt "$src/$obj" ] && return 0
  cmd=$(sed -n '1s/^cmd_[^ ]* := //p' "$cmdfile")
  case "$cmd" in
    *" -mfix-cortex-a53-835769 "*" -o $obj "*) ;;
    *) log "$cmdfile: no compile of $obj with -mfix-cortex-a53-835769"; exit 1 ;;
  esac
  cmd=${cmd//-mfix-cortex-a53-835769/-mno-fix-cortex-a53-835769}
  cmd=$(sed "s|-Wp,-MMD,[^ ]*|-Wp,-MMD,$dir/$name.d|" <<< "$cmd")  # the tree's dependency file stays
  cmd=${cmd/ -o $obj / -o $dest }
  (cd "$src" && eval "$cmd")
}

# The models of an audit's JSON where a53-835769 has status STATUS ("affected": the ones it affects).
models_where() {
  if [ "$2" = affected ]; then
    jq -r '.matrix[] | select(.erratum == "a53-835769" and .affected) | .model' "$1" | sort | xargs
  else
    jq -r --arg s "$2" '.matrix[] | select(.erratum == "a53-835769" and .status == $s) | .model' "$1" |
      sort | xargs
  fi
}
# audit FILE JSON: a53-835769's rule over FILE on every model, into JSON; prints its exit status.
audit() {
  local rc=0
  "$harness" audit --width 0 "$1" --model all --erratum a53-835769 "${inputs[@]}" --format json > "$2" || rc=$?
  echo "$rc"
}
# (mem; nop; 64-bit multiply-accumulate) triples in OBJ: the NOPs gcc's workaround put there.
gcc_nops() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" | grep -P '^\s*[0-9a-f]+:\t' |
    awk '{ m[NR % 3] = $2 }
         $2 ~ /^(madd|msub|smaddl|smsubl|umaddl|umsubl)$/ && $3 ~ /^x/ && m[(NR + 2) % 3] == "nop" &&
         m[(NR + 1) % 3] ~ /^(ld|st|prfm)/ { n++ } END { print n + 0 }'
}

rc=$(audit "$out/arm64-built-in.o" "$dir/built-in.json")
affected=$(models_where "$dir/built-in.json" affected)
check "arm64-built-in.o as built: exit 0" 0 "$rc"
check "arm64-built-in.o as built: clean on every model the erratum affects" "$affected" \
  "$(models_where "$dir/built-in.json" clean)"
check "some models are affected" true "$([ -n "$affected" ] && echo true || echo false)"
total=0
for obj in "${objects[@]}"; do
  name=$(basename "$obj" .o)
  mutant "$obj"
  rc=$(audit "$src/$obj" "$dir/$name.json")
  check "$name.o as built: exit 0, clean" "0 0" \
    "$rc $(jq '[.images[].errata[] | select(.erratum == "a53-835769") | .findings[]] | length' "$dir/$name.json")"
  rc=$(audit "$dir/$name-no835769.o" "$dir/$name-no835769.json")
  check "$name.o without -mfix-cortex-a53-835769: exit 1" 1 "$rc"
  check "$name.o without the flag: findings on exactly the affected models" "$affected" \
    "$(models_where "$dir/$name-no835769.json" findings)"
  found=$(jq '[.matrix[] | select(.erratum == "a53-835769" and .status == "findings") | .flagged] | max' \
    "$dir/$name-no835769.json")
  check "$name.o: gcc's workaround put a NOP at each of the $found pairs the rule finds without it" \
    "$found" "$(gcc_nops "$src/$obj")"
  total=$((total + found))
done
echo "# $total multiply-accumulates right after a load, store or prefetch in 6.1 built without the flag"
exit $((failures > 0))
