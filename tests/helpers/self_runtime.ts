import { runtimeName } from "../../src/runtime/detect.ts";

/** The argv prefix that runs a TypeScript file under the runtime running this test. */
export function selfRunArgv(file: string): string[] {
  return runtimeName() === "bun" ? [process.execPath, "run", file] : [process.execPath, "run", "-A", file];
}
