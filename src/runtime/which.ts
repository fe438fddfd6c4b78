import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

/**
 * The file a program name runs, looked up the way `execvp` does: a name with
 * a slash is a path (relative to `cwd`), anything else is searched on `path`.
 * Null when nothing executable is found.
 */
export function which(program: string, path: string, cwd: string): string | null {
  if (program.includes("/")) {
    const full = resolve(cwd, program);
    return isExecutableFile(full) ? full : null;
  }
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const full = resolve(cwd, join(dir, program));
    if (isExecutableFile(full)) return full;
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
