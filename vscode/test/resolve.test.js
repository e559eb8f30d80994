// Server binary resolution: setting, bundled binary, PATH, clear error.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { resolveServer } = require('../dist/resolve.js');

const files = (...names) => (p) => names.includes(p);

test('the setting wins and must name a file', () => {
  const r = resolveServer({
    setting: '/opt/collvet', extensionPath: '/ext', platform: 'linux', envPath: '/usr/bin',
    isFile: files('/opt/collvet', path.join('/ext', 'bin', 'collvet'), '/usr/bin/collvet'),
  });
  assert.deepEqual(r, { ok: true, command: '/opt/collvet', source: 'setting' });
  const missing = resolveServer({ setting: '/nope', extensionPath: '/ext', platform: 'linux', envPath: '/usr/bin', isFile: files('/usr/bin/collvet') });
  assert.equal(missing.ok, false);
  assert.match(missing.message, /collvet.serverPath.*\/nope/);
});

test('the bundled binary comes before PATH', () => {
  const bundled = path.join('/ext', 'bin', 'collvet');
  const r = resolveServer({ setting: '', extensionPath: '/ext', platform: 'linux', envPath: '/usr/bin', isFile: files(bundled, '/usr/bin/collvet') });
  assert.deepEqual(r, { ok: true, command: bundled, source: 'bundled' });
});

test('PATH is searched in order', () => {
  const r = resolveServer({ setting: '', extensionPath: '/ext', platform: 'linux', envPath: '/a::/b:/c', isFile: files('/b/collvet', '/c/collvet') });
  assert.deepEqual(r, { ok: true, command: '/b/collvet', source: 'path' });
});

test('Windows: collvet.exe bundled, PATHEXT on PATH', () => {
  const bundled = path.join('C:\\ext', 'bin', 'collvet.exe');
  assert.equal(resolveServer({ setting: '', extensionPath: 'C:\\ext', platform: 'win32', envPath: '', isFile: files(bundled) }).command, bundled);
  const onPath = path.join('C:\\tools', 'collvet.exe');
  const r = resolveServer({ setting: '', extensionPath: 'C:\\ext', platform: 'win32', envPath: 'C:\\tools', pathExt: '.COM;.EXE', isFile: files(onPath) });
  assert.deepEqual(r, { ok: true, command: onPath, source: 'path' });
});

test('nothing found: a message saying how to install or configure', () => {
  const r = resolveServer({ setting: ' ', extensionPath: '/ext', platform: 'linux', envPath: '/usr/bin', isFile: files() });
  assert.equal(r.ok, false);
  assert.match(r.message, /not found/);
  assert.match(r.message, /go install/);
  assert.match(r.message, /collvet\.serverPath/);
});
