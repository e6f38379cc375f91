// browser-test.mjs ROOT — built web packages in headless Debian Chromium
// driven by playwright-core.  tests/browser-test.sh builds
// tests/fixtures/web/pkg.spx into ROOT/pkg, kinds.spx into ROOT/kinds and
// files.spx (with its --files bundle) into ROOT/files;
// this serves ROOT on a loopback HTTP server, opens each index.html, fills
// the exports' forms, submits them and reads the <output> the page shows:
// results of every input kind (integers, bool, f64, char with an astral
// scalar), a broken `requires` as status 70, checked arithmetic overflow as
// status 71, an argument out of its type's range as the binding's
// TypeError, and a malformed integer kept from the call by the form's own
// validation; bundled files read by an export (a file's length, a path not
// bundled as status 73 filesystem.v1/2, text that is not UTF-8 as
// text.v1/3), fetched once each when the module loads.  The pages must load without a console error, an uncaught
// exception or a failed request.  Never a downloaded browser:
// /usr/bin/chromium (or $CHROMIUM) only, and a missing one fails the test.
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize, sep } from 'node:path';

const root = process.argv[2];
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
if (!root) {
	console.log('usage: node browser-test.mjs ROOT');
	process.exit(2);
}
if (!existsSync(chromium)) {
	console.log(`FAIL browser: ${chromium} not found (install Debian chromium: apt-get install chromium)`);
	process.exit(1);
}
let pw;
try {
	pw = await import('playwright-core');
} catch (e) {
	console.log(`FAIL browser: playwright-core is not installed (run \`npm ci\` in tests/browser): ${e.message}`);
	process.exit(1);
}

const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.wasm': 'application/wasm',
	'.json': 'application/json',
	'.ts': 'text/plain; charset=utf-8',
	'.txt': 'text/plain; charset=utf-8',
};
const served = [];
const server = createServer(async (req, res) => {
	const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
	const file = normalize(join(root, path));
	served.push(`${req.method} ${path}`);
	const ext = file.slice(file.lastIndexOf('.'));
	if (req.method !== 'GET' || !file.startsWith(normalize(root) + sep) || !TYPES[ext]) {
		res.writeHead(404).end();
		return;
	}
	try {
		const body = await readFile(file);
		res.writeHead(200, { 'content-type': TYPES[ext], 'cache-control': 'no-store' }).end(body);
	} catch {
		res.writeHead(404).end();
	}
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

let checks = 0, fails = 0;
const ok = () => { checks++; };
const fail = (msg) => {
	fails++;
	console.log(`FAIL browser: ${msg}`);
};
const expect = (what, got, want) => (got === want ? ok() : fail(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`));

const profile = await mkdtemp(join(tmpdir(), 'spx-chromium-'));
let context;
try {
	context = await pw.chromium.launchPersistentContext(profile, {
		executablePath: chromium,
		headless: true,
		timeout: 180000,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
} catch (e) {
	console.log(`FAIL browser: cannot start ${chromium}: ${e.message.split('\n')[0]}`);
	server.close();
	await rm(profile, { recursive: true, force: true });
	process.exit(1);
}

try {
	const page = context.pages()[0] || await context.newPage();
	page.setDefaultTimeout(60000);
	const problems = [];
	page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
	page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });

	const resp = await page.goto(base + 'pkg/index.html', { waitUntil: 'load' });
	expect('index.html status', resp.status(), 200);
	expect('title', await page.title(), 'pkg');
	expect('forms', await page.locator('form[data-id]').count(), 2);
	const form = (id) => page.locator(`form[data-id="${id}"]`);
	const add = form('web.pkg.add'), halve = form('web.pkg.halve');
	expect('add legend', await add.locator('legend').innerText(), 'web.pkg.add add');

	// submit: click the form's button, then wait until its <output> has a status
	let round = 0;
	async function submit(f) {
		round++;
		await f.evaluate((el, r) => { const o = el.querySelector('output'); o.textContent = ''; o.dataset.status = ''; o.dataset.round = r; }, round);
		await f.locator('button[type="submit"]').click();
		await f.locator('output:not([data-status=""])').waitFor();
		const out = f.locator('output');
		return { status: await out.getAttribute('data-status'), text: await out.innerText() };
	}
	const fill = async (f, values) => {
		const inputs = f.locator('input');
		for (let i = 0; i < values.length; i++) {
			const v = values[i];
			if (typeof v === 'boolean') await inputs.nth(i).setChecked(v);
			else await inputs.nth(i).fill(v);
		}
	};

	await fill(add, ['40', '2']);
	let r = await submit(add);
	expect('add 40 2', `${r.status} ${r.text}`, 'ok 42');

	await fill(add, ['-9223372036854775808', '9223372036854775807']);
	r = await submit(add);
	expect('add i64 min + max', `${r.status} ${r.text}`, 'ok -1');

	await fill(halve, ['7', false]);
	r = await submit(halve);
	expect('halve 7 (unchecked)', `${r.status} ${r.text}`, 'ok 4');
	await fill(halve, ['7', true]);
	r = await submit(halve);
	expect('halve 7 (checked)', `${r.status} ${r.text}`, 'ok 3');

	// a contract failure is shown as its status and the native lane's report
	await fill(halve, ['-1', true]);
	r = await submit(halve);
	expect('halve -1 status', r.status, '70');
	expect('halve -1 text', r.text,
		'failed with status 70: SEMAPRAX contract failure: requires in halve: n >= 0i32\n' +
		'  contract: requires n >= 0i32 in web.pkg.halve\n' +
		'  arguments: n = -1i32, exact = true');

	// checked arithmetic: overflow is status 71
	await fill(add, ['9223372036854775807', '1']);
	r = await submit(add);
	expect('add overflow', `${r.status} ${r.text}`, '71 failed with status 71: SEMAPRAX checked arithmetic failure: addition overflow');

	// an integer outside i32 never reaches the module: the binding's TypeError
	await fill(halve, ['2147483648', true]);
	r = await submit(halve);
	expect('halve 2^31', `${r.status} ${r.text}`,
		'error TypeError: argument 1: expected an integer in -2147483648..=2147483647 (i32), got 2147483648');

	// a malformed integer is stopped by the form's validation: no call, the output unchanged
	await fill(add, ['1.5', '2']);
	await add.evaluate((el) => { const o = el.querySelector('output'); o.textContent = 'untouched'; o.dataset.status = 'before'; });
	await add.locator('button[type="submit"]').click();
	expect('add 1.5 is invalid', await add.locator('input').first().evaluate((i) => i.validity.valid), false);
	await page.waitForTimeout(300);
	expect('add 1.5 not called', `${await add.locator('output').getAttribute('data-status')} ${await add.locator('output').innerText()}`, 'before untouched');

	// the forms work again after failures (each call is a fresh instance)
	await fill(add, ['-5', '3']);
	r = await submit(add);
	expect('add after failures', `${r.status} ${r.text}`, 'ok -2');

	expect('page problems', problems.join('; '), '');
	const wasm = served.filter((s) => s === 'GET /pkg/program.wasm').length;
	expect('program.wasm fetched once', wasm, 1);

	// the other input kinds: f64, char (an astral scalar is two UTF-16 units), u8, usize; a bool result
	expect('kinds index.html status', (await page.goto(base + 'kinds/index.html', { waitUntil: 'load' })).status(), 200);
	expect('kinds forms', await page.locator('form[data-id]').count(), 4);
	const area = form('web.kinds.area'), echo = form('web.kinds.echo'), isX = form('web.kinds.is_x'), widen = form('web.kinds.widen');
	await fill(area, ['1.5', '2']);
	r = await submit(area);
	expect('area 1.5 2', `${r.status} ${r.text}`, 'ok 3');
	await fill(area, ['0.1', '-3']);
	r = await submit(area);
	expect('area 0.1 -3', `${r.status} ${r.text}`, 'ok -0.30000000000000004');
	for (const c of ['x', '\u00e9', '\u{1F600}']) {
		await fill(echo, [c]);
		r = await submit(echo);
		expect(`echo ${JSON.stringify(c)}`, `${r.status} ${r.text}`, `ok ${c}`);
	}
	await fill(echo, ['ab']);
	r = await submit(echo);
	expect('echo "ab"', `${r.status} ${r.text}`, 'error TypeError: argument 1: expected one Unicode scalar value (char), got ab');
	await fill(isX, ['x']);
	r = await submit(isX);
	expect('is_x x', `${r.status} ${r.text}`, 'ok true');
	await fill(isX, ['y']);
	r = await submit(isX);
	expect('is_x y', `${r.status} ${r.text}`, 'ok false');
	await fill(widen, ['255', '1']);
	r = await submit(widen);
	expect('widen 255 1', `${r.status} ${r.text}`, 'ok 256');
	await fill(widen, ['1', '18446744073709551615']);
	r = await submit(widen);
	expect('widen overflow', `${r.status} ${r.text}`, '71 failed with status 71: SEMAPRAX checked arithmetic failure: addition overflow');
	await fill(widen, ['256', '0']);
	r = await submit(widen);
	expect('widen u8 256', `${r.status} ${r.text}`, 'error TypeError: argument 1: expected an integer in 0..=255 (u8), got 256');
	await fill(widen, ['0', '-1']);
	r = await submit(widen);
	expect('widen usize -1', `${r.status} ${r.text}`, 'error TypeError: argument 2: expected an integer in 0..=18446744073709551615 (usize), got -1');
	expect('kinds page problems', problems.join('; '), '');

	// files bundled with --files, read by the exports through the host
	expect('files index.html status', (await page.goto(base + 'files/index.html', { waitUntil: 'load' })).status(), 200);
	const words = form('web.files.words'), pick = form('web.files.pick');
	r = await submit(words);
	expect('words', `${r.status} ${r.text}`, 'ok 17');
	const picks = [['3', 'ok 1'], ['0', '73 failed with status 73: SEMAPRAX operation failure: semaprax.filesystem.v1/2'],
		['1', '73 failed with status 73: SEMAPRAX operation failure: semaprax.filesystem.v1/7'],
		['2', '73 failed with status 73: SEMAPRAX operation failure: semaprax.text.v1/3']];
	for (const [w, want] of picks) {
		await fill(pick, [w]);
		r = await submit(pick);
		expect(`pick ${w}`, `${r.status} ${r.text}`, want);
	}
	expect('bundled files fetched once each', served.filter((x) => x.startsWith('GET /files/files/')).sort().join(' '),
		'GET /files/files/bad.txt GET /files/files/data/deep/one.txt GET /files/files/data/words.txt');
	expect('files page problems', problems.join('; '), '');
} catch (e) {
	fail(`${e.message.split('\n').slice(0, 3).join(' | ')}`);
} finally {
	await context.close();
	server.close();
	await rm(profile, { recursive: true, force: true });
}
console.log(`browser: ${checks} checks passed, ${fails} failed`);
process.exit(fails === 0 ? 0 : 1);
