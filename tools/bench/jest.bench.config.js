/** @type {import('jest').Config} */
module.exports = {
  displayName: 'bench',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/tools/bench',
};
