import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

/**
 * Checks tool arguments against the tool's own input schema: what the schema states is enforced, what it
 * leaves open stays open (no `additionalProperties: false` of ours). A schema our validator cannot
 * compile is not enforced at all, since the server still validates; the reason is kept for diagnostics.
 *
 * Compiling is deferred to the first check: registering a server's tools stays cheap, and tools that are
 * never called cost nothing.
 */
export class ArgumentValidator {
  private compiled: { validate?: ValidateFunction; reason?: string } | undefined;

  constructor(private readonly schema: Readonly<Record<string, unknown>>) {}

  /** Why the schema is not enforced, if it is not. */
  get unenforcedReason(): string | undefined {
    return this.compile().reason;
  }

  /** `undefined` when the arguments are acceptable, else a message naming each problem. */
  check(args: Record<string, unknown>): string | undefined {
    const { validate } = this.compile();
    if (!validate || validate(args)) return undefined;
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(arguments)'} ${error.message ?? 'is invalid'}`.trim()).join('; ');
  }

  private compile(): { validate?: ValidateFunction; reason?: string } {
    if (!this.compiled) {
      try {
        this.compiled = { validate: compile(this.schema) };
      } catch (error) {
        this.compiled = { reason: (error as Error).message };
      }
    }
    return this.compiled;
  }
}

const OPTIONS = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const { $schema, ...rest } = schema;
  // Servers emit draft-07 (zod 3 / the SDK's default) or 2020-12 (zod 4); each needs its own dialect.
  // One validator per dialect, shared: creating one costs far more than compiling a schema with it.
  const ajv = typeof $schema === 'string' && $schema.includes('2020-12') ? (draft2020 ??= new Ajv2020(OPTIONS)) : (draft07 ??= new Ajv(OPTIONS));
  return ajv.compile(rest);
}
