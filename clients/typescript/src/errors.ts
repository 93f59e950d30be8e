/**
 * Errors carrying the API's one error shape, `{"code", "message", "extra"}`.
 *
 * Every 4xx/5xx answer becomes an `EngramAPIError` subclass chosen by code, then by HTTP
 * status; `code` is the API's stable machine-readable code. Failing to reach Engram in
 * time is `EngramUnavailable`.
 */

import type { components } from "./schema.js";

/** The codes the schema lists; a newer server may send others, so any string is accepted. */
export type ErrorCode = components["schemas"]["ErrorCodeEnum"] | (string & {});

export class EngramError extends Error {}

export class EngramAPIError extends EngramError {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    override readonly message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** What Engram said to fix (`extra.fields`), when it did. */
  get fields(): Record<string, unknown> | undefined {
    const fields = this.extra["fields"];
    return fields && typeof fields === "object" ? (fields as Record<string, unknown>) : undefined;
  }
}

/** 400: the request was malformed; `fields` says what to fix. */
export class InvalidInput extends EngramAPIError {}
/** 401: missing, invalid, revoked or expired API key or subject token. */
export class AuthenticationFailed extends EngramAPIError {}
/** 403: the key lacks the scope, or no subject token was sent. */
export class PermissionDenied extends EngramAPIError {}
/** 404: no such resource for this tenant and subject. */
export class NotFound extends EngramAPIError {}
/** 409: e.g. a procedure change request based on an outdated version. */
export class Conflict extends EngramAPIError {}
/** An id was already used for other content (`idempotency_conflict`, `idempotency_key_reused`). */
export class IdempotencyConflict extends Conflict {}
/** 413: split the batch. */
export class PayloadTooLarge extends EngramAPIError {}
/** 429: `retryAfterSeconds` says how long to wait. */
export class RateLimited extends EngramAPIError {
  get retryAfterSeconds(): number | undefined {
    const value = this.extra["retry_after_seconds"];
    return typeof value === "number" ? value : undefined;
  }
}
/** 431: a header (or all together) is too large. */
export class HeadersTooLarge extends EngramAPIError {}
/** 5xx: Engram failed; retried, then raised. */
export class ServerError extends EngramAPIError {}

/**
 * Engram could not be reached in time. `reason`: `connect_error`, `timeout`,
 * `deadline_exceeded`, `circuit_open`, `server_unavailable`, `rate_limited`,
 * `connection_lost`.
 */
export class EngramUnavailable extends EngramError {
  constructor(
    readonly reason: string,
    readonly detail = "",
  ) {
    super(`Engram unavailable (${reason})${detail ? `: ${detail}` : ""}`);
    this.name = "EngramUnavailable";
  }
}

/** The write policy refused a memory (REJECT or QUARANTINE). */
export class WriteRejected extends EngramError {
  constructor(
    readonly reasonCode: string,
    override readonly message: string,
    readonly operation = "REJECT",
  ) {
    super(`Engram refused to remember this (${operation} ${reasonCode}): ${message}`);
    this.name = "WriteRejected";
  }
}

const BY_STATUS: Record<number, typeof EngramAPIError> = {
  400: InvalidInput,
  401: AuthenticationFailed,
  403: PermissionDenied,
  404: NotFound,
  409: Conflict,
  413: PayloadTooLarge,
  429: RateLimited,
  431: HeadersTooLarge,
};
const BY_CODE: Record<string, typeof EngramAPIError> = {
  idempotency_conflict: IdempotencyConflict,
  idempotency_key_reused: IdempotencyConflict,
};

/** The error for an answer; tolerates bodies not in the standard shape (a proxy's HTML 502). */
export function apiError(status: number, body: unknown): EngramAPIError {
  let code = `http_${status}`;
  let message = "Unexpected response from Engram.";
  let extra: Record<string, unknown> = {};
  if (body && typeof body === "object" && "code" in body) {
    const b = body as { code: unknown; message?: unknown; extra?: unknown };
    code = String(b.code);
    message = String(b.message ?? "");
    extra = b.extra && typeof b.extra === "object" ? (b.extra as Record<string, unknown>) : {};
  }
  const Cls = BY_CODE[code] ?? BY_STATUS[status] ?? (status >= 500 ? ServerError : EngramAPIError);
  return new Cls(status, code, message, extra);
}
