// The reconcile contract in plain JavaScript, for the side-by-side benchmark with the
// wasm JS API (bench/reconcile-vs-js.mjs). Same inputs (three JSON texts), same output
// (an array of [kind, name, spec | null]). Loaded into the page as a classic script.
//
// Semantics, as the contract says (crates/reconcile-core/src/reconcile.rs):
// - specs compare as JSON values: member order ignored, numbers by value (JSON.parse
//   already makes 1, 1.0 and 1e0 the same number), true !== 1, arrays in order;
// - names sort by Unicode code point, not by JavaScript's default UTF-16 order.
// JSON.parse rounds integers beyond 2^53 (the contract compares 64-bit integers exactly), so
// a text with such a literal is parsed with a reviver that keeps it as a BigInt.
"use strict";

/** Code point order: UTF-16 order, except that surrogates (U+D800–U+DFFF, i.e. code
 *  points above U+FFFF) sort after U+E000–U+FFFF. */
function compareCodePoints(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

function codePointRank(unit) {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Sorts names by code point; the native sort is exact unless a name holds a unit ≥ U+D800. */
function sortNames(names) {
  names.sort();
  if (names.some((name) => /[\ud800-\uffff]/.test(name))) names.sort(compareCodePoints);
  return names;
}

const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);

/** JSON.parse, but integer literals that a double would round and the contract keeps
 *  exactly (those within 64 bits) become BigInts. Only used when the text has one. */
function parseExact(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
    const source = context?.source ?? "";
    if (!/^-?\d+$/.test(source)) return value;
    const exact = BigInt(source);
    return exact >= I64_MIN && exact <= U64_MAX ? exact : value;
  });
}

/** Whether the text may hold an integer literal beyond 2^53 (16 or more digits in a row). */
const mayHoldBigIntegers = (text) => /\d{16}/.test(text);

/** The contract's equality of two parsed JSON values. */
function jsonEqual(a, b) {
  if (a === b) return true;
  const type = typeof a;
  if (type !== typeof b) {
    // An exact big integer against a number: equal only when the number is that integer.
    if (type === "bigint" && typeof b === "number") return Number.isInteger(b) && BigInt(b) === a;
    if (type === "number" && typeof b === "bigint") return Number.isInteger(a) && BigInt(a) === b;
    return false;
  }
  if (type !== "object" || a === null || b === null) return false;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
  }
  return true;
}

/** Three JSON texts in, the contract's action list out. */
function plainReconcile(desiredText, observedText, finalizersText) {
  const exact = mayHoldBigIntegers(desiredText) || mayHoldBigIntegers(observedText);
  const parse = exact ? parseExact : JSON.parse;
  const desired = parse(desiredText);
  const observed = parse(observedText);
  // Actions carry specs as JSON.parse gives them (as the JS API returns them).
  const desiredOut = exact ? JSON.parse(desiredText) : desired;
  const finalizers = finalizersText && finalizersText.trim() ? JSON.parse(finalizersText) : null;
  const actions = [];
  for (const name of sortNames(Object.keys(desired))) {
    const spec = desired[name];
    if (!Object.hasOwn(observed, name)) actions.push(["CREATE", name, desiredOut[name]]);
    else if (!jsonEqual(spec, observed[name])) actions.push(["UPDATE", name, desiredOut[name]]);
  }
  const removed = Object.keys(observed).filter((name) => !Object.hasOwn(desired, name));
  for (const name of sortNames(removed)) {
    const pending = finalizers !== null && Object.hasOwn(finalizers, name) && finalizers[name].length > 0;
    actions.push([pending ? "FINALIZE" : "DELETE", name, null]);
  }
  return actions;
}

globalThis.plainReconcile = plainReconcile;
