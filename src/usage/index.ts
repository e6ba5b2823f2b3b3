/**
 * AI usage preferences: `Content-Usage` (draft-ietf-aipref-attach-05 with
 * draft-ietf-aipref-vocab-08) and `Content-Signal`
 * (draft-romm-aipref-contentsignals-00), in robots.txt and in response
 * headers. Part of the core: no dependencies, no `node:` imports.
 */

export {
  parseSfDictionary,
  type SfBareItem,
  type SfDictionaryResult,
  type SfInnerList,
  type SfItem,
  type SfMember,
  type SfParams,
} from "../protocol/structured-fields.js";
export { type AgentUsage, usageByAgent } from "./agent-usage.js";
export { type ContentSignal, contentSignals } from "./content-signals.js";
export {
  type AgentUsageLines,
  type ContentSignalLine,
  type ContentUsageRule,
  type ContentUsageValue,
  matchContentUsage,
  matchesPath,
  splitContentUsage,
  usageLinesFor,
} from "./robots-rules.js";
export {
  type CategoryResult,
  combineStatements,
  compileUsage,
  type HeaderInput,
  headerStatements,
  headerValues,
  type RobotsUsage,
  type UsageCheckOptions,
  type UsageMatcher,
  type UsageOrigin,
  type UsagePreferences,
  type UsageQuery,
  type UsageStatement,
  usagePreferences,
} from "./usage-preferences.js";
export {
  AIPREF_VOCABULARIES,
  type AiprefVocabulary,
  CONTENT_SIGNAL_LABELS,
  type ContentSignalLabel,
  categoryPreference,
  DEFAULT_VOCABULARY,
  type IgnoredEntry,
  type Preference,
  RETIRED_LABELS,
  type ReadStatement,
  readContentSignal,
  readUsageStatement,
  type UsageCategory,
} from "./vocabulary.js";
