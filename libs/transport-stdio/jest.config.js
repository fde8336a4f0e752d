/** @type {import('jest').Config} */
module.exports = {
  displayName: 'transport-stdio',
  preset: '../../jest.preset.js',
  passWithNoTests: true, // no code yet: see README "Status"
  coverageDirectory: '../../coverage/libs/transport-stdio',
};
