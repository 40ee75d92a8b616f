// panel.html's entry. Wiring only: the store (store.ts), the transport (transport.ts), the views (App.tsx).
import "../src/shared/jitless.ts";
import { render } from "preact";
import { App } from "./views/App.tsx";
import { createFlowStore } from "./state/store.ts";
import { connectTransport, inspectedTabId, watchTheme, type Theme } from "./state/transport.ts";

const applyTheme = (theme: Theme) => (document.documentElement.dataset.theme = theme);
applyTheme(watchTheme(applyTheme));

const store = createFlowStore();
const tabId = inspectedTabId();
const transport =
  tabId === undefined
    ? undefined
    : connectTransport(
        tabId,
        (message) => store.apply(message),
        (connected) => (store.connected.value = connected),
      );
render(
  <App store={store} tabId={tabId} send={(command) => transport?.send(command)} />,
  document.getElementById("root")!,
);
