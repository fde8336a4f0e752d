/** @type {import('jest').Config} */
module.exports = {
  displayName: 'transport-stdio',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/transport-stdio',
};
