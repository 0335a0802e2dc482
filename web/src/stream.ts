// Server-Sent Events read from a POST: fetch's body stream split into
// events, so that a request carries a JSON body (as the rest of the API)
// and is stopped by aborting it, which EventSource does not allow.

import { ApiError } from "./api";
import { t } from "./i18n";

export interface StreamEvent {
  name: string;
  data: unknown;
}

// postEvents posts body to path and calls onEvent with each event, in
// order, until the stream ends or signal aborts it. A refusal before the
// stream starts throws the server's own error, as request does.
export async function postEvents(path: string, body: unknown, signal: AbortSignal, onEvent: (ev: StreamEvent) => void): Promise<void> {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (!res.ok || !res.body) {
    const data = await res.json().catch(() => null);
    const err = data && data.error;
    throw new ApiError(err ? err.code : "http_" + res.status, err ? err.message : t("api.status", { Status: String(res.status) }));
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const ev = parseEvent(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (ev) onEvent(ev);
    }
  }
}

// parseEvent reads one event's "event:" and "data:" lines.
function parseEvent(text: string): StreamEvent | null {
  let name = "message";
  const data: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  if (data.length === 0) return null;
  try {
    return { name, data: JSON.parse(data.join("\n")) };
  } catch {
    return null;
  }
}
