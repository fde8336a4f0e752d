import { CodedError } from '../errors/coded-error';

/**
 * Why a JSON Schema cannot be used for validation. Stable string codes, listed in docs/errors.md
 * ("protocol schema"); a test keeps the two in agreement. The gateway refuses such a tool at manifest load,
 * the agent CLI skips it with a warning.
 */
export const SchemaErrorCode = {
  /** The schema is not valid JSON Schema (its dialect's meta-schema rejects it, or Ajv cannot compile it). */
  Invalid: 'schema.invalid',
  /** A `pattern` or `patternProperties` key that the linear-time engine cannot run (back-references, lookarounds). */
  UnsupportedPattern: 'schema.unsupported_pattern',
  /** A `$ref` to a document outside the schema: never fetched, so the schema cannot be checked. */
  UnresolvedRef: 'schema.unresolved_ref',
} as const;

export type SchemaErrorCode = (typeof SchemaErrorCode)[keyof typeof SchemaErrorCode];

export class SchemaError extends CodedError<SchemaErrorCode> {
  override readonly name = 'SchemaError';
}
