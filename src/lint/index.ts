/**
 * The linter's public surface (re-exported from the package root by
 * src/index.ts). No `node:` imports: it runs wherever the parser runs.
 */
export {
  DIAGNOSTIC_IDS,
  DIAGNOSTICS,
  type Diagnostic,
  type DiagnosticId,
  type DiagnosticInfo,
  SEVERITIES,
  type Severity,
} from "./diagnostics.js";
export { DIRECTIVE_SUPPORT, type DirectiveSupport } from "./directive-support.js";
export {
  type LineInfo,
  type LintOptions,
  type LintResult,
  lintRobotsTxt,
} from "./lint-robots-txt.js";
