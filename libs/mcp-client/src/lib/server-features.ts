import type {
  Client,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client';
import { isLoggingLevel, LOGGING_LEVELS, printable } from '@toolmesh/protocol';
import * as z from 'zod';

/** What `completion/complete` asks: the prompt or resource template (`ref`), the argument, the others given. */
export type CompletionParams = CompleteRequest['params'];
export type { CompleteResult };

/** A server feature beside tools, by its capability name. */
export type ServerFeature = 'resources' | 'prompts' | 'logging' | 'completions';

export interface FeatureRequestOptions {
  /** This request's timeout instead of the client's `requestTimeoutMs` (a gateway's remaining deadline). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The request's `_meta` (a gateway's correlation ids). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** The capability key under `capabilities.extensions` of a server that serves skills (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

const SkillFileSchema = z.looseObject({
  uri: z.string().min(1),
  /** SHA-256 of the file's raw bytes. */
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a digest is "sha256:" and 64 lowercase hex digits'),
  /** Byte length of the same raw bytes. */
  size: z.number().int().nonnegative(),
});

const SkillEntrySchema = z.looseObject({
  /** The skill's SKILL.md; its folder (the uri without `/SKILL.md`) is the skill's root. */
  uri: z.string().min(1),
  /** SKILL.md's YAML front matter as JSON, which the file itself must match. */
  frontmatter: z.record(z.string(), z.unknown()),
  /** Every file of the skill, SKILL.md included, or `'dynamic'` when the server cannot list them up front. */
  resources: z.union([z.array(SkillFileSchema), z.literal('dynamic')]),
});

const ListSkillsResultSchema = z.looseObject({ skills: z.array(SkillEntrySchema), nextCursor: z.string().optional() });
const GetSkillResultSchema = z.looseObject({ skill: SkillEntrySchema });

export type SkillFile = z.infer<typeof SkillFileSchema>;
/** One skill as `skills/list` and `skills/get` describe it: what a host verifies the files it reads against. */
export type SkillEntry = z.infer<typeof SkillEntrySchema>;

/** Pages of one `skills/list` followed at most: a server whose cursors never end is not followed forever. */
const MAX_SKILL_PAGES = 100;

/**
 * A connected server's resources and prompts (SPEC A13), beside the tool-facing `McpClient` rather than
 * grown into it: what the agent's resource and prompt clients and the gateway's federated features ask
 * of a server, so that no app needs the SDK's client itself. Each list is every page (the SDK follows
 * `nextCursor`).
 */
export class ServerFeatures {
  constructor(
    private readonly sdk: Client,
    private readonly requestTimeoutMs: number,
  ) {}

  /** Whether the server declared the feature (at `initialize`, or in its `server/discover` result). */
  offers(feature: ServerFeature): boolean {
    return Boolean(this.sdk.getServerCapabilities()?.[feature]);
  }

  /** Whether the server declared the skills extension (an object, possibly empty, under `capabilities.extensions`). */
  offersSkills(): boolean {
    const extensions = (this.sdk.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    const declared = extensions?.[SKILLS_EXTENSION];
    return typeof declared === 'object' && declared !== null;
  }

  /**
   * Every skill the server lists, all pages (`skills/list`); none from a server that did not declare the
   * extension, which is not asked. A reply that is not a skill listing (a missing digest, a size that is no
   * number) is the SDK's `Invalid result for skills/list: …` error, naming what is wrong.
   */
  async listSkills(options: FeatureRequestOptions = {}): Promise<SkillEntry[]> {
    if (!this.offersSkills()) return [];
    const skills: SkillEntry[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const params = { ...(cursor !== undefined && { cursor }), ...metaOf(options) };
      const page = await this.sdk.request({ method: 'skills/list', params }, ListSkillsResultSchema, this.requestOptions(options));
      skills.push(...page.skills);
      cursor = page.nextCursor;
      if (cursor !== undefined && (seen.has(cursor) || seen.size >= MAX_SKILL_PAGES)) {
        throw new Error(`skills/list: the server's cursor repeats or its pages go beyond ${MAX_SKILL_PAGES}; the listing was abandoned`);
      }
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return skills;
  }

  /** One skill by its SKILL.md uri (`skills/get`); the server answers -32602 for a uri it serves no skill at. */
  async getSkill(uri: string, options: FeatureRequestOptions = {}): Promise<SkillEntry> {
    const result = await this.sdk.request(
      { method: 'skills/get', params: { uri, ...metaOf(options) } },
      GetSkillResultSchema,
      this.requestOptions(options),
    );
    return result.skill;
  }

  /**
   * Each list is asked only of a server that offers its feature: for one that does not, the SDK answers an
   * empty list itself and says so with `console.debug`, a line on stdout outside any log format (a gateway's
   * JSON lines, issue 44), at every listing.
   */
  async listResources(options: FeatureRequestOptions = {}): Promise<Resource[]> {
    if (!this.offers('resources')) return [];
    return (await this.sdk.listResources(undefined, this.requestOptions(options))).resources;
  }

  async listResourceTemplates(options: FeatureRequestOptions = {}): Promise<ResourceTemplate[]> {
    if (!this.offers('resources')) return [];
    return (await this.sdk.listResourceTemplates(undefined, this.requestOptions(options))).resourceTemplates;
  }

  async listPrompts(options: FeatureRequestOptions = {}): Promise<Prompt[]> {
    if (!this.offers('prompts')) return [];
    return (await this.sdk.listPrompts(undefined, this.requestOptions(options))).prompts;
  }

  readResource(uri: string, options: FeatureRequestOptions = {}): Promise<ReadResourceResult> {
    return this.sdk.readResource({ uri, ...metaOf(options) }, this.requestOptions(options));
  }

  getPrompt(name: string, args?: Record<string, string>, options: FeatureRequestOptions = {}): Promise<GetPromptResult> {
    return this.sdk.getPrompt({ name, ...(args && { arguments: args }), ...metaOf(options) }, this.requestOptions(options));
  }

  /**
   * The server's completions of a prompt's or a resource template's argument (`completion/complete`); a
   * server that offers no completions has none to give, and is not asked: an empty list.
   */
  complete(params: CompletionParams, options: FeatureRequestOptions = {}): Promise<CompleteResult> {
    if (!this.offers('completions')) return Promise.resolve({ completion: { values: [], hasMore: false } });
    return this.sdk.complete({ ...params, ...metaOf(options) }, this.requestOptions(options));
  }

  /**
   * Asks a 2025 server that offers `logging` to send log messages at `level` and above from now on, for the
   * whole session (`logging/setLevel`); whether it was asked. A 2026-07-28 server is never asked: that
   * revision has no such method, and a request names its level in its `_meta` instead.
   */
  async setLogLevel(level: string, options: FeatureRequestOptions = {}): Promise<boolean> {
    if (!isLoggingLevel(level)) throw new RangeError(`"${printable(level, 40)}" is no log level: one of ${LOGGING_LEVELS.join(', ')}`);
    if (this.sdk.getProtocolEra() !== 'legacy' || !this.offers('logging')) return false;
    await this.sdk.setLoggingLevel(level as LoggingLevel, this.requestOptions(options));
    return true;
  }

  private requestOptions({ timeoutMs, signal }: FeatureRequestOptions): { timeout: number; signal?: AbortSignal } {
    return { timeout: timeoutMs ?? this.requestTimeoutMs, ...(signal && { signal }) };
  }
}

/** The caller's `_meta` in a copy of the request's own: the caller's object goes with its other requests too. */
function metaOf({ meta }: FeatureRequestOptions): { _meta?: Record<string, unknown> } {
  return meta ? { _meta: { ...meta } } : {};
}
