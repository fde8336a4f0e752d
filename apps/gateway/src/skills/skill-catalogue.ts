import type { AuthenticatedCaller, Logger } from '@toolmesh/transport-http/server';

import { packageSkill, type Skill, type SkillFile, type SkillLimits } from './skill';
import { directoryChildren } from './skill-entries';
import type { SkillSource } from './skill-source';
import { skillDirectoryUri, skillFileUri } from './skill-uris';

/** One load of every source: the skills in source order, and each served file by its URI. */
interface Generation {
  readonly skills: readonly Skill[];
  readonly files: ReadonlyMap<string, { readonly skill: Skill; readonly file: SkillFile }>;
}

export interface SkillCatalogueOptions {
  /** How long a load is served before the next request starts another (`mcp.catalogue.refreshTtlMillis`). */
  readonly ttlMillis: number;
  readonly limits: SkillLimits;
  readonly now: () => number;
  readonly logger: Logger;
}

/**
 * The skills the gateway serves itself (issue 49), from operators' folders then tool services, in
 * configuration order: loaded at start and again when a request finds the last load older than the TTL
 * (the request is answered from the last load meanwhile); a source that fails keeps its last good skills.
 * A skill that cannot be served (bad front matter, over its limits, a file that cannot be read) is left
 * out with a `skill_skipped` line naming the source, the skill and why, never its contents; so is a skill
 * whose path an earlier source already serves (`skill_path_taken`). Nothing here fails the gateway.
 */
export class SkillCatalogue {
  private generation: Generation = { skills: [], files: new Map() };
  private loadedAt: number | undefined;
  private loading: Promise<void> | undefined;
  /** Each source's last good skills, and the problems already logged (said once, not at every load). */
  private readonly lastGood = new Map<SkillSource, readonly Skill[]>();
  private readonly logged = new Map<SkillSource, ReadonlySet<string>>();
  /** What the last load served (each file's URI and digest), to tell a change from a reload of the same. */
  private signature = '';
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly sources: readonly SkillSource[],
    private readonly options: SkillCatalogueOptions,
  ) {}

  /** Whether any source is configured: without one, no skills method is served. */
  get served(): boolean {
    return this.sources.length > 0;
  }

  start(): void {
    void this.current();
  }

  /** Starts a load when the TTL has passed, as a request would: for a replica whose only clients are listening. */
  refreshIfStale(): void {
    void this.current();
  }

  /** Called after each load that changed what is served (not the first): a skill, a file or its bytes. Returns the unsubscribe function. */
  onChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The skills this caller may see (every one without authentication), in catalogue order. */
  async visible(caller: AuthenticatedCaller | undefined): Promise<readonly Skill[]> {
    return (await this.current()).skills.filter((skill) => mayAccess(skill, caller));
  }

  /** A skill by its URI (its SKILL.md's), if this caller may see it. */
  async skill(uri: string, caller: AuthenticatedCaller | undefined): Promise<Skill | undefined> {
    const found = (await this.current()).files.get(uri);
    return found !== undefined && found.file.path === 'SKILL.md' && mayAccess(found.skill, caller) ? found.skill : undefined;
  }

  /** A skill's file by its URI, if this caller may read it. */
  async file(uri: string, caller: AuthenticatedCaller | undefined): Promise<SkillFile | undefined> {
    const found = (await this.current()).files.get(uri);
    return found !== undefined && mayAccess(found.skill, caller) ? found.file : undefined;
  }

  /**
   * The direct children of a directory this caller may see: a folder of a skill (its root included), or a
   * folder above skills (`skill://<bundle>`, whose children are its skills' roots); undefined for anything else.
   */
  async directory(uri: string, caller: AuthenticatedCaller | undefined): Promise<object[] | undefined> {
    const skills = await this.visible(caller);
    for (const skill of skills) {
      const root = skillDirectoryUri(skill.skillPath, '');
      if (uri === root) return directoryChildren(skill, '');
      const children = uri.startsWith(`${root}/`) ? directoryChildren(skill, uri.slice(root.length + 1)) : undefined;
      if (children !== undefined) return children;
    }
    const above = new Map<string, object>();
    for (const skill of skills) {
      const root = skillDirectoryUri(skill.skillPath, '');
      if (!root.startsWith(`${uri}/`)) continue;
      const name = root.slice(uri.length + 1).split('/')[0];
      above.set(name, { uri: `${uri}/${name}`, name, mimeType: 'inode/directory' });
    }
    return above.size === 0 ? undefined : [...above.values()];
  }

  private async current(): Promise<Generation> {
    const stale = this.loadedAt === undefined || this.options.now() - this.loadedAt >= this.options.ttlMillis;
    if (stale && this.loading === undefined) this.loading = this.load().finally(() => (this.loading = undefined));
    if (this.loadedAt === undefined) await this.loading;
    return this.generation;
  }

  private async load(): Promise<void> {
    const { logger, limits } = this.options;
    const loads = await Promise.all(this.sources.map((source) => source.load()));
    const skills: Skill[] = [];
    const files = new Map<string, { skill: Skill; file: SkillFile }>();
    this.sources.forEach((source, index) => {
      const loaded = loads[index];
      const problems = new Map<string, Record<string, string>>();
      let fromSource: readonly Skill[];
      if (loaded.failed !== undefined) {
        problems.set(`failed ${loaded.failed}`, { event: 'skills_source_failed', reason: loaded.failed });
        fromSource = this.lastGood.get(source) ?? [];
      } else {
        const packaged: Skill[] = [];
        for (const read of loaded.skills) {
          const skill = packageSkill(read, read.requiredScopes, limits);
          if ('problem' in skill) loaded.skipped.push({ skill: read.name, problem: skill.problem });
          else packaged.push(skill);
        }
        for (const { skill, problem } of loaded.skipped)
          problems.set(`${skill} ${problem}`, { event: 'skill_skipped', skill, reason: problem });
        this.lastGood.set(source, packaged);
        fromSource = packaged;
      }
      for (const skill of fromSource) {
        const uri = skillFileUri(skill.skillPath, 'SKILL.md');
        if (files.has(uri)) {
          problems.set(`taken ${skill.skillPath}`, {
            event: 'skill_path_taken',
            skill: skill.skillPath,
            reason: 'an earlier source serves it',
          });
          continue;
        }
        skills.push(skill);
        for (const file of skill.files) files.set(skillFileUri(skill.skillPath, file.path), { skill, file });
      }
      const before = this.logged.get(source);
      for (const [key, { event, ...fields }] of problems) if (!before?.has(key)) logger.warn(event, { source: source.label, ...fields });
      this.logged.set(source, new Set(problems.keys()));
    });
    this.generation = { skills, files };
    const first = this.loadedAt === undefined;
    this.loadedAt = this.options.now();
    const signature = [...files].map(([uri, { file }]) => `${uri} ${file.digest}`).join('\n');
    if (signature === this.signature) return;
    this.signature = signature;
    if (!first) for (const listener of this.changeListeners) listener();
  }
}

/** A skill's scopes are all granted to the caller (SPEC G27); without authentication every skill is open. */
function mayAccess(skill: Skill, caller: AuthenticatedCaller | undefined): boolean {
  return caller === undefined || skill.requiredScopes.every((scope) => caller.scopes.has(scope));
}
