/**
 * The headings of a Markdown file and the anchors GitHub gives them, for the docs-reference test.
 * GitHub's rule: the heading's text without markup, lower-cased, every character that is not a letter,
 * digit, `_`, `-` or space dropped, spaces turned into `-`; a repeated slug gets `-1`, `-2`, ...
 */
export interface Heading {
  readonly text: string;
  readonly anchor: string;
}

export function headingsOf(markdown: string): Heading[] {
  const counts = new Map<string, number>();
  return proseLines(markdown).flatMap((line) => {
    const match = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) return [];
    const text = plainText(match[1]);
    const slug = githubSlug(text);
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    return [{ text, anchor: seen === 0 ? slug : `${slug}-${seen}` }];
  });
}

export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The lines outside fenced code blocks: a `#` inside a fence is a shell comment, not a heading. */
export function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').filter((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return false;
    }
    return fence === undefined;
  });
}

/** Link text for `[text](url)`, code spans and emphasis markers removed, as GitHub reads a heading. */
function plainText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*/g, '')
    .trim();
}
