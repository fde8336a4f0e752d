/** What a request's work listens to for the client going away (SPEC G26); `HangUp` is the front's side. */
export interface HangUpSignal {
  readonly happened: boolean;
  /** Called once when the client hangs up (at once if it already has). */
  onHangUp(listener: () => void): void;
  offHangUp(listener: () => void): void;
}

/**
 * Fires once when the client's connection closes before its answer was sent, so what its request still
 * runs (a tool call) is cancelled. A plain object, not an AbortController: one of those per request, with
 * its EventTarget listener, cost about a tenth of the gateway's CPU per call (ADR 0005, fifth round).
 */
export class HangUp implements HangUpSignal {
  private listeners: Array<() => void> | undefined;
  private fired = false;

  get happened(): boolean {
    return this.fired;
  }

  onHangUp(listener: () => void): void {
    if (this.fired) listener();
    else (this.listeners ??= []).push(listener);
  }

  offHangUp(listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at !== -1) this.listeners?.splice(at, 1);
  }

  fire(): void {
    if (this.fired) return;
    this.fired = true;
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) listener();
  }
}
