#!/usr/bin/env bash
# Checks that two builds of errata-harness replay every (case, variant, model) with the same trace,
# instruction by instruction: run it after changing the engine for speed.
#   compare-traces.sh OLD_BINARY NEW_BINARY [SEED...]    (both read the snippets built beside NEW)
set -euo pipefail
old=${1:?usage: compare-traces.sh OLD NEW [SEED...]}
new=${2:?usage: compare-traces.sh OLD NEW [SEED...]}
shift 2
seeds=("${@:-1}")
((${#seeds[@]})) || seeds=(1)
cases=$(cd "$(dirname "$new")" && pwd)/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "PASS case variant model ..." lines of `run` name every triple the matrix has.
"$new" run | awk '$1 == "PASS" || $1 == "FAIL" { print $2, $3, $4 }' > "$tmp/triples"
n=0 bad=0
while read -r c v m; do
  for s in "${seeds[@]}"; do
    "$old" replay "$c" --variant "$v" --model "$m" --seed "$s" --cases-dir "$cases" > "$tmp/old" 2>&1 || true
    "$new" replay "$c" --variant "$v" --model "$m" --seed "$s" --cases-dir "$cases" > "$tmp/new" 2>&1 || true
    n=$((n + 1))
    if ! cmp -s "$tmp/old" "$tmp/new"; then
      bad=$((bad + 1))
      echo "differs: $c $v $m seed $s" >&2
      diff "$tmp/old" "$tmp/new" | head -5 >&2 || true
    fi
  done
done < "$tmp/triples"
echo "$((n - bad)) passed, $bad failed"
((bad == 0))
