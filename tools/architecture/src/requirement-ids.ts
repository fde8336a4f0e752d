/**
 * Requirement ids (G = gateway, A = agent CLI, N = both, e.g. `G21`) as code comments and docs cite them,
 * and as docs/requirements.md defines them, for the docs-reference test. A citation is the id as a word
 * of its own: `SPEC G21`, `(G21)`, `G14-G19`, `A11 / A12`; not part of a path or a longer name
 * (`lib/G6.md`, `hashG5`, `G5x`).
 */
const CITED_ID = /(?<![\w./])([GAN][1-9]\d?)(?!\w)/g;

/** A requirement's line in docs/requirements.md: `- **G1** what it requires ...`. */
const DEFINED_ID = /^- \*\*([GAN][1-9]\d?)\*\*/gm;

export function requirementIdsIn(text: string): string[] {
  return [...text.matchAll(CITED_ID)].map(([, id]) => id);
}

export function requirementIdsDefinedIn(requirementsMarkdown: string): string[] {
  return [...requirementsMarkdown.matchAll(DEFINED_ID)].map(([, id]) => id);
}

/** The ids `text` cites that are not among `known`, each once. */
export function unknownRequirementIds(text: string, known: ReadonlySet<string>): string[] {
  return [...new Set(requirementIdsIn(text).filter((id) => !known.has(id)))];
}
