#!/usr/bin/env bash
# The README's errata table is what `errata-harness list --errata --format markdown` prints.
#   readme-errata.sh TOOL README
set -euo pipefail
tool=$1
readme=$2
have=$(sed -n '/^<!-- errata table: /,/^<!-- end of the errata table -->/p' "$readme" | sed '1d;$d')
want=$("$tool" list --errata --format markdown)
if [ -z "$have" ]; then
	echo "not ok - $readme has no errata table between its markers"
	exit 1
fi
if [ "$have" != "$want" ]; then
	echo "not ok - $readme's errata table differs from list --errata --format markdown:"
	diff <(echo "$want") <(echo "$have") || true
	exit 1
fi
echo "ok - $readme's errata table is list --errata --format markdown"
