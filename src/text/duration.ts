/** A duration as `42s`, `3m05s`, `2h04m` or `3d02h`: two units at most; "" for a missing one. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  const s = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${two(Math.floor(s / 60) % 60)}m`;
  return `${Math.floor(s / 86400)}d${two(Math.floor(s / 3600) % 24)}h`;
}
