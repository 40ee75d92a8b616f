// Seat P of bench:tap: the floor of any fetch tap. Injected as the extension's tap is (MAIN world, document_start,
// every frame), it swaps `fetch` for a Proxy, as src/page/wrap.ts does, whose `apply` only calls the browser's
// fetch with the page's own `this` and arguments: no Request, no header read, nothing recorded, nothing posted.
// Compiled by bench/tap/main.ts (esbuild) into a temporary extension folder with manifest.json beside it.
const apply = Reflect.apply;
const handler: ProxyHandler<typeof fetch> = { apply: (target, self, args) => apply(target, self, args) };
Object.setPrototypeOf(handler, null);
window.fetch = new Proxy(window.fetch, handler);
