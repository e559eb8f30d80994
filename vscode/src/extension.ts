// The collvet extension: starts `collvet lsp` for Python and Go files and
// shows its findings, quick fixes and explanations.
import * as fs from 'fs';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { resolveServer } from './resolve';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('collvet', { log: true });
  context.subscriptions.push(output);
  context.subscriptions.push(
    vscode.commands.registerCommand('collvet.restartServer', () => restart(context)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The binary and its arguments are fixed when the process starts;
      // other settings reach the running server as didChangeConfiguration.
      if (e.affectsConfiguration('collvet.serverPath') || e.affectsConfiguration('collvet.serverArgs')) {
        void restart(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('collvet');
  const resolved = resolveServer({
    setting: config.get<string>('serverPath', ''),
    extensionPath: context.extensionPath,
    platform: process.platform,
    envPath: process.env.PATH,
    pathExt: process.env.PATHEXT,
  });
  if (!resolved.ok) {
    output?.error(resolved.message);
    const choice = await vscode.window.showErrorMessage(resolved.message, 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'collvet.serverPath');
    }
    return;
  }
  if (resolved.source === 'bundled' && process.platform !== 'win32') {
    // Packaging keeps the executable bit, but an unzip elsewhere may not.
    try {
      fs.chmodSync(resolved.command, 0o755);
    } catch {
      // Read-only install: leave it; the spawn error will say so.
    }
  }
  output?.info(`collvet: using ${resolved.command} (${resolved.source})`);

  const args = ['lsp', ...config.get<string[]>('serverArgs', [])];
  const serverOptions: ServerOptions = {
    run: { command: resolved.command, args, transport: TransportKind.stdio },
    debug: { command: resolved.command, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'file', language: 'go' },
    ],
    synchronize: { configurationSection: 'collvet' },
    initializationOptions: { ignore: config.get<string[]>('ignore', []) },
    outputChannel: output,
  };
  client = new LanguageClient('collvet', 'collvet', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    const message = `collvet: the language server (${resolved.command}) did not start: ${String(err)}`;
    output?.error(message);
    void vscode.window.showErrorMessage(message);
  }
}

async function stop(): Promise<void> {
  if (client) {
    const c = client;
    client = undefined;
    try {
      await c.stop();
    } catch {
      // Already gone.
    }
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stop();
  await start(context);
}
