import { readFileSync } from 'node:fs';

import { errorMessage } from '@toolmesh/protocol';
import { parse as parseYaml } from 'yaml';

import type { BundleSettings } from '../config/gateway-config';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';

/** Approved definition hashes from configuration: by bundle, by tool name as the gateway serves it. */
export type PinFile = ReadonlyMap<string, ReadonlyMap<string, string>>;

const HASH = /^sha256:[0-9a-f]{64}$/;
/** A pin file is a short list a person writes; anything this large is not one. */
const MAX_PIN_FILE_BYTES = 1024 * 1024;

/**
 * Reads `mcp.definitionPins.pinFile` (YAML or JSON): `bundles: { <bundle>: { <tool>: sha256:<hex> } }`, the
 * hashes `tools/list`'s `_meta["io.toolmesh/definitionHash"]` and `/actuator/toolBundles` show. Every bundle
 * named must be configured with `definitionChanges` warn or hold. Anything else stops the start with
 * `gateway.pin_file_invalid`, naming the file and the entry to fix.
 */
export function readPinFile(path: string, bundles: readonly BundleSettings[]): PinFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw invalid(path, `it cannot be read (${errorMessage(error)})`);
  }
  if (Buffer.byteLength(text) > MAX_PIN_FILE_BYTES) throw invalid(path, `it is over ${MAX_PIN_FILE_BYTES} bytes`);
  let document: unknown;
  try {
    document = parseYaml(text, { maxAliasCount: 0 });
  } catch (error) {
    throw invalid(path, `it is not YAML or JSON (${errorMessage(error)})`);
  }
  return parsePins(path, document, bundles);
}

/** The pins of a parsed pin file, checked against the configured bundles. */
export function parsePins(path: string, document: unknown, bundles: readonly BundleSettings[]): PinFile {
  if (!isMap(document) || Object.keys(document).some((key) => key !== 'bundles') || !isMap(document.bundles))
    throw invalid(path, 'it must be a map with one member, "bundles", mapping bundle names to maps of tool names to sha256:<hex> hashes');
  const pins = new Map<string, ReadonlyMap<string, string>>();
  for (const [bundle, tools] of Object.entries(document.bundles)) {
    const settings = bundles.find((candidate) => candidate.name === bundle);
    if (settings === undefined) throw invalid(path, `bundle ${JSON.stringify(bundle)} is not in mcp.bundles`);
    if ((settings.definitionChanges ?? 'accept') === 'accept')
      throw invalid(path, `bundle ${bundle} has definitionChanges accept, so its pins would be ignored: set warn or hold on it`);
    if (!isMap(tools)) throw invalid(path, `bundles.${bundle} must map tool names to sha256:<hex> hashes`);
    const hashes = new Map<string, string>();
    for (const [tool, hash] of Object.entries(tools)) {
      if (typeof hash !== 'string' || !HASH.test(hash))
        throw invalid(path, `bundles.${bundle}.${tool} must be sha256: and 64 lowercase hex digits, as toolBundles shows it`);
      hashes.set(tool, hash);
    }
    pins.set(bundle, hashes);
  }
  return pins;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(path: string, problem: string): GatewayError {
  return new GatewayError(GatewayErrorCode.PinFileInvalid, `pin file ${path} (mcp.definitionPins.pinFile): ${problem}`);
}
