/**
 * How text reads: numbers (one owner of precision, signs and percents),
 * plain-text columns, and job text escaped and capped for a terminal.
 *
 * @module
 */
export { formatNumber } from "./numbers.ts";
export { renderColumns } from "./columns.ts";
export { escapeControls } from "./terminal.ts";
