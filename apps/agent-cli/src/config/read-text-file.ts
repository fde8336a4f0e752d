import { readFileSync } from 'node:fs';

import { errorMessage } from '@toolmesh/protocol';

/** A configuration or hook file's text, or why it cannot be read, worded to follow the file's name. */
export function readTextFile(file: string): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: readFileSync(file, 'utf8') };
  } catch (error) {
    return {
      ok: false,
      reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${errorMessage(error)})`,
    };
  }
}
