import { type ElicitRequestURLParams, ProtocolErrorCode } from '@modelcontextprotocol/client';

import { McpClientError, McpClientErrorCode } from './client-errors';
import type { UrlElicitationHandlers } from './server-requests';

/**
 * A tool call whose 2025-11-25 server answers `-32042` (URLElicitationRequiredError: the user must open a
 * URL first, e.g. to consent at a SaaS) is handed to `consent`, then made once more. Once only: a server
 * that asks again after the user has been there would otherwise loop, so its second `-32042` fails the
 * call with `client.url_elicitation_repeated`. Without `consent` (URL mode undeclared) the error is thrown as is.
 */
export async function retriedAfterUrlConsent<T>(
  serverName: string,
  call: () => Promise<T>,
  consent: UrlElicitationHandlers | undefined,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const elicitations = consent && urlElicitationsOf(error);
    if (!elicitations) throw error;
    await consent.required(elicitations, signal);
    try {
      return await call();
    } catch (again) {
      if (!urlElicitationsOf(again)) throw again;
      throw new McpClientError(
        McpClientErrorCode.UrlElicitationRepeated,
        `MCP server "${serverName}" still asks for a URL to be opened after the user opened it; the call is not retried again (call the tool once more if the page was not finished)`,
        { cause: again },
      );
    }
  }
}

/** The URL elicitations of a `-32042` error, each with a string `url`; undefined for any other error. */
function urlElicitationsOf(error: unknown): readonly ElicitRequestURLParams[] | undefined {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { elicitations?: unknown } };
  if (code !== ProtocolErrorCode.UrlElicitationRequired || !Array.isArray(data?.elicitations)) return undefined;
  const elicitations = data.elicitations.filter(
    (e): e is ElicitRequestURLParams => typeof e === 'object' && e !== null && typeof (e as { url?: unknown }).url === 'string',
  );
  return elicitations.length > 0 ? elicitations : undefined;
}
