import type { EraSetting } from '@toolmesh/mcp-client';
import { type Document, isMap, isSeq, parseDocument } from 'yaml';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { AnnotationTrust } from '../mcp/annotation-trust';
import { PROGRAM } from '../program-name';

/**
 * A server entry as `mcp add` writes it: the fields a user gives on the command line, in the spelling of
 * the file's format (`transport` in ours, `type` in an `mcpServers` file).
 */
export interface NewServerEntry {
  readonly name: string;
  readonly transport: 'stdio' | 'streamable-http' | 'sse';
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly annotationTrust?: AnnotationTrust;
  readonly era?: EraSetting;
  readonly requestTimeoutMs?: number;
  /** As written in the file: relative to it, or absolute. */
  readonly roots?: readonly string[];
}

/** One configured server as the file holds it (before `${VAR}` expansion): what `mcp list` and `mcp get` show. */
export interface ConfiguredServer {
  readonly name: string;
  readonly entry: Readonly<Record<string, unknown>>;
}

/** Which of the two formats a file is in: an `mcpServers` map (other hosts' JSON) or ours (`mcp.servers`). */
type Format = 'agent' | 'mcpServers';

/**
 * Edits the server list of a configuration file's text like `claude mcp add / remove` (SPEC A20). Our
 * YAML is edited as a YAML document, so comments, order and every other setting stay as they were; an
 * `mcpServers` JSON file is rewritten as JSON with its other keys kept.
 */
export class ConfigEditor {
  private readonly document: Document;
  private readonly format: Format;

  constructor(
    private readonly file: string,
    text: string,
  ) {
    this.document = parseDocument(text, { uniqueKeys: true });
    if (this.document.errors.length > 0) throw this.invalid(`is not valid YAML or JSON: ${this.document.errors[0].message}`);
    const root = this.document.contents;
    if (root !== null && !isMap(root)) throw this.invalid('must be a map with "mcp" (agent format) or "mcpServers" (MCP host format)');
    this.format = this.document.has('mcpServers') ? 'mcpServers' : 'agent';
  }

  list(): ConfiguredServer[] {
    const node = this.document.getIn(this.format === 'agent' ? ['mcp', 'servers'] : ['mcpServers']);
    if (this.format === 'mcpServers') {
      const map = isMap(node) ? (node.toJSON() as Record<string, Record<string, unknown>>) : {};
      return Object.entries(map).map(([name, entry]) => ({ name, entry }));
    }
    const list = isSeq(node) ? (node.toJSON() as Array<Record<string, unknown>>) : [];
    return list.map((entry) => ({ name: String(entry?.name), entry }));
  }

  add(server: NewServerEntry): void {
    if (this.list().some((s) => s.name === server.name)) {
      throw new AgentError(
        AgentErrorCode.ConfigDuplicateServer,
        `${this.file} already has a server named "${server.name}"; remove it first (${PROGRAM} mcp remove ${server.name}) or choose another name`,
      );
    }
    if (this.format === 'mcpServers') {
      const { name, transport, ...fields } = server;
      this.document.setIn(
        ['mcpServers', name],
        this.document.createNode(
          withoutEmpty({ ...(transport === 'stdio' ? {} : { type: transport === 'sse' ? 'sse' : 'http' }), ...fields }),
        ),
      );
      return;
    }
    const servers = this.document.getIn(['mcp', 'servers']);
    const node = this.document.createNode(
      withoutEmpty({ ...server, transport: server.transport === 'stdio' ? undefined : server.transport }),
    );
    if (isSeq(servers)) servers.add(node);
    else this.document.setIn(['mcp', 'servers'], this.document.createNode([node]));
  }

  remove(name: string): void {
    if (this.format === 'mcpServers') {
      if (!this.document.deleteIn(['mcpServers', name])) throw this.notFound(name);
      return;
    }
    const index = this.list().findIndex((s) => s.name === name);
    if (index < 0) throw this.notFound(name);
    this.document.deleteIn(['mcp', 'servers', index]);
  }

  /**
   * Turns a server off without deleting it, or on again, in the file's own spelling: `enabled: false` in
   * ours, `"disabled": true` in an `mcpServers` file (as Claude Desktop and other hosts read it). On is the
   * absence of both keys, so `disable` then `enable` gives the file back as it was.
   */
  setEnabled(name: string, enabled: boolean): void {
    const at = this.format === 'mcpServers' ? ['mcpServers', name] : ['mcp', 'servers', this.list().findIndex((s) => s.name === name)];
    if (!this.list().some((s) => s.name === name)) throw this.notFound(name);
    if (enabled) for (const key of ['enabled', 'disabled']) this.document.deleteIn([...at, key]);
    else if (this.format === 'mcpServers') this.document.setIn([...at, 'disabled'], true);
    else this.document.setIn([...at, 'enabled'], false);
  }

  /** The edited file: YAML as the document prints it, JSON pretty-printed for an `mcpServers` file. */
  toString(): string {
    return this.format === 'mcpServers'
      ? `${JSON.stringify(this.document.toJSON(), null, 2)}\n`
      : this.document.toString({ flowCollectionPadding: false });
  }

  private notFound(name: string): AgentError {
    const names =
      this.list()
        .map((s) => s.name)
        .join(', ') || 'none';
    return new AgentError(AgentErrorCode.ServerNotFound, `${this.file} has no server named "${name}" (configured: ${names})`);
  }

  private invalid(problem: string): AgentError {
    return new AgentError(AgentErrorCode.ConfigInvalid, `${this.file} ${problem}`);
  }
}

/** The entry without the fields left unset or empty, so the file holds only what was given. */
function withoutEmpty(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entry).filter(
      ([, value]) =>
        value !== undefined &&
        !(Array.isArray(value) && value.length === 0) &&
        !(typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0),
    ),
  );
}
