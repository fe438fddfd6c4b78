/**
 * A minimal Chrome DevTools Protocol client for the browser test: one
 * WebSocket to the browser, flat sessions for pages, and `loadPage`, which
 * opens a page and reports what a person would see go wrong — a thrown
 * exception, a `console.error`, an error in the browser's log — and every
 * network request, since a self-contained report makes none.
 */

type Params = Record<string, unknown>;
interface Message {
  id?: number;
  method?: string;
  params?: Params;
  result?: Params;
  error?: { message: string };
  sessionId?: string;
}

/** One WebSocket to a browser's DevTools endpoint. */
export class Cdp {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, { resolve: (r: Params) => void; reject: (e: Error) => void }>();
  #listeners: ((m: Message) => void)[] = [];

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Message;
      if (m.id !== undefined) {
        const p = this.#pending.get(m.id);
        this.#pending.delete(m.id);
        if (m.error) p?.reject(new Error(`CDP error: ${m.error.message}`));
        else p?.resolve(m.result ?? {});
      } else {
        for (const l of this.#listeners) l(m);
      }
    };
    ws.onclose = () => {
      for (const p of this.#pending.values()) p.reject(new Error("CDP connection closed"));
      this.#pending.clear();
    };
  }

  /** Connects to `ws://…/devtools/browser/…`. */
  static connect(url: string): Promise<Cdp> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => resolve(new Cdp(ws));
      ws.onerror = () => reject(new Error(`Cannot connect to ${url}`));
    });
  }

  /** Sends a command (to a page when `sessionId` is given) and resolves with its result. */
  send(method: string, params: Params = {}, sessionId?: string): Promise<Params> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Calls `fn` with every event; returns the remover. */
  onEvent(fn: (method: string, params: Params, sessionId: string | undefined) => void): () => void {
    const l = (m: Message) => m.method && fn(m.method, m.params ?? {}, m.sessionId);
    this.#listeners.push(l);
    return () => (this.#listeners = this.#listeners.filter((x) => x !== l));
  }

  close(): void {
    this.#ws.close();
  }
}

/** What loading one page showed. */
export interface PageReport {
  /** Exceptions, console errors and error log entries, one line each. */
  readonly errors: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  /** The value of `expression` evaluated in the loaded page. */
  readonly value: unknown;
  /** A PNG of the whole page, `width` CSS pixels wide. */
  readonly png: Uint8Array;
}

/** Opens `url` in a new tab, waits for its load event, evaluates `expression` and captures the whole page. */
export async function loadPage(cdp: Cdp, url: string, expression: string, width = 1280): Promise<PageReport> {
  const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true }) as { sessionId: string };
  const errors: string[] = [], requests: string[] = [];
  let loaded: () => void = () => {};
  const load = new Promise<void>((r) => (loaded = r));
  const off = cdp.onEvent((method, p, sid) => {
    if (sid !== sessionId) return;
    const d = p["exceptionDetails"] as { text?: string; exception?: { description?: string } } | undefined;
    if (method === "Runtime.exceptionThrown") errors.push(`exception: ${d?.exception?.description ?? d?.text}`);
    if (method === "Runtime.consoleAPICalled" && (p["type"] === "error" || p["type"] === "assert")) {
      const args = (p["args"] as { value?: unknown; description?: string }[] | undefined) ?? [];
      errors.push(`console.${p["type"]}: ${args.map((a) => String(a.value ?? a.description)).join(" ")}`);
    }
    const entry = p["entry"] as { level?: string; text?: string; url?: string } | undefined;
    if (method === "Log.entryAdded" && entry?.level === "error") errors.push(`log: ${entry.text} ${entry.url ?? ""}`);
    if (method === "Network.requestWillBeSent") requests.push(String((p["request"] as { url?: string })?.url));
    if (method === "Page.loadEventFired") loaded();
  });
  try {
    for (const domain of ["Runtime", "Log", "Page", "Network"]) await cdp.send(`${domain}.enable`, {}, sessionId);
    await cdp.send(
      "Emulation.setDeviceMetricsOverride",
      { width, height: 800, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    await cdp.send("Page.navigate", { url }, sessionId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${url} did not finish loading within 30 s`)), 30_000);
    });
    await Promise.race([load, timeout]).finally(() => clearTimeout(timer));
    const evaluate = async (expr: string) =>
      ((await cdp.send("Runtime.evaluate", { expression: expr, returnByValue: true }, sessionId))["result"] as {
        value?: unknown;
      })?.value;
    const value = await evaluate(expression);
    const height = Number(await evaluate("document.documentElement.scrollHeight")) || 800;
    await cdp.send(
      "Emulation.setDeviceMetricsOverride",
      { width, height, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    const shot = await cdp.send("Page.captureScreenshot", { format: "png" }, sessionId);
    await new Promise((r) => setTimeout(r, 100)); // late console messages
    return { errors, requests, value, png: Uint8Array.from(atob(String(shot["data"])), (c) => c.charCodeAt(0)) };
  } finally {
    off();
    await cdp.send("Target.closeTarget", { targetId }).catch(() => {});
  }
}
