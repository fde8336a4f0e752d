import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { githubSlug, headingsOf, proseLines } from './markdown-headings';
import { requirementIdsDefinedIn, requirementIdsIn, unknownRequirementIds } from './requirement-ids';

/**
 * Docs that point at nothing mislead the newcomer who follows them. Every relative link in the root's
 * Markdown files (README.md, CHANGELOG.md, CONTRIBUTING.md) and docs/ must reach a file (and its `#anchor` a
 * heading), and every reference by name, in the docs or in a code comment, must too: `docs/<path>`,
 * `docs/<file>.md, "Section"`, `ADR <number>` and `ADR <number>, "Section"` (a section is named by the
 * start of its heading), and a section of the original agent design, `seed §7.1` (docs/original-design.md).
 * Every requirement id cited (`SPEC G21`) must have its line in
 * docs/requirements.md, and every spec that file names must exist. CONTRIBUTING.md and the ADRs name files
 * from the repository's root (`tools/test/free-port.ts`): each must exist, no machine's own path may stand
 * in for one, and every ADR has its row in docs/adr/README.md.
 */
const ROOT = path.resolve(__dirname, '../../..');
const ADR_DIR = path.join(ROOT, 'docs/adr');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'tmp', 'coverage', '.nx']);
const ROOT_MARKDOWN = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'];
const REQUIREMENTS = path.join(ROOT, 'docs/requirements.md');
const ORIGINAL_DESIGN = path.join(ROOT, 'docs/original-design.md');

describe('references into the docs', () => {
  it('every relative link in the root Markdown files and docs/ reaches a file, and its anchor a heading', () => {
    const problems = markdownFiles().flatMap((file) =>
      linksIn(readFileSync(file, 'utf8')).flatMap((link) => {
        const [target, anchor] = splitAnchor(link);
        const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURI(target));
        return problemOf(resolved, anchor).map((problem) => `${relative(file)}: (${link}) ${problem}`);
      }),
    );
    expect(problems).toEqual([]);
  });

  it('every docs file, section and ADR named in the docs or in a code comment exists', () => {
    const files = [...markdownFiles(), ...codeFiles(['apps', 'libs', 'tools'])];
    const problems = files.flatMap((file) =>
      namedReferences(readFileSync(file, 'utf8'), file.endsWith('.md')).flatMap(({ reference, target, anchor }) =>
        problemOf(target, anchor).map((problem) => `${relative(file)}: ${reference} ${problem}`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('every requirement id cited in the docs or in code is defined in docs/requirements.md, once', () => {
    const defined = requirementIdsDefinedIn(readFileSync(REQUIREMENTS, 'utf8'));
    expect(defined.filter((id, index) => defined.indexOf(id) !== index)).toEqual([]);
    const known = new Set(defined);
    // this spec cites made-up ids on purpose, to show that they are caught
    const files = [...markdownFiles(), ...codeFiles(['apps', 'libs', 'tools'])].filter((file) => file !== __filename);
    const problems = files.flatMap((file) =>
      unknownRequirementIds(readFileSync(file, 'utf8'), known).map(
        (id) => `${relative(file)}: cites ${id}, which docs/requirements.md does not define`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it("every spec that docs/requirements.md names as a requirement's test exists", () => {
    const specs = [...readFileSync(REQUIREMENTS, 'utf8').matchAll(/`([\w./-]+\.spec\.[cm]?[jt]s)`/g)].map(([, spec]) => spec);
    expect(specs.length).toBeGreaterThan(0);
    expect(specs.filter((spec) => !existsSync(path.join(ROOT, spec)))).toEqual([]);
  });

  it('every file CONTRIBUTING.md and the ADRs name exists, and none names a path of one machine', () => {
    const problems = houseRules().flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const missing = repositoryPathsIn(text)
        .filter((named) => !existsSync(path.join(ROOT, named)))
        .map((named) => `${relative(file)}: names ${named}, which does not exist`);
      const machinePaths = machinePathsIn(text).map((named) => `${relative(file)}: names ${named}, a path of one machine`);
      return [...missing, ...machinePaths];
    });
    expect(problems).toEqual([]);
  });

  it('every ADR has its row in docs/adr/README.md', () => {
    const index = readFileSync(path.join(ADR_DIR, 'README.md'), 'utf8');
    const adrs = readdirSync(ADR_DIR).filter((name) => /^\d{4}-.*\.md$/.test(name));
    expect(adrs.length).toBeGreaterThan(0);
    expect(adrs.filter((name) => !index.includes(`](${name})`))).toEqual([]);
  });

  it('takes the files named from the root outside code blocks and struck-through text, and paths of a machine', () => {
    const text = [
      'See `tools/test/free-port.ts` and libs/registry/src/lib/errors.ts. The `tools/call` method; ~~apps/gone/old.ts~~.',
      '```sh',
      'node tools/bench/x.mjs',
      '```',
      'Installed with `npm install --prefix /tmp/x`, read from /work/shared/design.md and ~/notes, not from /usr/bin/env.',
    ].join('\n');
    expect(repositoryPathsIn(text)).toEqual(['tools/test/free-port.ts', 'libs/registry/src/lib/errors.ts']);
    expect(machinePathsIn(text)).toEqual(['/tmp/x', '/work/shared/design.md']);
  });

  it('extracts cited requirement ids as words of their own, and reports the ones not defined', () => {
    expect(requirementIdsIn('SPEC G21, G22 and A11 / A12 (N5); G14-G19.')).toEqual(['G21', 'G22', 'A11', 'A12', 'N5', 'G14', 'G19']);
    expect(requirementIdsIn('lib/G6.md, hashG5, G5x, AG1, G0, Node 20')).toEqual([]);
    expect(requirementIdsDefinedIn('- **G1** One endpoint.\n- **A22** The CLI.\n**N9** not a line of its own\n')).toEqual(['G1', 'A22']);
    const known = new Set(requirementIdsDefinedIn(readFileSync(REQUIREMENTS, 'utf8')));
    expect(unknownRequirementIds('the gateway (SPEC G21) and the agent (SPEC A99, A99, G31)', known)).toEqual(['A99', 'G31']);
  });

  it("takes anchors by GitHub's rules", () => {
    expect(githubSlug('2. The call')).toBe('2-the-call');
    expect(githubSlug('Rewake: notifications that wake the agent')).toBe('rewake-notifications-that-wake-the-agent');
    const headings = headingsOf('# A `code` title\n```yaml\n# not a heading\n```\n## Usage\n## Usage\n');
    expect(headings.map((h) => h.anchor)).toEqual(['a-code-title', 'usage', 'usage-1']);
  });
});

type Anchor = string | { section: string } | undefined;

/** Why `target` (with an optional `#anchor` or named section) does not resolve; empty when it does. */
function problemOf(target: string, anchor: Anchor): string[] {
  if (!existsSync(target)) return [`names ${relative(target)}, which does not exist`];
  if (anchor === undefined) return [];
  if (!target.endsWith('.md')) return [`has an anchor, but ${relative(target)} is not Markdown`];
  const headings = headingsOf(readFileSync(target, 'utf8'));
  if (typeof anchor === 'string') {
    return headings.some((h) => h.anchor === anchor) ? [] : [`points at #${anchor}, which is no heading of ${relative(target)}`];
  }
  const wanted = anchor.section.toLowerCase();
  const found = headings.some((h) =>
    h.text
      .replace(/^\d+\.\s*/, '')
      .toLowerCase()
      .startsWith(wanted),
  );
  return found ? [] : [`names the section "${anchor.section}", which is no heading of ${relative(target)}`];
}

/** Link targets of `[text](target)` outside code, without web addresses. */
function linksIn(markdown: string): string[] {
  const prose = proseLines(markdown).map(withoutCodeSpans).join('\n');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

interface NamedReference {
  readonly reference: string;
  readonly target: string;
  readonly anchor: Anchor;
}

/**
 * `docs/...` paths (from the repository root) and ADR numbers, each with the section named right after
 * it in quotes, and sections of the original agent design (`seed §5.1`). Comments wrap anywhere, so a code file's line breaks and comment markers count as spaces.
 */
function namedReferences(text: string, isMarkdown: boolean): NamedReference[] {
  const flat = isMarkdown ? proseLines(text).join('\n') : text.replace(/\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
  const section = String.raw`(?:,?\s+"([^"]+)")?`;
  const paths = [...flat.matchAll(new RegExp(String.raw`(?<![\w./-])docs/([\w./-]*\w)(?:#([\w-]+))?${section}`, 'g'))].flatMap(
    ([reference, docPath, anchor, named]): NamedReference[] => {
      const adr = /^adr\/(\d{4})$/.exec(docPath);
      const target = adr ? adrFile(adr[1]) : path.join(ROOT, 'docs', docPath);
      return [{ reference, target, anchor: named !== undefined ? { section: named } : anchor }];
    },
  );
  const adrs = [...flat.matchAll(new RegExp(String.raw`\bADRs? (\d{4})${section}`, 'g'))].map(([reference, number, named]) => ({
    reference,
    target: adrFile(number),
    anchor: named !== undefined ? { section: named } : undefined,
  }));
  const seedSections = [...flat.matchAll(/\bseed(?: 000)? §(\d+(?:\.\d+)*)/g)].map(([reference, number]) => ({
    reference,
    target: ORIGINAL_DESIGN,
    anchor: { section: `§${number}` },
  }));
  return [...paths, ...adrs, ...seedSections];
}

/** CONTRIBUTING.md and every Markdown file of docs/adr/: the house's rules and decisions. */
function houseRules(): string[] {
  const adrs = readdirSync(ADR_DIR).filter((name) => name.endsWith('.md'));
  return [path.join(ROOT, 'CONTRIBUTING.md'), ...adrs.map((name) => path.join(ADR_DIR, name))];
}

/**
 * Files named by their path from the repository's root (`apps/`, `libs/`, `tools/`, `config/`, with an
 * extension, so that `tools/call` stays a method), outside code blocks and struck-through text.
 */
function repositoryPathsIn(markdown: string): string[] {
  const prose = proseLines(markdown)
    .join('\n')
    .replace(/~~[\s\S]*?~~/g, '');
  return [...prose.matchAll(/(?<![\w./-])((?:apps|libs|tools|config)\/[\w./-]*\.[a-z]{2,4})(?![\w/-])/g)].map(([, named]) => named);
}

/** Absolute paths into one machine's own folders (a home, a scratch folder), which no reader has. */
function machinePathsIn(markdown: string): string[] {
  return [...markdown.matchAll(/(?<![\w.~-])\/(?:work|home|root|tmp|Users)\/[\w./-]*[\w/]/g)].map(([named]) => named);
}

function adrFile(number: string): string {
  const file = readdirSync(ADR_DIR).find((name) => name.startsWith(`${number}-`) && name.endsWith('.md'));
  return path.join(ADR_DIR, file ?? `${number}-(no such ADR).md`);
}

function splitAnchor(link: string): [string, string | undefined] {
  const hash = link.indexOf('#');
  return hash === -1 ? [link, undefined] : [link.slice(0, hash), link.slice(hash + 1)];
}

function withoutCodeSpans(line: string): string {
  return line.replace(/`[^`]*`/g, '');
}

function markdownFiles(): string[] {
  const rootFiles = ROOT_MARKDOWN.map((name) => path.join(ROOT, name)).filter((file) => existsSync(file));
  return [...rootFiles, ...walk(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md'))];
}

function codeFiles(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => walk(path.join(ROOT, dir))).filter((file) => /\.(ts|mjs|cjs|js)$/.test(file));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

function relative(file: string): string {
  return path.relative(ROOT, file);
}
