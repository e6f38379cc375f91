// race-hook.mjs — `node --import` preload of tests/cap-test.sh's race checks
// (sec35): it wins a check-then-use race once, deterministically.  The first
// time the Wasm host names the file itself (a path ending in `/in.txt`, `/f`
// or a write's `.spx-write-….tmp` sibling, by lstat or open), the directory
// `out/d` it walked is swapped for `out/e`, a link leading out of the root.
// A host that opens what it checked (the directory held open) is unmoved; one
// that re-walks the path by name reads or writes outside.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

let done = false;
for (const name of ['lstatSync', 'openSync']) {
	const orig = fs[name];
	fs[name] = function (p, ...rest) {
		const s = Buffer.isBuffer(p) ? p.toString('latin1') : String(p);
		if (!done && /\/(in\.txt|f|\.spx-write-[0-9-]+\.tmp)$/.test(s)) {
			done = true;
			fs.renameSync('out/d', 'out/d.real');
			fs.renameSync('out/e', 'out/d');
		}
		return orig.call(this, p, ...rest);
	};
}
syncBuiltinESMExports();
