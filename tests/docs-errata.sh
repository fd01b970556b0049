#!/usr/bin/env bash
# The errata table of docs/errata.md is what `errata-harness list --errata --format markdown` prints.
#   docs-errata.sh TOOL DOC
set -euo pipefail
tool=$1
doc=$2
have=$(sed -n '/^<!-- errata table: /,/^<!-- end of the errata table -->/p' "$doc" | sed '1d;$d')
want=$("$tool" list --errata --format markdown)
if [ -z "$have" ]; then
	echo "not ok - $doc has no errata table between its markers"
	exit 1
fi
if [ "$have" != "$want" ]; then
	echo "not ok - $doc's errata table differs from list --errata --format markdown:"
	diff <(echo "$want") <(echo "$have") || true
	exit 1
fi
echo "ok - $doc's errata table is list --errata --format markdown"
