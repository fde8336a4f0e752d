/** @type {import('jest').Config} */
module.exports = {
  displayName: 'deploy-tests',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/tools/deploy-tests',
};
