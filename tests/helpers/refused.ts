import assert from "node:assert/strict";

/**
 * How every refusal of a user's input reads: exit 2, one line on stderr matching `pattern`, no stack; and on
 * stdout nothing — or, for a command given `--json`, its one JSON answer, an error of kind `bad-input` with the
 * message stderr has.
 */
export function assertRefused(r: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  if (r.stdout === "") return;
  const answer = JSON.parse(r.stdout);
  assert.equal(r.stdout.trimEnd().split("\n").length, 1, "one JSON object");
  assert.deepEqual([answer.status, answer.exit_code, answer.error.kind], ["error", 2, "bad-input"]);
  assert.equal(`outerloop: error: ${answer.error.message}`, r.stderr.trimEnd(), "the answer's message is stderr's");
}
