import { printable, printableName } from './printable';

describe('printable', () => {
  it('escapes control characters and keeps the rest as written', () => {
    expect(printable('^(a)\\1$')).toBe('^(a)\\1$');
    expect(printable('a\u001b[31mred\u0007\u0000\u009b')).toBe('a\\u001b[31mred\\u0007\\u0000\\u009b');
    expect(printable('héllo ✓')).toBe('héllo ✓');
  });

  it('cuts long text', () => {
    expect(printable('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}...`);
  });
});

describe('printableName', () => {
  it('keeps 64 characters of a name and escapes its control characters', () => {
    expect(printableName(`\u0007${'m'.repeat(1_000_000)}`)).toBe(`\\u0007${'m'.repeat(63)}...`);
  });
});
