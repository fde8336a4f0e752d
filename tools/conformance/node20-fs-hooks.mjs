// Loader hooks (see conformance.mjs): the conformance suite's 'fs' import gets fs plus a globSync stub.
const SHIM = new URL('./node20-fs-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && /\/@modelcontextprotocol\/conformance(-2026)?\//.test(context.parentURL ?? '')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
