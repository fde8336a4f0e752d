import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BundleSettings } from '../config/gateway-config';
import { GatewayErrorCode } from '../errors/gateway-errors';
import { parsePins, readPinFile } from './pin-file';

const HASH = `sha256:${'a'.repeat(64)}`;
const bundles: BundleSettings[] = [
  { name: 'held', definitionChanges: 'hold', mcpServer: { url: 'http://127.0.0.1:9/mcp' } },
  { name: 'open', mcpServer: { url: 'http://127.0.0.1:9/mcp' } },
];
const pinFileAt = (text: string) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pins-')), 'pins.yaml');
  writeFileSync(file, text);
  return file;
};

describe('the pin file of pinned definitions', () => {
  it('reads hashes by bundle and tool, from YAML or JSON', () => {
    const pins = readPinFile(pinFileAt(`bundles:\n  held:\n    lookup: ${HASH}\n`), bundles);
    expect(pins.get('held')?.get('lookup')).toBe(HASH);
    expect(readPinFile(pinFileAt(JSON.stringify({ bundles: { held: {} } })), bundles).get('held')?.size).toBe(0);
  });

  it.each([
    ['not a map', ['a'], /must be a map with one member, "bundles"/],
    ['another member', { bundles: {}, extra: 1 }, /must be a map with one member, "bundles"/],
    ['an unknown bundle', { bundles: { gone: {} } }, /bundle "gone" is not in mcp\.bundles/],
    [
      'an accepting bundle',
      { bundles: { open: {} } },
      /bundle open has definitionChanges accept, so its pins would be ignored: set warn or hold/,
    ],
    ['a list of tools', { bundles: { held: ['lookup'] } }, /bundles\.held must map tool names to sha256:<hex> hashes/],
    ['a short hash', { bundles: { held: { lookup: 'sha256:abc' } } }, /bundles\.held\.lookup must be sha256: and 64 lowercase hex digits/],
    ['an uppercase hash', { bundles: { held: { lookup: HASH.toUpperCase() } } }, /bundles\.held\.lookup must be sha256:/],
  ])('refuses %s, naming the file and what to fix', (_case, document, message) => {
    expect(() => parsePins('/etc/pins.yaml', document, bundles)).toThrow(
      expect.objectContaining({ code: GatewayErrorCode.PinFileInvalid, message: expect.stringMatching(message) }),
    );
    expect(() => parsePins('/etc/pins.yaml', document, bundles)).toThrow(/^pin file \/etc\/pins\.yaml \(mcp\.definitionPins\.pinFile\): /);
  });

  it('refuses a file it cannot read or parse', () => {
    expect(() => readPinFile('/nonexistent/pins.yaml', bundles)).toThrow(/pin file \/nonexistent\/pins\.yaml .*cannot be read/);
    expect(() => readPinFile(pinFileAt('bundles: [unclosed'), bundles)).toThrow(/is not YAML or JSON/);
  });
});
