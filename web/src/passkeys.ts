// Passkeys: adding one to the signed-in account, and signing in with one
// (docs/server.md, "Passkeys"). The server sends WebAuthn's options as
// JSON, binary fields in base64url; the browser's API wants ArrayBuffers,
// and its answer goes back as JSON the same way.

import { t } from "./i18n";

type Json = { [key: string]: unknown };

export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function fromB64url(s: string): ArrayBuffer {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

function toB64url(buf: ArrayBuffer | null): string | null {
  if (!buf) return null;
  const bytes = new Uint8Array(buf);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// withBuffers decodes the binary fields WebAuthn names: the challenge,
// the user's id and the credentials' ids.
function withBuffers(pk: Json): Json {
  const out: Json = { ...pk, challenge: fromB64url(pk.challenge as string) };
  if (pk.user) {
    const user = pk.user as Json;
    out.user = { ...user, id: fromB64url(user.id as string) };
  }
  for (const key of ["excludeCredentials", "allowCredentials"]) {
    const list = pk[key] as Json[] | undefined;
    if (list) out[key] = list.map((c) => ({ ...c, id: fromB64url(c.id as string) }));
  }
  return out;
}

// answerJSON is the browser's credential as the server reads it.
function answerJSON(cred: PublicKeyCredential): Json {
  const r = cred.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  const response: Json = { clientDataJSON: toB64url(r.clientDataJSON) };
  if ("attestationObject" in r && r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response,
    clientExtensionResults: cred.getClientExtensionResults(),
    authenticatorAttachment: cred.authenticatorAttachment,
  };
}

async function post(path: string, body?: Json): Promise<Json> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? "{}" : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as Json;
  if (!res.ok) {
    const err = data.error as Json | undefined;
    throw new Error((err?.message as string) || t("api.status", { Status: String(res.status) }));
  }
  return data;
}

// addPasskey makes a passkey for the signed-in account and names it.
export async function addPasskey(name: string): Promise<void> {
  const begin = await post("/api/account/passkeys/begin");
  const options = (begin.options as Json).publicKey as Json;
  const cred = (await navigator.credentials.create({
    publicKey: withBuffers(options) as unknown as PublicKeyCredentialCreationOptions,
  })) as PublicKeyCredential | null;
  if (!cred) throw new Error(t("passkeys.none_made"));
  const q = new URLSearchParams({ ceremony: begin.ceremony as string, name });
  await post("/api/account/passkeys/finish?" + q.toString(), answerJSON(cred));
}

// signInWithPasskey asks the browser for any passkey of this site and
// signs in with it; it answers the account's name.
export async function signInWithPasskey(): Promise<string> {
  const begin = await post("/api/session/passkey/begin");
  const options = (begin.options as Json).publicKey as Json;
  const cred = (await navigator.credentials.get({
    publicKey: withBuffers(options) as unknown as PublicKeyCredentialRequestOptions,
  })) as PublicKeyCredential | null;
  if (!cred) throw new Error(t("passkeys.none_chosen"));
  const q = new URLSearchParams({ ceremony: begin.ceremony as string });
  const done = await post("/api/session/passkey/finish?" + q.toString(), answerJSON(cred));
  return done.name as string;
}

export interface PasskeyInfo {
  id: string;
  name: string;
  created: string;
  used: string;
}

export async function listPasskeys(): Promise<PasskeyInfo[]> {
  const res = await fetch("/api/account/passkeys");
  if (!res.ok) return [];
  return (await res.json()) as PasskeyInfo[];
}

export async function removePasskey(id: string): Promise<void> {
  const res = await fetch("/api/account/passkeys/" + encodeURIComponent(id), { method: "DELETE" });
  if (!res.ok && res.status !== 404) throw new Error(t("api.status", { Status: String(res.status) }));
}
