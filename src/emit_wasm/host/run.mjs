// run.mjs — `node run.mjs program.wasm [args…]`: runs a SEMAPRAX Wasm module
// with host.mjs, writing to this process's stdout and stderr, and exits with
// the run's status (what `semaprax run --wasm` starts).
import {
	appendFileSync, closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, renameSync, unlinkSync,
	writeSync,
} from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runModule } from './host.mjs';

// V8's optimizing tier from the start, with Wasm-into-Wasm inlining: a run
// is one call of `main`, and V8 has no on-stack replacement for Wasm, so a
// loop in `main` would otherwise stay in the baseline (Liftoff) code for the
// whole run; small functions (a recursive `fib`, a record `step`) are
// inlined as the native lane's C compiler inlines them.  `make bench-wasm`
// on Node 20 (V8 11.3): loops 2.6x -> 1.5x, fib 1.5x -> 1.0x the native
// lane (docs/DECISIONS.md).  Both flags are known to every V8 since 2021.
// Only for a module of at most OPT_MAX bytes: the optimizing tier compiles
// every function before `main` starts, at about 1 s and 200 MB per MB of
// module, far more with inlining (12.8 MB, 120,000 functions: 165 s and
// 4.3 GB, against 1.6 s under Liftoff); a larger one keeps V8's default
// (Liftoff, hot functions tiered up).  For tests (wasm-test.sh), the
// policy taken is appended to the file $SEMAPRAX_WASM_TIERS_LOG names:
// `optimizing <bytes>` or `default <bytes>`.
const OPT_MAX = 512 * 1024;
function tiers(bytes) {
	const optimize = bytes.length <= OPT_MAX;
	if (optimize) {
		setFlagsFromString('--no-liftoff');
		setFlagsFromString('--wasm-inlining');
	}
	const log = process.env.SEMAPRAX_WASM_TIERS_LOG;
	if (log)
		appendFileSync(log, `${optimize ? 'optimizing' : 'default'} ${bytes.length}\n`);
	return bytes;
}

// A write to standard output that fails ends the run as the native lane's
// spx_settle_stdout ends it (src/emit_c/rt/core.h): `SEMAPRAX runtime failure:
// cannot write standard output: <strerror text>`, exit 72 (run.mjs's catch
// below).  Node names the error by its code; the text is the C library's for
// the codes a write gives (glibc's wording), else Node's own, capitalized.
// A failed write to standard error is dropped, as the native lane drops it
// (its report and staged stderr are written unchecked) — it was an uncaught
// exception, exit 1, where the other lanes exit with the program's status.
class StdoutFailure extends Error {}
// A write to a pipe whose reader has left (EPIPE, on standard output or
// error): the native program and the interpreter end by SIGPIPE there,
// silently.  Node ignores the signal, so the host ends at once without a
// word, and under `run --wasm` leaves `stdout-closed` beside itself, from
// which `semaprax` ends by SIGPIPE too (src/emit_wasm/node.c); run by hand,
// it exits 141 (128 + SIGPIPE), as a shell reports the signal.
class PipeClosed extends Error {}
const WRITE_ERRORS = {
	EBADF: 'Bad file descriptor', ENOSPC: 'No space left on device', EIO: 'Input/output error',
	EPIPE: 'Broken pipe', EFBIG: 'File too large', EDQUOT: 'Disk quota exceeded',
	EROFS: 'Read-only file system', EACCES: 'Permission denied', EPERM: 'Operation not permitted',
	EINVAL: 'Invalid argument', ENXIO: 'No such device or address', ECONNRESET: 'Connection reset by peer',
};
function writeErrorText(e) {
	if (WRITE_ERRORS[e.code]) return WRITE_ERRORS[e.code];
	const m = /^[A-Z0-9]+: ([^,]*)/.exec(String(e.message));
	return m ? m[1].charAt(0).toUpperCase() + m[1].slice(1) : 'a write failed';
}
function writer(fd) {
	return (bytes) => {
		let off = 0;
		while (off < bytes.length) {
			try {
				off += writeSync(fd, bytes, off, bytes.length - off);
			} catch (e) {
				if (e.code === 'EAGAIN') continue;
				if (e.code === 'EPIPE') throw new PipeClosed();
				if (fd !== 1) return;
				throw new StdoutFailure(`cannot write standard output: ${writeErrorText(e)}`);
			}
		}
	};
}

// file_read_text, file_write_new and file_write_atomic below the working
// directory, as the other lanes' src/rt/fs.c does them (rt_fs_resolve): one
// component at a time, each directory held open and every later step taken
// inside it, never by a path the kernel re-walks.  Node has no openat, so a
// directory held open is named `/proc/self/fd/<fd>/` (Linux: the kernel goes
// to that open directory, whatever its path has become since); the root is
// the working directory itself.  A symbolic link is read by hand and followed
// only while its target stays below the root (an absolute target, a `..`
// above the root, more than 40 links, a target of 4,097 bytes or more, or a
// link-free directory path past 4,096 bytes is 7); every component but the
// last is a directory, opened with O_NOFOLLOW (one swapped for a link since
// its lstat is ELOOP: 7), the last a regular file (read: by lstat before it
// is opened, and the file opened must be that same file by fstat, else 7).
// A system without /proc/self/fd names a directory by its link-free path
// (each check then meets the path as it is at that moment, not the directory
// checked: docs/DECISIONS.md "sec35").
// Host errors map as there: ENOENT 2, EACCES/EPERM 6, ELOOP/ENOTDIR 7, else 5.
const FILE_MAX = 65536;
const LINKS_MAX = 40;
const PATH_MAX = 4096;            // RT_FS_PATH_MAX (src/rt/fs.c)
function fsStatus(e) {
	switch (e && e.code) {
	case 'ENOENT': return 2;
	case 'EACCES': case 'EPERM': return 6;
	case 'ELOOP': case 'ENOTDIR': return 7;
	default: return 5;
	}
}
const SLASH = Buffer.from('/');
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const FD_DIRS = (() => {
	try {
		const fd = openSync('/', DIR_FLAGS);   // (not '.': a working directory one may search but not read)
		try {
			return lstatSync(`/proc/self/fd/${fd}/.`).ino === fstatSync(fd).ino;
		} finally {
			closeSync(fd);
		}
	} catch {
		return false;
	}
})();
// A directory the walk reached: parts (its link-free components below the
// root) and fd (open, or -1: the root itself, or no /proc/self/fd).
function inDir(dir, name) {
	if (dir.fd >= 0) return Buffer.concat([Buffer.from(`/proc/self/fd/${dir.fd}/`), name]);
	const parts = [];
	for (const d of dir.parts) parts.push(d, SLASH);
	parts.push(name);
	return Buffer.concat(parts);
}
function closeDir(dir) {
	if (dir.fd >= 0) closeSync(dir.fd);
	dir.fd = -1;
}
// Enters the directory name of dir (a directory by lstat): dir becomes it.
function enterDir(dir, name) {
	const fd = FD_DIRS ? openSync(inDir(dir, name), DIR_FLAGS) : -1;
	closeDir(dir);
	dir.fd = fd;
	dir.parts.push(Buffer.from(name));
}
// The directory of the link-free components parts below the root, or throws.
function openDirs(parts) {
	const dir = { fd: -1, parts: [] };
	try {
		for (const p of parts) {
			if (!FD_DIRS && !lstatSync(inDir(dir, p)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
			enterDir(dir, p);
		}
	} catch (e) {
		closeDir(dir);
		throw e;
	}
	return dir;
}
function dirLength(dir) {
	return dir.parts.reduce((n, p) => n + p.length, 0) + Math.max(dir.parts.length - 1, 0);
}
// Where the path leads: { dir, name } (dir open: the caller closes it; name the
// last component, which need not exist), or { status }.  followLast false (a
// write): the last component is never followed.
function resolveIn(pathBytes, followLast, dir) {
	let rest = Buffer.from(pathBytes);
	let links = 0, at = 0;
	for (;;) {
		while (at < rest.length && rest[at] === 0x2f) at++;
		const s = at;
		while (at < rest.length && rest[at] !== 0x2f) at++;
		const name = Buffer.from(rest.subarray(s, at));
		let k = at;
		while (k < rest.length && rest[k] === 0x2f) k++;
		const last = k === rest.length;
		const dot = name.length === 1 && name[0] === 0x2e, dotdot = name.length === 2 && name[0] === 0x2e && name[1] === 0x2e;
		if (name.length === 0 || dot || dotdot) {
			if (dotdot) {   // `..` of a link target: back to the parent, never above the root
				if (dir.parts.length === 0) return { status: 7 };
				const up = openDirs(dir.parts.slice(0, -1));
				closeDir(dir);
				Object.assign(dir, up);
			}
			if (last) return { status: 7 };   // the path names a directory
			continue;
		}
		if (last && !followLast) return { dir, name };
		let st;
		try {
			st = lstatSync(inDir(dir, name));
		} catch (e) {
			return last ? { dir, name } : { status: fsStatus(e) };   // the caller reports a missing file
		}
		if (st.isSymbolicLink()) {
			if (++links > LINKS_MAX) return { status: 7 };
			const target = readlinkSync(inDir(dir, name), { encoding: 'buffer' });
			const tail = rest.length - at;
			if (target.length === 0 || target.length > PATH_MAX || target[0] === 0x2f || target.length + tail > 2 * PATH_MAX + 2) return { status: 7 };
			rest = Buffer.concat([target, rest.subarray(at)]);
			at = 0;
			continue;
		}
		if (last) return { dir, name };
		if (!st.isDirectory() || dirLength(dir) + 1 + name.length > PATH_MAX) return { status: 7 };
		enterDir(dir, name);
	}
}
// resolveIn from the root; a status closes what it opened, a throw is its status.
function resolve(pathBytes, followLast) {
	const dir = { fd: -1, parts: [] };
	let r;
	try {
		r = resolveIn(pathBytes, followLast, dir);
	} catch (e) {
		r = { status: fsStatus(e) };
	}
	if (r.status) closeDir(dir);
	return r;
}
function readFile(pathBytes) {
	const r = resolve(pathBytes, true);
	if (r.status) return r;
	let fd = -1;
	try {
		// the type is read before anything is opened: opening a FIFO, even
		// non-blocking, releases a writer blocked on it, and opening a device can act on it
		const where = inDir(r.dir, r.name);
		const ls = lstatSync(where, { bigint: true });
		if (!ls.isFile()) return { status: 7 };
		fd = openSync(where, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
		const fs = fstatSync(fd, { bigint: true });
		if (!fs.isFile() || fs.dev !== ls.dev || fs.ino !== ls.ino) return { status: 7 };   // swapped since
		const buf = Buffer.alloc(FILE_MAX + 1);
		let n = 0;
		for (;;) {
			const got = readSync(fd, buf, n, FILE_MAX + 1 - n, null);
			if (got === 0) break;
			n += got;
			if (n > FILE_MAX) return { status: 4 };
		}
		return { data: new Uint8Array(buf.subarray(0, n)) };
	} catch (e) {
		return { status: fsStatus(e) };
	} finally {
		if (fd >= 0) closeSync(fd);
		closeDir(r.dir);
	}
}

// file_write_new / file_write_atomic below the working directory, as src/rt/fs.c's
// rt_fs_write: the parent resolved as for a read (the last component never followed),
// which must lie below the write root (6; a link inside it leading elsewhere too;
// checked on the link-free path of the directory held open, which is where the file
// is made); a new file is created exclusively (an existing path, a dangling link
// included, is 3); an atomic write fills a fresh sibling `.spx-write-<pid>-<n>.tmp`,
// fsyncs it and renames it over the target, which must be a regular file or absent
// (7: a link is replaced, never written through; so is a hard link's entry).  A
// failed write removes what it created.  Returns 0 or the filesystem.v1 code.
let serial = 0;
function writeFile(pathBytes, data, atomic, root) {
	const r = resolve(pathBytes, false);
	if (r.status) return r.status;
	try {
		return writeIn(r.dir, r.name, data, atomic, root);
	} finally {
		closeDir(r.dir);
	}
}
function writeIn(dir, name, data, atomic, root) {
	if (root) {   // the write root's bytes (rootValid: components without `.`, `..` or empty ones)
		const want = [];
		for (let s = 0, i = 0; i <= root.length; i++)
			if (i === root.length || root[i] === 0x2f) {
				want.push(Buffer.from(root.subarray(s, i)));
				s = i + 1;
			}
		if (dir.parts.length < want.length || !want.every((c, i) => c.equals(dir.parts[i]))) return 6;
	}
	const dest = inDir(dir, name);
	let target = dest;
	if (atomic) {
		let ls = null;
		try {
			ls = lstatSync(dest);
		} catch {
			// absent (the rename makes it), or the rename reports it
		}
		if (ls && !ls.isFile()) return 7;
		target = inDir(dir, Buffer.from(`.spx-write-${process.pid}-${++serial}.tmp`));
	}
	let fd;
	try {
		fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o666);
	} catch (e) {
		return e.code === 'EEXIST' ? 3 : fsStatus(e);
	}
	let st = 0;
	try {
		for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
		if (atomic) fsyncSync(fd);
	} catch (e) {
		st = fsStatus(e);
	}
	try {
		closeSync(fd);
	} catch {
		st = st || 5;
	}
	if (!st && atomic) {
		try {
			renameSync(target, dest);
		} catch (e) {
			st = e.code === 'EISDIR' ? 7 : fsStatus(e);
		}
	}
	if (st) {
		try {
			unlinkSync(target);
		} catch {
			// nothing was left
		}
	}
	return st;
}

// `--allow-write=DIR`: a valid relative path (src/rt/text.c's rule) whose every
// component is a directory reached without a symbolic link (rt_fs_root_valid:
// each opened with O_NOFOLLOW, as a write's walk enters them).
function rootValid(raw) {
	const dir = Buffer.from(raw);
	const parts = [];
	for (let s = 0, i = 0; i <= dir.length; i++)
		if (i === dir.length || dir[i] === 0x2f) {
			parts.push(dir.subarray(s, i));
			s = i + 1;
		}
	const bad = (c) => c.length === 0 || (c.length === 1 && c[0] === 0x2e) || (c.length === 2 && c[0] === 0x2e && c[1] === 0x2e) ||
		c.some((b) => b === 0 || b === 0x5c || b === 0x3a);
	if (dir.length === 0 || dir.length > PATH_MAX || parts.some(bad)) return false;
	try {
		closeDir(openDirs(parts));
		return true;
	} catch {
		return false;
	}
}

// Why a refused `--allow-write=DIR` breaks the rule when that is plain, as
// src/rt/fs.c's rt_fs_root_refusal decides it: asked only of a valid path
// (host.mjs asks the runtime module's rt_fs_path_valid), one that does not
// exist is 'missing', one naming a regular file 'file' (lstat: the last
// component itself), else null.
function rootWhy(raw) {
	try {
		return lstatSync(Buffer.from(raw)).isFile() ? 'file' : null;
	} catch (e) {
		return e.code === 'ENOENT' ? 'missing' : null;
	}
}

// stdin to its end, at most max bytes (the module fails past its limit): a
// read error is command-input.v1 code 3, as rt_stdin_read's.  A non-blocking
// stdin (EAGAIN) is waited for, not spun on.
function readStdin(max) {
	const buf = Buffer.alloc(max);
	const pause = new Int32Array(new SharedArrayBuffer(4));
	let n = 0;
	while (n < max) {
		let got;
		try {
			got = readSync(0, buf, n, max - n, null);
		} catch (e) {
			if (e.code === 'EAGAIN') {
				Atomics.wait(pause, 0, 0, 5);
				continue;
			}
			if (e.code === 'EOF') break;
			return { status: 3 };
		}
		if (got === 0) break;
		n += got;
	}
	return { data: new Uint8Array(buf.subarray(0, n)) };
}

// The stdin stream's one read (rt_stdin_chunk): at most max bytes, as one
// read(2) gives them (a short read is a chunk, 0 bytes is end of input); a
// read error is { status: 3 }.  EAGAIN is waited for, as readStdin's.
function readStdinChunk(max) {
	const buf = Buffer.alloc(max);
	const pause = new Int32Array(new SharedArrayBuffer(4));
	for (;;) {
		try {
			const got = readSync(0, buf, 0, max, null);
			return { data: new Uint8Array(buf.subarray(0, got)) };
		} catch (e) {
			if (e.code === 'EAGAIN') {
				Atomics.wait(pause, 0, 0, 5);
				continue;
			}
			if (e.code === 'EOF') return { data: new Uint8Array(0) };
			return { status: 3 };
		}
	}
}

// The NUL-terminated fields of a /proc file (a last one without its NUL too).
function nulFields(raw) {
	const out = [];
	let s = 0;
	for (let i = 0; i < raw.length; i++) {
		if (raw[i] === 0) {
			out.push(new Uint8Array(raw.subarray(s, i)));
			s = i + 1;
		}
	}
	if (s < raw.length) out.push(new Uint8Array(raw.subarray(s)));
	return out;
}

// The process's environment as its bytes (the other lanes read `environ`):
// /proc/self/environ where the system has it (Node's process.env would
// replace text that is not UTF-8 before the snapshot could refuse it),
// else process.env's entries encoded as UTF-8.
function environ() {
	try {
		return nulFields(readFileSync('/proc/self/environ'));
	} catch {
		const enc = new TextEncoder();
		return Object.entries(process.env).map(([k, v]) => enc.encode(`${k}=${v}`));
	}
}

const [file, ...args] = process.argv.slice(2);

// The arguments' own bytes from /proc/self/cmdline (node's process.argv
// replaces text that is not UTF-8, which the host must refuse as the other
// lanes do), when the system has it and it lines up with process.argv.
function argBytes() {
	try {
		const all = nulFields(readFileSync('/proc/self/cmdline'));
		const mine = all.slice(all.length - args.length);
		return all.length >= args.length + 2 ? mine : undefined;
	} catch {
		return undefined;
	}
}
// `semaprax run --wasm` checks that this file ran: it leaves `unstarted`
// beside it, and a $SEMAPRAX_NODE that exits without removing it is SPX-W101,
// not the program's status (qa31).  Elsewhere (the source tree) there is no
// such file and nothing is written.
let underRun = false;
try {
	unlinkSync(new URL('./unstarted', import.meta.url));
	underRun = true;
} catch {
	// not run by `run --wasm`
}
const stderr = writer(2);
try {
	process.exitCode = await runModule(tiers(readFileSync(file)), { stdout: writer(1), stderr, args, argBytes: argBytes(), checkLeaks: !!process.env.SEMAPRAX_CHECK_LEAKS, readFile, readStdin, readStdinChunk, environ, writeFile, rootValid, rootWhy });
} catch (e) {
	let end = e;
	if (!(end instanceof PipeClosed)) {
		// standard output that cannot be written (writer above), else a module the host
		// cannot load or link, a lane bug: one line, status 72
		const what = e instanceof StdoutFailure ? e.message : `wasm host: ${e instanceof Error ? e.message : String(e)}`;
		try {
			stderr(new TextEncoder().encode(`SEMAPRAX runtime failure: ${what}\n`));
			process.exitCode = 72;
		} catch (e2) {
			end = e2;   // standard error a pipe without reader: the native lane's SIGPIPE too
		}
	}
	if (end instanceof PipeClosed) {
		if (underRun) appendFileSync(new URL('./stdout-closed', import.meta.url), '');
		process.exit(141);
	}
}
