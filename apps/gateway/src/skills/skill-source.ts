/** A skill's files as a source read them, before they are checked and digested (skill.ts, `packageSkill`). */
export interface ReadSkill {
  readonly name: string;
  /** `<name>`, or `<authority>/<name>`: the skill's URI is `skill://<skillPath>/SKILL.md`. */
  readonly skillPath: string;
  readonly files: ReadonlyArray<{ path: string; bytes: Buffer }>;
  readonly requiredScopes: readonly string[];
}

/** What one load of a source gave: its skills, those it could not read (by name, and why), or why it gave none. */
export interface SkillsLoaded {
  readonly skills: ReadSkill[];
  readonly skipped: Array<{ readonly skill: string; readonly problem: string }>;
  readonly failed?: string;
}

/** Where skills come from: an operator's folder, a tool service (skill-folders.ts, service-skills.ts). */
export interface SkillSource {
  /** Said in log lines: `folder <path>`, `bundle <name>`. */
  readonly label: string;
  load(): Promise<SkillsLoaded>;
}
