import { type ChildProcess, spawn } from 'node:child_process';

import type { JSONRPCMessage, McpTransport } from '@toolmesh/protocol';

import { NdjsonStreamTransport } from './ndjson-stream-transport';
import { childProcesses, type ChildProcessRegistry } from './process/child-process-registry';
import { minimalEnv } from './process/minimal-env';
import { RingBuffer } from './process/ring-buffer';
import { terminate } from './process/terminate';
import { StdioErrorCode, StdioTransportError } from './stdio-errors';

export interface ChildProcessServer {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the minimal inherited environment (see minimal-env.ts); nothing else of ours is passed. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface ChildProcessTransportOptions {
  readonly maxMessageBytes?: number;
  /** Bytes of the server's stderr kept for error messages. Default 16 KiB. */
  readonly stderrBufferBytes?: number;
  /** Time to exit after stdin closes, then after SIGTERM, before SIGKILL. Defaults 1 s and 2 s. */
  readonly exitGraceMs?: number;
  readonly killGraceMs?: number;
  /** Where the live process is tracked for the exit handlers. Default: the shared `childProcesses`. */
  readonly registry?: ChildProcessRegistry;
}

/**
 * An MCP server as a child process: spawned in its own process group with a minimal environment,
 * spoken to over stdin/stdout, its stderr kept in a bounded ring buffer, and ended with stdin EOF, then
 * SIGTERM, then SIGKILL to the whole group, so that neither it nor anything it started outlives us.
 */
export class ChildProcessTransport implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private child: ChildProcess | undefined;
  private channel: NdjsonStreamTransport | undefined;
  private readonly stderr: RingBuffer;
  private closing: Promise<void> | undefined;
  /** Resolves when the process has exited and its pipes are read to their end. */
  private ended: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly server: ChildProcessServer,
    private readonly options: ChildProcessTransportOptions = {},
  ) {
    this.stderr = new RingBuffer(options.stderrBufferBytes ?? 16 * 1024);
  }

  /** The server's recent stderr (bounded), for error messages and `servers` output. */
  get stderrTail(): string {
    return this.stderr.text();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('ChildProcessTransport.start() was called twice');
    const child = spawn(this.server.command, [...(this.server.args ?? [])], {
      cwd: this.server.cwd,
      env: minimalEnv(this.server.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group, so close() reaches grandchildren too
      windowsHide: true,
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(
          new StdioTransportError(
            StdioErrorCode.SpawnFailed,
            // ENOENT means a missing command or a missing cwd alike, so both are named.
            `could not start "${this.server.command}"${this.server.cwd ? ` in ${this.server.cwd}` : ''}: ${error.message}`,
            { cause: error },
          ),
        ),
      );
    });
    (this.options.registry ?? childProcesses).track(child);
    this.ended = new Promise((resolve) => child.once('close', () => resolve()));
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.write(chunk));
    child.on('error', (error) => this.onerror?.(error));
    child.once('exit', (code, signal) => this.onExit(code, signal));

    if (!child.stdout || !child.stdin) throw new Error('spawn with piped stdio returned no pipes'); // cannot happen; narrows the types
    const channel = new NdjsonStreamTransport(child.stdout, child.stdin, { maxMessageBytes: this.options.maxMessageBytes });
    channel.onmessage = (message, extra) => this.onmessage?.(message, extra);
    channel.onerror = (error) => this.onerror?.(error);
    this.channel = channel;
    await channel.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Once closing has begun the server's stdin is ended: a write now would only fail with "write after end".
    if (!this.channel || this.closed || this.closing)
      throw new StdioTransportError(StdioErrorCode.NotConnected, 'the server process is not running');
    try {
      await this.channel.send(message);
    } catch (error) {
      throw await this.explainFailedWrite(error);
    }
  }

  /**
   * A write fails (EPIPE) when the server has exited or is exiting, typically at start: its exit code and
   * stderr say why, "write EPIPE" does not. The exit is waited for briefly, as it may follow the failed write.
   */
  private async explainFailedWrite(error: unknown): Promise<unknown> {
    const child = this.child;
    if (!child || !this.ended) return error;
    // 'close' comes after 'exit' once stderr is read to its end, so the tail is complete.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.ended, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) return error;
    return new StdioTransportError(StdioErrorCode.ProcessExited, this.exitDescription(child.exitCode, child.signalCode), { cause: error });
  }

  private exitDescription(code: number | null, signal: NodeJS.Signals | null): string {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const tail = this.stderr.text().trim();
    return `the server process exited with ${how}${tail ? `; its stderr ends with:\n${tail.slice(-2000)}` : ''}`;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.child) {
      await terminate(this.child, { exitGraceMs: this.options.exitGraceMs ?? 1000, killGraceMs: this.options.killGraceMs ?? 2000 });
    }
    this.finish();
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closing) return; // we asked it to go
    // The report names the stderr's last lines: wait (briefly, a grandchild may hold the pipe) for them.
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([this.ended, new Promise((resolve) => (timer = setTimeout(resolve, 500)))]).then(() => {
      clearTimeout(timer);
      if (this.closing) return;
      this.onerror?.(new StdioTransportError(StdioErrorCode.ProcessExited, this.exitDescription(code, signal)));
      void this.close();
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    void this.channel?.close();
    this.onclose?.();
  }
}
