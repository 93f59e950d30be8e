/** Engram unreachable (a closed port) with the default deadlines, and scripted answers for
 * what a live server does not do on demand (429 with retry_after_seconds, 503). */

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CircuitBreaker,
  EngramClient,
  EngramUnavailable,
  InvalidInput,
  MemoryOutbox,
  QueuedWrite,
  RetryPolicy,
} from "../src/index.js";
import { closedPort, quiet } from "./helpers.js";

const PACK = {
  trace_id: "11111111-1111-1111-1111-111111111111",
  empty: true,
  empty_reason: "no_relevant_memory",
  items: [],
  context_pack: "",
  as_of: "2026-01-01T00:00:00Z",
  known_at: null,
  dropped_by_budget: 0,
  vector_pending: 0,
  vector_unavailable: false,
  reranker: "",
  rerank_error: "",
  route: "auto",
};
const TOKEN = "eyJzIjoiMTExMTExMTEtMTExMS0xMTExLTExMTEtMTExMTExMTExMTExIn0:sig:sig";

function scripted(steps: Array<[number, unknown]>) {
  const sent: string[] = [];
  const fetch = async (input: URL | RequestInfo) => {
    sent.push(String(input));
    const step = steps.shift();
    if (!step) throw new Error("unexpected request");
    return new Response(JSON.stringify(step[1]), { status: step[0], headers: { "Content-Type": "application/json" } });
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

test("recall degrades, writes queue, the breaker opens (closed port)", async () => {
  const outbox = new MemoryOutbox();
  const engram = closedPort({ outbox });
  const alice = engram.forUser("alice");
  const pack = await alice.recall("anything", "personalization");
  assert.equal(pack.degraded, true);
  assert.equal(pack.degradedReason, "connect_error");
  assert.deepEqual(pack.items, []);
  assert.equal(engram.breaker.state, "open"); // three refused attempts within the window
  const queued = await alice.add([{ role: "user", content: "Remember that I like tea" }]);
  assert.ok(queued instanceof QueuedWrite);
  assert.equal(queued.reason, "circuit_open");
  assert.deepEqual(queued.decisions, []);
  assert.equal(await outbox.count(alice.subjectKey), 1);
  assert.equal(await alice.recallFeedback(pack.trace_id, []), null);
  await assert.rejects(alice.listMemories(), EngramUnavailable); // a plain read says so
});

test("retry_after_seconds is honoured within the deadline, a longer one gives up", async () => {
  const sleeps: number[] = [];
  const first = scripted([
    [429, { code: "rate_limited", message: "m", extra: { retry_after_seconds: 1 } }],
    [200, PACK],
  ]);
  const engram = new EngramClient({ baseUrl: "http://engram.invalid", apiKey: "k", fetch: first.fetch, logger: quiet, sleep: async (ms) => void sleeps.push(ms) });
  const pack = await engram.forSubject(TOKEN).recall("q", "p");
  assert.equal(pack.degraded, false);
  assert.deepEqual(sleeps, [1000]);
  assert.equal(pack["route"], "auto"); // a field this client does not know passes through

  const second = scripted([[429, { code: "rate_limited", message: "m", extra: { retry_after_seconds: 30 } }]]);
  const patient = new EngramClient({ baseUrl: "http://engram.invalid", apiKey: "k", fetch: second.fetch, logger: quiet, sleep: async () => {} });
  const gaveUp = await patient.forSubject(TOKEN).recall("q", "p");
  assert.equal(gaveUp.degradedReason, "rate_limited");
  assert.equal(second.sent.length, 1);
  assert.equal(patient.breaker.state, "closed"); // being throttled is not an outage
});

test("503 is retried; 4xx is not, and does not trip the breaker", async () => {
  const unavailable = scripted([
    [503, { code: "database_unavailable", message: "m", extra: {} }],
    [503, { code: "database_unavailable", message: "m", extra: {} }],
  ]);
  const engram = new EngramClient({ baseUrl: "http://engram.invalid", apiKey: "k", fetch: unavailable.fetch, logger: quiet, retry: new RetryPolicy(2, 0), sleep: async () => {} });
  assert.equal((await engram.forSubject(TOKEN).recall("q", "p")).degradedReason, "server_unavailable");
  const bad = scripted([[400, { code: "invalid_input", message: "m", extra: { fields: { k: ["bad"] } } }]]);
  const strict = new EngramClient({ baseUrl: "http://engram.invalid", apiKey: "k", fetch: bad.fetch, logger: quiet });
  await assert.rejects(strict.forSubject(TOKEN).recall("q", "p"), InvalidInput);
  assert.equal(bad.sent.length, 1);
  assert.equal(strict.breaker.state, "closed");
});

test("the breaker half-opens after its reset time and one success closes it", async () => {
  let now = 0;
  const breaker = new CircuitBreaker(2, 30000, 10000, () => now);
  breaker.recordFailure();
  breaker.recordFailure();
  assert.equal(breaker.state, "open");
  assert.equal(breaker.allow(), false);
  now += 10000;
  assert.equal(breaker.allow(), true); // the trial call
  assert.equal(breaker.allow(), false); // only one
  breaker.recordSuccess();
  assert.equal(breaker.state, "closed");
  now += 60000;
  breaker.recordFailure();
  now += 31000; // outside the window: it does not count with the next one
  breaker.recordFailure();
  assert.equal(breaker.state, "closed");
});
