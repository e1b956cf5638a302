// The folder `assess mcp` owns for files (`--files DIR`, default mcp-files/ in the config
// directory, made 0700): the only place a tool reads a named file from or writes one to. A name is
// taken inside it; an absolute path, a `..` and a symbolic link leading out are refused, so a tool
// call cannot reach the key file, a webhook secret or ~/.bashrc. A file written gets a new name,
// never one that exists.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { causeOf } from '../util/file-errors.js';
import { makePrivateDir } from '../util/private-dir.js';

export class FilesFolder {
  /** Its real path (symbolic links resolved): what every name must stay inside. */
  readonly root: string;

  /** Made now if missing (0700); a folder that cannot be made or is no directory is a usage error. */
  constructor(dir: string, flag: string) {
    try {
      makePrivateDir(dir); // a file in the way: EEXIST
      this.root = realpathSync(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const cause = code === 'EEXIST' ? 'it is not a directory' : (causeOf(code) ?? (err as Error).message);
      throw new UsageError(
        `${flag}: cannot use ${dir} as the files folder: ${cause}${code ? ` (${code})` : ''}`,
        'give --files a directory assess can create and write, e.g. assess mcp --files ~/assess-mcp-files',
      );
    }
  }

  /** The real path of the regular file `name` names inside the folder; anything else a usage error. */
  fileToRead(label: string, name: string): string {
    this.checkName(label, name);
    let real: string;
    try {
      real = realpathSync(join(this.root, name));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new UsageError(
        `${label}: no file ${JSON.stringify(name)} in the files folder ${this.root} (${code})`,
        `ask the user to put it there, or give its content inline as ${label}Content`,
      );
    }
    if (!this.holds(real))
      throw new UsageError(
        `${label}: ${JSON.stringify(name)} is a symbolic link leading out of the files folder ${this.root}: refused`,
        `tools read only files inside that folder; give the content inline as ${label}Content`,
      );
    const st = statSync(real);
    if (!st.isFile())
      throw new UsageError(`${label}: ${JSON.stringify(name)} in the files folder is not a regular file: refused`);
    // another name of the same file may be outside (a hard link): what it holds is not the folder's
    if (st.nlink > 1)
      throw new UsageError(
        `${label}: ${JSON.stringify(name)} in the files folder has other names (hard links): refused`,
        `copy the file into the folder instead, or give its content inline as ${label}Content`,
      );
    return real;
  }

  /** A path in the folder for `name` that no file has: report-900001.pdf, else report-900001-2.pdf, … */
  freshPath(name: string): string {
    const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
    const dot = safe.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    for (let n = 1; ; n++) {
      const path = join(this.root, `${stem}${n > 1 ? `-${n}` : ''}${ext}`);
      if (!taken(path)) return path;
    }
  }

  private checkName(label: string, name: string): void {
    const fix = `name a file inside the files folder ${this.root}, e.g. "ids.txt"`;
    if (!name || name.includes('\0')) throw new UsageError(`${label}: not a file name`, fix);
    if (isAbsolute(name))
      throw new UsageError(
        `${label}: ${JSON.stringify(name)} is an absolute path: tools reach only the files folder`,
        fix,
      );
    if (name.split(/[\\/]/).includes('..'))
      throw new UsageError(`${label}: ${JSON.stringify(name)} goes up (..): tools reach only the files folder`, fix);
  }

  private holds(real: string): boolean {
    const rel = relative(this.root, real);
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  }
}

/** Anything at `path`, a dangling symbolic link included. */
function taken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
