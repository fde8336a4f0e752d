/** @type {import('jest').Config} */
module.exports = {
  displayName: 'architecture',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/tools/architecture',
};
