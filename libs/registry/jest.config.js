/** @type {import('jest').Config} */
module.exports = {
  displayName: 'registry',
  preset: '../../jest.preset.js',
  passWithNoTests: true, // no code yet: see README "Status"
  coverageDirectory: '../../coverage/libs/registry',
};
