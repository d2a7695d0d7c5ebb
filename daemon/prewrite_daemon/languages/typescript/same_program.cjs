// prewrite's "same program" judge (typescript/repair.py): given a file's original text and a
// repaired text (";" inserted before line-leading "<", then variance modifiers blanked), answers
// whether TypeScript's own parser reads both as the same program but for those modifiers. Runs
// prewrite's pinned TypeScript only (argv[2], its package directory), reads JSON lines
// {id, suffix, original, repaired, blanked} on stdin, writes {id, same}. "blanked": the ranges
// of the repaired text that were "in"/"out" words, [start, end, word] in UTF-16 offsets.
// "same" only if: neither text has a parse diagnostic; the two ASTs, walked with forEachChild
// (the end-of-file token included), are equal node by node (kind, flags, every primitive
// property but positions, leaf source text, and shape) once the "in"/"out" modifiers of the
// original's type parameters are left out (the repaired text's are not: it must have none);
// the comments are equal in text and order; and the blanked ranges are exactly those modifiers
// (a bijection: each range is one of them, at its place, and each of them is one range).
// Anything else (including an exception) answers false.
"use strict";
const path = require("path");
const readline = require("readline");
const ts = require(path.join(process.argv[2], "lib", "typescript.js"));

const SKIPPED = new Set(["pos", "end", "id", "parent", "flags", "kind"]);

function parse(text, suffix) {
  // JSDoc is not parsed (it is no part of the tree); the comments are compared as text.
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  return ts.createSourceFile("file" + suffix, text, options, true, ts.ScriptKind.TS);
}

function isJSDoc(node) {
  return node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;
}

function isVariance(node) {
  return node.kind === ts.SyntaxKind.InKeyword || node.kind === ts.SyntaxKind.OutKeyword;
}

// The tree as a flat list: "(" kind flags, each own primitive property as "key:type=value"
// (in creation order: an order that differs is a difference, never a false "same"), a leaf's
// source text, its children, ")". ``dropVariance``: without the "in"/"out" modifiers of type
// parameters (any other modifier, and "in"/"out" anywhere else, stays).
function shape(sf, dropVariance) {
  const out = [];
  const visit = (node) => {
    if (dropVariance && isVariance(node) && node.parent.kind === ts.SyntaxKind.TypeParameter) {
      return;
    }
    out.push("(", node.kind, node.flags);
    if (node.kind !== ts.SyntaxKind.SourceFile) {
      for (const key in node) {
        if (!Object.prototype.hasOwnProperty.call(node, key) || SKIPPED.has(key)) continue;
        const value = node[key];
        const type = typeof value;
        if (type === "string" || type === "number" || type === "boolean") {
          out.push(key + ":" + type + "=" + value);
        }
      }
    }
    const before = out.length;
    ts.forEachChild(node, visit);
    if (out.length === before) out.push("text=" + node.getText(sf));
    out.push(")");
  };
  visit(sf);
  return out;
}

// Every comment of the file, in order: each token's trivia read from its full start, both the
// comments on the previous token's line (trailing) and those after it (leading).
function comments(sf) {
  const text = sf.text;
  const seen = new Map();
  const add = (ranges) => {
    for (const r of ranges || []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node) => {
    if (isJSDoc(node)) return;
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.pos));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  add(ts.getLeadingCommentRanges(text, sf.endOfFileToken.pos));
  add(ts.getTrailingCommentRanges(text, sf.endOfFileToken.pos));
  return [...seen.keys()].sort((a, b) => a - b).map((pos) => seen.get(pos));
}

function typeParameters(sf) {
  const found = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.TypeParameter) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

// The ranges the repaired text must have blanked, as "start:end:word" in its offsets: the
// "in"/"out" modifiers of the original's type parameters, null if the repaired text is not the
// original with exactly those words blanked (the trees are already known to be equal, so the
// type parameters correspond one to one, in order). From a type parameter's full start to its
// name, the repaired text must be the original's with each of those words as spaces; so each
// range is at the modifier's place, whatever came before it (";" inserted before a "<").
function varianceRanges(original, repaired) {
  const olds = typeParameters(original);
  const news = typeParameters(repaired);
  if (olds.length !== news.length) return null;
  const ranges = [];
  for (let i = 0; i < olds.length; i++) {
    const [o, n] = [olds[i], news[i]];
    const modifiers = (o.modifiers || []).filter(isVariance);
    if (!modifiers.length) continue;
    const shift = n.pos - o.pos;
    const nameStart = o.name.getStart(original);
    let expected = original.text.slice(o.pos, nameStart);
    for (const m of modifiers) {
      const start = m.getStart(original);
      const word = original.text.slice(start, m.end);
      if (word !== "in" && word !== "out") return null;
      const at = start - o.pos;
      expected = expected.slice(0, at) + " ".repeat(word.length) + expected.slice(at + word.length);
      ranges.push(start + shift + ":" + (m.end + shift) + ":" + word);
    }
    if (repaired.text.slice(n.pos, n.name.getStart(repaired)) !== expected) return null;
  }
  return ranges;
}

function blankedRanges(blanked) {
  if (!Array.isArray(blanked)) return null;
  const out = [];
  for (const r of blanked) {
    if (!Array.isArray(r) || r.length !== 3) return null;
    const [start, end, word] = r;
    if (!Number.isInteger(start) || !Number.isInteger(end) || typeof word !== "string") return null;
    out.push(start + ":" + end + ":" + word);
  }
  return out;
}

function equal(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function same(request) {
  const original = parse(request.original, request.suffix);
  const repaired = parse(request.repaired, request.suffix);
  if (original.parseDiagnostics.length || repaired.parseDiagnostics.length) return false;
  if (!equal(shape(original, true), shape(repaired, false))) return false;
  if (!equal(comments(original), comments(repaired))) return false;
  const expected = varianceRanges(original, repaired);
  const blanked = blankedRanges(request.blanked);
  return expected !== null && blanked !== null && equal(expected.sort(), blanked.sort());
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let id = null;
  let answer = false;
  try {
    const request = JSON.parse(line);
    id = request.id;
    answer = same(request) === true;
  } catch {
    answer = false;
  }
  process.stdout.write(JSON.stringify({ id, same: answer }) + "\n");
});
lines.on("close", () => process.exit(0));
