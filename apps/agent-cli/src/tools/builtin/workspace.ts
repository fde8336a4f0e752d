import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the built-in file tools may go: inside the workspace (the working directory and the configured
 * extra roots), as their declaration says; outside it, and into a sealed directory (the CLI's own
 * configuration and credentials), never, whatever the flags or answers. Paths are compared as the file
 * system resolves them, so `..`, an absolute path and a symbolic link inside the workspace to a file
 * outside it, or to a credential, count as where they lead.
 */
export type Reach = 'inside' | 'outside' | 'sealed';

export class Workspace {
  private readonly roots: readonly string[];
  private readonly sealed: readonly string[];

  constructor(roots: readonly string[], sealed: readonly string[]) {
    this.roots = roots.map(resolvedPath);
    this.sealed = sealed.map(resolvedPath);
  }

  reachOf(absolute: string): Reach {
    const real = resolvedPath(absolute);
    if (this.sealed.some((dir) => isWithin(dir, real))) return 'sealed';
    return this.roots.some((root) => isWithin(root, real)) ? 'inside' : 'outside';
  }
}

/** The path with every symbolic link of its existing part resolved; a part not there yet is kept as written. */
function resolvedPath(absolute: string): string {
  const missing: string[] = [];
  let existing = path.resolve(absolute);
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...missing.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return path.resolve(absolute);
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

function isWithin(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
