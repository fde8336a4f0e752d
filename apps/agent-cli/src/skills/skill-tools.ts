import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { BuiltinTool, type BuiltinToolContext, textResult } from '../tools/builtin/builtin-tool';
import { errorResult, type Tool, type ToolResult } from '../tools/tool';
import type { OfferedSkill, SkillCatalogue } from './skill-catalogue';

const READ_ONLY = { level: 'read-only', destructive: false, basis: 'declared' } as const;

/** A description longer than the Agent Skills format allows (1024) is cut: the list goes out with every request. */
const MAX_DESCRIPTION_CHARS = 1024;

export const LOAD_SKILL_NAME = 'LoadSkill';
export const READ_SKILL_FILE_NAME = 'ReadSkillFile';

/**
 * The model's way to the skills (skill-catalogue.ts): LoadSkill, whose description lists each skill's
 * name, origin and description, and nothing more of it; and ReadSkillFile, for a file a loaded skill
 * refers to. Both only read, and their results go through the same `llm.maxToolResultChars` as every
 * other tool's. Registered when at least one skill is offered.
 */
export function createSkillTools(context: BuiltinToolContext, catalogue: SkillCatalogue): Tool[] {
  const session = new SkillSession(catalogue);
  return [new LoadSkillTool(context, session), new ReadSkillFileTool(context, session)];
}

/**
 * What the two tools share in one runtime: which skills were loaded, so that a file is read only of a
 * skill the model loaded (and whose SKILL.md was checked), and none of a skill that was refused.
 */
class SkillSession {
  private readonly loaded = new Set<OfferedSkill>();
  private readonly refused = new Map<OfferedSkill, string>();

  constructor(readonly catalogue: SkillCatalogue) {}

  async load(skill: OfferedSkill, signal?: AbortSignal) {
    const refusal = this.refused.get(skill);
    if (refusal !== undefined) throw new Error(refusal);
    try {
      const loaded = await this.catalogue.load(skill, signal);
      this.loaded.add(skill);
      return loaded;
    } catch (error) {
      this.remember(skill, error);
      throw error;
    }
  }

  async readFile(skill: OfferedSkill, file: string, signal?: AbortSignal): Promise<Buffer> {
    const refusal = this.refused.get(skill);
    if (refusal !== undefined) throw new Error(refusal);
    if (!this.loaded.has(skill)) throw new Error(`load skill "${skill.name}" with ${LOAD_SKILL_NAME} first`);
    try {
      return await this.catalogue.readFile(skill, file, signal);
    } catch (error) {
      this.remember(skill, error);
      throw error;
    }
  }

  /** A file that does not match its listing refuses the whole skill for the session; a failed read (a server down) does not. */
  private remember(skill: OfferedSkill, error: unknown): void {
    if (error instanceof AgentError && error.code === AgentErrorCode.SkillRefused) this.refused.set(skill, error.message);
  }
}

interface SkillArgs {
  readonly name: string;
  readonly origin?: string;
}

const SKILL_PROPERTIES = {
  name: { type: 'string', minLength: 1, description: 'The skill, as listed.' },
  origin: { type: 'string', minLength: 1, description: 'Where it comes from, as listed; needed only when several skills share the name.' },
} as const;

abstract class SkillTool<Args extends SkillArgs> extends BuiltinTool<Args> {
  readonly sideEffects = READ_ONLY;

  constructor(
    context: BuiltinToolContext,
    protected readonly session: SkillSession,
  ) {
    super(context);
  }
}

class LoadSkillTool extends SkillTool<SkillArgs> {
  readonly name = LOAD_SKILL_NAME;
  readonly description: string;
  readonly inputSchema = {
    type: 'object',
    properties: SKILL_PROPERTIES,
    required: ['name'],
    additionalProperties: false,
  } as const;

  constructor(context: BuiltinToolContext, session: SkillSession) {
    super(context, session);
    this.description = [
      'Loads a skill: instructions for a kind of task, which you follow once loaded. When a task matches a skill below, load it first.',
      'Skills (name [origin]: description):',
      ...session.catalogue.skills.map((skill) => `- ${skill.name} [${skill.origin}]: ${cut(skill.description)}`),
    ].join('\n');
  }

  protected async run({ name, origin }: SkillArgs, signal?: AbortSignal): Promise<ToolResult> {
    const skill = this.session.catalogue.find(name, origin);
    try {
      const { document, files } = await this.session.load(skill, signal);
      const listing = files.length > 0 ? `\n\nFiles of this skill (read one with ${READ_SKILL_FILE_NAME}): ${files.join(', ')}` : '';
      return textResult(`Skill ${skill.name} [${skill.origin}]\n\n${document.body.trim()}${listing}`);
    } catch (error) {
      return errorResult(errorMessage(error));
    }
  }
}

interface ReadArgs extends SkillArgs {
  readonly path: string;
}

class ReadSkillFileTool extends SkillTool<ReadArgs> {
  readonly name = READ_SKILL_FILE_NAME;
  readonly description = `Reads a file of a skill loaded with ${LOAD_SKILL_NAME}, by its path as the skill lists it (e.g. references/FORMS.md).`;
  readonly inputSchema = {
    type: 'object',
    properties: { ...SKILL_PROPERTIES, path: { type: 'string', minLength: 1, description: "The file's path in the skill." } },
    required: ['name', 'path'],
    additionalProperties: false,
  } as const;

  protected async run({ name, origin, path }: ReadArgs, signal?: AbortSignal): Promise<ToolResult> {
    const skill = this.session.catalogue.find(name, origin);
    try {
      const bytes = await this.session.readFile(skill, path, signal);
      return textResult(bytes.includes(0) ? `[binary file ${path}, ${bytes.length} bytes]` : bytes.toString('utf8'));
    } catch (error) {
      return errorResult(errorMessage(error));
    }
  }
}

function cut(text: string): string {
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}…` : text;
}
