const REAL = "/src/engine/index.ts";
const WRAPPER = new URL("./recordingEngine.ts", import.meta.url).href;
export async function resolve(specifier, context, next) {
  const out = await next(specifier, context);
  if (out.url.endsWith(REAL) && context.parentURL !== WRAPPER) return { ...out, url: WRAPPER };
  return out;
}
