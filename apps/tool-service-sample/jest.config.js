/** @type {import('jest').Config} */
module.exports = {
  displayName: 'tool-service-sample',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/tool-service-sample',
};
