/**
 * How text reads: numbers (one owner of precision, signs and percents),
 * plain-text columns, and job text escaped and capped for a terminal.
 *
 * @module
 */
