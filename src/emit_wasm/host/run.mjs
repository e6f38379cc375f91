// run.mjs — `node run.mjs program.wasm [args…]`: runs a SEMAPRAX Wasm module
// with host.mjs, writing to this process's stdout and stderr, and exits with
// the run's status (what `semaprax run --wasm` starts).
import { readFileSync, writeSync } from 'node:fs';
import { runModule } from './host.mjs';

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
	process.exitCode = await runModule(readFileSync(file), { stdout: writer(1), stderr, args, checkLeaks: !!process.env.SEMAPRAX_CHECK_LEAKS });
} catch (e) {
	// a module the host cannot load or link is a lane bug: one line, status 72
	stderr(new TextEncoder().encode(`SEMAPRAX runtime failure: wasm host: ${e instanceof Error ? e.message : String(e)}\n`));
	process.exitCode = 72;
}
