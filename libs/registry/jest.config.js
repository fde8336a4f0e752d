/** @type {import('jest').Config} */
module.exports = {
  displayName: 'registry',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/registry',
};
