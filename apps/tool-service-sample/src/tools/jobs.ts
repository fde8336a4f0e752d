import { randomUUID } from 'node:crypto';

import { errorReply, jsonReply, noContentReply, type Reply } from '../http/reply';

/** Where a job's status is read (GET) and where it is cancelled (DELETE). */
export const JOBS_PATH_PREFIX = '/jobs/';

/** How long an ended job is still answered for, before it is forgotten. */
const KEEP_ENDED_MILLIS = 600_000;

interface Job {
  readonly readyAt: number;
  readonly outcome: () => Reply;
}

/**
 * The long calls of this service (issue 47): a call is accepted at once (`202` with the job's `Location`
 * and a `Retry-After`) and its job is done after a while; its status URL answers `202` until then, its
 * outcome after (the same reply a synchronous call would have had), `404` once cancelled. No timer runs:
 * a job's state is read from the clock when asked.
 */
class Jobs {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts a job that ends in `outcome` after `millis`: the 202 that tells where to ask. */
  accept(millis: number, outcome: () => Reply): Reply {
    this.forgetOld();
    const id = randomUUID();
    this.jobs.set(id, { readyAt: this.now() + millis, outcome });
    return this.working(`${JOBS_PATH_PREFIX}${id}`, millis);
  }

  status(id: string): Reply {
    const job = this.jobs.get(id);
    if (job === undefined) return errorReply(404, `no job ${id}: it never existed, was cancelled, or was forgotten`);
    const left = job.readyAt - this.now();
    return left > 0 ? this.working(`${JOBS_PATH_PREFIX}${id}`, left) : job.outcome();
  }

  cancel(id: string): Reply {
    return this.jobs.delete(id) ? noContentReply : errorReply(404, `no job ${id}`);
  }

  /** 202 with where to ask, and to ask again in a second (Retry-After counts whole seconds). */
  private working(location: string, leftMillis: number): Reply {
    const reply = jsonReply(202, { statusMessage: `working, about ${Math.ceil(leftMillis / 1000)} s left` });
    return { ...reply, headers: { ...reply.headers, location, 'retry-after': '1' } };
  }

  private forgetOld(): void {
    const now = this.now();
    for (const [id, job] of this.jobs) if (job.readyAt + KEEP_ENDED_MILLIS < now) this.jobs.delete(id);
  }
}

/** The one job table of this process: its tools start jobs, its `/jobs/` routes answer for them. */
export const JOBS = new Jobs();
