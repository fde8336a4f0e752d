// `--help` / `-h` for every benchmark: prints the leading comment of the script that was started (each
// benchmark's header says what it measures and how to run it) and exits before anything starts. A script
// that imports packages imports this first: modules are evaluated in the order they are imported, so
// --help then exits before a package's CommonJS code has run (ES module packages are still parsed; a
// script loads those with import() where it needs them).
import { readFileSync } from 'node:fs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const lines = readFileSync(process.argv[1], 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#!'));
  const header = [];
  if (lines[0]?.startsWith('/**')) {
    for (const line of lines.slice(1)) {
      if (line.trim().startsWith('*/')) break;
      header.push(line.replace(/^\s*\* ?/, ''));
    }
  } else {
    for (const line of lines) {
      if (!line.startsWith('//')) break;
      header.push(line.replace(/^\/\/ ?/, ''));
    }
  }
  process.stdout.write(`${header.join('\n')}\n`);
  process.exit(0);
}
