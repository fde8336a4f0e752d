/** @type {import('jest').Config} */
module.exports = {
  displayName: 'rewake-bridge',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/rewake-bridge',
};
