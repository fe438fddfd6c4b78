/**
 * The zod helpers every validated file shares: strict objects (an unknown
 * key is refused, naming it), whole numbers, schemas built on first use.
 *
 * @module
 */
