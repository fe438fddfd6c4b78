# Sourced by the scripts that need Deno or Bun: `deno` and `bun` from PATH
# when they are the pinned versions, else straight from npm through npx (what
# the README's `npx -y deno@2.9.6 task …` relies on: nothing installed
# globally). Defines the arrays DENO and BUN.
DENO_VERSION=2.9.6
BUN_VERSION=1.4.4
pick() { # name version -> the command words, one per line
  if command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | head -1 | grep -q "$2"; then
    echo "$1"
  else
    printf '%s\n' npx -y "$1@$2"
  fi
}
mapfile -t DENO < <(pick deno "$DENO_VERSION")
mapfile -t BUN < <(pick bun "$BUN_VERSION")
# zod, citty and @types/node, when a fresh clone (or one from before citty) lacks them
if [[ ! -d node_modules/zod || ! -d node_modules/citty ]]; then
  echo "== npm ci (first run on this clone)" >&2
  npm ci --no-audit --no-fund >&2
fi
