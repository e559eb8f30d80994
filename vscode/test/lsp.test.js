// Drives `collvet lsp` over stdio with the protocol library VS Code's
// client uses: open a fixture, receive its diagnostic, request and apply the
// quick fix, see the diagnostic clear. LSP_SERVER names the binary (default:
// the repository's bin/collvet, built by `make build`).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');

const server = process.env.LSP_SERVER || path.resolve(__dirname, '..', '..', 'bin', 'collvet');
const fixtures = path.join(__dirname, 'fixtures');

// startServer spawns the server in a workspace holding a copy of fixture.
function startServer(fixture) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'collvet-lsp-'));
  // The workspace's own configuration: discovery stops here.
  fs.writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "ws"\n\n[tool.collvet]\n');
  const file = path.join(ws, fixture);
  fs.copyFileSync(path.join(fixtures, fixture), file);
  const proc = cp.spawn(server, ['lsp'], { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const conn = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(proc.stdout),
    new rpc.StreamMessageWriter(proc.stdin),
  );
  const published = [];
  const waiters = [];
  const logs = [];
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const w of [...waiters]) w();
  });
  conn.onNotification(rpc.LogMessageNotification.type, (p) => { logs.push(p.message); });
  conn.onRequest(rpc.RegistrationRequest.type, () => null);
  conn.listen();
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    ws, file, uri: pathToFileURL(file).href, conn, proc, exited, logs,
    stderr: () => stderr,
    // waitFor resolves with the first publish (old or new) satisfying ok.
    waitFor(ok, what, ms = 20000) {
      return new Promise((resolve, reject) => {
        let i = 0;
        const check = () => {
          for (; i < published.length; i++) {
            if (ok(published[i])) {
              waiters.splice(waiters.indexOf(check), 1);
              clearTimeout(timer);
              resolve(published[i]);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(check), 1);
          reject(new Error(`timed out waiting for ${what}; published: ${JSON.stringify(published)}; ` +
            `server log: ${logs.join(' | ')} ${stderr}`));
        }, ms);
        waiters.push(check);
        check();
      });
    },
    cleanup() {
      proc.kill();
      fs.rmSync(ws, { recursive: true, force: true });
    },
  };
}

async function initialize(s) {
  const res = await s.conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(s.ws).href,
    workspaceFolders: [{ uri: pathToFileURL(s.ws).href, name: 'ws' }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
    },
  });
  await s.conn.sendNotification(rpc.InitializedNotification.type, {});
  return res;
}

async function shutdown(s) {
  await s.conn.sendRequest(rpc.ShutdownRequest.type);
  await s.conn.sendNotification(rpc.ExitNotification.type);
  const code = await s.exited;
  s.conn.dispose();
  return code;
}

// applyEdits applies LSP TextEdits (UTF-16 positions: JS strings are UTF-16).
function applyEdits(text, edits) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p) => Math.min((lineStarts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

test('initialize, shutdown and exit', async (t) => {
  assert.ok(fs.existsSync(server), `server binary ${server} (run make build)`);
  const s = startServer('autograd_hook.py');
  t.after(() => s.cleanup());
  const res = await initialize(s);
  assert.equal(res.serverInfo.name, 'collvet');
  assert.equal(res.capabilities.positionEncoding, 'utf-16');
  assert.equal(res.capabilities.textDocumentSync.change, rpc.TextDocumentSyncKind.Incremental);
  assert.ok(res.capabilities.hoverProvider);
  assert.deepEqual(res.capabilities.codeActionProvider.codeActionKinds, ['quickfix']);
  assert.equal(await shutdown(s), 0);
});

test('CV102 in an autograd hook: diagnostic, hover, quick fix, cleared', async (t) => {
  const s = startServer('autograd_hook.py');
  t.after(() => s.cleanup());
  await initialize(s);
  let text = fs.readFileSync(s.file, 'utf8');
  await s.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: s.uri, languageId: 'python', version: 1, text },
  });

  const isCV102 = (d) => d.code === 'CV102';
  const first = await s.waitFor((p) => p.uri === s.uri && p.diagnostics.some(isCV102), 'a CV102 diagnostic');
  const diag = first.diagnostics.find(isCV102);
  const callLine = text.split('\n').findIndex((l) => l.includes('dist.all_reduce(grad)'));
  assert.equal(diag.range.start.line, callLine, 'the finding is on the all_reduce call');
  // The hook and the main thread share one communicator: a warning (a
  // second group would make it an error).
  assert.equal(diag.severity, rpc.DiagnosticSeverity.Warning);
  assert.equal(diag.source, 'collvet');
  assert.match(diag.codeDescription.href, /CV102/);
  assert.ok(diag.relatedInformation && diag.relatedInformation.length > 0, 'related: the hook registration');

  const hover = await s.conn.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri: s.uri }, position: diag.range.start,
  });
  assert.ok(hover, 'hover on the finding');
  assert.match(hover.contents.value, /CV102/);
  assert.match(hover.contents.value, /set_multithreading_enabled/);

  const actions = await s.conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: s.uri }, range: diag.range, context: { diagnostics: [diag] },
  });
  const fix = actions.find((a) => a.kind === 'quickfix' && a.edit && a.edit.changes && a.edit.changes[s.uri]);
  assert.ok(fix, `a quick fix for CV102 (got ${JSON.stringify(actions)})`);
  text = applyEdits(text, fix.edit.changes[s.uri]);
  assert.match(text, /set_multithreading_enabled\(False\)/);

  await s.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: s.uri, version: 2 }, contentChanges: [{ text }],
  });
  await s.waitFor((p) => p.uri === s.uri && p.version === 2 && !p.diagnostics.some(isCV102), 'CV102 cleared');
  assert.equal(await shutdown(s), 0);
});
