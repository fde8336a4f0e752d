import { parseJsonPath, someStringAt } from './json-path';

const stringsAt = (value: unknown, path: string): string[] => {
  const found: string[] = [];
  someStringAt(value, parseJsonPath(path), (text) => (found.push(text), false));
  return found;
};

describe('JSON paths of refuse rules', () => {
  const args = { query: 'select 1', filters: [{ value: 'a' }, { value: 'b', nested: { deep: 'c' } }], 'odd key': 'd', n: 5 };

  it('selects members, items, wildcards and quoted names, and every string below what it selects', () => {
    expect(stringsAt(args, '$.query')).toEqual(['select 1']);
    expect(stringsAt(args, '$.filters[1].value')).toEqual(['b']);
    expect(stringsAt(args, '$.filters[*].value')).toEqual(['a', 'b']);
    expect(stringsAt(args, "$['odd key']")).toEqual(['d']);
    expect(stringsAt(args, '$.filters[1]')).toEqual(['b', 'c']);
    expect(stringsAt(args, '$.*')).toEqual(['select 1', 'a', 'b', 'c', 'd']);
    expect(stringsAt(args, '$')).toEqual(['select 1', 'a', 'b', 'c', 'd']);
  });

  it('selects nothing where the value has no such member, item or string', () => {
    expect(stringsAt(args, '$.missing')).toEqual([]);
    expect(stringsAt(args, '$.filters[9].value')).toEqual([]);
    expect(stringsAt(args, '$.query.length')).toEqual([]);
    expect(stringsAt(args, '$.n')).toEqual([]);
    expect(stringsAt({ toString: 'x' }, '$.constructor')).toEqual([]);
  });

  it('stops at the first string the visitor accepts', () => {
    const visited: string[] = [];
    expect(someStringAt(args, parseJsonPath('$.*'), (text) => (visited.push(text), text === 'a'))).toBe(true);
    expect(visited).toEqual(['select 1', 'a']);
  });

  it.each([
    ['query', 'a path starts with $'],
    ['$.', 'expected a member name after "."'],
    ['$[x]', 'cannot read "[x]"'],
    ['$..query', 'expected a member name after "."'],
    ["$['a", `cannot read "['a"`],
  ])('refuses %s, saying why', (path, message) => {
    expect(() => parseJsonPath(path)).toThrow(message);
  });
});
