// run.mjs — `node run.mjs program.wasm [args…]`: runs a SEMAPRAX Wasm module
// with host.mjs, writing to this process's stdout and stderr, and exits with
// the run's status (what `semaprax run --wasm` starts).
import { readFileSync, writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runModule } from './host.mjs';

// V8's optimizing tier from the start, with Wasm-into-Wasm inlining: a run
// is one call of `main`, and V8 has no on-stack replacement for Wasm, so a
// loop in `main` would otherwise stay in the baseline (Liftoff) code for the
// whole run; small functions (a recursive `fib`, a record `step`) are
// inlined as the native lane's C compiler inlines them.  `make bench-wasm`
// on Node 20 (V8 11.3): loops 2.6x -> 1.5x, fib 1.5x -> 1.0x the native
// lane (docs/DECISIONS.md).  Both flags are known to every V8 since 2021.
setFlagsFromString('--no-liftoff');
setFlagsFromString('--wasm-inlining');

function writer(fd) {
	return (bytes) => {
		let off = 0;
		while (off < bytes.length) {
			try {
				off += writeSync(fd, bytes, off, bytes.length - off);
			} catch (e) {
				if (e.code !== 'EAGAIN') throw e;
			}
		}
	};
}

const [file, ...args] = process.argv.slice(2);
const stderr = writer(2);
try {
	process.exitCode = await runModule(readFileSync(file), { stdout: writer(1), stderr, args });
} catch (e) {
	// a module the host cannot load or link is a lane bug: one line, status 72
	stderr(new TextEncoder().encode(`SEMAPRAX runtime failure: wasm host: ${e instanceof Error ? e.message : String(e)}\n`));
	process.exitCode = 72;
}
