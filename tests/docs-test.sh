#!/bin/sh
# docs-test.sh BIN — fails when docs/diagnostics.md is stale relative to the
# diagnostics register (src/support/diag_codes.def).  Fix with `make docs`.
set -u
bin=$1
tmp=$(mktemp)
"$bin" explain --catalog > "$tmp"
if cmp -s "$tmp" docs/diagnostics.md; then
	echo "docs: docs/diagnostics.md is current"
	rm -f "$tmp"
	exit 0
fi
echo "FAIL docs/diagnostics.md is stale; run \`make docs\`"
diff -u docs/diagnostics.md "$tmp" | head -20
rm -f "$tmp"
exit 1
