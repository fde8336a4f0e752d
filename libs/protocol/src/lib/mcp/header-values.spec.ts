import { decodeHeaderValue, encodeHeaderValue } from './header-values';

describe('header values (2026-07-28 value encoding)', () => {
  it.each(['us-west1', 'us west 1', ' padded ', 'line1\nline2', 'Hello, 世界', '', '=?base64?abc?='])(
    '%j decodes back to itself',
    (value) => {
      expect(decodeHeaderValue(encodeHeaderValue(value))).toEqual({ ok: true, value });
    },
  );

  it('refuses what no client may send', () => {
    expect(decodeHeaderValue('caf\u00e9')).toMatchObject({ ok: false, problem: expect.stringContaining('Base64-encoded') });
    expect(decodeHeaderValue('=?base64?not base64?=')).toEqual({ ok: false, problem: 'is not valid Base64' });
    expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toEqual({
      ok: false,
      problem: 'is Base64 of something that is not UTF-8',
    });
  });
});
