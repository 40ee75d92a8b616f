import { config } from "zod/mini";

// MV3's CSP forbids `new Function`; zod probes it (and logs a CSP violation) unless told not to. Imported first by
// every extension entry that validates, so the setting is in place before any schema parses.
config({ jitless: true });
