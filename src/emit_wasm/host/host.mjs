// host.mjs — the host of a SEMAPRAX Wasm module (src/emit_wasm/emit.c has
// the ABI), for Node and for browsers: it uses only WebAssembly,
// TextEncoder and TextDecoder.  runModule(bytes, io) instantiates the
// shared runtime carried in the module's `semaprax.rt` section and the
// program over one memory, supplies exactly the host capabilities its
// route grants (the `semaprax.wasm.v1` section; never more), runs `main`
// and publishes the output as the route says.  io: { stdout(Uint8Array),
// stderr(Uint8Array), args: string[], checkLeaks (optional: status 74 when an
// owned value outlives main, as the native lane under SPX_CHECK_LEAKS),
// readFile(pathBytes) (optional, for fs.read: { data: Uint8Array } or
// { status } of semaprax.filesystem.v1), readStdin(max) (optional, for
// process.stdin.read: stdin to its end, at most max bytes, { data } or
// { status: 3 }; absent: empty), environ() (optional, for
// process.environment.read: the entries `NAME=value` as Uint8Arrays, the
// process's own bytes; absent: none), writeFile(pathBytes, data, atomic,
// rootBytes) and rootValid(dirBytes) (optional, for fs.write: the status of a write
// confined below the working directory and the write root; whether
// `--allow-write=DIR` names a directory below it reached without links),
// rootWhy(dirBytes) (optional: why a refused DIR, a valid path, breaks that
// rule when it is plain: 'missing' or 'file' by lstat, else null) }.
// A module granted fs.write takes its write grant as the first of io.args:
// `--allow-write` or `--allow-write=DIR`, then optionally `--` (the native
// executable's rule), else it refuses to start (2).  clock.read is Date.now().
// Returns the exit status: 0, a command-line program's own status, or the
// native lane's failure statuses (70 contract, 71 checked arithmetic, 72
// runtime, 73 other).

class Stop {
	constructor(status) {
		this.status = status;
	}
}

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8Valid(bytes) {
	try {
		strictUtf8.decode(bytes);
		return true;
	} catch {
		return false;
	}
}

// The refusal line of `--allow-write=DIR`: the runtime module's
// rt_fs_root_line (src/rt/text.c), the text src/rt/fs.c's rt_fs_root_refusal
// writes for `semaprax run` and the native executable, DIR shown as there.
// Whether DIR is a valid path is the module's rt_fs_path_valid; why it is
// refused, when that is plain, is the host's lstat (io.rootWhy: 'missing' or
// 'file', else null), asked only of a valid path.  Called before the program
// is instantiated: its memory above the runtime's 64 KiB is still unused.
function rootRefusal(rt, memory, io, raw) {
	const at = 65536;
	const cap = raw.length * 12 + 256;   // DIR three times, a byte at most 4 as \xNN
	const need = at + raw.length + cap;
	if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
	new Uint8Array(memory.buffer, at, raw.length).set(raw);
	const valid = rt.rt_fs_path_valid(at, raw.length);
	const why = valid && io.rootWhy ? io.rootWhy(raw) : null;
	const code = why === 'missing' ? 1 : why === 'file' ? 2 : 0;   // rt_fs_root_line's why
	const out = at + raw.length;
	const n = rt.rt_fs_root_line(at, raw.length, code, out, cap);
	return new Uint8Array(memory.buffer, out, n).slice();
}

const WRITE_BUDGET = 1048576;   // RT_LIMIT_FS_WRITE_BUDGET (src/rt/domains.def): bytes a run may write
const STDIN_CHUNK = 4096;       // RT_LIMIT_STDIN_CHUNK (src/rt/domains.def): bytes of one stdin stream read

// The block [p, p + n) of memory, bound-checked.  A module's addresses and
// lengths are wasm32 i32 values, which reach JS signed: an address at or
// above 2 GiB arrives negative and is read as unsigned here (the memory has
// no maximum below 4 GiB).  A block outside the memory (an emitter bug) is
// a runtime failure (72) naming it, never a host RangeError's text.
function block(memory, p, n) {
	const a = p >>> 0, len = n >>> 0;
	if (a + len > memory.buffer.byteLength) throw new Error(`the module passed the host a block outside its memory (${a}, ${len} bytes)`);
	return new Uint8Array(memory.buffer, a, len);
}

function concat(parts) {
	let n = 0;
	for (const p of parts) n += p.length;
	const out = new Uint8Array(n);
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

// A host read's result ({ data } or { status }) in a runtime allocation:
// (address << 32) | length, the negated status, or -1 out of memory.
function toBlock(res, rt, memory) {
	if (res.status) return BigInt(-res.status);
	const q = rt.exports.rt_alloc(res.data.length) >>> 0;
	if (q === 0) return -1n;
	new Uint8Array(memory.buffer, q, res.data.length).set(res.data);
	return (BigInt(q) << 32n) | BigInt(res.data.length);
}

// The input imports the grants select (emit.c's ABI; the module applies the
// limits and statuses of src/rt): file_read (fs.read: the module has checked
// the path and reserved the budget; io.readFile reads it confined below its
// root), stdin_read (process.stdin.read: stdin to its end, at most cap + 1
// bytes, at the first call; later calls give nothing), stdin_chunk (the same
// grant: the stdin stream's one read of at most 4,096 bytes), env (process.
// environment.read: the entries copied once into one allocation, an array of
// addresses of NUL-terminated `NAME=value` strings ended by 0; the runtime's
// rt_env_entry builds the snapshot; 0 out of memory) and clock_now_ms
// (clock.read).  Returns a function that releases what the host allocated.
function inputImports(spx, grants, io, rt, memory, at) {
	if (grants.has('fs.read'))
		spx.file_read = (p, n) => toBlock(io.readFile ? io.readFile(at(p, n)) : { status: 5 }, rt, memory);
	if (grants.has('process.stdin.read')) {
		let done = false;
		spx.stdin_read = (cap) => {
			if (done) return 0n;
			done = true;
			return toBlock(io.readStdin ? io.readStdin((cap >>> 0) + 1) : { data: new Uint8Array(0) }, rt, memory);
		};
		// the stdin stream's fill: one read of at most 4,096 bytes into the reader's
		// block at p; its length, 0 at end of input (no stdin: end), -1 a read error
		spx.stdin_chunk = (p) => {
			const r = io.readStdinChunk ? io.readStdinChunk(STDIN_CHUNK) : { data: new Uint8Array(0) };
			if (r.status !== undefined) return -1;
			const data = r.data.subarray(0, STDIN_CHUNK);   // the block's size, whatever the reader gave
			block(memory, p, STDIN_CHUNK).set(data);
			return data.length;
		};
	}
	let envAt = 0;
	if (grants.has('process.environment.read')) {
		spx.env = () => {
			if (envAt !== 0) return envAt;
			const entries = io.environ ? io.environ() : [];
			let size = 4 * (entries.length + 1);
			for (const e of entries) size += e.length + 1;
			const q = rt.exports.rt_alloc(size) >>> 0;
			if (q === 0) return 0;
			const view = new DataView(memory.buffer);
			const bytes = new Uint8Array(memory.buffer);
			let s = q + 4 * (entries.length + 1);
			entries.forEach((e, i) => {
				view.setUint32(q + 4 * i, s, true);
				bytes.set(e, s);
				bytes[s + e.length] = 0;
				s += e.length + 1;
			});
			view.setUint32(q + 4 * entries.length, 0, true);
			envAt = q;
			return q;
		};
	}
	if (grants.has('fs.write')) {
		// the write root (6 outside it) and the run's write budget (4 past it), then the write
		// (the other lanes' order: src/interp/fs.c; the module has checked the path and length)
		let written = 0;
		spx.file_write = (p, n, d, dn, atomic) => {
			const path = at(p, n);
			const root = io.writeRoot || null;
			if (root && !(path.length > root.length && root.every((b, i) => path[i] === b) && path[root.length] === 0x2f)) return 6;
			written += dn >>> 0;
			if (written > WRITE_BUDGET) return 4;
			return io.writeFile ? io.writeFile(path, at(d, dn), atomic !== 0, io.writeRoot || null) : 6;
		};
	}
	if (grants.has('clock.read')) spx.clock_now_ms = () => BigInt(Date.now());
	return () => {
		if (envAt !== 0) rt.exports.rt_free(envAt);
	};
}

export async function runModule(bytes, io) {
	const module = await WebAssembly.compile(bytes);
	const section = (name) => {
		const s = WebAssembly.Module.customSections(module, name);
		if (s.length !== 1) throw new Error(`not a SEMAPRAX module: no ${name} section`);
		return new Uint8Array(s[0]);
	};
	const meta = JSON.parse(new TextDecoder().decode(section('semaprax.wasm.v1')));
	if (meta.schema !== 'semaprax.wasm.v1') throw new Error(`unknown module schema ${meta.schema}`);
	const memory = new WebAssembly.Memory({ initial: meta.memory_pages });
	const rt = await WebAssembly.instantiate(await WebAssembly.compile(section('semaprax.rt')), { env: { memory } });
	if (rt.exports.__heap_base.value > 65536) throw new Error('the runtime module outgrows its 64 KiB');
	const grants = new Set(meta.grants);
	const staged = [[], []];
	const report = [];
	const at = (p, n) => block(memory, p, n).slice();
	const spx = {
		text(p, n) { report.push(at(p, n)); },
		fail(status) { throw new Stop(status); },
	};
	if (grants.has('process.stdout.write')) spx.stdout = (p, n) => { staged[0].push(at(p, n)); };
	if (grants.has('process.stderr.write')) spx.stderr = (p, n) => { staged[1].push(at(p, n)); };
	// the arguments' checks and lines are `semaprax run`'s (and the native lane's spx_args_check)
	const hint = '\nhint: run `semaprax help run` for usage\n';
	let given = io.args;
	if (grants.has('fs.write')) {
		// the write grant first (the native executable's spx_grant_write)
		const g = given.length > 0 ? given[0] : '';
		const fhint = '\nhint: run `semaprax explain SPX-F120`\n';
		if (!(g === '--allow-write' || g.startsWith('--allow-write='))) {
			io.stderr(encoder.encode('SEMAPRAX capability refused: the program permits fs.write; grant writes with ' +
				`\`--allow-write\` or \`--allow-write=DIR\` as its first argument${fhint}`));
			return 2;
		}
		if (g !== '--allow-write') {
			// DIR's own bytes: node's argv replaces bytes that are not UTF-8 with U+FFFD,
			// which would check (and write below) another directory than the one granted
			const raw = io.argBytes && io.argBytes.length === io.args.length ? io.argBytes[0].slice(14) : encoder.encode(g.slice(14));
			if (!io.rootValid || !io.rootValid(raw)) {
				io.stderr(concat([rootRefusal(rt.exports, memory, io, raw), encoder.encode(fhint)]));
				return 2;
			}
			io = { ...io, writeRoot: raw };
		}
		given = given.slice(given.length > 1 && given[1] === '--' ? 2 : 1);
	}
	// io.argBytes, when the host has them, are the arguments' own bytes (node
	// replaces text that is not UTF-8 in process.argv before it could be refused)
	const args = io.argBytes && io.argBytes.length === io.args.length
		? io.argBytes.slice(io.args.length - given.length) : given.map((a) => encoder.encode(a));
	if (args.length > 0) {
		let msg = null;
		const bad = args.findIndex((a) => !utf8Valid(a));
		if (meta.route !== 'command')   // first, as `semaprax run` (qa29)
			msg = 'run passes arguments after `--` only to a command-line program; add `process.args.read` ' +
				'to the module permits and read them with `args_len()` and `arg_utf8(i)`\n';
		else if (args.length > 16) msg = `a command-line program takes at most 16 arguments after \`--\` (got ${args.length})${hint}`;
		else if (bad >= 0) msg = `argument ${bad} after \`--\` is not valid UTF-8${hint}`;
		else if (args.reduce((n, a) => n + a.length, 0) > 65536) msg = `arguments after \`--\` exceed 65536 bytes together${hint}`;
		if (msg) {
			io.stderr(encoder.encode(msg));
			return 2;
		}
	}
	const release = inputImports(spx, grants, io, rt, memory, at);
	if (grants.has('process.args.read')) {
		// copied once into the module's argument pages; arg(i) is (address << 32 | length)
		const where = [];
		let p = meta.args_base;
		for (const a of args) {
			new Uint8Array(memory.buffer, p, a.length).set(a);
			where.push((BigInt(p) << 32n) | BigInt(a.length));
			p += a.length;
		}
		spx.args_len = () => BigInt(args.length);
		spx.arg = (i) => (i >= 0n && i < BigInt(args.length) ? where[Number(i)] : -1n);
	}
	const program = await WebAssembly.instantiate(module, {
		env: { memory },
		spx,
		rt: rt.exports,   // the shared runtime's functions (src/rt, tools/build_rt_wasm.sh)
	});
	let r;
	try {
		r = program.exports.main();
	} catch (e) {
		// a failure discards the staged output; its report is the stderr line
		if (e instanceof Stop) {
			report.push(encoder.encode('\n'));
			io.stderr(concat(report));
			return e.status;
		}
		io.stderr(encoder.encode(`SEMAPRAX runtime failure: ${e instanceof Error ? e.message : String(e)}\n`));
		return 72;
	}
	release();
	const out = concat(staged[0]), err = concat(staged[1]);
	// io.checkLeaks (the native lane's SPX_CHECK_LEAKS): every owned value released when main returns
	const leaked = () => {
		if (!io.checkLeaks || rt.exports.rt_heap_live() === 0) return false;
		io.stderr(encoder.encode('SEMAPRAX runtime leak: owned values outlived main\n'));
		return true;
	};
	if (meta.report) {
		// a test build (the C lane's project_main too): the staged output, then main's value
		if (err.length) io.stderr(err);
		if (out.length) io.stdout(out);
		io.stdout(encoder.encode(`${r}\n`));
		return leaked() ? 74 : 0;
	}
	if (meta.route === 'command') {
		if (r < 0n || r > 255n) {
			io.stderr(encoder.encode(`SEMAPRAX runtime failure: \`main\` returned ${r}, outside the exit status range 0..=255\n`));
			return 72;
		}
		if (err.length) io.stderr(err);
		if (out.length) io.stdout(out);
		return leaked() ? 74 : Number(r);
	}
	if (out.length) io.stdout(out);
	io.stdout(encoder.encode(`${r}\n`));
	return leaked() ? 74 : 0;
}

// The web package's binding (build --target web): loadModule(bytes, io) gives
// call(name, sig, args), which instantiates the program afresh (no state
// survives a call, as no state survives a run), converts the arguments by
// sig (the parameter types then the result type: 'i64', 'i32', 'u8',
// 'usize', 'bool', 'f64', 'char') and calls export `name`.  A failure
// throws a SemapraxFailure: status (70 contract, 71 checked arithmetic, 72
// runtime, 73 other) and the native lane's report as its message.  Output
// the function writes is discarded (the package exports computations);
// io.readFile (optional) serves fs.read as runModule's does.
export class SemapraxFailure extends Error {
	constructor(status, message) {
		super(message);
		this.name = 'SemapraxFailure';
		this.status = status;
	}
}

const RANGE = {
	i64: [-(2n ** 63n), 2n ** 63n - 1n],
	usize: [0n, 2n ** 64n - 1n],
	i32: [-(2n ** 31n), 2n ** 31n - 1n],
	u8: [0n, 255n],
};

function toWasm(type, v, i) {
	const bad = (what) => new TypeError(`argument ${i + 1}: expected ${what} (${type}), got ${String(v)}`);
	switch (type) {
	case 'bool':
		if (typeof v !== 'boolean') throw bad('a boolean');
		return v ? 1 : 0;
	case 'f64':
		if (typeof v !== 'number') throw bad('a number');
		return v;
	case 'char': {
		const cp = typeof v === 'string' ? v.codePointAt(0) : undefined;
		// one code point, not a surrogate (a lone one is a JS string but no scalar value)
		if (cp === undefined || String.fromCodePoint(cp) !== v || (cp >= 0xd800 && cp <= 0xdfff)) throw bad('one Unicode scalar value');
		return cp;
	}
	default: {
		let b;
		if (typeof v === 'bigint') b = v;
		else if (typeof v === 'number' && Number.isInteger(v)) b = BigInt(v);
		else throw bad('an integer');
		const [lo, hi] = RANGE[type];
		if (b < lo || b > hi) throw bad(`an integer in ${lo}..=${hi}`);
		return type === 'i64' || type === 'usize' ? BigInt.asIntN(64, b) : Number(b);
	}
	}
}

// The export's result as its JS value.  A result that is not what the sig's
// type reads (a module or a sig that does not match the export: a BigInt
// where an i32 was said, a char that is no Unicode scalar value — above
// U+10FFFF, negative, a surrogate) is a runtime failure (72) naming it, as
// a block outside the memory is, never a host TypeError or RangeError, a
// lone surrogate, or a wrong value read in silence.
function fromWasm(type, v) {
	const wide = type === 'i64' || type === 'usize';
	const an = type === 'i32' || type === 'i64' ? 'an' : 'a';
	if (typeof v !== (wide ? 'bigint' : 'number'))
		throw new SemapraxFailure(72, `SEMAPRAX runtime failure: the module returned ${String(v)}${typeof v === 'bigint' ? 'n' : ''} where the sig reads ${an} ${type}: the sig does not match the export`);
	if (type === 'char' && (!Number.isInteger(v) || v < 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)))
		throw new SemapraxFailure(72, `SEMAPRAX runtime failure: the module returned ${String(v)} as a char, which is not a Unicode scalar value`);
	switch (type) {
	case 'bool': return v !== 0;
	case 'char': return String.fromCodePoint(v);
	case 'i32': return v | 0;
	case 'u8': return v & 255;
	case 'usize': return BigInt.asUintN(64, v);
	default: return v;
	}
}

export async function loadModule(bytes, io = {}) {
	const module = await WebAssembly.compile(bytes);
	const section = (name) => {
		const s = WebAssembly.Module.customSections(module, name);
		if (s.length !== 1) throw new Error(`not a SEMAPRAX module: no ${name} section`);
		return new Uint8Array(s[0]);
	};
	const meta = JSON.parse(new TextDecoder().decode(section('semaprax.wasm.v1')));
	if (meta.schema !== 'semaprax.wasm.v1') throw new Error(`unknown module schema ${meta.schema}`);
	const rtModule = await WebAssembly.compile(section('semaprax.rt'));
	const grants = new Set(meta.grants);
	async function call(name, sig, args) {
		for (const t of sig)
			if (!Object.prototype.hasOwnProperty.call(RANGE, t) && t !== 'bool' && t !== 'f64' && t !== 'char') throw new TypeError(`unknown type ${String(t)} in the sig`);
		const params = sig.slice(0, -1);
		if (args.length !== params.length) throw new TypeError(`expected ${params.length} arguments, got ${args.length}`);
		const wargs = params.map((t, i) => toWasm(t, args[i], i));
		const memory = new WebAssembly.Memory({ initial: meta.memory_pages });
		const rt = await WebAssembly.instantiate(rtModule, { env: { memory } });
		const report = [];
		const at = (p, n) => block(memory, p, n).slice();
		const spx = {
			text(p, n) { report.push(at(p, n)); },
			fail(status) { throw new Stop(status); },
		};
		if (grants.has('process.stdout.write')) spx.stdout = () => {};
		if (grants.has('process.stderr.write')) spx.stderr = () => {};
		// a call has no stdin (empty) and no environment (no entries); its files are
		// io.readFile's (index.mjs: the package's bundled files), else an I/O failure (5)
		inputImports(spx, grants, { readFile: io.readFile }, rt, memory, at);
		if (grants.has('process.args.read')) {
			spx.args_len = () => 0n;
			spx.arg = () => -1n;
		}
		const rtImports = {};
		for (const d of WebAssembly.Module.imports(module))
			if (d.module === 'rt') rtImports[d.name] = rt.exports[d.name];
		const program = await WebAssembly.instantiate(module, { env: { memory }, spx, rt: rtImports });
		let r;
		try {
			r = program.exports[name](...wargs);
		} catch (e) {
			if (e instanceof Stop) throw new SemapraxFailure(e.status, new TextDecoder().decode(concat(report)));
			throw new SemapraxFailure(72, `SEMAPRAX runtime failure: ${e instanceof Error ? e.message : String(e)}`);
		}
		return fromWasm(sig[sig.length - 1], r);
	}
	return { call };
}
