import { JsonRpcErrorCode } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { readInputAnswers } from '../call/input-required';
import { CONSENT_INPUT_KEY } from '../call/user-consent';
import { callerCapabilities, sessionIdFor } from './caller-capabilities';
import { consentNotAsked, legacyConsent, modernConsent } from './consent-answers';

const consent = { bundle: 'calendar', url: 'https://gateway.example.com/consent?request=v2.sealed', elicitationId: 'e-1' };
const session = (declared: unknown) => ({ sessionId: sessionIdFor(declared) }) as RequestContext;
const modern = (declared: Record<string, unknown>) => ({ _meta: { 'io.modelcontextprotocol/clientCapabilities': declared } });
const none = {} as RequestContext;

describe("asking for a user's consent, each era its own way (issue 48)", () => {
  it('2025-11-25: -32042 with the one URL-mode elicitation, to a session whose initialize declared elicitation.url', () => {
    const answer = legacyConsent(7, consent, {}, session({ elicitation: { form: {}, url: {} }, roots: {} }));
    expect(answer).toMatchObject({
      id: 7,
      error: {
        code: JsonRpcErrorCode.UrlElicitationRequired,
        data: { elicitations: [{ mode: 'url', elicitationId: 'e-1', url: consent.url, message: expect.stringContaining('calendar') }] },
      },
    });
    // Form-only elicitation (an empty object means form) or none: not asked; the tool error names the link.
    expect(legacyConsent(7, consent, {}, session({ elicitation: {} }))).toBeUndefined();
    expect(legacyConsent(7, consent, {}, session({}))).toBeUndefined();
  });

  it("keeps URL elicitation out of the session's relayed capabilities, and reads ids made before it", () => {
    const withUrl = session({ elicitation: { url: {} }, sampling: {} });
    expect(callerCapabilities({}, withUrl)).toBe(callerCapabilities({}, session({ elicitation: {}, sampling: {} })));
    expect(callerCapabilities({}, { sessionId: '2b1f0c36-7d4e-4f8e-9d1c-3f5a6b7c8d9e.7' } as RequestContext)).toBe(7);
  });

  it('2026-07-28: a URL-mode input request, never -32042; its answer comes back to the gateway, not to the tool', () => {
    const answer = modernConsent(8, consent, modern({ elicitation: { url: {} } }), none);
    expect(answer).toEqual({
      inputRequired: {
        inputRequests: {
          [CONSENT_INPUT_KEY]: { method: 'elicitation/create', params: { mode: 'url', url: consent.url, message: expect.any(String) } },
        },
      },
    });
    expect(JSON.stringify(answer)).not.toContain('-32042');
    expect(modernConsent(8, consent, modern({ elicitation: {} }), none)).toBeUndefined();
    expect(modernConsent(8, consent, {}, none)).toBeUndefined();
    expect(readInputAnswers({ inputResponses: { [CONSENT_INPUT_KEY]: { action: 'accept' } } })).toBeUndefined();
    expect(readInputAnswers({ inputResponses: { [CONSENT_INPUT_KEY]: { action: 'accept' }, ask: { action: 'decline' } } })).toEqual({
      inputResponses: { ask: { action: 'decline' } },
    });
  });

  it('a client without URL elicitation: an isError result that says which link to open', () => {
    const result = consentNotAsked('calendar_events', consent);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(`open ${consent.url} in your browser`);
  });
});
