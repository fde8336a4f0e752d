import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

import { ERA_SETTINGS, type EraSetting } from '@toolmesh/mcp-client';

import type { NewServerEntry } from '../../config/config-editor';
import { isUrlLike } from '../../config/server-entry';
import { ANNOTATION_TRUST, type AnnotationTrust } from '../../mcp/annotation-trust';

const TRANSPORTS: Readonly<Record<string, NewServerEntry['transport']>> = {
  stdio: 'stdio',
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  sse: 'sse',
};

/** The options of `mcp add`, as the command line gave them. */
export interface AddOptions {
  readonly transport?: string;
  readonly env?: string[];
  readonly header?: string[];
  readonly annotationTrust?: string;
  readonly era?: string;
  readonly timeout?: string;
  readonly roots?: string[];
}

/** Where `mcp add` runs (its `--roots` are relative to it) and the file it edits (the entry's roots are written relative to it). */
export interface AddPlace {
  readonly cwd: string;
  readonly file: string;
}

/** `30s`, `2m`, `1500ms`: a unit is required, since goose counts seconds and our file milliseconds. */
const DURATION = /^([1-9][0-9]*)(ms|s|m)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/**
 * `add <name> <command> [args...]` or `add [--transport http] <name> <url>`, with its options; or what is
 * wrong with the words. Each option becomes the entry's key of the same meaning (docs/agent-cli.md, "Editing the server list: mcp").
 */
export function newEntry(
  [name, target, ...args]: readonly string[],
  options: AddOptions,
  place: AddPlace,
): NewServerEntry | { problem: string } {
  if (name === undefined || target === undefined) return { problem: '"add" takes a name and a command (stdio) or a URL (http, sse)' };
  // Without --transport, "ftp://foo" would otherwise be taken for a command to run.
  if (options.transport === undefined && isUrlLike(target) && !/^https?:\/\//i.test(target))
    return { problem: `"${target}" is a URL, but servers are reached over http:// or https:// only (a stdio server is a command)` };
  const trust = options.annotationTrust;
  if (trust !== undefined && !(ANNOTATION_TRUST as readonly string[]).includes(trust))
    return { problem: `--annotation-trust must be one of ${ANNOTATION_TRUST.join(', ')}, not "${trust}"` };
  if (options.era !== undefined && !(ERA_SETTINGS as readonly string[]).includes(options.era))
    return { problem: `--era must be one of ${ERA_SETTINGS.join(', ')}, not "${options.era}"` };
  const timeout = options.timeout === undefined ? undefined : DURATION.exec(options.timeout);
  if (timeout === null) return { problem: `--timeout takes a duration with its unit (30s, 2m, 1500ms), not "${options.timeout}"` };
  const roots = chosenRoots(options.roots, place);
  if (typeof roots === 'string') return { problem: `--roots ${roots} is not a directory` };
  const transport =
    options.transport === undefined ? (/^https?:\/\//.test(target) ? 'streamable-http' : 'stdio') : TRANSPORTS[options.transport];
  if (transport === undefined)
    return { problem: `--transport must be one of ${Object.keys(TRANSPORTS).join(', ')}, not "${options.transport}"` };
  const env = pairs(options.env ?? [], /=/);
  // Claude's `-H "Name: value"` and Codex's `--header Name=value`: whichever separator comes first (a name has neither).
  const headers = pairs(options.header ?? [], /[:=]/);
  if (typeof env === 'string') return { problem: `"${env}" is not -e KEY=value` };
  if (typeof headers === 'string') return { problem: `"${headers}" is not -H "Name: value" (or --header Name=value)` };
  const settings = {
    annotationTrust: trust as AnnotationTrust | undefined,
    era: options.era as EraSetting | undefined,
    requestTimeoutMs: timeout ? Number(timeout[1]) * UNIT_MS[timeout[2]] : undefined,
    roots,
  };
  if (transport === 'stdio')
    return options.header
      ? { problem: '-H / --header headers are for http and sse servers' }
      : { name, transport, command: target, args, env, ...settings };
  if (options.env) return { problem: '-e / --env variables are for stdio servers' };
  if (args.length > 0) return { problem: `an ${transport} server takes one URL, not also "${args.join(' ')}"` };
  return { name, transport, url: target, headers, ...settings };
}

/**
 * `--roots <dir>` (repeatable; `.` is where `mcp add` runs), each checked to be a directory and written
 * relative to the configuration file when inside its folder (the project can move), absolute otherwise.
 * Returns the first that is not a directory.
 */
function chosenRoots(roots: readonly string[] | undefined, { cwd, file }: AddPlace): string[] | undefined | string {
  if (roots === undefined) return undefined;
  const written: string[] = [];
  for (const root of roots) {
    const absolute = path.resolve(cwd, root);
    if (!existsSync(absolute) || !statSync(absolute).isDirectory()) return root;
    const relative = path.relative(path.dirname(file), absolute);
    written.push(relative === '' ? '.' : relative.split(path.sep)[0] === '..' || path.isAbsolute(relative) ? absolute : relative);
  }
  return written;
}

/** `KEY=value` or `Name: value` words as a map, or the first word that is not one. */
function pairs(words: readonly string[], separator: RegExp): Record<string, string> | string {
  const map: Record<string, string> = {};
  for (const word of words) {
    const at = word.search(separator);
    if (at <= 0) return word;
    map[word.slice(0, at).trim()] = word.slice(at + 1).trim();
  }
  return map;
}
