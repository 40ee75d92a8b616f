// The demo page's entry, bundled by demo/host.ts at start: wiring only.
import type { Answer, Ask, Asker } from "./ask.ts";
import { describeAnswer } from "./ask.ts";
import { createAskPanel } from "./askPanel.ts";
import { scenarioName, scenarios } from "./scenarios.ts";
import { createTranscript } from "./transcript.ts";

const byId = (id: string): HTMLElement => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} missing from the page`);
  return node;
};

const note = createTranscript(byId("transcript"));
const panel = createAskPanel(byId("asks"), note);
const lists = { "2025-11-25": byId("legacy-scenarios"), "2026-07-28": byId("modern-scenarios") };

for (const scenario of scenarios) {
  const name = scenarioName(scenario);
  const item = document.createElement("li");
  const run = document.createElement("button");
  run.type = "button";
  run.textContent = `Run: ${name}`;
  const what = document.createElement("p");
  what.textContent = `${scenario.target} — ${scenario.what}`;
  const result = document.createElement("output");
  result.setAttribute("aria-label", `Result: ${name}`);
  item.append(run, what, result);
  lists[scenario.era].append(item);

  const ask: Asker = async (question: Ask): Promise<Answer> => {
    note(
      `${scenario.era} ${question.origin}: server asks (${question.mode}) ${question.message}${question.mode === "url" ? ` ${question.url}` : ""}`,
    );
    const answer = await panel.ask(question);
    note(`${scenario.era} ${question.origin}: you answered ${describeAnswer(answer)}`);
    return answer;
  };

  run.addEventListener("click", async () => {
    run.disabled = true;
    result.className = "running";
    result.textContent = "running…";
    note(`${scenario.era} ${scenario.target}: run`);
    try {
      const text = await scenario.run(ask, (line) => note(`${scenario.era} ${line}`));
      result.className = "done";
      result.textContent = text;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      result.className = "failed";
      result.textContent = `failed${typeof code === "number" ? ` (${code})` : ""}: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      note(`${scenario.era} ${scenario.target}: result ${result.textContent}`);
      run.disabled = false;
    }
  });
}
