/**
 * File-system leaves: atomic writes (a reader sees no file or the whole one)
 * and bounded, checked reads of UTF-8 text.
 *
 * @module
 */
