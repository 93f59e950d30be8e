/**
 * The Engram client: `fetch`-based, typed from the OpenAPI schema (`schema.d.ts`, generated
 * by openapi-typescript), with the Python client's semantics — a total deadline per call,
 * retries honouring `retry_after_seconds`, a circuit breaker, degraded recall and an
 * optional outbox for writes made while Engram is down.
 *
 * `new EngramClient({ baseUrl, apiKey, adminApiKey })` holds the agent's keys;
 * `client.forUser(id)` (tokens issued with the admin key and cached) or
 * `client.forSubject(token)` gives a `SubjectClient` acting for one end user — the
 * subject always comes from a subject token, never from a request field.
 */

import {
  apiError,
  EngramAPIError,
  EngramUnavailable,
  IdempotencyConflict,
  InvalidInput,
  RateLimited,
} from "./errors.js";
import type { Outbox, OutboxEntry } from "./outbox.js";
import {
  budgetMs,
  CircuitBreaker,
  DEFAULT_TIMEOUTS,
  RetryPolicy,
  type CallKind,
  type Timeouts,
} from "./resilience.js";
import type { components } from "./schema.js";

type S = components["schemas"];

export type Candidate = S["CandidateInputRequest"];
export type EventInput = S["EventInputRequest"];
export type CandidateResult = S["CandidateResult"];
export type CandidateBatchResult = S["CandidateBatchOutput"];
export type EventBatchResult = S["EventBatchOutput"];
export type MemoryRecord = S["MemoryRecordOutput"];
export type MemoryPage = S["MemoryListOutput"];
export type MemoryHistory = S["MemoryHistoryOutput"];
export type SupersedeRequest = S["MemorySupersedeInputRequest"];
export type RetractRequest = S["MemoryRetractInputRequest"];
export type RecallOptions = Omit<S["RecallInputRequest"], "query" | "purpose">;
export type RecallFeedbackResult = S["RecallFeedbackOutput"];
export type SlotWrite = S["SlotWriteInputRequest"];
export type SlotRef = S["SlotInputRequest"];
export type ConversationResult = S["ConversationTurnOutput"];
export type ConversationDecision = S["ConversationDecision"];
export type SubjectToken = S["SubjectTokenOutput"];
export type SubjectErasure = S["SubjectEraseOutput"];
export type SubjectExport = S["SubjectExportOutput"];
export type Procedure = S["ProcedureOutput"];
export type ChangeRequest = S["ProcedureChangeRequestOutput"];
export type ChangeRequestStatus = S["ProcedureChangeRequestStatusOutput"];
/** A message of a conversation turn; `client_event_id` is made for you when omitted. */
export type Message = Omit<S["ConversationMessageInputRequest"], "client_event_id"> & {
  client_event_id?: string;
};

/**
 * One recalled memory. Fields this client does not know yet (`use`: inject or verify,
 * from a newer server) pass through untouched.
 */
export type RecallItem = S["RecallItemOutput"] & { use?: string; [field: string]: unknown };

/**
 * A recall answer. `degraded`/`degradedReason` are the client's own: when Engram cannot
 * be reached, recall answers an empty pack with `degraded: true` so the turn goes on
 * without memory. Unknown fields pass through.
 */
export type ContextPack = Omit<S["RecallOutput"], "trace_id" | "items" | "as_of"> & {
  trace_id: string | null;
  as_of: string | null;
  items: RecallItem[];
  degraded: boolean;
  degradedReason: string;
  [field: string]: unknown;
};

function degradedPack(reason: string): ContextPack {
  return {
    trace_id: null,
    empty: true,
    empty_reason: "engram_unavailable",
    items: [],
    context_pack: "",
    as_of: null,
    known_at: null,
    dropped_by_budget: 0,
    vector_pending: 0,
    vector_unavailable: false,
    reranker: "",
    rerank_error: "",
    degraded: true,
    degradedReason: reason,
  };
}

/**
 * A write Engram could not take now: it waits in the outbox under `key` and is sent when
 * the service is back. It reads like a decision not made yet (`operation` "QUEUED",
 * `accepted` false, no `results`/`decisions`), so code written for the answer keeps
 * working while Engram is down.
 */
export class QueuedWrite {
  readonly queued = true;
  readonly operation = "QUEUED";
  readonly accepted = false;
  readonly record_id = null;
  readonly results: never[] = [];
  readonly decisions: never[] = [];
  readonly events: never[] = [];

  constructor(
    readonly key: string,
    readonly op: string,
    readonly reason: string,
  ) {}

  get reason_code(): string {
    return this.reason;
  }

  get message(): string {
    return `Engram is unreachable right now (${this.reason}); the write is queued in the outbox (key ${this.key}) and will be sent when it is back.`;
  }
}

export interface FlushReport {
  sent: number;
  failed: number;
  remaining: number;
}

interface Call {
  op: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: unknown;
  params?: Record<string, string | number | undefined>;
  /** Safe to resend after an ambiguous failure. */
  idempotent?: boolean;
  /** Sent as Idempotency-Key; also the outbox key. */
  idempotencyKey?: string;
  kind: CallKind;
}

const KEYED_OPS = new Set(["candidates_submit", "conversation_turn", "memory_slots_write"]);
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const CONNECT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

function newKey(): string {
  return globalThis.crypto.randomUUID().replaceAll("-", "");
}

/** An id argument, checked before anything is sent: the InvalidInput Engram would answer. */
function checkedId(value: string, field: string): string {
  if (!UUID_RE.test(String(value))) {
    throw new InvalidInput(400, "invalid_input", "Some fields are invalid; see extra.fields for what to fix.", {
      fields: { [field]: [`${JSON.stringify(value)} is not a UUID (ids come from Engram's answers).`] },
    });
  }
  return value;
}

function recordPath(id: string, suffix = ""): string {
  return `/api/v1/memories/${checkedId(id, "record_id")}${suffix}`;
}

function subjectKeyFromToken(token: string): string {
  try {
    const payload = (token.split(":")[0] ?? "").replaceAll("-", "+").replaceAll("_", "/");
    const padded = payload + "=".repeat((4 - (payload.length % 4)) % 4);
    const json = JSON.parse(atob(padded)) as { s?: string };
    if (json.s) return `subject:${json.s}`;
  } catch {
    // fall through
  }
  return `token:${token.slice(-24)}`;
}

function eventConflicts(results: S["EventResult"][], batch: unknown): void {
  const conflicts = results
    .filter((r) => r.error && (r.error as { code?: string }).code === "idempotency_conflict")
    .map((r) => r.client_event_id);
  if (conflicts.length) {
    const err = new IdempotencyConflict(
      409,
      "idempotency_conflict",
      "An event with this client_event_id was already stored with different content; use a new client_event_id for new content.",
      { client_event_ids: conflicts, result: batch },
    );
    throw err;
  }
}

export interface EngramClientOptions {
  baseUrl: string;
  apiKey: string;
  /** An admin-scoped key of the same agent, to issue subject tokens (`forUser`). */
  adminApiKey?: string;
  outbox?: Outbox;
  timeouts?: Partial<Timeouts>;
  retry?: RetryPolicy;
  breaker?: CircuitBreaker;
  /** Another fetch (a test double, or one with an undici dispatcher). */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds, monotonic; injectable for tests. */
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
  /** Where warnings go (degraded recall, queued writes); ids and codes only, never text. */
  logger?: Pick<Console, "warn" | "info" | "debug">;
}

const TOKEN_REFRESH_MARGIN_MS = 60_000;

export class EngramClient {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly adminApiKey: string | undefined;
  readonly outbox: Outbox | undefined;
  readonly timeouts: Timeouts;
  readonly retry: RetryPolicy;
  readonly breaker: CircuitBreaker;
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly userAgent: string;
  readonly logger: Pick<Console, "warn" | "info" | "debug">;
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(options: EngramClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.adminApiKey = options.adminApiKey;
    this.outbox = options.outbox;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.retry = options.retry ?? new RetryPolicy();
    this.breaker = options.breaker ?? new CircuitBreaker();
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.clock = options.clock ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.userAgent = options.userAgent ?? "engramhq-client-typescript/0.2";
    this.logger = options.logger ?? console;
  }

  /** When a call of `kind` started now must be done, or the enclosing deadline if sooner. */
  deadline(kind: CallKind, outer?: number): number {
    const own = this.clock() + budgetMs(this.timeouts, kind);
    return outer === undefined ? own : Math.min(own, outer);
  }

  /** @internal One API call under its deadline, with retries and the breaker. */
  async request(call: Call, opts: { subjectToken?: string; apiKey?: string; deadline?: number } = {}): Promise<unknown> {
    const until = this.deadline(call.kind, opts.deadline);
    let attempt = 0;
    let reason: string | undefined;
    for (;;) {
      if (!this.breaker.allow()) throw new EngramUnavailable("circuit_open");
      const remaining = until - this.clock();
      if (remaining <= 0) throw new EngramUnavailable(reason ?? "deadline_exceeded", "the call's deadline passed");
      attempt += 1;
      const outcome = await this.attempt(call, opts, remaining);
      if (outcome.kind === "ok") {
        this.breaker.recordSuccess();
        return outcome.body;
      }
      if (outcome.kind === "raise") {
        if (outcome.error instanceof EngramUnavailable) this.breaker.recordFailure();
        else this.breaker.recordSuccess(); // Engram answered: it is up
        throw outcome.error;
      }
      if (outcome.reason !== "rate_limited") this.breaker.recordFailure();
      const wait = this.retry.delayMs(attempt, outcome.retryAfterMs, until - this.clock());
      if (wait === undefined) throw new EngramUnavailable(outcome.reason);
      reason = outcome.reason;
      await this.sleep(wait);
    }
  }

  private async attempt(
    call: Call,
    opts: { subjectToken?: string; apiKey?: string },
    remainingMs: number,
  ): Promise<
    | { kind: "ok"; body: unknown }
    | { kind: "raise"; error: Error }
    | { kind: "retry"; reason: string; retryAfterMs?: number }
  > {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.params ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      Authorization: `Bearer ${opts.apiKey ?? this.apiKey}`,
      "User-Agent": this.userAgent,
      "X-Request-ID": newKey(),
      Accept: "application/json",
    };
    if (opts.subjectToken) headers["X-Engram-Subject-Token"] = opts.subjectToken;
    if (call.idempotencyKey) headers["Idempotency-Key"] = call.idempotencyKey;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), remainingMs);
    let status: number;
    let text: string;
    try {
      const response = await this.fetchFn(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? null : JSON.stringify(call.body),
        signal: controller.signal,
      });
      status = response.status;
      text = await response.text(); // under the same deadline
    } catch (err) {
      const timedOut = controller.signal.aborted;
      const code = (err as { cause?: { code?: string } }).cause?.code ?? "";
      if (!timedOut && CONNECT_CODES.has(code)) return { kind: "retry", reason: "connect_error" };
      const reason = timedOut ? "timeout" : "connection_lost";
      if (call.idempotent) return { kind: "retry", reason };
      return { kind: "raise", error: new EngramUnavailable(reason, "outcome unknown") };
    } finally {
      clearTimeout(timer);
    }
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (status < 400) return { kind: "ok", body };
    const error = apiError(status, body);
    if (error instanceof RateLimited) {
      const seconds = error.retryAfterSeconds;
      return { kind: "retry", reason: "rate_limited", retryAfterMs: seconds === undefined ? undefined : seconds * 1000 };
    }
    if (status === 503 || ((status === 502 || status === 504) && call.idempotent)) {
      return { kind: "retry", reason: "server_unavailable" };
    }
    return { kind: "raise", error };
  }

  // -- subjects --------------------------------------------------------------------------

  /** `POST /subject-tokens`; needs an admin-scoped key (`adminApiKey` if given). */
  async issueSubjectToken(externalId: string, subjectKind = "user", deadline?: number): Promise<SubjectToken> {
    const call: Call = {
      op: "subject_token_issue",
      method: "POST",
      path: "/api/v1/subject-tokens",
      body: { external_id: externalId, subject_kind: subjectKind },
      idempotent: true,
      kind: "read",
    };
    return (await this.request(call, { apiKey: this.adminApiKey, deadline })) as SubjectToken;
  }

  /** A handle acting for the subject a token names (a string, or a function giving a fresh one). */
  forSubject(token: string | (() => string | Promise<string>)): SubjectClient {
    const supply = typeof token === "function" ? token : () => token;
    const key = typeof token === "string" ? subjectKeyFromToken(token) : `token:${newKey()}`;
    return new SubjectClient(this, async () => supply(), key);
  }

  /** A handle for one end user; tokens are issued with the admin key and cached until shortly before they expire. */
  forUser(externalId: string, subjectKind = "user"): SubjectClient {
    const cacheKey = `${subjectKind}:${externalId}`;
    const provider = async (deadline?: number): Promise<string> => {
      const hit = this.tokens.get(cacheKey);
      if (hit && hit.until > this.clock()) return hit.token;
      const issued = await this.issueSubjectToken(externalId, subjectKind, deadline);
      const validFor = Math.max(1000, issued.expires_in * 1000 - TOKEN_REFRESH_MARGIN_MS);
      this.tokens.set(cacheKey, { token: issued.token, until: this.clock() + validFor });
      return issued.token;
    };
    return new SubjectClient(this, provider, `user:${subjectKind}:${externalId}`, () => this.tokens.delete(cacheKey));
  }

  /** One conversation turn for user `userId` (the equivalent of Mem0's `add(messages, user_id)`). */
  async add(
    messages: Message[],
    options: { userId: string; threadId?: string; candidates?: Candidate[] },
  ): Promise<ConversationResult | QueuedWrite> {
    return this.forUser(options.userId).add(messages, { threadId: options.threadId, candidates: options.candidates });
  }

  // -- procedures (tenant-wide; not subject-scoped) ----------------------------------------

  async getProcedure(slug: string): Promise<Procedure> {
    const call: Call = { op: "procedure_retrieve", method: "GET", path: `/api/v1/procedures/${encodeURIComponent(slug)}`, idempotent: true, kind: "read" };
    return (await this.request(call)) as Procedure;
  }

  /** Propose a new full text; a reviewer approves or rejects it (agents never can). */
  async proposeProcedureChange(slug: string, request: S["ProcedureChangeRequestInputRequest"]): Promise<ChangeRequest> {
    const call: Call = {
      op: "procedure_change_request_create",
      method: "POST",
      path: `/api/v1/procedures/${encodeURIComponent(slug)}/change-requests`,
      body: request,
      kind: "write",
    };
    return (await this.request(call)) as ChangeRequest;
  }

  async getChangeRequest(slug: string, changeRequestId: string): Promise<ChangeRequestStatus> {
    const call: Call = {
      op: "procedure_change_request_retrieve",
      method: "GET",
      path: `/api/v1/procedures/${encodeURIComponent(slug)}/change-requests/${checkedId(changeRequestId, "change_request_id")}`,
      idempotent: true,
      kind: "read",
    };
    return (await this.request(call)) as ChangeRequestStatus;
  }
}

/** The client acting for one subject. Reads degrade, writes queue (with an outbox). */
export class SubjectClient {
  constructor(
    readonly client: EngramClient,
    private readonly token: (deadline?: number) => Promise<string>,
    readonly subjectKey: string,
    private readonly onTokenRejected?: () => void,
  ) {}

  private async send(call: Call, options: { apiKey?: string; deadline?: number } = {}): Promise<unknown> {
    // One deadline for the call, the token request it may need included.
    const deadline = this.client.deadline(call.kind, options.deadline);
    try {
      return await this.client.request(call, { subjectToken: await this.token(deadline), apiKey: options.apiKey, deadline });
    } catch (err) {
      if (err instanceof EngramAPIError && err.code === "expired_subject_token" && this.onTokenRejected) {
        this.onTokenRejected();
        return await this.client.request(call, { subjectToken: await this.token(deadline), apiKey: options.apiKey, deadline });
      }
      throw err;
    }
  }

  private async write(call: Call): Promise<unknown> {
    const outbox = this.client.outbox;
    if (!outbox) return this.send(call);
    const deadline = this.client.deadline("write");
    if ((await outbox.count(this.subjectKey)) > 0) {
      try {
        await this.flushOutbox(deadline);
      } catch (err) {
        if (!(err instanceof EngramUnavailable)) throw err;
      }
      if ((await outbox.count(this.subjectKey)) > 0) return this.queue(call, "outbox_not_empty");
    }
    try {
      return await this.send(call, { deadline });
    } catch (err) {
      if (err instanceof EngramUnavailable) return this.queue(call, err.reason);
      throw err;
    }
  }

  private async queue(call: Call, reason: string): Promise<QueuedWrite> {
    const outbox = this.client.outbox as Outbox;
    const key = await outbox.put({
      key: call.idempotencyKey ?? newKey(),
      subjectKey: this.subjectKey,
      op: call.op,
      method: call.method,
      path: call.path,
      body: call.body,
    });
    this.client.logger.warn(`engram ${call.op} queued in the outbox (key ${key}, ${reason})`);
    return new QueuedWrite(key, call.op, reason);
  }

  /**
   * Send this subject's queued writes in order. Stops at the first one Engram still cannot
   * take (throws EngramUnavailable); one Engram refuses (4xx) is kept as failed with its code.
   */
  async flushOutbox(deadline?: number): Promise<FlushReport> {
    const outbox = this.client.outbox;
    if (!outbox) return { sent: 0, failed: 0, remaining: 0 };
    let sent = 0;
    let failed = 0;
    for (const entry of await outbox.pending(this.subjectKey)) {
      try {
        await this.send(replayCall(entry), { deadline });
      } catch (err) {
        if (err instanceof EngramAPIError) {
          if (entry.op === "memory_delete" && err.status === 404) {
            await outbox.done(entry.id); // a replayed delete that finds nothing reached its goal
            sent += 1;
          } else {
            await outbox.fail(entry.id, err.code);
            failed += 1;
          }
          continue;
        }
        throw err;
      }
      await outbox.done(entry.id);
      sent += 1;
    }
    return { sent, failed, remaining: await outbox.count(this.subjectKey) };
  }

  // -- writes ------------------------------------------------------------------------------

  async appendEvents(events: EventInput[]): Promise<EventBatchResult | QueuedWrite> {
    const call: Call = { op: "events_append", method: "POST", path: "/api/v1/events", body: { events }, idempotent: true, kind: "write" };
    const result = await this.write(call);
    if (result instanceof QueuedWrite) return result;
    const batch = result as EventBatchResult;
    eventConflicts(batch.results, batch);
    return batch;
  }

  async submitCandidates(candidates: Candidate[]): Promise<CandidateBatchResult | QueuedWrite> {
    // The key is made before the first attempt and kept by the outbox: a replay of a batch
    // Engram applied (the answer lost) is answered from the stored response.
    const call: Call = { op: "candidates_submit", method: "POST", path: "/api/v1/candidates", body: { candidates }, idempotencyKey: newKey(), kind: "write" };
    return (await this.write(call)) as CandidateBatchResult | QueuedWrite;
  }

  /** Submit one candidate; the write policy's decision for it (or QueuedWrite). */
  async remember(candidate: Candidate): Promise<CandidateResult | QueuedWrite> {
    const result = await this.submitCandidates([candidate]);
    return result instanceof QueuedWrite ? result : (result.results[0] as CandidateResult);
  }

  async supersede(recordId: string, request: SupersedeRequest): Promise<CandidateResult | QueuedWrite> {
    const call: Call = { op: "memory_supersede", method: "POST", path: recordPath(recordId, "/supersede"), body: request, kind: "write" };
    return (await this.write(call)) as CandidateResult | QueuedWrite;
  }

  async retract(recordId: string, request: RetractRequest): Promise<CandidateResult | QueuedWrite> {
    const call: Call = { op: "memory_retract", method: "POST", path: recordPath(recordId, "/retract"), body: request, kind: "write" };
    return (await this.write(call)) as CandidateResult | QueuedWrite;
  }

  async delete(recordId: string, assertionKind?: S["AssertionKindEnum"]): Promise<CandidateResult | QueuedWrite> {
    const call: Call = {
      op: "memory_delete",
      method: "DELETE",
      path: recordPath(recordId),
      body: assertionKind ? { assertion_kind: assertionKind } : undefined,
      kind: "write",
    };
    return (await this.write(call)) as CandidateResult | QueuedWrite;
  }

  /**
   * One conversation turn in one request: the messages are stored, Engram's extraction
   * proposes memories from them and the write policy's decisions come back. Queued when
   * Engram is down (a resend stores nothing twice). The precise path stays `remember`.
   * With `candidates` (citing the messages by `source_client_event_ids`) the agent's own
   * candidates are decided in the same request instead of Engram's extraction.
   */
  async add(
    messages: Message[],
    options: { threadId?: string; candidates?: Candidate[] } = {},
  ): Promise<ConversationResult | QueuedWrite> {
    const body: Record<string, unknown> = {
      messages: messages.map((m) => ({ ...m, client_event_id: m.client_event_id ?? newKey() })),
    };
    if (options.threadId) body["thread_id"] = options.threadId;
    if (options.candidates) body["candidates"] = options.candidates;
    const call: Call = { op: "conversation_turn", method: "POST", path: "/api/v1/conversation", body, idempotencyKey: newKey(), kind: "write" };
    const result = await this.write(call);
    if (result instanceof QueuedWrite) return result;
    const turn = result as ConversationResult;
    eventConflicts(turn.events, turn);
    return turn;
  }

  /** Put or delete the memory in many slots (namespace + predicate) in one request, without reading first. */
  async putSlots(writes: SlotWrite[]): Promise<CandidateBatchResult | QueuedWrite> {
    const call: Call = { op: "memory_slots_write", method: "PUT", path: "/api/v1/memories/by-slot", body: { writes }, idempotencyKey: newKey(), kind: "write" };
    return (await this.write(call)) as CandidateBatchResult | QueuedWrite;
  }

  /** The current memory in each slot (or null); `refreshTtlSeconds` moves time-to-live forward. */
  async getSlots(slots: SlotRef[], options: { refreshTtlSeconds?: number } = {}): Promise<(MemoryRecord | null)[]> {
    const body: S["SlotLookupInputRequest"] = { slots };
    if (options.refreshTtlSeconds) body.refresh_ttl_seconds = options.refreshTtlSeconds;
    const call: Call = { op: "memory_slots_lookup", method: "POST", path: "/api/v1/memories/by-slot/lookup", body, idempotent: true, kind: "read" };
    const output = (await this.send(call)) as S["SlotLookupOutput"];
    return output.results.map((r) => r.record);
  }

  /** Erase everything about this subject (admin key, `confirm: true`); never queued. */
  async erase(options: { confirm: boolean }): Promise<SubjectErasure> {
    const call: Call = { op: "subject_erase", method: "POST", path: "/api/v1/subject/erase", body: { confirm: options.confirm }, idempotent: true, kind: "bulk" };
    return (await this.send(call, { apiKey: this.client.adminApiKey })) as SubjectErasure;
  }

  // -- reads -------------------------------------------------------------------------------

  /**
   * Recall for a task. Never throws because Engram is down: an empty pack with
   * `degraded: true` comes back instead. Bad input (4xx) still throws.
   */
  async recall(query: string, purpose: string, options: RecallOptions = {}): Promise<ContextPack> {
    const call: Call = { op: "recall", method: "POST", path: "/api/v1/recall", body: { query, purpose, ...options }, idempotent: true, kind: "recall" };
    let pack: ContextPack;
    try {
      pack = { ...(await this.send(call)) as object, degraded: false, degradedReason: "" } as ContextPack;
    } catch (err) {
      if (err instanceof EngramUnavailable) {
        this.client.logger.warn(`engram recall degraded: ${err.reason}`);
        return degradedPack(err.reason);
      }
      throw err;
    }
    if (this.client.outbox && (await this.client.outbox.count(this.subjectKey)) > 0) {
      try {
        await this.flushOutbox();
      } catch (err) {
        if (!(err instanceof EngramUnavailable)) throw err;
      }
    }
    return pack;
  }

  /** Which recalled memories the answer used. Best effort: null when there is nothing to report on or Engram is unreachable. */
  async recallFeedback(traceId: string | null, usedRecordIds: string[], helpful?: boolean): Promise<RecallFeedbackResult | null> {
    if (traceId === null) return null;
    const body: S["RecallFeedbackInputRequest"] = { used_record_ids: usedRecordIds };
    if (helpful !== undefined) body.helpful = helpful;
    const call: Call = { op: "recall_feedback", method: "POST", path: `/api/v1/recall/${checkedId(traceId, "trace_id")}/feedback`, body, idempotent: true, kind: "write" };
    try {
      return (await this.send(call)) as RecallFeedbackResult;
    } catch (err) {
      if (err instanceof EngramUnavailable) return null;
      throw err;
    }
  }

  async getMemory(recordId: string): Promise<MemoryRecord> {
    return (await this.send({ op: "memory_retrieve", method: "GET", path: recordPath(recordId), idempotent: true, kind: "read" })) as MemoryRecord;
  }

  /** Every version of the memory `recordId` belongs to, with both timelines. */
  async history(recordId: string): Promise<MemoryHistory> {
    return (await this.send({ op: "memory_history", method: "GET", path: recordPath(recordId, "/history"), idempotent: true, kind: "read" })) as MemoryHistory;
  }

  /** Everything remembered about this subject, machine-readable (admin key). */
  async export(): Promise<SubjectExport> {
    const call: Call = { op: "subject_export", method: "GET", path: "/api/v1/subject/export", idempotent: true, kind: "bulk" };
    return (await this.send(call, { apiKey: this.client.adminApiKey })) as SubjectExport;
  }

  async listMemories(filters: NonNullable<paramsOf<"memory_list">> = {}): Promise<MemoryPage> {
    const call: Call = { op: "memory_list", method: "GET", path: "/api/v1/memories", params: filters as Record<string, string | number | undefined>, idempotent: true, kind: "read" };
    return (await this.send(call)) as MemoryPage;
  }

  /** Every current memory matching the filters, page by page. */
  async *iterMemories(filters: Omit<NonNullable<paramsOf<"memory_list">>, "offset"> = {}): AsyncGenerator<MemoryRecord> {
    let offset: number | null = 0;
    while (offset !== null) {
      const page: MemoryPage = await this.listMemories({ ...filters, offset });
      yield* page.results;
      offset = page.next_offset;
    }
  }
}

type paramsOf<Op extends keyof import("./schema.js").operations> = import("./schema.js").operations[Op]["parameters"]["query"];

function replayCall(entry: OutboxEntry): Call {
  return {
    op: entry.op,
    method: entry.method as Call["method"],
    path: entry.path,
    body: entry.body,
    idempotencyKey: KEYED_OPS.has(entry.op) ? entry.key : undefined,
    kind: "write",
  };
}
