import { parse as parseYaml } from 'yaml';

/** The Agent Skills naming rule (SEP-2640 §Resource Mapping): 1-64 of `a-z0-9-`, no leading, trailing or doubled `-`. */
const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** YAML front matter at the very start of a SKILL.md (a byte order mark allowed), as the conformance suite reads it. */
const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function isSkillName(name: string): boolean {
  return SKILL_NAME.test(name);
}

/**
 * A SKILL.md's front matter as a JSON object, parsed with the `yaml` package (the one the conformance suite
 * compares with, so the entry's `frontmatter` is identical in content to the file's), or what is wrong with
 * it: no front matter, YAML that does not parse to a mapping, a missing `name` or `description`, a name
 * that breaks the naming rule or differs from the skill's folder (`folder`).
 */
export function readSkillDocument(bytes: Buffer, folder: string): { frontmatter: Record<string, unknown> } | { problem: string } {
  const match = FRONT_MATTER.exec(bytes.toString('utf8'));
  if (match === null) return { problem: 'SKILL.md does not start with YAML front matter between --- lines' };
  let parsed: unknown;
  try {
    parsed = parseYaml(match[1]);
  } catch {
    return { problem: 'the front matter of SKILL.md is not valid YAML' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problem: 'the front matter of SKILL.md is not a mapping' };
  const frontmatter = parsed as Record<string, unknown>;
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || !isSkillName(name))
    return { problem: 'the front matter "name" must be 1-64 characters of a-z, 0-9 and single hyphens' };
  if (name !== folder) return { problem: `the front matter "name" must equal the skill's folder name "${folder}"` };
  if (typeof description !== 'string' || description.trim() === '')
    return { problem: 'the front matter "description" must be a non-empty string' };
  return { frontmatter };
}
