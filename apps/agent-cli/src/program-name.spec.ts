import { programName } from './program-name';

describe('programName', () => {
  it.each([
    ['/usr/local/bin/toolmesh-agent', 'toolmesh-agent'], // npm install -g
    ['/tmp/project/node_modules/.bin/toolmesh-agent', 'toolmesh-agent'], // npx <tarball>
    ['/repo/node_modules/.bin/agent-cli', 'agent-cli'], // npx agent-cli in this repository
    ['/repo/tools/bin/agent-cli.js', 'agent-cli'],
    ['/repo/dist/apps/agent-cli/main.js', 'agent-cli'], // node <the bundle>: not a bin, the default
    ['/repo/node_modules/jest/bin/jest.js', 'agent-cli'], // not ours: never another program's name
    [undefined, 'agent-cli'],
  ])('%s is %s', (script, name) => {
    expect(programName(script)).toBe(name);
  });
});
