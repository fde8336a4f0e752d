import { version } from '../../../package.json';
import { runCli } from './cli/run-cli';

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}, version);
