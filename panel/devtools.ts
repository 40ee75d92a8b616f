// devtools.html's entry: adds the panel to DevTools.
import { registerPanel } from "./state/transport.ts";

registerPanel();
