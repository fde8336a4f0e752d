import Ajv, { type Options, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

import { errorMessage } from '../errors/error-message';
import { printable } from '../text/printable';
import { describeProblem } from './describe-problem';
import { linearRegExpEngine } from './linear-regexp';
import { declareScopeValuesLinearly } from './linear-scope-refs';
import { SchemaError, SchemaErrorCode } from './schema-errors';

export type SchemaCheck = { ok: true } | { ok: false; problems: string[] };

/** A schema compiled once, checked many times. */
export interface CompiledSchema {
  /** `root` names the checked value in problems ("arguments.customerId is required"). */
  check(value: unknown, root?: string): SchemaCheck;
}

export interface SchemaCompilerOptions {
  /** Problems reported per check, at most (default 10): enough to fix the call, bounded for hostile input. */
  readonly maxProblems?: number;
  /**
   * Reject unknown keywords and other Ajv strict-mode findings, for schemas we write ourselves (manifest,
   * portal registry, configuration), where a typo must fail. Off for schemas from tool servers.
   */
  readonly strict?: boolean;
}

/** A JSON Schema object; interfaces without an index signature (a tool's `inputSchema` type) fit too. */
type SchemaObject = object;

const DEFAULT_MAX_PROBLEMS = 10;

/**
 * The one JSON Schema validator of both deployables (SPEC N5): the gateway's argument checks, the agent's
 * McpTool checks and our own documents (manifests, portal registry, configuration) all compile here.
 *
 * - 2020-12 by default, as MCP specifies; draft-07 when the schema says so (servers built on zod 3 and the
 *   older SDK emit it).
 * - `pattern` and `patternProperties` run on an RE2 engine, in linear time (ADR 0012).
 * - `$ref` resolves inside the schema only: nothing is ever fetched, and a reference to another document
 *   makes the schema unusable (`schema.unresolved_ref`).
 * - Each schema compiles once per compiler, keyed by its JSON text: identical schemas of different tools,
 *   or of the same tool across refreshes, share one validator. A compiler is dropped with the tool list or
 *   route snapshots it serves, which releases its Ajv instances and compiled code (Ajv keeps what it
 *   compiled for the life of the instance).
 */
export class SchemaCompiler {
  private readonly maxProblems: number;
  private readonly strict: boolean;
  private draft2020: Ajv2020 | undefined;
  private draft07: Ajv | undefined;
  private readonly compiled = new Map<string, CompiledSchema | SchemaError>();

  constructor(options: SchemaCompilerOptions = {}) {
    this.maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
    this.strict = options.strict ?? false;
  }

  /** The compiled schema; throws a SchemaError saying why a schema cannot be used. */
  compile(schema: SchemaObject): CompiledSchema {
    const text = JSON.stringify(schema);
    let result = this.compiled.get(text);
    if (!result) {
      result = this.tryCompile(schema);
      this.compiled.set(text, result);
    }
    if (result instanceof SchemaError) throw result;
    return result;
  }

  /** Distinct schemas compiled so far (usable or not): what this compiler holds on to. */
  get size(): number {
    return this.compiled.size;
  }

  private tryCompile(schema: SchemaObject): CompiledSchema | SchemaError {
    const { $schema, ...rest } = schema as Readonly<Record<string, unknown>>;
    let validate: ValidateFunction;
    try {
      validate = this.ajvFor($schema).compile(rest);
    } catch (error) {
      return asSchemaError(error);
    }
    const maxProblems = this.maxProblems;
    return {
      check(value: unknown, root = 'value'): SchemaCheck {
        if (validate(value)) return { ok: true };
        return { ok: false, problems: (validate.errors ?? []).slice(0, maxProblems).map((error) => describeProblem(error, root)) };
      },
    };
  }

  private ajvFor($schema: unknown): Ajv | Ajv2020 {
    // `$schema` is dropped before compiling: Ajv would otherwise look the meta-schema up by URI, and know
    // none but its own dialect's. The dialect chooses the instance instead.
    if (typeof $schema === 'string' && /draft-0[467]/.test($schema)) return (this.draft07 ??= linear(new Ajv(ajvOptions(this.strict))));
    return (this.draft2020 ??= linear(new Ajv2020(ajvOptions(this.strict))));
  }
}

/** A new instance, with compile time linear in a schema's patterns and references (linear-scope-refs.ts). */
function linear<T extends Ajv | Ajv2020>(ajv: T): T {
  declareScopeValuesLinearly(ajv);
  return ajv;
}

function ajvOptions(strict: boolean): Options {
  return {
    allErrors: true,
    // Tool schemas carry keywords and formats Ajv does not know (annotations, "format" without ajv-formats):
    // they stay annotations, as JSON Schema says, instead of failing the schema or logging warnings. Our
    // own schemas fail on an unknown keyword (a typo), and on nothing stricter than Ajv's defaults.
    strict: false,
    strictSchema: strict,
    // MCP's own annotation keyword (2026-07-28): known, so strict schemas may carry it too. `$anchor` is
    // resolved by Ajv, yet its strict mode calls it unknown inside a subschema with `properties`.
    keywords: ['x-mcp-header', '$anchor'],
    validateFormats: false,
    logger: false,
    // A tool's `$id` must not enter a registry shared by other tools (two tools with one `$id` would clash).
    addUsedSchema: false,
    // Only the value's own properties count: a `__proto__` key is data, never an inherited default.
    ownProperties: true,
    code: { regExp: linearRegExpEngine() },
  };
}

function asSchemaError(error: unknown): SchemaError {
  if (error instanceof SchemaError) return error;
  const message = errorMessage(error);
  // Ajv's MissingRefError: a $ref it could not resolve locally, and we never load remote schemas.
  if (error instanceof Error && 'missingRef' in error) {
    return new SchemaError(
      SchemaErrorCode.UnresolvedRef,
      `$ref ${printable(String((error as { missingRef: unknown }).missingRef), 200)} does not resolve inside the schema (references are never fetched)`,
    );
  }
  return new SchemaError(SchemaErrorCode.Invalid, `not a usable JSON Schema: ${printable(message, 300)}`);
}
