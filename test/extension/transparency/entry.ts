// The page side of the battery (bundled into /harness.js, loaded in <head> of /page.html). The test calls
// `__transparency.run(name, ctx)`; `early` is the page's global shape before any other script of the page ran.
import { behaviours, type Ctx, type Observed } from "./behaviours/index.ts";

const early = {
  window: Object.getOwnPropertyNames(window).sort(),
  windowSymbols: Object.getOwnPropertySymbols(window).map(String),
};

Object.defineProperty(window, "__transparency", {
  value: {
    early,
    run(name: string, ctx: Ctx): Promise<Observed> {
      const behaviour = behaviours.find((b) => b.name === name);
      if (!behaviour) throw new Error(`no behaviour named ${name}`);
      return behaviour.run(ctx);
    },
  },
});
