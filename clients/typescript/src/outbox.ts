/**
 * The outbox: writes made while Engram is unreachable wait here and are sent, in order per
 * subject, when it is back. Each entry keeps the request and its idempotency key, so a
 * replay never applies a write twice (candidates, conversation turns and slot writes carry
 * the key as `Idempotency-Key`; events are idempotent by `client_event_id`).
 *
 * `Outbox` is the interface; `MemoryOutbox` keeps entries in this process (they are lost
 * when it exits). A durable one (a file, IndexedDB, a queue) implements the same methods.
 */

export interface OutboxEntry {
  id: number;
  key: string;
  subjectKey: string;
  op: string;
  method: string;
  path: string;
  body: unknown;
  state: "pending" | "failed";
  errorCode: string;
}

export interface NewOutboxEntry {
  key: string;
  subjectKey: string;
  op: string;
  method: string;
  path: string;
  body: unknown;
}

export interface Outbox {
  /** Store an entry (a second put with the same key is ignored); returns its key. */
  put(entry: NewOutboxEntry): Promise<string>;
  /** A subject's pending entries, oldest first. */
  pending(subjectKey: string): Promise<OutboxEntry[]>;
  /** Entries Engram refused on replay (kept, never dropped silently). */
  failed(subjectKey?: string): Promise<OutboxEntry[]>;
  /** Sent: remove it. */
  done(id: number): Promise<void>;
  /** Refused with a 4xx: keep it as failed with the error code. */
  fail(id: number, errorCode: string): Promise<void>;
  /** Pending entries (of one subject, or all). */
  count(subjectKey?: string): Promise<number>;
}

export class MemoryOutbox implements Outbox {
  private entries: OutboxEntry[] = [];
  private nextId = 1;

  async put(entry: NewOutboxEntry): Promise<string> {
    if (!this.entries.some((e) => e.key === entry.key)) {
      this.entries.push({ ...entry, id: this.nextId++, state: "pending", errorCode: "" });
    }
    return entry.key;
  }

  async pending(subjectKey: string): Promise<OutboxEntry[]> {
    return this.entries.filter((e) => e.state === "pending" && e.subjectKey === subjectKey);
  }

  async failed(subjectKey?: string): Promise<OutboxEntry[]> {
    return this.entries.filter((e) => e.state === "failed" && (subjectKey === undefined || e.subjectKey === subjectKey));
  }

  async done(id: number): Promise<void> {
    this.entries = this.entries.filter((e) => e.id !== id);
  }

  async fail(id: number, errorCode: string): Promise<void> {
    for (const e of this.entries) if (e.id === id) Object.assign(e, { state: "failed", errorCode });
  }

  async count(subjectKey?: string): Promise<number> {
    return this.entries.filter((e) => e.state === "pending" && (subjectKey === undefined || e.subjectKey === subjectKey)).length;
  }
}
