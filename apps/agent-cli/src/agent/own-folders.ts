import { constants, lstatSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';

/**
 * Makes `folder`, a folder of the CLI's own files under the working directory (`.agent-cli/...`), one
 * level at a time, and checks each level is a real folder: the workspace is anyone's (a cloned
 * repository), and a `.agent-cli` planted there as a symbolic link, or a link inside it, would otherwise
 * have the CLI write where the link leads. The working directory itself may be a link: the user chose it.
 * A file in the way fails as the file system says (ENOTDIR); a link, with `files.planted_link`.
 */
export function makeOwnFolder(workingDirectory: string, folder: string): void {
  const relative = path.relative(workingDirectory, folder);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`${folder} is not under ${workingDirectory}`);
  let current = workingDirectory;
  for (const part of relative.split(path.sep).filter((p) => p !== '')) {
    current = path.join(current, part);
    try {
      mkdirSync(current, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lstatSync(current).isSymbolicLink())
      throw new AgentError(
        AgentErrorCode.PlantedLink,
        `${path.relative(workingDirectory, current)} is a symbolic link; the agent CLI writes its own files only into real folders under the working directory: remove the link`,
      );
  }
}

/** Opens a new file of the CLI's own for writing: never one that exists, and never through a link (O_EXCL, O_NOFOLLOW). */
export function createOwnFile(file: string, mode: number): number {
  return openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
}

/** Why an own file could not be written, short: a planted link's message and code, else the file system's code. */
export function ownFileFailure(error: unknown): string {
  if (error instanceof AgentError) return `${error.message} [${error.code}]`;
  return (error as NodeJS.ErrnoException).code ?? errorMessage(error);
}
