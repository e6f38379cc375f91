// run.mjs — `node run.mjs program.wasm [args…]`: runs a SEMAPRAX Wasm module
// with host.mjs, writing to this process's stdout and stderr, and exits with
// the run's status (what `semaprax run --wasm` starts).
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
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

// file_read_text below the working directory (the other lanes' src/rt/fs.c):
// every component but the last must be a directory and no component a
// symbolic link; the last a regular file of at most 65,536 bytes.  Host
// errors map as there: ENOENT 2, EACCES/EPERM 6, ELOOP/ENOTDIR 7, else 5.
const FILE_MAX = 65536;
function fsStatus(e) {
	switch (e && e.code) {
	case 'ENOENT': return 2;
	case 'EACCES': case 'EPERM': return 6;
	case 'ELOOP': case 'ENOTDIR': return 7;
	default: return 5;
	}
}
function readFile(pathBytes) {
	const parts = [];
	let start = 0;
	for (let i = 0; i <= pathBytes.length; i++) {
		if (i === pathBytes.length || pathBytes[i] === 0x2f) {
			parts.push(pathBytes.subarray(start, i));
			start = i + 1;
		}
	}
	let prefix = Buffer.alloc(0);
	try {
		for (let k = 0; k < parts.length; k++) {
			prefix = Buffer.concat(k === 0 ? [Buffer.from(parts[k])] : [prefix, Buffer.from('/'), Buffer.from(parts[k])]);
			const st = lstatSync(prefix);
			if (k + 1 < parts.length ? !st.isDirectory() : !st.isFile()) return { status: 7 };
		}
		const fd = openSync(prefix, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
		try {
			if (!fstatSync(fd).isFile()) return { status: 7 };
			const buf = Buffer.alloc(FILE_MAX + 1);
			let n = 0;
			for (;;) {
				const r = readSync(fd, buf, n, FILE_MAX + 1 - n, null);
				if (r === 0) break;
				n += r;
				if (n > FILE_MAX) return { status: 4 };
			}
			return { data: new Uint8Array(buf.subarray(0, n)) };
		} finally {
			closeSync(fd);
		}
	} catch (e) {
		return { status: fsStatus(e) };
	}
}

const [file, ...args] = process.argv.slice(2);
const stderr = writer(2);
try {
	process.exitCode = await runModule(readFileSync(file), { stdout: writer(1), stderr, args, checkLeaks: !!process.env.SEMAPRAX_CHECK_LEAKS, readFile });
} catch (e) {
	// a module the host cannot load or link is a lane bug: one line, status 72
	stderr(new TextEncoder().encode(`SEMAPRAX runtime failure: wasm host: ${e instanceof Error ? e.message : String(e)}\n`));
	process.exitCode = 72;
}
