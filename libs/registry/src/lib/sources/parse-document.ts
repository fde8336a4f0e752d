import { errorMessage, printable } from '@toolmesh/protocol';
import { parse as parseYaml } from 'yaml';

import { RegistryError } from '../errors';
import type { DocumentKind } from '../model/json-source';
import { assertWithinYamlLimits, DEFAULT_YAML_LIMITS, type YamlLimits } from './yaml-limits';

/**
 * The text of a catalogue document as a value: JSON, or for a kind that allows it an OpenAPI document in
 * YAML. JSON is
 * tried first, since nearly every document is JSON and YAML's parser is many times slower. YAML is read by
 * the 1.2 core schema (no `yes` as true) with the library's bound on alias expansion, so a "billion laughs"
 * document is refused rather than expanded; its size is already bounded by the fetch, and its depth and
 * node count by `yamlLimits` before it is composed (yaml-limits.ts).
 */
export function parseDocument(text: string, kind: DocumentKind, where: string, yamlLimits: YamlLimits = DEFAULT_YAML_LIMITS): unknown {
  let jsonError: unknown;
  try {
    return JSON.parse(text);
  } catch (error) {
    jsonError = error;
  }
  if (!kind.yaml) throw new RegistryError(kind.invalid, `${where} is not JSON`, { cause: jsonError });
  assertWithinYamlLimits(text, yamlLimits, where);
  let document: unknown;
  try {
    document = parseYaml(text, { schema: 'core', maxAliasCount: 100 });
  } catch (error) {
    throw new RegistryError(kind.invalid, `${where} is neither JSON nor YAML: ${printable(errorMessage(error), 300)}`, { cause: error });
  }
  // Our manifest format is JSON only, so a lint of a YAML manifest must fail as the gateway would.
  if (typeof (document as { openapi?: unknown } | null)?.openapi !== 'string') {
    throw new RegistryError(kind.invalid, `${where} is not JSON (YAML is read only for OpenAPI documents)`, { cause: jsonError });
  }
  return document;
}
