import { expandStrings, expandVariables } from './expand-variables';

class MissingVariable extends Error {}
const missing = (message: string) => new MissingVariable(message);

describe('expandVariables (`${VAR}` in configuration files, shared by the gateway and the agent CLI)', () => {
  const env = { HOST: 'tools.internal', EMPTY: '' };

  it('replaces ${VAR} and ${VAR:-default}; the default also stands in for an empty variable', () => {
    expect(expandVariables('http://${HOST}:${PORT:-8081}/${EMPTY:-x}', env, 'url', missing)).toBe('http://tools.internal:8081/x');
  });

  it("takes Spring's ${VAR:default} as well, the original design's form; a default starting with - needs ${VAR:--1}", () => {
    expect(expandVariables('${PORT:8080} ${HOST:other} ${EMPTY:} ${N:--1}', env, 'text', missing)).toBe('8080 tools.internal  -1');
  });

  it('writes $${ as a literal ${', () => {
    expect(expandVariables('$${HOST} ${HOST}', env, 'text', missing)).toBe('${HOST} tools.internal');
  });

  it("throws the caller's error naming the variable and where it is used, never a value", () => {
    const thrown = (() => {
      try {
        expandVariables('Bearer ${TOKEN}', env, 'headers.authorization', missing);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(MissingVariable);
    expect((thrown as Error).message).toBe(
      'headers.authorization uses ${TOKEN}, but the environment variable TOKEN is not set; set it, or give a default: ${TOKEN:-value}',
    );
  });

  it('expands every string of a parsed document, naming the path; keys and other values stay', () => {
    const document = { server: { port: 8080, host: '${HOST}' }, bundles: [{ '${KEY}': '${PORT:-1}' }] };
    expect(expandStrings(document, env, '', missing)).toEqual({
      server: { port: 8080, host: 'tools.internal' },
      bundles: [{ '${KEY}': '1' }],
    });
    expect(() => expandStrings({ bundles: [{ url: '${NOPE}' }] }, env, '', missing)).toThrow(/^bundles\[0\]\.url uses \$\{NOPE\}/);
  });
});
