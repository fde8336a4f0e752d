import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface WalkedFile {
  readonly absolute: string;
  /** Relative to the walk's root, with `/` separators: what glob patterns are matched against. */
  readonly relative: string;
}

export interface WalkOptions {
  /** Whether to descend into a folder (given relative to the root); default: every folder. */
  readonly enter?: (relative: string) => boolean;
  /** Files and folders (given absolute) the walk never yields or enters, whatever `enter` says. */
  readonly exclude?: (absolute: string) => boolean;
  readonly signal?: AbortSignal;
}

/**
 * Every regular file under `root`, in path order (name by name, so `a/b` comes before `a.c`). Symbolic
 * links to files count as files; symbolic links to folders are not followed, so a link cycle cannot trap
 * the walk. Folders that cannot be read are skipped.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const pending: Array<{ relative: string; folder: boolean }> = [{ relative: '', folder: true }];
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const next = pending.pop() as { relative: string; folder: boolean };
    const absolute = path.join(root, next.relative);
    if (!next.folder) {
      yield { absolute, relative: next.relative };
      continue;
    }
    let entries;
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch {
      continue;
    }
    const children: Array<{ relative: string; folder: boolean }> = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const relative = next.relative === '' ? entry.name : `${next.relative}/${entry.name}`;
      if (options.exclude?.(path.join(root, relative))) continue;
      if (entry.isDirectory()) {
        if (options.enter?.(relative) ?? true) children.push({ relative, folder: true });
      } else if (entry.isFile() || (entry.isSymbolicLink() && (await isFile(path.join(root, relative))))) {
        children.push({ relative, folder: false });
      }
    }
    pending.push(...children.reverse());
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
