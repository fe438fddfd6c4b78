/**
 * A key given twice in one JSON object. `JSON.parse` keeps the last value
 * without a word (and so does Python's `json`), so a contract that sets
 * `min_effect` twice — a merge, a paste — silently loses one: the same harm
 * as a misspelt key, which the contract refuses by name.
 */

/** Where a duplicate key was found: the key, and the path of its object (`""` for the top, `siblings[0]`). */
export interface DuplicateKey {
  readonly key: string;
  readonly path: string;
}

type Frame =
  | { kind: "object"; keys: Set<string>; expectKey: boolean; key: string }
  | { kind: "array"; index: number };

/**
 * The first key that appears twice in one object of `text`, or null. `text`
 * must be JSON that `JSON.parse` accepted: this only tracks strings and
 * brackets, in one pass.
 */
export function firstDuplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack.at(-1);
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (top?.kind === "object" && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return { key, path: pathOf(stack.slice(0, -1)) };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === "{") stack.push({ kind: "object", keys: new Set(), expectKey: true, key: "" });
    else if (c === "[") stack.push({ kind: "array", index: 0 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === "," && top !== undefined) {
      if (top.kind === "object") top.expectKey = true;
      else top.index++;
    }
  }
  return null;
}

/** The path of the value the innermost frame is at, as zod prints one: `siblings[0].name`. */
function pathOf(frames: readonly Frame[]): string {
  let path = "";
  for (const f of frames) {
    if (f.kind === "array") path += `[${f.index}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.key)) path += path === "" ? f.key : `.${f.key}`;
    else path += `[${JSON.stringify(f.key)}]`;
  }
  return path;
}
