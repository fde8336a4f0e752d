/** A tool-name pattern of the configuration (`billing_*`): `*` any run of characters, everything else itself. */
export function toolPattern(pattern: string): RegExp {
  // The schema allows only tool-name characters and `*`; `.` is the one of them special in a regex.
  return new RegExp(`^${pattern.replaceAll('.', '\\.').replaceAll('*', '.*')}$`);
}
