import { childProcesses } from '@toolmesh/transport-stdio';
import { version } from '../../../package.json';
import { runCli } from './cli/run-cli';
import { ExitGuard } from './process/exit-guard';

const stderr = (text: string) => void process.stderr.write(text);
const guard = new ExitGuard(childProcesses, stderr);
guard.install();

void runCli(process.argv.slice(2), { stdout: (text) => void process.stdout.write(text), stderr }, {
  version,
  onRuntime: (runtime) => guard.setCleanup(runtime && (() => runtime.close())),
}).then((code) => {
  process.exitCode = code;
});
