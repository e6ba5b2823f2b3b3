/**
 * Lists the functions, methods and arrow functions in src/ longer than the
 * project's function cap, and the files longer than its file cap, read with
 * the TypeScript compiler's parser. The structure test holds src/ to both
 * caps; run `node dist/scripts/long-functions.js` to see the offenders.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The longest a function may be, in lines (its first line to its last). */
export const MAX_FUNCTION_LINES = 120;
/** The longest a source file may be, in lines. */
export const MAX_FILE_LINES = 600;

/** One function over the cap: `file` relative to src/, `name` as `Class.method`, `outer.inner` or `<anonymous>@line`. */
export interface LongFunction {
  readonly file: string;
  readonly name: string;
  readonly lines: number;
}

/** One file over the cap, relative to src/. */
export interface LongFile {
  readonly file: string;
  readonly lines: number;
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string | undefined {
  const named = node as ts.Node & { name?: ts.Node };
  if (
    named.name &&
    (ts.isIdentifier(named.name) ||
      ts.isStringLiteral(named.name) ||
      ts.isPrivateIdentifier(named.name))
  ) {
    return named.name.text;
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  // An arrow or function expression takes the name it is bound to.
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent))
  ) {
    if (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)) return parent.name.text;
  }
  if (ts.isFunctionLike(node)) {
    return `<anonymous>@${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  }
  return undefined;
}

function isFunction(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Every function in one source text longer than `max` lines. */
export function longFunctionsIn(
  file: string,
  text: string,
  max = MAX_FUNCTION_LINES,
): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node, scope: readonly string[]): void => {
    let inner = scope;
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      inner = [...scope, node.name?.text ?? "<class>"];
    } else if (isFunction(node)) {
      const name = [...scope, nameOf(node, sf) ?? "<function>"];
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, name: name.join("."), lines });
      inner = name;
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(sf, []);
  return found;
}

/** Every .ts/.cts file under `srcDir`, relative, with forward slashes. */
function sourceFiles(srcDir: string): string[] {
  return readdirSync(srcDir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.c?ts$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/** The functions and files in `srcDir` over the caps. */
export function measureSources(srcDir: string): { functions: LongFunction[]; files: LongFile[] } {
  const functions: LongFunction[] = [];
  const files: LongFile[] = [];
  for (const rel of sourceFiles(srcDir)) {
    const text = readFileSync(path.join(srcDir, rel), "utf8");
    const lines = text.split("\n").length;
    if (lines > MAX_FILE_LINES) files.push({ file: rel, lines });
    functions.push(...longFunctionsIn(rel, text));
  }
  return { functions, files };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
  const { functions, files } = measureSources(path.join(root, "src"));
  for (const f of functions) console.log(`function src/${f.file}: ${f.name} ${f.lines} lines`);
  for (const f of files) console.log(`file     src/${f.file}: ${f.lines} lines`);
}
