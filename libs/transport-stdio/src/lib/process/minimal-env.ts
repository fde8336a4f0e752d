/**
 * The environment a server process gets: a few variables programs need to run at all, taken from ours,
 * plus what its configuration sets. Nothing else of ours (tokens, keys, cloud credentials) reaches it.
 */
const INHERITED_ENV_KEYS: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

export function minimalEnv(
  configured: Readonly<Record<string, string>> = {},
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_KEYS) {
    const value = from[key];
    // Shell functions exported into the environment are a classic injection vector.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...configured };
}
