// Finds the collvet binary the extension starts. Kept free of the `vscode`
// module so that it can be tested with plain node.
import * as fs from 'fs';
import * as path from 'path';

export interface ResolveInput {
  /** The `collvet.serverPath` setting ("" when unset). */
  setting: string;
  /** The extension's install directory. */
  extensionPath: string;
  /** process.platform */
  platform: string;
  /** process.env.PATH */
  envPath: string | undefined;
  /** process.env.PATHEXT (Windows) */
  pathExt?: string;
  /** Test seam: whether a file exists and is a regular file. */
  isFile?: (p: string) => boolean;
}

export type Resolved =
  | { ok: true; command: string; source: 'setting' | 'bundled' | 'path' }
  | { ok: false; message: string };

const defaultIsFile = (p: string): boolean => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * Resolution order: the `collvet.serverPath` setting, the binary bundled
 * with a platform-specific extension (`bin/collvet[.exe]`), `collvet` on
 * PATH. A setting that names no file is an error, not a fallback: the user
 * asked for that binary.
 */
export function resolveServer(input: ResolveInput): Resolved {
  const isFile = input.isFile ?? defaultIsFile;
  const win = input.platform === 'win32';
  const exe = win ? 'collvet.exe' : 'collvet';
  const setting = input.setting.trim();
  if (setting !== '') {
    if (isFile(setting)) {
      return { ok: true, command: setting, source: 'setting' };
    }
    return {
      ok: false,
      message: `collvet: collvet.serverPath is set to "${setting}", which is not a file.`,
    };
  }
  const bundled = path.join(input.extensionPath, 'bin', exe);
  if (isFile(bundled)) {
    return { ok: true, command: bundled, source: 'bundled' };
  }
  const sep = win ? ';' : ':';
  const exts = win ? (input.pathExt ?? '.EXE').split(';').filter((e) => e !== '') : [''];
  for (const dir of (input.envPath ?? '').split(sep)) {
    if (dir === '') {
      continue;
    }
    for (const ext of exts) {
      const candidate = path.join(dir, 'collvet' + (win && ext !== '' ? ext.toLowerCase() : ''));
      if (isFile(candidate)) {
        return { ok: true, command: candidate, source: 'path' };
      }
    }
  }
  return {
    ok: false,
    message:
      'collvet: the collvet binary was not found (not bundled with this extension, not on PATH). ' +
      'Install it with `go install github.com/collvet/collvet/cmd/collvet@latest` ' +
      'or set "collvet.serverPath".',
  };
}
