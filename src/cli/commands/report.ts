import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { BadInputError } from "../../errors.ts";
import { atomicWriteFile } from "../../fs/atomic_write.ts";
import { renderClimbHtml } from "../../report/html_climb.ts";
import { renderRunHtml } from "../../report/html_run.ts";
import { climbMarkdown, runMarkdown } from "../../report/markdown.ts";
import { toClimb } from "../../report/model.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { climbRunDirs, summarizeRun } from "../../views/run_summary.ts";
import { readClimbWarning } from "../shared/climb.ts";
import { defineLeaf } from "../command.ts";

export interface ReportOptions {
  /** A run dir, or a climb (a directory of run dirs). */
  readonly path: string;
  /** Markdown to stdout, or one self-contained HTML file. */
  readonly format: { readonly kind: "md" } | { readonly kind: "html"; readonly file: string };
}

/** `outerloop report RUN_DIR|DIR --md | --html FILE`: a run or a climb for people, from the files alone. */
export const reportCommand = defineLeaf<ReportOptions>({
  meta: {
    name: "report",
    description: "A run or a climb as Markdown (--md, on stdout) or one self-contained HTML file (--html FILE)",
  },
  args: {
    "RUN_DIR|DIR": { type: "positional", description: "A run dir, or a climb: a directory of run dirs" },
    md: { type: "boolean", description: "Markdown on stdout: paste it into a pull request or a log" },
    html: {
      type: "string",
      valueHint: "FILE",
      description: "Write one HTML file with inline SVG charts and CSS: opens offline, from any file system",
    },
  },
  details: [
    "Reads files only, never the scheduler. A path holding run.json is one run; otherwise its run dirs are",
    "a climb, oldest first. Give exactly one of --md and --html.",
  ],
  examples: ["outerloop report ~/runs/r42 --md", "outerloop report ~/runs --html climb.html"],

  parse(args) {
    const path = resolve(args.positional["RUN_DIR|DIR"]!);
    if (!existsSync(path) || !statSync(path).isDirectory()) {
      throw new BadInputError(`${JSON.stringify(args.positional["RUN_DIR|DIR"])} is not a directory`);
    }
    const md = args.on("md");
    const html = args.value("html");
    if (md === (html !== undefined)) throw new BadInputError("Give exactly one of --md and --html FILE");
    if (html !== undefined && html.trim() === "") throw new BadInputError(`Invalid --html "": name the file to write`);
    return { path, format: md ? { kind: "md" } : { kind: "html", file: resolve(html!) } };
  },

  async execute(o, deps) {
    const dir = new RunDir(o.path);
    const single = existsSync(dir.runRecord);
    if (!single && climbRunDirs(o.path).length === 0) {
      throw new BadInputError(
        `${JSON.stringify(o.path)} is neither a run dir (no run.json) nor a climb (no child holds one)`,
      );
    }
    let text: string;
    if (single) {
      const run = summarizeRun(dir);
      text = o.format.kind === "md" ? runMarkdown(run) : renderRunHtml(run);
    } else {
      const climb = toClimb(readClimbWarning(o.path, deps.io));
      text = o.format.kind === "md" ? climbMarkdown(climb) : renderClimbHtml(climb);
    }
    if (o.format.kind === "md") {
      deps.io.stdout(text.endsWith("\n") ? text : text + "\n");
      return 0;
    }
    try {
      atomicWriteFile(o.format.file, text);
    } catch (err) {
      throw new BadInputError(`Cannot write --html ${JSON.stringify(o.format.file)}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    deps.io.stderr(`outerloop: wrote ${o.format.file}\n`);
    return 0;
  },
});
