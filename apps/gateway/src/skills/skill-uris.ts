/** The scheme of every skill URI the gateway serves (SEP-2640 §Resource Mapping). */
const SCHEME = 'skill://';

/** `skill://<skill path>/<file>`: a skill's file; a skill's own URI is that of its SKILL.md. */
export function skillFileUri(skillPath: string, file: string): string {
  return `${SCHEME}${skillPath}/${file}`;
}

/** `skill://<skill path>[/<folder>]`: a directory (no trailing slash). */
export function skillDirectoryUri(skillPath: string, folder: string): string {
  return folder === '' ? `${SCHEME}${skillPath}` : `${SCHEME}${skillPath}/${folder}`;
}

export function isSkillUri(uri: string): boolean {
  return uri.startsWith(SCHEME);
}
