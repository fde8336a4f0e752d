import { globPattern } from './glob';

describe('globPattern', () => {
  it('takes * for any run of characters and every other character as itself', () => {
    expect(globPattern('get-*').test('get-sum')).toBe(true);
    expect(globPattern('get-*').test('get-')).toBe(true);
    expect(globPattern('get-*').test('xget-sum')).toBe(false);
    expect(globPattern('a.b?').test('a.b?')).toBe(true);
    expect(globPattern('a.b?').test('axbc')).toBe(false);
    expect(globPattern('*_delete_*').test('repos_delete_file')).toBe(true);
  });
});
