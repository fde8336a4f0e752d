import { createInterface, type Interface } from 'node:readline/promises';

import type { AskLine } from '../agent/approval/terminal-approver';
import { forTerminal } from '../tools/terminal-text';
import type { CliIo } from './command-context';

/** A person at a terminal: questions go to stderr (stdout stays the command's output), answers come from stdin. */
export interface Terminal {
  readonly ask: AskLine;
  /**
   * Writes lines that come unasked (a server's warning) to stderr without breaking a question on screen:
   * with one open, its line is cleared, the text written, and the question and what was typed redrawn.
   */
  print?(text: string): void;
  close(): void;
}

/**
 * A terminal when stdin and stderr are both TTYs, else none: without one nobody can be asked, and the
 * approval gate denies what needs approval unless `--yes` is given. The readline is opened on first use
 * only, so commands that never ask do not hold stdin open.
 */
export function openTerminal(stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Terminal | undefined {
  if (!stdin.isTTY || !stderr.isTTY) return undefined;
  let readline: Interface | undefined;
  let open = 0;
  return {
    ask: async (question, signal) => {
      readline ??= openReadline(stdin, stderr);
      open += 1;
      try {
        const shown = forTerminal(question);
        return await (signal ? readline.question(shown, { signal }) : readline.question(shown));
      } finally {
        open -= 1;
      }
    },
    print: (text) => {
      if (!readline || open === 0) {
        stderr.write(forTerminal(text));
        return;
      }
      // Carriage return and erase-line, the text on lines of its own, then readline writes the question and the typed line again.
      stderr.write(`\r\x1b[K${forTerminal(text)}`);
      readline.prompt(true);
    },
    close: () => readline?.close(),
  };
}

function openReadline(stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Interface {
  const readline = createInterface({ input: stdin, output: stderr, terminal: true });
  // In raw mode Ctrl-C reaches the readline, not the process: hand it on as the SIGINT it would have been,
  // so that Ctrl-C means the same at a prompt as anywhere else (abort what is in flight, close, exit 130).
  readline.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  return readline;
}

/**
 * The CLI's output layer: whatever any command writes (a server's text, a model's, an error's) reaches the
 * terminal neutralised, stderr always and stdout unless it carries `--json`, which stays byte for byte
 * what JSON.stringify wrote (a JSON reader gets the server's strings exact). The terminal's questions and
 * unasked lines are neutralised by the terminal itself.
 */
export function terminalSafeIo(io: CliIo, json: boolean): CliIo {
  return {
    ...io,
    stdout: json ? io.stdout : (text) => io.stdout(forTerminal(text)),
    stderr: (text) => io.stderr(forTerminal(text)),
  };
}
