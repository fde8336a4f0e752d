import { parseArgs } from 'node:util';

import { errorMessage } from '@toolmesh/protocol';
import {
  type DocumentSizeCap,
  FileJsonSource,
  HttpJsonSource,
  lintToolSource,
  type SourceLint,
  TOOL_SOURCE_DOCUMENT,
} from '@toolmesh/registry';

import { openApiSelection } from '../app/build-catalogue';
import { DEFAULT_MANIFEST_TIMEOUT_MILLIS, DEFAULT_MAX_OPENAPI_DOCUMENT_BYTES } from '../config/defaults';

const LINT_SOURCE_HELP = `toolmesh-gateway lint-source - what the gateway would make of a tool service's document

Usage:
  toolmesh-gateway lint-source <file-or-url> [--operations id,id] [--tags tag,tag] [--name id=name]...
                               [--output-schemas enforce|none] [--max-document-bytes n] [--json]

Reads an OpenAPI 3.0 or 3.1 document (JSON) or a tool manifest, as the gateway would load it for a bundle,
and prints the tools it would serve, the ones it would refuse and why, and (for OpenAPI) the operations no
allowlist selects. Nothing is called.

Options:
  --operations <ids>   operationIds to select, comma-separated (a bundle's openapi.operations)
  --tags <tags>        tags whose operations to select, comma-separated (a bundle's openapi.tags)
  --name <id=name>     the tool name of operation <id> (a bundle's openapi.names); repeat for more.
                       Unnamed, an operationId that is no tool name is sanitised: each run of characters
                       other than letters, digits and _ becomes one _ (repos/get-content: repos_get_content)
  --output-schemas <enforce|none>
                       none: no outputSchema, replies passed as text (a bundle's openapi.outputSchemas)
  --max-document-bytes <n>
                       the largest document read (a bundle's openapi.maxDocumentBytes); default
                       MCP_CATALOGUE_MAX_OPENAPI_DOCUMENT_BYTES, else ${DEFAULT_MAX_OPENAPI_DOCUMENT_BYTES}
  --json               print the result as JSON
  -h, --help           Show this help and exit

Operations marked "x-toolmesh-tool" in the document are selected too.
Exit codes: 0 every selected tool would be served, 1 something is refused (or the document cannot be
read or is invalid), 2 usage error.
`;

interface Output {
  write(text: string): unknown;
}

/** `lint-source` (issue 27): a service owner's check before deploying. Returns the exit code. */
export async function lintSourceCommand(
  argv: readonly string[],
  stdout: Output,
  stderr: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        operations: { type: 'string' },
        tags: { type: 'string' },
        name: { type: 'string', multiple: true },
        'output-schemas': { type: 'string' },
        'max-document-bytes': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    stderr.write(`gateway lint-source: ${errorMessage(error)}\nRun with --help for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    stdout.write(LINT_SOURCE_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    stderr.write('gateway lint-source: give exactly one file or URL\nRun with --help for usage.\n');
    return 2;
  }
  const options = lintOptions(values, env);
  if (typeof options === 'string') {
    stderr.write(`gateway lint-source: ${options}\nRun with --help for usage.\n`);
    return 2;
  }
  const { sizeCap, names, outputSchemas } = options;
  const location = positionals[0];
  const source = /^https?:\/\//i.test(location)
    ? new HttpJsonSource(
        new URL(location),
        { timeoutMillis: DEFAULT_MANIFEST_TIMEOUT_MILLIS, maxBytes: sizeCap.maxBytes, maxBytesSetting: sizeCap.setting },
        TOOL_SOURCE_DOCUMENT,
      )
    : new FileJsonSource(location, TOOL_SOURCE_DOCUMENT, undefined, sizeCap);
  let lint: SourceLint;
  try {
    const selection = openApiSelection({
      operations: values.operations ?? '',
      tags: values.tags?.split(',') ?? [],
      names,
      ...(outputSchemas !== undefined && { outputSchemas }),
    });
    lint = await lintToolSource(await source.fetch(), selection);
  } catch (error) {
    stderr.write(`gateway lint-source: ${errorMessage(error)}\n`);
    return 1;
  }
  stdout.write(values.json ? `${JSON.stringify({ location, ...lint }, null, 2)}\n` : report(location, lint));
  return lint.refused.length > 0 || lint.problems.length > 0 ? 1 : 0;
}

interface LintOptions {
  readonly sizeCap: DocumentSizeCap;
  readonly names: Record<string, string>;
  readonly outputSchemas?: 'enforce' | 'none';
}

/** The bundle settings given as options, read as the gateway reads its configuration; or what is wrong with them. */
function lintOptions(
  values: { name?: string[]; 'output-schemas'?: string; 'max-document-bytes'?: string },
  env: NodeJS.ProcessEnv,
): LintOptions | string {
  const names: Record<string, string> = {};
  for (const pair of values.name ?? []) {
    const at = pair.lastIndexOf('=');
    if (at <= 0 || at === pair.length - 1) return `--name ${pair}: give operationId=name`;
    names[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const outputSchemas = values['output-schemas'];
  if (outputSchemas !== undefined && outputSchemas !== 'enforce' && outputSchemas !== 'none')
    return `--output-schemas ${outputSchemas}: give enforce or none`;
  const [setting, given] =
    values['max-document-bytes'] !== undefined
      ? ['--max-document-bytes', values['max-document-bytes']]
      : ['MCP_CATALOGUE_MAX_OPENAPI_DOCUMENT_BYTES or --max-document-bytes', env.MCP_CATALOGUE_MAX_OPENAPI_DOCUMENT_BYTES || undefined];
  if (given !== undefined && !/^[1-9][0-9]*$/.test(given)) return `${setting} ${given}: give a number of bytes`;
  const sizeCap = { maxBytes: given === undefined ? DEFAULT_MAX_OPENAPI_DOCUMENT_BYTES : Number(given), setting };
  return { sizeCap, names, ...(outputSchemas !== undefined && { outputSchemas }) };
}

function report(location: string, lint: SourceLint): string {
  const kind = lint.kind === 'openapi' ? 'OpenAPI document' : 'manifest';
  const lines = [`${kind} ${location}`];
  if (lint.problems.length > 0) {
    lines.push('refused as a whole (a bundle would keep its last good tools):', ...lint.problems.map((problem) => `  ${problem}`));
    return `${lines.join('\n')}\n`;
  }
  const width = Math.max(0, ...lint.tools.map((tool) => tool.name.length), ...lint.refused.map((tool) => tool.name.length));
  lines.push(`tools (${lint.tools.length}):`, ...lint.tools.map((tool) => `  ${tool.name.padEnd(width)}  ${tool.call}`));
  lines.push(
    `refused (${lint.refused.length}):`,
    ...lint.refused.map((tool) => `  ${tool.name.padEnd(width)}  ${tool.code}: ${tool.message}`),
  );
  if (lint.kind === 'openapi') lines.push(`not selected (${lint.ignored.length}):`, ...lint.ignored.map((operation) => `  ${operation}`));
  return `${lines.join('\n')}\n`;
}
