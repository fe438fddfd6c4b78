/**
 * The benchmark contract: the user's JSON file saying what to run, which
 * number to read, which way is better, how to pair and repeat, and the suite
 * siblings that must not regress — validated at entry, field by field, with
 * the file and the path of a bad field in every error (exit 2).
 *
 * @module
 */
