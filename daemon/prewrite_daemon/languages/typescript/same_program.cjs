// prewrite's "same program" judge (typescript/repair.py): given a file's original text and a
// repaired text (";" inserted before line-leading "<"), answers whether TypeScript's own parser
// reads both as the same program. Runs prewrite's pinned TypeScript only (argv[2], its package
// directory), reads JSON lines {id, suffix, original, repaired} on stdin, writes {id, same}.
// "same" only if: neither text has a parse diagnostic; the two ASTs, walked with forEachChild
// (the end-of-file token included), are equal node by node (kind, flags, every primitive
// property but positions, leaf source text, and shape); and the comments are equal in text and
// order. Anything else (including an exception) answers false.
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

// The tree as a flat list: "(" kind flags, each own primitive property as "key:type=value"
// (in creation order: an order that differs is a difference, never a false "same"), a leaf's
// source text, its children, ")".
function shape(sf) {
  const out = [];
  const visit = (node) => {
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

function equal(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function same(request) {
  const original = parse(request.original, request.suffix);
  const repaired = parse(request.repaired, request.suffix);
  if (original.parseDiagnostics.length || repaired.parseDiagnostics.length) return false;
  return equal(shape(original), shape(repaired)) && equal(comments(original), comments(repaired));
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
