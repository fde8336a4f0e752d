import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { CatalogueGeneration, ToolDefinition } from '@toolmesh/registry';

export type ArgumentCheck = { ok: true } | { ok: false; problems: string[] };

interface GenerationValidators {
  readonly ajv: Ajv2020;
  readonly byTool: Map<string, ValidateFunction | Error>;
}

const MAX_PROBLEMS = 10;

/**
 * Validates `tools/call` arguments against the tool's `inputSchema` (JSON Schema 2020-12, SPEC G9). Each
 * tool's validator is compiled on its first call and kept for the life of its catalogue generation: one
 * Ajv instance per generation, so old schemas are released with their generation instead of piling up
 * in a process-wide Ajv cache.
 */
export class ArgumentValidator {
  private readonly generations = new WeakMap<CatalogueGeneration, GenerationValidators>();

  check(generation: CatalogueGeneration, tool: ToolDefinition, args: Record<string, unknown>): ArgumentCheck {
    const validate = this.validatorFor(generation, tool);
    if (validate instanceof Error) return { ok: false, problems: [`the tool's inputSchema cannot be used: ${validate.message}`] };
    if (validate(args)) return { ok: true };
    return { ok: false, problems: (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(describeProblem) };
  }

  private validatorFor(generation: CatalogueGeneration, tool: ToolDefinition): ValidateFunction | Error {
    let validators = this.generations.get(generation);
    if (!validators) {
      // strict: false: manifests may carry annotations Ajv does not know (e.g. "format" without ajv-formats).
      validators = { ajv: new Ajv2020({ allErrors: true, strict: false }), byTool: new Map() };
      this.generations.set(generation, validators);
    }
    let validate = validators.byTool.get(tool.name);
    if (!validate) {
      try {
        validate = validators.ajv.compile(tool.publicTool.inputSchema);
      } catch (error) {
        validate = error as Error;
      }
      validators.byTool.set(tool.name, validate);
    }
    return validate;
  }
}

/** The seed's simple wording for the common cases ("x is required", "x must be integer"), Ajv's otherwise. */
function describeProblem(error: ErrorObject): string {
  const path = `arguments${error.instancePath.replace(/\//g, '.')}`;
  switch (error.keyword) {
    case 'required':
      return `${path}.${String(error.params.missingProperty)} is required`;
    case 'type':
      return `${path} must be ${String(error.params.type)}`;
    case 'additionalProperties':
      return `${path}.${String(error.params.additionalProperty)} is not allowed`;
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}
