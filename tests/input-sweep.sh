#!/usr/bin/env bash
# Broken inputs through the command line: every cut of real ELF files at 64-byte boundaries and
# byte flips in their headers must end in exit status 0, 1 or 2 (never a crash or a hang), and
# status 2 must come with one message naming the file.
#   tests/input-sweep.sh ERRATA_HARNESS WORK_DIR FILE...
set -u
eh=$1 work=$2
shift 2
mkdir -p "$work"
runs=0 fails=0

try() {  # try FILE ARGS...: run audit on FILE and check the outcome
  local f=$1 out status
  shift
  out=$(timeout 60 "$eh" audit "$f" --model thunderx2 "$@" 2>&1 >/dev/null)
  status=$?
  runs=$((runs + 1))
  if [ "$status" -gt 2 ]; then
    echo "not ok - $f ($*): exit $status"; echo "$out" | tail -5; fails=$((fails + 1))
    cp "$f" "$work/failing-$runs"
  elif [ "$status" -eq 2 ] && ! grep -q "$f" <<<"$out"; then
    echo "not ok - $f: exit 2 without naming the file: $out"; fails=$((fails + 1))
  fi
}

for src in "$@"; do
  base=$work/$(basename "$src")
  size=$(stat -c %s "$src")
  kernel=5.4
  case $(basename "$src") in *61*) kernel=6.1 ;; esac
  for ((n = 0; n < size; n += 64)); do
    head -c "$n" "$src" >"$base.cut"
    try "$base.cut" --kernel "$kernel"
  done
  # Flip each byte of the ELF header, and a spread of bytes of the section header table.
  shoff=$(od -An -t u8 -j 40 -N 8 "$src" | tr -d ' ')
  for off in $(seq 0 63) $(seq "$shoff" 7 $((shoff + 64 * 12))); do
    [ "$off" -lt "$size" ] || continue
    cp "$src" "$base.flip"
    printf "\\x$(printf %02x $(( ($(od -An -t u1 -j "$off" -N 1 "$src") ^ 0xa5) & 255 )))" |
      dd of="$base.flip" bs=1 seek="$off" conv=notrunc status=none
    try "$base.flip" --kernel "$kernel"
  done
done
echo "$((runs - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
