/**
 * A name pattern with `*` (any run of characters, none included) as its only wildcard, as an anchored
 * regular expression; every other character stands for itself. Used where users pick names by pattern:
 * notification methods in rewake rules, a server's tools in the agent's allow and deny lists.
 */
export function globPattern(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`);
}
