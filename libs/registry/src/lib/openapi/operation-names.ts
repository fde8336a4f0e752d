import manifestSchema from '../../../../../docs/schemas/tool-manifest.schema.json';
import { RegistryErrorCode } from '../errors';
import type { RefusedTool } from '../model/tool-definition';

const TOOL_NAME = new RegExp(manifestSchema.$defs.tool.properties.name.pattern);

/** What a selected operation is called: its tool name, or why it has none (refused by its operationId). */
export type OperationName = { name: string } | { refused: RefusedTool };

/**
 * The tool names of the selected operations, by operationId (docs/gateway.md, "OpenAPI documents as a tool source", its point "The tool"). A name the
 * bundle gives (`openapi.names`) is used as it is; an operationId that is already a tool name (letters,
 * digits, `_`, `-`, `.`, at most 128) is the name; any other is sanitised: each run of characters other
 * than ASCII letters, digits and `_` becomes one `_`, so GitHub's `repos/get-content` is
 * `repos_get_content`. Two operations that would have one name are both refused, each naming the other,
 * never one silently preferred: the bundle then names one of them.
 */
export function operationNames(operationIds: readonly string[], given: Readonly<Record<string, string>> = {}): Map<string, OperationName> {
  const names = new Map<string, OperationName>();
  const byName = new Map<string, string[]>();
  for (const operationId of operationIds) {
    const own = Object.hasOwn(given, operationId) ? given[operationId] : undefined;
    const name = own ?? (TOOL_NAME.test(operationId) ? operationId : operationId.replace(/[^A-Za-z0-9_]+/g, '_'));
    if (!TOOL_NAME.test(name)) {
      const why =
        own === undefined
          ? `its operationId is not a tool name, nor is ${name}`
          : `the name openapi.names gives it, ${name}, is not a tool name`;
      names.set(operationId, refused(operationId, `${why} (letters, digits, _, - and ., at most 128): give it one in openapi.names`));
      continue;
    }
    names.set(operationId, { name });
    byName.set(name, [...(byName.get(name) ?? []), operationId]);
  }
  for (const [name, operations] of byName) {
    if (operations.length < 2) continue;
    for (const operationId of operations) {
      const others = operations.filter((other) => other !== operationId).join(', ');
      const message = `its tool name ${name} is also that of operation ${others}: give one of them another name in openapi.names`;
      names.set(operationId, refused(operationId, message, RegistryErrorCode.NameCollision));
    }
  }
  return names;
}

function refused(name: string, message: string, code: string = RegistryErrorCode.OperationRefused): OperationName {
  return { refused: { name, code, message } };
}
