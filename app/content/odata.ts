import { badRequest } from "./errors";
import type { FilterNode, FilterOp } from "./types";
import { own } from "../lib/input";
import { MAX_FILTER_DEPTH, MAX_FILTER_LEAVES, MAX_FILTER_LENGTH, MAX_IN_VALUES } from "./limits";

/**
 * Parses the OData `$filter` subset Squidex clients send into our JSON filter:
 * `data/city/iv eq 'Köln' and (data/rating/iv ge 4 or not empty(data/tags/iv))`,
 * `contains(data/name/iv, 'mü')`, `startswith(…)`, `endswith(…)`, `exists(…)`, `empty(…)`,
 * `data/code/iv in ('a', 'b')`. Literals: 'strings' ('' escapes a quote), numbers, true/false/null,
 * and bare ISO dates.
 */
type Token = { kind: "word" | "string" | "number" | "punct"; text: string; value?: unknown };

const COMPARE: Record<string, FilterOp> = { eq: "eq", ne: "ne", lt: "lt", le: "le", gt: "gt", ge: "ge" };
const FUNCS: Record<string, FilterOp> = {
  contains: "contains",
  startswith: "startsWith",
  endswith: "endsWith",
  empty: "empty",
  exists: "exists",
};

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let s = "";
      i++;
      for (;;) {
        if (i >= input.length) throw badRequest("OData filter has an unterminated string.");
        if (input[i] === "'") {
          if (input[i + 1] === "'") {
            s += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += input[i++];
      }
      tokens.push({ kind: "string", text: s, value: s });
    } else if ("(),".includes(c)) {
      tokens.push({ kind: "punct", text: c });
      i++;
    } else {
      const m = /^[^\s(),']+/.exec(input.slice(i))!;
      const text = m[0];
      i += text.length;
      if (/^-?\d+(\.\d+)?$/.test(text)) tokens.push({ kind: "number", text, value: Number(text) });
      else if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(text)) tokens.push({ kind: "string", text, value: text });
      else tokens.push({ kind: "word", text });
    }
  }
  return tokens;
}

export function parseODataFilter(input: string): FilterNode {
  if (input.length > MAX_FILTER_LENGTH) throw badRequest(`OData filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  const tokens = tokenize(input);
  let pos = 0;
  // Nesting (parentheses, `not`) is bounded, so no filter can exhaust the stack.
  let depth = 0;
  const nest = <T>(parse: () => T): T => {
    if (++depth > MAX_FILTER_DEPTH) throw badRequest(`OData filter nests more than ${MAX_FILTER_DEPTH} levels deep.`);
    try {
      return parse();
    } finally {
      depth--;
    }
  };
  const peek = () => tokens[pos];
  const next = () => {
    const t = tokens[pos++];
    if (!t) throw badRequest("OData filter ends too early.");
    return t;
  };
  const expect = (text: string) => {
    const t = next();
    if (t.text !== text) throw badRequest(`OData filter: expected "${text}" but found "${t.text}".`);
  };
  const isWord = (t: Token | undefined, w: string) => t?.kind === "word" && t.text.toLowerCase() === w;
  const path = () => {
    const t = next();
    if (t.kind !== "word") throw badRequest(`OData filter: expected a field path but found "${t.text}".`);
    return t.text.replace(/\//g, ".");
  };
  const literal = (): unknown => {
    const t = next();
    if (t.kind === "string" || t.kind === "number") return t.value;
    if (t.kind === "word") {
      const w = t.text.toLowerCase();
      if (w === "true") return true;
      if (w === "false") return false;
      if (w === "null") return null;
    }
    throw badRequest(`OData filter: expected a value but found "${t.text}".`);
  };
  // Conditions are counted as they are read: a filter of thousands is refused before it is built.
  let leaves = 0;
  const primary = (): FilterNode => {
    const t = peek();
    if (t?.text === "(") {
      next();
      const inner = nest(orExpr);
      expect(")");
      return inner;
    }
    if (++leaves > MAX_FILTER_LEAVES) throw badRequest(`OData filter: at most ${MAX_FILTER_LEAVES} conditions.`);
    if (t?.kind === "word" && tokens[pos + 1]?.text === "(" && own(FUNCS, t.text.toLowerCase())) {
      const op = own(FUNCS, next().text.toLowerCase())!;
      expect("(");
      const p = path();
      if (op === "empty" || op === "exists") {
        expect(")");
        return { path: p, op };
      }
      expect(",");
      const value = literal();
      expect(")");
      return { path: p, op, value };
    }
    const p = path();
    const opToken = next();
    const word = opToken.text.toLowerCase();
    if (word === "in") {
      expect("(");
      const values = [literal()];
      while (peek()?.text === ",") {
        next();
        if (values.length >= MAX_IN_VALUES) throw badRequest(`OData filter: "in" takes at most ${MAX_IN_VALUES} values.`);
        values.push(literal());
      }
      expect(")");
      return { path: p, op: "in", value: values };
    }
    const op = own(COMPARE, word);
    if (!op) throw badRequest(`OData filter: unknown operator "${opToken.text}".`);
    return { path: p, op, value: literal() };
  };
  const unary = (): FilterNode => {
    if (isWord(peek(), "not")) {
      next();
      return { not: nest(unary) };
    }
    return primary();
  };
  const andExpr = (): FilterNode => {
    const parts = [unary()];
    while (isWord(peek(), "and")) {
      next();
      parts.push(unary());
    }
    return parts.length === 1 ? parts[0]! : { and: parts };
  };
  const orExpr = (): FilterNode => {
    const parts = [andExpr()];
    while (isWord(peek(), "or")) {
      next();
      parts.push(andExpr());
    }
    return parts.length === 1 ? parts[0]! : { or: parts };
  };
  const result = orExpr();
  if (pos < tokens.length) throw badRequest(`OData filter: unexpected "${tokens[pos]!.text}".`);
  return result;
}
