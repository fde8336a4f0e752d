/** How deep a JSON summary goes, and how many keys of one object it names, before it says how many more. */
const MAX_DEPTH = 4;
const MAX_KEYS = 40;
const MAX_SCALAR_CHARS = 60;

/** The start and the end of a text, about `budget` characters together, with the gap between them marked. */
export function headAndTail(text: string, budget: number): string {
  const head = Math.ceil((budget * 2) / 3);
  const tail = budget - head;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters not shown ...]\n${tail > 0 ? text.slice(-tail) : ''}`;
}

/**
 * The shape of a JSON value, one line per member, indented: objects with their keys, arrays with their
 * length and their first item, scalars with their type and (short) value. Stops at `budget` characters,
 * saying so, so a huge object with thousands of keys still gives a bounded summary.
 */
export function jsonSummary(value: unknown, budget: number): string {
  const lines: string[] = [];
  let size = 0;
  const add = (line: string): boolean => {
    if (size + line.length + 1 > budget) return false;
    lines.push(line);
    size += line.length + 1;
    return true;
  };
  const describe = (label: string, member: unknown, depth: number): boolean => {
    const indent = '  '.repeat(depth);
    if (Array.isArray(member)) {
      const more = member.length > 0 && depth < MAX_DEPTH;
      return (
        add(`${indent}${label}array of ${member.length} item(s)${more ? ', the first:' : ''}`) &&
        (!more || describe('[0]: ', member[0], depth + 1))
      );
    }
    if (typeof member !== 'object' || member === null) return add(`${indent}${label}${scalar(member)}`);
    const keys = Object.keys(member);
    if (!add(`${indent}${label}object with ${keys.length} key(s)`)) return false;
    if (depth >= MAX_DEPTH) return true;
    for (const key of keys.slice(0, MAX_KEYS))
      if (!describe(`${JSON.stringify(key)}: `, (member as Record<string, unknown>)[key], depth + 1)) return false;
    return keys.length <= MAX_KEYS || add(`${indent}  ... and ${keys.length - MAX_KEYS} more key(s)`);
  };
  const complete = describe('', value, 0);
  return complete ? lines.join('\n') : `${lines.join('\n')}\n[... the summary goes on; read the file for the rest]`;
}

function scalar(value: unknown): string {
  if (typeof value !== 'string') return value === null ? 'null' : `${typeof value} ${JSON.stringify(value)}`;
  if (value.length <= MAX_SCALAR_CHARS) return `string ${JSON.stringify(value)}`;
  return `string of ${value.length} characters, starting ${JSON.stringify(value.slice(0, MAX_SCALAR_CHARS))}`;
}
