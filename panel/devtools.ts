// devtools.html's entry: adds the panel to DevTools, and tells the worker DevTools is open on the tab.
import { announceInspection, registerPanel } from "./state/transport.ts";

registerPanel();
announceInspection();
