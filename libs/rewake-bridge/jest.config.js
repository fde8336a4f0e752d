/** @type {import('jest').Config} */
module.exports = {
  displayName: 'rewake-bridge',
  preset: '../../jest.preset.js',
  passWithNoTests: true, // no code yet: see README "Status"
  coverageDirectory: '../../coverage/libs/rewake-bridge',
};
