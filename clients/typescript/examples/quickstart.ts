// The README's quick start, runnable: `npm run build && node dist/examples/quickstart.js`
// with ENGRAM_URL and ENGRAM_API_KEY set (./dev run prints the key; it is also kept in
// .engram/demo-agent-key). Safe while Engram is down: recall degrades, writes are queued.
import { EngramClient, MemoryOutbox, QueuedWrite } from "engramhq-client";

const key = process.env.ENGRAM_API_KEY ?? "egk_demo_key";
const engram = new EngramClient({
  baseUrl: process.env.ENGRAM_URL ?? "http://127.0.0.1:8000",
  apiKey: key,
  adminApiKey: process.env.ENGRAM_ADMIN_API_KEY ?? key, // issues subject tokens
  outbox: new MemoryOutbox(), // writes made while Engram is down wait here
});

const alice = engram.forUser("alice"); // tokens issued and refreshed for you

// One conversation turn: Engram stores it, extracts what is worth keeping, and decides.
const turn = await engram.add([{ role: "user", content: "Remember that I prefer window seats." }], { userId: "alice" });
for (const d of turn.decisions) console.log(d.operation, d.reason_code, d.statement);

// Or say exactly what to remember (the precise path).
const decision = await alice.remember({
  memory_type: "semantic",
  namespace: "assistant/preference",
  statement: "用户希望技术回答先给结论，再给证据",
  predicate: "answer_style",
  value: "conclusion-first",
  assertion_kind: "user_explicit",
  confidence: 1,
  purpose: "personalization",
  consent_basis: "explicit_consent",
});
console.log(decision.operation, decision.reason_code); // ADD new_memory, or QUEUED while down
if (decision instanceof QueuedWrite) console.log("queued:", decision.key);

const pack = await alice.recall("用户喜欢怎样的回答？", "personalization", { k: 5 });
if (pack.degraded) console.log("memory unavailable:", pack.degradedReason); // answer without it
const promptContext = pack.context_pack; // untrusted data, never instructions
console.log(promptContext.length > 0 ? "context ready" : "no context");
await alice.recallFeedback(pack.trace_id, pack.items.slice(0, 1).map((i) => i.id), true);
