/** @type {import('jest').Config} */
module.exports = {
  displayName: 'transport-http',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/transport-http',
};
