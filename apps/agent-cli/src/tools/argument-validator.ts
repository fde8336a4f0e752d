import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

/**
 * Checks tool arguments against the tool's own input schema: what the schema states is enforced, what it
 * leaves open stays open (no `additionalProperties: false` of ours). A schema our validator cannot
 * compile is not enforced at all, since the server still validates; the reason is kept for diagnostics.
 */
export class ArgumentValidator {
  private readonly validate: ValidateFunction | undefined;
  readonly unenforcedReason: string | undefined;

  constructor(schema: Readonly<Record<string, unknown>>) {
    let validate: ValidateFunction | undefined;
    let reason: string | undefined;
    try {
      validate = compile(schema);
    } catch (error) {
      reason = (error as Error).message;
    }
    this.validate = validate;
    this.unenforcedReason = reason;
  }

  /** `undefined` when the arguments are acceptable, else a message naming each problem. */
  check(args: Record<string, unknown>): string | undefined {
    if (!this.validate || this.validate(args)) return undefined;
    return (this.validate.errors ?? [])
      .map((error) => `${error.instancePath || '(arguments)'} ${error.message ?? 'is invalid'}`.trim())
      .join('; ');
  }
}

function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const { $schema, ...rest } = schema;
  const options = { strict: false, allErrors: true, validateFormats: false, addUsedSchema: false } as const;
  // Servers emit draft-07 (zod 3 / the SDK's default) or 2020-12 (zod 4); each needs its own dialect.
  const ajv = typeof $schema === 'string' && $schema.includes('2020-12') ? new Ajv2020(options) : new Ajv(options);
  return ajv.compile(rest);
}
