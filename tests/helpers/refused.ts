import assert from "node:assert/strict";

/** Exit 2, nothing on stdout, and one line on stderr matching `pattern`, no stack: how every refusal of a user's input reads. */
export function assertRefused(r: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
}
