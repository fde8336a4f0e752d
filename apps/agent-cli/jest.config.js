/** @type {import('jest').Config} */
module.exports = {
  displayName: 'agent-cli',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/agent-cli',
};
