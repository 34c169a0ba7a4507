import { createMessage, createNode, type FormKitMessage, type FormKitNode } from "@formkit/core";
import { useEffect, useId, useRef, useState, useSyncExternalStore, type ComponentType, type ReactNode } from "react";
import {
  HONEYPOT_FIELD,
  STAMP_FIELD,
  defaultVisibility,
  initialValue,
  type FormDefinition,
  type FormField,
  type FormProblem,
  type FormValues,
} from "./definition";
import { basePlugins, countLedger, destroyDeep, fieldProps, submittedMessage, type FormLanguage } from "./engine";
import { uiText } from "./locale";
import { http } from "~/lib/http";

/**
 * Our React binding of the FormKit engine (see ../shared/notes/formkit.md §5, docs/decisions/0011).
 * Render makes only bare nodes (no parent, no plugins): StrictMode and discarded concurrent renders
 * may make and drop them freely, and the server never keeps one. Effects attach them and install
 * the plugins; cleanups destroy them children first. Each node is read through
 * useSyncExternalStore from a cached snapshot that its events invalidate.
 */

const EVENTS = ["input", "commit", "message-added", "message-updated", "message-removed", "settled", "count:blocking", "prop:disabled"] as const;

interface Snapshot {
  rawValue: unknown;
  settled: boolean;
  state: Record<string, boolean>;
  messages: FormKitMessage[];
  blocking: number;
  disabled: boolean;
}

interface NodeStore {
  subscribe(cb: () => void): () => void;
  getSnapshot(): Snapshot;
}

const stores = new WeakMap<FormKitNode, NodeStore>();

function read(node: FormKitNode): Snapshot {
  const state: Record<string, boolean> = {};
  const messages: FormKitMessage[] = [];
  for (const key in node.store) {
    const m = node.store[key]!;
    if (m.type === "state") state[key] = !!m.value;
    else if (m.visible || m.meta.showAsMessage) messages.push(m);
  }
  return { rawValue: node._value, settled: node.isSettled, state, messages, blocking: node.ledger.value("blocking"), disabled: !!node.props.disabled };
}

function nodeStore(node: FormKitNode): NodeStore {
  let store = stores.get(node);
  if (store) return store;
  const subs = new Set<() => void>();
  let snap: Snapshot | null = null;
  let listening = false;
  const listen = () => {
    if (listening) return;
    listening = true;
    countLedger(node);
    for (const ev of EVENTS)
      node.on(ev, () => {
        snap = null;
        for (const cb of subs) cb();
      });
  };
  store = {
    subscribe(cb) {
      listen();
      subs.add(cb);
      return () => subs.delete(cb);
    },
    getSnapshot: () => (snap ??= read(node)),
  };
  stores.set(node, store);
  return store;
}

function useNode(node: FormKitNode): Snapshot {
  const s = nodeStore(node);
  return useSyncExternalStore(s.subscribe, s.getSnapshot, s.getSnapshot);
}

const destroyed = new WeakSet<FormKitNode>();

/** A bare node made in render, attached in an effect, destroyed (depth-first) in its cleanup. */
function useAttachedNode(factory: () => FormKitNode, attach: (node: FormKitNode) => void): FormKitNode {
  const [node, setNode] = useState(factory);
  useEffect(() => {
    // StrictMode runs effects twice: the first cleanup destroyed this node, so make a new one.
    if (destroyed.has(node)) {
      setNode(factory());
      return;
    }
    attach(node);
    return () => {
      destroyed.add(node);
      destroyDeep(node);
    };
    // The factory and attach functions are per render; the node decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node]);
  return node;
}

/** Whether a field's validation messages show now (§4, §9: blur by default, dirty for checkboxes, live). */
function messagesShown(field: FormField, s: Snapshot, dirty: boolean): boolean {
  if (s.state.submitted) return true;
  const visibility = defaultVisibility(field);
  return visibility === "live" || (visibility === "blur" && !!s.state.blurred) || (visibility === "dirty" && dirty);
}

const isEmpty = (value: unknown) => value === "" || value === undefined || value === null || value === false;

/**
 * What a page's own control (FormField.control) is given: the field's value as the engine holds it
 * (text), a way to change it, and the ids that tie it to its label, help and messages. The control
 * puts `id` on its first focusable element; the form posts `name` with the value from a hidden input
 * the form renders itself, so the control needs no input of that name.
 */
export interface CustomControlProps {
  id: string;
  name: string;
  label: string;
  /** The id of the label's element (for a group's aria-labelledby). */
  labelId: string;
  value: string;
  onChange(next: string): void;
  onBlur(): void;
  describedBy?: string;
  invalid: boolean;
  required: boolean;
  props: Record<string, unknown>;
  language: FormLanguage;
}

/**
 * A control that is a group of inputs (rows of a list, a map with coordinates) says `group: true`:
 * its label names the group (role=group, aria-labelledby `labelId`) instead of one input.
 */
export type CustomControl = ComponentType<CustomControlProps> & { group?: boolean };
export type CustomControls = Readonly<Record<string, CustomControl>>;

export type SubmitOutcome = { ok: true; data?: unknown } | { ok: false; problem: FormProblem };

export interface EngineFormProps {
  definition: FormDefinition;
  language: FormLanguage;
  /** Where the form posts without JavaScript (a route action that validates with the same rules). */
  action: string;
  /** Values to start with (from the path, an earlier submission, a stored draft). */
  initial?: Record<string, unknown>;
  /** The server's answer to a submission without JavaScript: messages per field and for the form. */
  problem?: FormProblem | null;
  /** Extra hidden inputs (a token, the spam stamp). */
  hidden?: Record<string, string>;
  submitLabel?: string;
  /** With JavaScript: what submitting does once the form is valid (usually a JSON request). */
  onSubmit(values: FormValues): Promise<SubmitOutcome>;
  /** Shown instead of the form after a successful submission with JavaScript. */
  success?: (data: unknown) => ReactNode;
  /** Before the submit button (e.g. the slot picked). */
  children?: ReactNode;
  /** The page's own controls, by the `control.kind` of the fields that use them. */
  controls?: CustomControls;
}

/**
 * A form from a definition. Without JavaScript it is a plain POST form whose messages come from the
 * server's answer; with JavaScript the engine validates as the visitor types and submits through
 * `onSubmit`, showing the server's messages in place and keeping every input.
 */
export function EngineForm(props: EngineFormProps) {
  const { definition, language } = props;
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [problem, setProblem] = useState<FormProblem | null>(props.problem ?? null);
  const [done, setDone] = useState<{ data: unknown } | null>(null);
  const [loading, setLoading] = useState(false);
  const form = useAttachedNode(
    () => createNode({ type: "group", name: definition.id, value: {} }),
    (node) => {
      node.config.locale = language;
      countLedger(node);
      node.use(basePlugins);
    },
  );
  useEffect(() => {
    form.config.locale = language;
  }, [form, language]);
  const snap = useNode(form);
  const incomplete = snap.state.submitted && snap.blocking > 0 && !loading;

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    form.walk((n) => n.store.set(submittedMessage()));
    form.store.set(submittedMessage());
    setProblem(null);
    setLoading(true);
    try {
      await form.settled;
      if (form.ledger.value("validating")) await form.ledger.settled("validating");
      // Messages from the server (type "error") do not block: the visitor may send again as they are.
      if (form.ledger.value("blocking")) {
        setLoading(false);
        setProblem({ message: uiText(language, "incomplete") });
        requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
        return;
      }
      const values: FormValues = {};
      for (const child of form.children) values[child.name] = (child as FormKitNode)._value as string | boolean;
      form.props.disabled = true;
      const outcome = await props.onSubmit(values).catch(
        (): SubmitOutcome => ({
          ok: false,
          problem: { message: language === "de" ? "Das Formular konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal." : "The form could not be sent. Please try again." },
        }),
      );
      if (outcome.ok) {
        setDone({ data: outcome.data });
        return;
      }
      setProblem(outcome.problem);
      for (const [name, messages] of Object.entries(outcome.problem.errors ?? {})) {
        const child = form.children.find((c) => c.name === name) as FormKitNode | undefined;
        child?.store.set(createMessage({ key: "server", type: "error", value: messages.join(" "), blocking: false, visible: true }));
      }
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
    } finally {
      form.props.disabled = false;
      setLoading(false);
    }
  }

  if (done && props.success) return <>{props.success(done.data)}</>;
  const formMessageId = `${uid}-message`;
  const message = problem?.message ?? (incomplete ? uiText(language, "incomplete") : null);
  return (
    <form
      ref={formRef}
      method="post"
      action={props.action}
      noValidate
      onSubmit={submit}
      aria-describedby={message ? formMessageId : undefined}
      data-form={definition.id}
      data-loading={loading || undefined}
      data-submitted={snap.state.submitted || props.problem ? true : undefined}
      className="space-y-5"
    >
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Honeypot />
      <fieldset disabled={loading} className="space-y-5">
        {definition.fields.map((field) =>
          field.type === "hidden" ? null : (
            <Field
              key={field.name}
              form={form}
              field={field}
              uid={uid}
              initial={props.initial?.[field.name]}
              serverMessages={props.problem?.errors?.[field.name]}
              submittedWithoutScript={!!props.problem}
              Custom={field.control ? props.controls?.[field.control.kind] : undefined}
              language={language}
            />
          ),
        )}
        {props.children}
        <div role="alert" aria-live="assertive" id={formMessageId} data-form-message className={message ? "rounded border-l-4 border-red-700 bg-red-50 p-3 text-red-900" : ""}>
          {message}
        </div>
        <button
          type="submit"
          className="inline-flex items-center gap-2 rounded bg-[var(--color-main,#0f5e63)] px-5 py-3 font-semibold text-white disabled:opacity-70"
          aria-busy={loading || undefined}
        >
          {loading ? uiText(language, "isLoading") : (props.submitLabel ?? uiText(language, "submit"))}
        </button>
      </fieldset>
    </form>
  );
}

/** A field people never see, fill or reach by keyboard; a bot that fills every input fills it too. */
function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Website
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

export { STAMP_FIELD };

interface FieldProps {
  form: FormKitNode;
  field: FormField;
  uid: string;
  initial: unknown;
  serverMessages?: string[];
  submittedWithoutScript: boolean;
  Custom?: CustomControl | undefined;
  language: FormLanguage;
}

const inputClass =
  "block w-full rounded border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:outline-2 focus:outline-offset-2 focus:outline-[var(--color-main,#0f5e63)] aria-[invalid=true]:border-red-700";

function Field({ form, field, uid, initial, serverMessages, submittedWithoutScript, Custom, language }: FieldProps) {
  const start = initialValue(field, initial);
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement>(null);
  const node = useAttachedNode(
    () => createNode({ type: "input", name: field.name, value: start, props: { ...fieldProps(field), delay: 20 } }),
    (n) => {
      form.add(n);
      if (serverMessages?.length) n.store.set(createMessage({ key: "server", type: "error", value: serverMessages.join(" "), blocking: false, visible: true }));
      if (submittedWithoutScript) n.store.set(submittedMessage());
      // Typed before the page's script ran: the element holds it, the node must too.
      const el = ref.current;
      if (el && field.type !== "radio") {
        const domValue = field.type === "checkbox" ? el.checked : el.value;
        if (domValue !== n._value) n.input(domValue);
      }
    },
  );
  const s = useNode(node);
  const value = s.rawValue;
  // Dirty once changed, also when changed back (FormKit's "touched" behaviour): a consent box that
  // was ticked and unticked must show its message.
  const dirty = !!s.state.dirty;
  const shown = messagesShown(field, s, dirty) || submittedWithoutScript;
  const messages = s.messages.filter((m) => m.type !== "validation" || shown);
  // Before the engine is attached (server render, first paint) only the server's messages exist.
  const visible = messages.length ? messages.map((m) => String(m.value)) : (serverMessages ?? []);
  const invalid = visible.length > 0;
  const id = `${uid}-${field.name}`;
  const messageId = `${id}-messages`;
  const helpId = `${id}-help`;
  const describedBy = [field.help ? helpId : "", invalid ? messageId : ""].filter(Boolean).join(" ") || undefined;
  const failing = !!s.state.failing;
  const settled = s.settled && !s.state.validating;
  const states = {
    "data-field": field.name,
    "data-type": field.type,
    "data-blurred": s.state.blurred || undefined,
    "data-dirty": dirty || undefined,
    "data-submitted": s.state.submitted || submittedWithoutScript || undefined,
    "data-empty": isEmpty(value) || undefined,
    "data-complete": (settled && !failing && !isEmpty(value)) || undefined,
    "data-valid": (settled && !failing) || undefined,
    "data-invalid": invalid || undefined,
    "data-failing": failing || undefined,
    "data-passing": (settled && !failing) || undefined,
    "data-settled": settled || undefined,
  };
  const blur = () => node.store.set(createMessage({ key: "blurred", visible: false, value: true }));
  const change = (next: string | boolean) => {
    node.store.remove("server");
    if (!node.store.dirty) node.store.set(createMessage({ key: "dirty", visible: false, value: true }));
    node.input(next);
  };
  const common = {
    id,
    name: field.name,
    "aria-invalid": invalid,
    "aria-describedby": describedBy,
    "aria-required": /(^|\|)[*+?]*required/.test(field.validation ?? "") || undefined,
    onBlur: blur,
  };
  const label = (
    <>
      {field.label}
      {field.link ? (
        <>
          {" "}
          <a href={field.link.href} className="underline" target="_blank" rel="noopener">
            {field.link.text}
          </a>
        </>
      ) : null}
    </>
  );
  let control: ReactNode;
  if (Custom) {
    // The page's own control; the value still travels (and posts without JavaScript) as text.
    const labelId = `${id}-label`;
    const custom = (
      <Custom
        id={id}
        name={field.name}
        label={field.label}
        labelId={labelId}
        value={String(value ?? "")}
        onChange={change}
        onBlur={blur}
        describedBy={describedBy}
        invalid={invalid}
        required={!!common["aria-required"]}
        props={field.control?.props ?? {}}
        language={language}
      />
    );
    control = Custom.group ? (
      <div role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
        <span id={labelId} className="mb-1 block font-semibold">
          {label}
        </span>
        <input type="hidden" name={field.name} value={String(value ?? "")} />
        {custom}
      </div>
    ) : (
      <>
        <label id={labelId} htmlFor={id} className="mb-1 block font-semibold">
          {label}
        </label>
        <input type="hidden" name={field.name} value={String(value ?? "")} />
        {custom}
      </>
    );
  } else if (field.type === "checkbox") {
    control = (
      <div className="flex items-start gap-3">
        <input ref={ref} {...common} type="checkbox" className="mt-1 h-5 w-5 shrink-0" checked={value === true} onChange={(e) => change(e.target.checked)} />
        <label htmlFor={id}>{label}</label>
      </div>
    );
  } else if (field.type === "radio") {
    control = (
      <fieldset aria-describedby={describedBy}>
        <legend className="mb-1 font-semibold">{label}</legend>
        {field.options?.map((o) => (
          <label key={o.value} className="mr-4 inline-flex items-center gap-2">
            <input type="radio" name={field.name} value={o.value} checked={value === o.value} onChange={() => change(o.value)} onBlur={blur} aria-invalid={invalid} />
            {o.label}
          </label>
        ))}
      </fieldset>
    );
  } else {
    const input =
      field.type === "textarea" ? (
        <textarea ref={ref} {...common} rows={field.rows ?? 5} className={inputClass} placeholder={field.placeholder} value={String(value ?? "")} onChange={(e) => change(e.target.value)} />
      ) : field.type === "select" ? (
        <select ref={ref} {...common} className={inputClass} value={String(value ?? "")} onChange={(e) => change(e.target.value)}>
          <option value="">{field.placeholder ?? "–"}</option>
          {field.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          ref={ref}
          {...common}
          type={field.type}
          className={inputClass}
          placeholder={field.placeholder}
          autoComplete={field.autocomplete}
          value={String(value ?? "")}
          onChange={(e) => change(e.target.value)}
        />
      );
    control = (
      <>
        <label htmlFor={id} className="mb-1 block font-semibold">
          {label}
        </label>
        {input}
      </>
    );
  }
  return (
    <div {...states}>
      {control}
      {field.help ? (
        <p id={helpId} className="mt-1 text-sm text-neutral-700">
          {field.help}
        </p>
      ) : null}
      {invalid ? (
        <ul id={messageId} className="mt-1 text-sm font-medium text-red-800" data-messages>
          {visible.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Posts the values as JSON and turns the answer into an outcome: 2xx is success, anything else a message. */
export async function postJson(url: string, body: Record<string, unknown>, language: FormLanguage, headers: Record<string, string> = {}): Promise<SubmitOutcome> {
  // Sent once, unless it carries an idempotency key (a booking): then the server knows a repeat.
  const idempotent = Object.keys(headers).some((h) => h.toLowerCase() === "idempotency-key");
  const response = await http(url, { method: "POST", json: body, headers, idempotent });
  const data = (await response.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string[]> };
  if (response.ok) return { ok: true, data };
  const fallback = language === "de" ? "Das hat nicht geklappt. Bitte versuchen Sie es noch einmal." : "That did not work. Please try again.";
  return { ok: false, problem: { message: data.message ?? fallback, ...(data.errors ? { errors: data.errors } : {}) } };
}
