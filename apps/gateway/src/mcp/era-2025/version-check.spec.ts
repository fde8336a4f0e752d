import { assumedVersion, checkLegacyVersion } from './version-check';

describe('a 2025 request without MCP-Protocol-Version', () => {
  const ALL = ['2025-03-26', '2025-06-18', '2025-11-25'];

  it('is taken as 2025-03-26 when that version is served, as the revisions since 2025-06-18 say a server SHOULD', () => {
    const policy = { supportedVersions: ALL, allSupported: ALL, assumeVersionWhenMissing: assumedVersion(undefined, ALL) };
    expect(checkLegacyVersion(1, undefined, policy)).toBeUndefined();
  });

  it('is taken as the configured version instead, when one is set', () => {
    expect(assumedVersion('2025-11-25', ALL)).toBe('2025-11-25');
  });

  it('is refused with -32600 listing the versions when 2025-03-26 is not served and none is configured', () => {
    const served = ['2025-06-18', '2025-11-25'];
    const policy = { supportedVersions: served, allSupported: served, assumeVersionWhenMissing: assumedVersion(undefined, served) };
    expect(checkLegacyVersion(1, undefined, policy)).toMatchObject({ error: { code: -32600, data: { supported: served } } });
  });
});
