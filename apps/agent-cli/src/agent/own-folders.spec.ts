import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ResultOverflow } from './loop/result-overflow';
import { defaultTranscriptFile, Transcript } from './transcript/transcript';

/**
 * The CLI's own files under the working directory (spilled results, the default transcript) are never
 * written through a symbolic link the workspace plants in `.agent-cli` (issue 43, item 9).
 */
function workspace(): { dir: string; elsewhere: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'own-folders-'));
  const dir = path.join(base, 'project');
  const elsewhere = path.join(base, 'elsewhere');
  mkdirSync(dir);
  mkdirSync(elsewhere);
  return { dir, elsewhere };
}

const PLANTED =
  /is a symbolic link; the agent CLI writes its own files only into real folders under the working directory: remove the link \[files\.planted_link\]$/;

describe('a link planted in .agent-cli', () => {
  it('as .agent-cli itself: a spilled result is not written where it leads, and the reason says why', () => {
    const { dir, elsewhere } = workspace();
    symlinkSync(elsewhere, path.join(dir, '.agent-cli'));
    const saved = ResultOverflow.forSession(dir).save('x'.repeat(100), undefined);
    expect(saved).toEqual({ saved: false, reason: expect.stringMatching(PLANTED) });
    expect(saved.saved === false && saved.reason.startsWith('.agent-cli is a symbolic link')).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('as a folder inside it, or as the result file: nothing is written where it leads', () => {
    const { dir, elsewhere } = workspace();
    mkdirSync(path.join(dir, '.agent-cli'));
    symlinkSync(elsewhere, path.join(dir, '.agent-cli', 'tool-results'));
    expect(ResultOverflow.forSession(dir).save('x', undefined)).toEqual({ saved: false, reason: expect.stringMatching(PLANTED) });
    expect(readdirSync(elsewhere)).toEqual([]);

    const other = workspace();
    const overflow = new ResultOverflow(other.dir, path.join(other.dir, '.agent-cli', 'tool-results', 's1'));
    mkdirSync(overflow.directory, { recursive: true });
    const target = path.join(other.elsewhere, 'target.txt');
    writeFileSync(target, 'untouched');
    symlinkSync(target, path.join(overflow.directory, 'result-1.txt'));
    expect(overflow.save('written', undefined)).toEqual({ saved: false, reason: 'EEXIST' });
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(overflow.save('written', undefined)).toMatchObject({ saved: true, shown: '.agent-cli/tool-results/s1/result-2.txt' });
  });

  it('the default transcript is not written where a planted .agent-cli/transcripts leads: one warning, the session goes on', () => {
    const { dir, elsewhere } = workspace();
    mkdirSync(path.join(dir, '.agent-cli'));
    symlinkSync(elsewhere, path.join(dir, '.agent-cli', 'transcripts'));
    const warnings: string[] = [];
    const transcript = new Transcript(defaultTranscriptFile(dir), (w) => warnings.push(w), [], dir);
    transcript.record({ type: 'user', text: 'hello' });
    transcript.close();
    expect(warnings).toEqual([expect.stringContaining('.agent-cli/transcripts is a symbolic link')]);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a real .agent-cli is used as before', () => {
    const { dir } = workspace();
    const transcript = new Transcript(
      defaultTranscriptFile(dir),
      (w) => {
        throw new Error(w);
      },
      [],
      dir,
    );
    transcript.close();
    expect(readdirSync(path.join(dir, '.agent-cli', 'transcripts'))).toHaveLength(1);
    expect(ResultOverflow.forSession(dir).save('x', undefined)).toMatchObject({ saved: true });
  });
});
