#!/bin/sh
# browser-test.sh BIN — the web package in a real browser (issue 13 item 6):
# builds tests/fixtures/web/pkg.spx and kinds.spx with `build --target web`,
# and files.spx with `--files tests/fixtures/web/files.d` (a bundle its exports read),
# then tests/browser/browser-test.mjs serves them on a loopback HTTP server and
# drives headless Debian Chromium (/usr/bin/chromium, never a downloaded
# browser) with playwright-core (tests/browser/package-lock.json; `npm ci`
# there installs it) to fill the forms and check what the page shows.  A
# missing node, chromium or playwright-core fails the test: it is never
# skipped.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t_begin browser "${1:-}"
chromium=${CHROMIUM:-/usr/bin/chromium}
t_need "install Debian nodejs" node
if [ ! -x "$chromium" ]; then
	echo "FAIL browser: $chromium not found (install Debian chromium: apt-get install chromium)"
	exit 1
fi
if [ ! -f "$here/browser/node_modules/playwright-core/package.json" ]; then
	echo "FAIL browser: playwright-core is not installed (run \`npm ci\` in tests/browser)"
	exit 1
fi
mkdir "$tmp/root"
build() {
	if ! NO_COLOR=1 "$bin" build "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; then
		echo "FAIL browser: build $1 --target web failed: $(head -n 3 "$tmp/err")"
		exit 1
	fi
}
build tests/fixtures/web/pkg.spx --target web --export web.pkg.add --export web.pkg.halve -o "$tmp/root/pkg"
build tests/fixtures/web/kinds.spx --target web --export web.kinds.area --export web.kinds.echo \
	--export web.kinds.is_x --export web.kinds.widen -o "$tmp/root/kinds"
build tests/fixtures/web/files.spx --target web --export web.files.words --export web.files.pick \
	--files tests/fixtures/web/files.d -o "$tmp/root/files"
# playwright-core writes nothing outside $tmp: its cache and the profile
HOME=$tmp PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CHROMIUM=$chromium node "$here/browser/browser-test.mjs" "$tmp/root" < /dev/null
