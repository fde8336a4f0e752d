/** @type {import('jest').Config} */
module.exports = {
  displayName: 'protocol',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/protocol',
};
