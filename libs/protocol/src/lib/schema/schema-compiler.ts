import { hash } from 'node:crypto';

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
  /**
   * Keep compiled code only for the schemas that are checked: `compile` still compiles each new schema in
   * full, so a schema that cannot be used fails there, but in an instance dropped every
   * PROBES_PER_INSTANCE schemas, and the code that checks values is compiled again at a schema's first
   * check. For the gateway's catalogue, whose tools are mostly never called: Ajv keeps everything an
   * instance compiled (about 5 KB a schema: the function's source, its code and its scope), which was
   * most of the heap of a 10,000-tool catalogue. The price is one more compile (about 0.3 ms) at a tool's
   * first call.
   */
  readonly codeOnFirstCheck?: boolean;
}

/** A JSON Schema object; interfaces without an index signature (a tool's `inputSchema` type) fit too. */
type SchemaObject = object;

const DEFAULT_MAX_PROBLEMS = 10;
/** How many schemas an instance only proving schemas usable compiles before it is replaced (and its code released). */
const PROBES_PER_INSTANCE = 200;

/**
 * The one JSON Schema validator of both deployables (SPEC N5): the gateway's argument checks, the agent's
 * McpTool checks and our own documents (manifests, portal registry, configuration) all compile here.
 *
 * - 2020-12 by default, as MCP specifies; draft-07 when the schema says so (servers built on zod 3 and the
 *   older SDK emit it).
 * - `pattern` and `patternProperties` run on an RE2 engine, in linear time (ADR 0012).
 * - `$ref` resolves inside the schema only: nothing is ever fetched, and a reference to another document
 *   makes the schema unusable (`schema.unresolved_ref`).
 * - Each schema compiles once per compiler, keyed by a digest of its JSON text: identical schemas of
 *   different tools, or of the same tool across refreshes, share one validator. A compiler is dropped with
 *   the tool list or route snapshots it serves, which releases its Ajv instances and compiled code (Ajv
 *   keeps what it compiled for the life of the instance); `codeOnFirstCheck` keeps only what is checked.
 */
export class SchemaCompiler {
  private readonly maxProblems: number;
  private readonly strict: boolean;
  private readonly codeOnFirstCheck: boolean;
  /** The instances whose code checks values. */
  private readonly checking: AjvPair;
  /** With `codeOnFirstCheck`, the instance that only proves schemas usable, and how many it has compiled. */
  private probing: AjvPair | undefined;
  private probes = 0;
  private readonly compiled = new Map<string, CompiledSchema | SchemaError>();

  constructor(options: SchemaCompilerOptions = {}) {
    this.maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
    this.strict = options.strict ?? false;
    this.codeOnFirstCheck = options.codeOnFirstCheck ?? false;
    this.checking = new AjvPair(this.strict);
  }

  /** The compiled schema; throws a SchemaError saying why a schema cannot be used. */
  compile(schema: SchemaObject): CompiledSchema {
    const key = hash('sha256', JSON.stringify(schema), 'base64url');
    let result = this.compiled.get(key);
    if (!result) {
      result = this.codeOnFirstCheck ? this.probeThenDefer(schema) : this.tryCompile(schema, this.checking);
      this.compiled.set(key, result);
    }
    if (result instanceof SchemaError) throw result;
    return result;
  }

  /** Distinct schemas compiled so far (usable or not): what this compiler holds on to. */
  get size(): number {
    return this.compiled.size;
  }

  private tryCompile(schema: SchemaObject, instances: AjvPair): CompiledSchema | SchemaError {
    let validate: ValidateFunction;
    try {
      validate = instances.compile(schema);
    } catch (error) {
      return asSchemaError(error);
    }
    return this.checkerOf(validate);
  }

  /** Proves the schema usable in a throwaway instance; its checking code is compiled at its first check. */
  private probeThenDefer(schema: SchemaObject): CompiledSchema | SchemaError {
    if (this.probing === undefined || this.probes >= PROBES_PER_INSTANCE) {
      this.probing = new AjvPair(this.strict);
      this.probes = 0;
    }
    this.probes += 1;
    const probe = this.tryCompile(schema, this.probing);
    if (probe instanceof SchemaError) return probe;
    let checker: CompiledSchema | undefined;
    return {
      // The probe compiled it with the same options, so this compile cannot fail.
      check: (value, root) => (checker ??= this.checkerOf(this.checking.compile(schema))).check(value, root),
    };
  }

  private checkerOf(validate: ValidateFunction): CompiledSchema {
    const maxProblems = this.maxProblems;
    return {
      check(value: unknown, root = 'value'): SchemaCheck {
        if (validate(value)) return { ok: true };
        return { ok: false, problems: (validate.errors ?? []).slice(0, maxProblems).map((error) => describeProblem(error, root)) };
      },
    };
  }
}

/** An Ajv instance per dialect, made when first needed. */
class AjvPair {
  private draft2020: Ajv2020 | undefined;
  private draft07: Ajv | undefined;

  constructor(private readonly strict: boolean) {}

  compile(schema: SchemaObject): ValidateFunction {
    // `$schema` is dropped before compiling: Ajv would otherwise look the meta-schema up by URI, and know
    // none but its own dialect's. The dialect chooses the instance instead.
    const { $schema, ...rest } = schema as Readonly<Record<string, unknown>>;
    return this.instanceFor($schema).compile(rest);
  }

  private instanceFor($schema: unknown): Ajv | Ajv2020 {
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
