/** The Skills extension's name, its key under `capabilities.extensions` (SEP-2640 §Capability Negotiation). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The methods the extension adds; skill files themselves are read with `resources/read`. */
export const SkillsMethod = {
  List: 'skills/list',
  Get: 'skills/get',
  /** Served because the gateway declares `directoryRead: true`. */
  DirectoryRead: 'resources/directory/read',
} as const;
