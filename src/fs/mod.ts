/**
 * File-system leaves: atomic writes (a reader sees no file or the whole one)
 * and bounded, checked reads of UTF-8 text.
 *
 * @module
 */
export { atomicWriteFile, atomicWriteJson } from "./atomic_write.ts";
export { readTextFile, TextFileError } from "./read_text_file.ts";
