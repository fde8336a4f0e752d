import { errorMessage } from './error-message';

describe('errorMessage', () => {
  it("gives an Error's message, without its name or stack", () => {
    expect(errorMessage(new TypeError('x is not a function'))).toBe('x is not a function');
  });

  it('gives the text of anything else that was thrown', () => {
    expect([errorMessage('plain string'), errorMessage(42), errorMessage(undefined), errorMessage({ toString: () => 'custom' })]).toEqual([
      'plain string',
      '42',
      'undefined',
      'custom',
    ]);
  });
});
