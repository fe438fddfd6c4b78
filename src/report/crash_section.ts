import { escapeHtml } from "./html_escape.ts";
import { mdCode, mdText } from "./markdown_escape.ts";
import type { CrashSummary, RunSummary } from "./model.ts";

/**
 * A crashed candidate on a report page, Markdown and HTML alike: which
 * measure's eval crashed, the cause in one line, and the end of its log —
 * what a loop's author reads to fix the proposal or discard it. A crash is
 * the candidate's verdict, not a failure of the run: it is set apart from
 * `Failed:` (the run could not be judged) and from a reject (measured and
 * worse).
 */

/** A crash with who it is about: a run's candidate (`candidate`) or a round's (`candidate-2 (c2)`). */
export interface NamedCrash {
  readonly who: string;
  readonly crash: CrashSummary;
}

/** The run's crashes: its own, or each round candidate's that crashed. */
export function crashesOf(run: RunSummary): NamedCrash[] {
  if (run.round !== null) {
    return run.round.arms.flatMap((a) =>
      a.verdict === "crashed" && a.crash ? [{ who: `${a.measure} (${a.ref})`, crash: a.crash }] : []
    );
  }
  return run.verdict === "crashed" && run.crash ? [{ who: "the candidate", crash: run.crash }] : [];
}

/** The sentence of one crash: `candidate-2 (c2) crashed: eval exited with code 1 (measure candidate-2#3) in job 1234_5`. */
function sentence(c: NamedCrash): string {
  const job = c.crash.jobId === null ? "" : ` in job ${c.crash.jobId}`;
  return `${c.who} crashed: ${c.crash.cause} (measure ${c.crash.measure})${job}`;
}

/** The run's crashes as Markdown: a `**Crashed:**` line each, then the end of its log in a fenced block. */
export function crashMarkdown(run: RunSummary): string[] {
  return crashesOf(run).flatMap((c) => {
    const out = ["", `**Crashed:** ${mdText(sentence(c))}.`];
    if (c.crash.logTail !== "") {
      const longest = Math.max(2, ...[...c.crash.logTail.matchAll(/`+/g)].map((m) => m[0].length));
      const fence = "`".repeat(longest + 1);
      out.push("", `The end of its log (${mdCode(c.crash.measure)}):`, "", fence, c.crash.logTail.trimEnd(), fence);
    }
    return out;
  });
}

/** The run's crashes as HTML: a grey note each, with the end of its log below it. */
export function crashHtml(run: RunSummary): string[] {
  return crashesOf(run).map((c) =>
    `<p class="failure crashed"><strong>Crashed:</strong> ${escapeHtml(sentence(c))}.</p>` +
    (c.crash.logTail === "" ? "" : `<pre class="log" aria-label="the end of ${escapeHtml(c.crash.measure)}'s log">` +
      `${escapeHtml(c.crash.logTail.trimEnd())}</pre>`)
  );
}
