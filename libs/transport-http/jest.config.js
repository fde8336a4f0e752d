/** @type {import('jest').Config} */
module.exports = {
  displayName: 'transport-http',
  preset: '../../jest.preset.js',
  passWithNoTests: true, // no code yet: see README "Status"
  coverageDirectory: '../../coverage/libs/transport-http',
};
