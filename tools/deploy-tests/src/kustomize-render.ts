import { execFileSync } from 'node:child_process';

import { parseAllDocuments } from 'yaml';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

/**
 * `kubectl kustomize <dir>`: the real render, parsed into its documents. Without kubectl the test fails
 * and says what to install; it never skips.
 */
export function kustomize(dir: string): Manifest[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'kubectl is not on the PATH: the Kustomize render test needs it (https://kubernetes.io/docs/tasks/tools/, or apt-get install kubectl from the Kubernetes apt repository)',
        { cause: error },
      );
    }
    throw new Error(`kubectl kustomize ${dir} failed: ${(error as { stderr?: string }).stderr ?? String(error)}`, { cause: error });
  }
  return parseAllDocuments(output).map((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS() as Manifest;
  });
}

/** The one manifest of a kind in a render. */
export function onlyOf(manifests: Manifest[], kind: string): Manifest {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, the render has ${found.length}`);
  return found[0];
}
