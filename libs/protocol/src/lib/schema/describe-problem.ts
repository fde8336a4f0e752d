import type { ErrorObject } from 'ajv';

/**
 * One validation problem in the wording callers and models rely on ("arguments.x is required",
 * "arguments.n must be integer", the seed's words), Ajv's own message otherwise. Paths are dotted from
 * `root`; values are never quoted, so a problem can be logged or shown without leaking the input.
 */
export function describeProblem(error: ErrorObject, root: string): string {
  const path = `${root}${error.instancePath.replace(/\//g, '.')}`;
  switch (error.keyword) {
    case 'required':
      return `${path}.${String(error.params['missingProperty'])} is required`;
    case 'type':
      return `${path} must be ${String(error.params['type'])}`;
    case 'additionalProperties':
      return `${path}.${String(error.params['additionalProperty'])} is not allowed`;
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}
