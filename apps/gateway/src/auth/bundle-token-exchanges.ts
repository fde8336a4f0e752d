import { Agent } from 'undici';

import type { ServiceCredentials } from '../call/service-credentials';
import type { BundleSettings } from '../config/gateway-config';
import { TokenExchange } from './token-exchange';

/** The deadline of one exchange, and the exchanged tokens each bundle keeps at most. */
export interface ExchangeLimits {
  readonly timeoutMillis: number;
  readonly maxEntries: number;
}

/** The bundles' token exchanges (`tokenExchange`), by bundle, over one keep-alive pool to their authorization servers. */
export class BundleTokenExchanges {
  private readonly pool = new Agent({ keepAliveTimeout: 30_000 });
  private readonly exchanges = new Map<string, TokenExchange>();

  /** None when no bundle exchanges tokens. */
  static of(bundles: readonly BundleSettings[], limits: ExchangeLimits, credentials: ServiceCredentials): BundleTokenExchanges | undefined {
    return bundles.some((bundle) => bundle.tokenExchange !== undefined)
      ? new BundleTokenExchanges(bundles, limits, credentials)
      : undefined;
  }

  private constructor(bundles: readonly BundleSettings[], { timeoutMillis, maxEntries }: ExchangeLimits, credentials: ServiceCredentials) {
    for (const { name, tokenExchange } of bundles) {
      if (tokenExchange === undefined) continue;
      const { tokenUrl, clientId, clientSecret, resource, audience, scope } = tokenExchange;
      const settings = {
        bundle: name,
        tokenUrl: new URL(tokenUrl),
        clientId,
        clientSecret: () => credentials.read(clientSecret),
        timeoutMillis,
        maxEntries,
        ...(resource !== undefined && { resource }),
        ...(audience !== undefined && { audience }),
        ...(scope !== undefined && { scope }),
      };
      this.exchanges.set(name, new TokenExchange(settings, this.pool));
    }
  }

  /** The exchange of the bundle (route) `routeToken`, if it has one. */
  exchangeOf(routeToken: string): TokenExchange | undefined {
    return this.exchanges.get(routeToken);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
