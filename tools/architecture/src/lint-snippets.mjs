// Lints source snippets as if they were files at the given paths, without writing them anywhere, and
// prints the messages as JSON. Run as a child process: ESLint's flat config is ESM, which Jest's module
// system does not load. Input (stdin): [{ filePath, code }]. Output: [{ filePath, messages: [{ ruleId, message }] }].
import { ESLint } from 'eslint';

const snippets = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
  }),
);
// A snippet exists only in memory, where no tsconfig can type it: the type-aware rule is off here (the
// boundary rules are not type-aware), and so is the project service that would look for the file. The
// import order is off too: a snippet's imports are in the order its case reads best, and the cases are
// about which imports are allowed, not where they stand.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', 'simple-import-sort/imports': 'off' },
  },
});
const results = [];
for (const { filePath, code } of snippets) {
  const [result] = await eslint.lintText(code, { filePath });
  results.push({ filePath, messages: result.messages.map(({ ruleId, message }) => ({ ruleId, message })) });
}
process.stdout.write(JSON.stringify(results));
