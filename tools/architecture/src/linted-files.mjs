// Prints, as JSON, the files ESLint lints when run as each project's lint target runs it (`eslint .` in the
// project's root). Only the file list matters, so no rule runs and no type information is built. A child
// process because ESLint's flat config is ESM, which Jest's module system does not load.
// Input (stdin): ["<absolute project root>", ...]. Output: ["<absolute file>", ...].
import { ESLint } from 'eslint';

const roots = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
  }),
);
const files = [];
for (const cwd of roots) {
  const eslint = new ESLint({
    cwd,
    ruleFilter: () => false,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const results = await eslint.lintFiles(['.']);
  files.push(...results.map((result) => result.filePath));
}
process.stdout.write(JSON.stringify(files));
