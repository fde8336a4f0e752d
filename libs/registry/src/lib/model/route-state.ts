import type { RouteSnapshot } from './route-snapshot';

export interface RouteError {
  readonly code: string;
  readonly message: string;
  /** Wall clock, ms. */
  readonly at: number;
}

/** What the catalogue knows about one route: its last good snapshot, its TTL clock and its history. */
export interface RouteState {
  /** routeSignature() of the configuration the state was loaded with. */
  readonly signature: string;
  readonly attemptedAt: number;
  readonly snapshot?: RouteSnapshot;
  readonly lastSuccessAt?: number;
  readonly lastError?: RouteError;
}
