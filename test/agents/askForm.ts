/**
 * The form both test agents' pages show for a relayed ask (a page script, as text): `showAsk(ask, where, send)` adds
 * a form labelled "Input requested" with the ask's message and, in form mode, one field per schema property (its
 * constraints as the input's own: min, max, email, choices) and Accept / Decline / Cancel; in URL mode, the link's
 * host and full address with Open / Decline / Cancel, Open opening it in a new window. `send(action, content)` hands
 * the user's answer to the app. The ask is untrusted: built with DOM calls and textContent, never markup.
 */
export const askFormScript = String.raw`
function showAsk(ask, where, send) {
  const form = document.createElement("form");
  form.setAttribute("aria-label", "Input requested");
  const heading = document.createElement("p");
  heading.textContent = ask.message;
  form.append(heading);
  const fields = [];
  if (ask.mode === "url") {
    const link = document.createElement("p");
    link.textContent = "Open " + new URL(ask.url).host + "? (" + ask.url + ")";
    form.append(link);
  }
  for (const [key, prop] of Object.entries((ask.requestedSchema && ask.requestedSchema.properties) || {})) {
    const label = document.createElement("label");
    label.append((prop.title || key) + " ");
    let input;
    const choices = prop.enum ? prop.enum.map((v) => [v, v]) : prop.oneOf ? prop.oneOf.map((o) => [o.const, o.title || o.const]) : null;
    if (choices) {
      input = document.createElement("select");
      for (const [value, title] of choices) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = title;
        input.append(option);
      }
      if (prop.default !== undefined) input.value = prop.default;
    } else {
      input = document.createElement("input");
      if (prop.type === "boolean") {
        input.type = "checkbox";
        input.checked = prop.default === true;
      } else if (prop.type === "integer" || prop.type === "number") {
        input.type = "number";
        if (prop.minimum !== undefined) input.min = String(prop.minimum);
        if (prop.maximum !== undefined) input.max = String(prop.maximum);
      } else if (prop.format === "email") input.type = "email";
    }
    input.name = key;
    label.append(input);
    form.append(label);
    fields.push([key, prop, input]);
  }
  const answer = (action) => {
    const content = {};
    if (action === "accept") {
      for (const [key, prop, input] of fields) {
        if (prop.type === "boolean") content[key] = input.checked;
        else if (input.value === "") continue;
        else content[key] = prop.type === "integer" || prop.type === "number" ? Number(input.value) : input.value;
      }
      if (ask.mode === "url") window.open(ask.url, "_blank", "noopener");
    }
    form.remove();
    void send(action, content);
  };
  for (const action of ["accept", "decline", "cancel"]) {
    const button = document.createElement("button");
    button.type = action === "accept" ? "submit" : "button";
    button.textContent = action === "accept" ? (ask.mode === "url" ? "Open" : "Accept") : action === "decline" ? "Decline" : "Cancel";
    if (action !== "accept") button.addEventListener("click", () => answer(action));
    form.append(button);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer("accept");
  });
  where.append(form);
}
`;
