/** A hung Engram: the Python driver stops its workers (SIGSTOP) around this file. The
 * kernel accepts the connection, nobody answers: recall degrades when its deadline passes,
 * a write is queued, and nothing waits longer than one deadline per call. */

import assert from "node:assert/strict";
import { test } from "node:test";

import { EngramClient, MemoryOutbox, QueuedWrite } from "../src/index.js";
import { env, preference, quiet } from "./helpers.js";

test("a hung server costs one deadline per call, then the breaker answers", async () => {
  const outbox = new MemoryOutbox();
  const engram = new EngramClient({ baseUrl: env("ENGRAM_URL"), apiKey: env("ENGRAM_API_KEY"), outbox, logger: quiet });
  const alice = engram.forSubject(env("ENGRAM_SUBJECT_TOKEN"));
  const pack = await alice.recall("what does the user drink", "personalization");
  assert.equal(pack.degraded, true);
  assert.equal(pack.degradedReason, "timeout");
  const queued = await alice.remember(preference("User likes coffee"));
  assert.ok(queued instanceof QueuedWrite && queued.reason === "timeout");
  assert.equal((await alice.recall("tea", "personalization")).degradedReason, "timeout");
  assert.equal(engram.breaker.state, "open");
  assert.equal((await alice.recall("tea", "personalization")).degradedReason, "circuit_open");
});
