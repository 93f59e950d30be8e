/**
 * Deadlines, retries with jitter and a circuit breaker: how the client behaves when
 * Engram is slow, overloaded, hung or down. Same semantics as the Python client.
 *
 * Every call has a total deadline — all its attempts, the waits between them and the
 * subject-token request it may need. By default a recall gets 1.5 s and a write 3 s: a
 * memory lookup that takes longer is worth less than answering the turn without it, and a
 * write that cannot be sent in time waits in the outbox.
 */

export interface Timeouts {
  /** Total deadline of a recall, in milliseconds. */
  recallMs: number;
  /** Total deadline of a write. */
  writeMs: number;
  /** Total deadline of other reads. */
  readMs: number;
  /** Export and erasure of a whole subject. */
  bulkMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  recallMs: 1500,
  writeMs: 3000,
  readMs: 3000,
  bulkMs: 30000,
};

export type CallKind = "recall" | "write" | "read" | "bulk";

export function budgetMs(timeouts: Timeouts, kind: CallKind): number {
  return { recall: timeouts.recallMs, write: timeouts.writeMs, read: timeouts.readMs, bulk: timeouts.bulkMs }[kind];
}

/**
 * Retries on connection errors, 429 and 503 (and, for idempotent requests only, on
 * timeouts and 502/504), with full-jitter exponential backoff, within the call's deadline.
 * A server's `retry_after_seconds` is honoured when it fits `maxWaitMs` and what is left of
 * the deadline; a longer wait gives up at once.
 */
export class RetryPolicy {
  constructor(
    readonly attempts = 3,
    readonly backoffBaseMs = 100,
    readonly backoffMaxMs = 1000,
    readonly maxWaitMs = 2000,
    private readonly random: () => number = Math.random,
  ) {}

  /** Milliseconds to wait before attempt `attempt + 1`, or undefined to give up. */
  delayMs(attempt: number, retryAfterMs: number | undefined, remainingMs: number): number | undefined {
    if (attempt >= this.attempts) return undefined;
    let wait: number | undefined;
    if (retryAfterMs !== undefined) {
      wait = retryAfterMs <= this.maxWaitMs ? retryAfterMs : undefined;
    } else {
      wait = this.random() * Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** (attempt - 1));
    }
    if (wait !== undefined && wait >= remainingMs) return undefined;
    return wait;
  }
}

/**
 * Closed → (`failureThreshold` failures within `windowMs`, no success between) → open:
 * calls fail fast for `resetMs` → half-open: one trial call; success closes, failure opens
 * again. Failures are outages (timeouts, refused connections, 5xx), never a 4xx.
 */
export class CircuitBreaker {
  private failures: number[] = [];
  private openedAt: number | undefined;
  private trialRunning = false;

  constructor(
    readonly failureThreshold = 3,
    readonly windowMs = 30000,
    readonly resetMs = 10000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  get state(): "closed" | "open" | "half_open" {
    if (this.openedAt === undefined) return "closed";
    return this.clock() - this.openedAt >= this.resetMs ? "half_open" : "open";
  }

  allow(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "half_open" && !this.trialRunning) {
      this.trialRunning = true;
      return true;
    }
    return false;
  }

  recordSuccess(): void {
    this.failures = [];
    this.openedAt = undefined;
    this.trialRunning = false;
  }

  recordFailure(): void {
    const now = this.clock();
    this.failures = this.failures.filter((t) => now - t < this.windowMs);
    this.failures.push(now);
    if (this.trialRunning || this.failures.length >= this.failureThreshold) this.openedAt = now;
    this.trialRunning = false;
  }

  reset(): void {
    this.recordSuccess();
  }
}
