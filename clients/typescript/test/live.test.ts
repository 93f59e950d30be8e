/** The TypeScript client against a real running Engram: every operation, errors in the
 * API's shape, and a write queued while Engram was unreachable delivered exactly once. */

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  IdempotencyConflict,
  InvalidInput,
  MemoryOutbox,
  NotFound,
  PermissionDenied,
  QueuedWrite,
  type CandidateResult,
} from "../src/index.js";
import { closedPort, env, live, preference, unique } from "./helpers.js";

function decided(result: CandidateResult | QueuedWrite): CandidateResult {
  assert.ok(!(result instanceof QueuedWrite), "Engram is up: nothing should be queued");
  return result as CandidateResult;
}

test("every subject operation", async () => {
  const engram = live();
  const alice = engram.forUser(unique("alice"));
  const events = await alice.appendEvents([
    { client_event_id: "t1-1", kind: "message", role: "user", content: "以后技术回答请先给结论，再给证据", thread_id: "t1" },
  ]);
  assert.ok(!(events instanceof QueuedWrite) && events.results[0]?.created === true);
  const again = await alice.appendEvents([
    { client_event_id: "t1-1", kind: "message", role: "user", content: "以后技术回答请先给结论，再给证据", thread_id: "t1" },
  ]);
  assert.ok(!(again instanceof QueuedWrite) && again.results[0]?.created === false);
  await assert.rejects(
    alice.appendEvents([{ client_event_id: "t1-1", kind: "message", role: "user", content: "other" }]),
    IdempotencyConflict,
  );

  const added = decided(
    await alice.remember(
      preference("用户希望技术回答先给结论，再给证据", { predicate: "answer_style", value: "conclusion-first", source_client_event_ids: ["t1-1"] }),
    ),
  );
  assert.equal(added.operation, "ADD");
  const secret = decided(await alice.remember(preference("my password is hunter2-Secret!")));
  assert.deepEqual([secret.operation, secret.reason_code], ["REJECT", "secret_detected"]);

  const record = await alice.getMemory(added.record_id as string);
  assert.equal(record.value, "conclusion-first");
  const page = await alice.listMemories({ namespace: "assistant" });
  assert.deepEqual(page.results.map((r) => r.id), [added.record_id]);

  const pack = await alice.recall("技术回答 结论 证据", "personalization", { k: 5 });
  assert.equal(pack.degraded, false);
  assert.ok(pack.items.some((i) => i.id === added.record_id));
  const feedback = await alice.recallFeedback(pack.trace_id, [added.record_id as string], true);
  assert.deepEqual(feedback?.used_record_ids, [added.record_id]);

  await alice.appendEvents([{ client_event_id: "t1-2", kind: "message", role: "user", content: "改一下：技术回答请先给证据" }]);
  const changed = decided(
    await alice.supersede(added.record_id as string, {
      statement: "用户希望技术回答先给证据",
      assertion_kind: "user_explicit",
      confidence: 1,
      value: "evidence-first",
      source_client_event_ids: ["t1-2"],
    }),
  );
  assert.equal(changed.operation, "SUPERSEDE");
  const history = await alice.history(added.record_id as string);
  assert.equal(history.current_id, changed.record_id);
  assert.ok(history.versions.length >= 2 && history.changes.length >= 2);

  const turn = await alice.add([{ role: "user", content: "Remember that I prefer green tea over coffee." }], { threadId: "t2" });
  assert.ok(!(turn instanceof QueuedWrite));
  assert.ok(turn.decisions.length >= 1 && turn.events[0]?.created === true);

  const slots = await alice.putSlots([
    { namespace: "app/prefs", predicate: "lg.units", statement: "units: metric", value: "metric", assertion_kind: "user_explicit", confidence: 1, purpose: "personalization", consent_basis: "explicit_consent" },
  ]);
  assert.ok(!(slots instanceof QueuedWrite) && slots.results[0]?.operation === "ADD");
  const [units, none] = await alice.getSlots([
    { namespace: "app/prefs", predicate: "lg.units" },
    { namespace: "app/prefs", predicate: "lg.none" },
  ]);
  assert.equal(units?.value, "metric");
  assert.equal(none, null);

  const all = [];
  for await (const r of alice.iterMemories({ limit: 1 })) all.push(r.id);
  assert.ok(all.length >= 3 && new Set(all).size === all.length);

  const exported = await alice.export();
  assert.equal(exported.format, "engram.subject_export");
  assert.ok(exported.records.length >= 3);

  const gone = decided(await alice.delete(changed.record_id as string));
  assert.equal(gone.operation, "DELETE");
  await assert.rejects(alice.getMemory(changed.record_id as string), NotFound);
});

test("errors carry the API's code, message and fields", async () => {
  const alice = live().forUser(unique("alice"));
  await assert.rejects(alice.recall("", "personalization"), (err: unknown) => {
    assert.ok(err instanceof InvalidInput);
    assert.equal(err.code, "invalid_input");
    assert.ok(err.fields && "query" in err.fields);
    return true;
  });
  await assert.rejects(alice.getMemory("not-a-uuid"), (err: unknown) => err instanceof InvalidInput && !!err.fields?.["record_id"]);
  const reader = live({ apiKey: env("ENGRAM_READ_API_KEY") }).forUser(unique("alice"));
  await assert.rejects(reader.remember(preference("User likes tea")), PermissionDenied);
});

test("a write queued while Engram was unreachable lands exactly once", async () => {
  const outbox = new MemoryOutbox();
  const user = unique("carol");
  const down = closedPort({ outbox });
  const queued = await down.forUser(user).remember(preference("User likes hiking in the Alps"));
  assert.ok(queued instanceof QueuedWrite && queued.operation === "QUEUED");
  assert.equal(await outbox.count(), 1);

  const carol = live({ outbox }).forUser(user);
  const report = await carol.flushOutbox();
  assert.deepEqual(report, { sent: 1, failed: 0, remaining: 0 });
  // Replayed again (as if the answer had been lost): the Idempotency-Key applies nothing.
  const entry = { key: queued.key, subjectKey: carol.subjectKey, op: "candidates_submit", method: "POST", path: "/api/v1/candidates", body: { candidates: [preference("User likes hiking in the Alps")] } };
  await outbox.put(entry);
  assert.equal((await carol.flushOutbox()).sent, 1);
  const page = await carol.listMemories();
  assert.equal(page.results.filter((r) => r.statement === "User likes hiking in the Alps").length, 1);
  assert.equal(page.results[0]?.evidence_count, 1);
});
