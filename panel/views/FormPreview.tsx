import type { Elicitation, Finding, Flow } from "../../src/engine/index.ts";
import { formModel, type FormField } from "../model/formModel.ts";
import { outcomeClass, outcomeOf, type RecordOf } from "../model/outcome.ts";
import type { FlowStore, FlowView } from "../state/store.ts";
import { shown } from "../model/text.ts";

/**
 * Each form-mode question of the flow, rendered read-only as a client would have shown it — titles, types,
 * choices, defaults, bounds — with the user's answer filled in and the fields that broke the schema marked with
 * the engine's findings. Every value is text in a disabled control: nothing captured is ever HTML.
 */
export function FormPreview({ view, store }: { view: FlowView; store: FlowStore }) {
  const flow = view.flow;
  const forms = flow.elicitations.filter((e) => e.mode === "form");
  if (forms.length === 0) return <p class="empty">This flow asked no form-mode questions.</p>;
  const findings = store.findingsOf(flow.id);
  return (
    <div class="forms">
      {forms.map((el) => (
        <FormCard
          key={`${el.round}/${el.key}`}
          el={el}
          flow={flow}
          record={view.record}
          findings={findings}
          store={store}
        />
      ))}
    </div>
  );
}

function FormCard({
  el,
  flow,
  record,
  findings,
  store,
}: {
  el: Elicitation;
  flow: Flow;
  record: RecordOf;
  findings: readonly Finding[];
  store: FlowStore;
}) {
  const outcome = outcomeOf(el, flow, record);
  const model = formModel(el, findings);
  const known = new Set(model.fields.map((f) => f.key));
  const content =
    typeof el.content === "object" && el.content !== null && !Array.isArray(el.content)
      ? (el.content as Record<string, unknown>)
      : undefined;
  const extra = content ? Object.keys(content).filter((k) => !known.has(k)) : [];
  return (
    <section class="form-card" aria-label={`form ${el.key}`}>
      <header>
        <span class="chip">round {el.round}</span>
        <span class="chip">key {shown(el.key, 60)}</span>
        <span class={`chip ${outcomeClass(outcome)}`} aria-label="answer">
          {outcome.text}
        </span>
      </header>
      <p class="question">{shown(el.message, 2000)}</p>
      {model.malformed && <p class="warn">{model.malformed}</p>}
      <form class="preview" aria-label={`form preview ${el.key}`} onSubmit={(e) => e.preventDefault()}>
        {model.fields.map((field) => (
          <Field key={field.key} field={field} store={store} />
        ))}
      </form>
      {extra.length > 0 && (
        <div class="extra">
          <strong>Answered but not in the schema:</strong>
          <ul>
            {extra.map((k) => (
              <li key={k}>
                {shown(k, 80)} = {shown(content![k], 200)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {model.formFindings.length > 0 && <FindingNotes findings={model.formFindings} store={store} />}
    </section>
  );
}

function Field({ field, store }: { field: FormField; store: FlowStore }) {
  const broken = field.answerFindings.length > 0;
  const value = field.answered ? field.answer : undefined;
  return (
    <div
      class={`field${broken ? " broken" : ""}${field.schemaFindings.length ? " schema-issue" : ""}`}
      data-field={field.key}
    >
      <label>
        <span class="label">
          {shown(field.label, 200)}
          {field.required && (
            <span class="req" aria-label="required">
              {" "}
              *
            </span>
          )}
        </span>
        <Control field={field} value={value} broken={broken} />
      </label>
      <div class="meta">
        {[field.type, field.format, ...field.bounds]
          .filter(Boolean)
          .map((t) => shown(t, 120))
          .join(" · ")}
        {field.default !== undefined && ` · default ${shown(field.default, 120)}`}
        {!field.answered && " · not answered"}
      </div>
      {field.description && <div class="desc">{shown(field.description, 1000)}</div>}
      {broken && <FindingNotes findings={field.answerFindings} store={store} />}
      {field.schemaFindings.length > 0 && <FindingNotes findings={field.schemaFindings} store={store} />}
    </div>
  );
}

function Control({ field, value, broken }: { field: FormField; value: unknown; broken: boolean }) {
  const invalid = broken ? true : undefined;
  switch (field.control) {
    case "checkbox":
      return typeof value === "boolean" || value === undefined ? (
        <input type="checkbox" disabled checked={value === true} aria-invalid={invalid} />
      ) : (
        <input type="text" readOnly value={shown(value)} aria-invalid={invalid} />
      );
    case "select": {
      const match = field.options!.findIndex((o) => o.value === value);
      return (
        <select disabled aria-invalid={invalid} value={match >= 0 ? String(match) : value === undefined ? "" : "x"}>
          <option value="">{value === undefined ? "(none chosen)" : ""}</option>
          {field.options!.map((o, i) => (
            <option key={i} value={String(i)}>
              {shown(o.label, 200)}
              {o.label !== String(o.value) ? ` (${shown(o.value, 80)})` : ""}
            </option>
          ))}
          {match < 0 && value !== undefined && <option value="x">{`not an option: ${shown(value, 120)}`}</option>}
        </select>
      );
    }
    case "multiselect": {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <span class="choices" role="group" aria-invalid={invalid}>
          {(field.options ?? []).map((o, i) => (
            <span key={i} class="choice">
              <input type="checkbox" disabled checked={chosen.includes(o.value)} aria-label={shown(o.label, 200)} />
              {shown(o.label, 200)}
            </span>
          ))}
          {value !== undefined && !Array.isArray(value) && (
            <span class="bad">{`not a list: ${shown(value, 120)}`}</span>
          )}
          {chosen
            .filter((c) => !(field.options ?? []).some((o) => o.value === c))
            .map((c, i) => (
              <span key={`x${i}`} class="bad">{`not an option: ${shown(c, 120)}`}</span>
            ))}
        </span>
      );
    }
    default:
      return (
        <input
          type="text"
          readOnly
          value={value === undefined ? "" : shown(value, 2000)}
          placeholder={field.default !== undefined ? shown(field.default, 200) : ""}
          aria-invalid={invalid}
        />
      );
  }
}

export function FindingNotes({ findings, store }: { findings: readonly Finding[]; store: FlowStore }) {
  return (
    <ul class="notes">
      {findings.map((f) => (
        <li key={f.id} class={f.severity}>
          <button
            type="button"
            class="link"
            onClick={() => store.selectFinding(f.id)}
            aria-label={`finding ${f.id}: ${f.rule}`}
          >
            {f.severity} {f.rule}
          </button>{" "}
          {shown(store.findingText(f), 1000)}
        </li>
      ))}
    </ul>
  );
}
