/** @type {import('jest').Config} */
module.exports = {
  displayName: 'mcp-client',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/mcp-client',
};
