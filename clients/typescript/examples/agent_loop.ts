// An agent loop with tool calls, Engram as the agent's long-term memory.
//
// The model here is a deterministic stand-in (`scriptedModel`) that answers in the shape
// chat-completion APIs use: either text, or tool calls with JSON arguments. Swap in a real
// model call; the loop stays the same. The tools — recall, remember, forget — run against
// Engram for the current user; their results go back to the model as tool messages.
// Safe while Engram is down: recall says memory is unavailable, remember is queued.
//
//   npm run build && ENGRAM_URL=http://127.0.0.1:8000 ENGRAM_API_KEY=egk_… node dist/examples/agent_loop.js
import { EngramAPIError, EngramClient, MemoryOutbox, QueuedWrite, type SubjectClient } from "engramhq-client";

type ToolCall = { id: string; name: "recall" | "remember" | "forget"; arguments: string };
type ChatMessage =
  | { role: "user" | "assistant"; content: string; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export const TOOLS = [
  { name: "recall", description: "What is remembered about the user that bears on a question.", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
  { name: "remember", description: "Remember one lasting fact or preference the user stated.", parameters: { type: "object", properties: { statement: { type: "string" } }, required: ["statement"] } },
  { name: "forget", description: "Forget a remembered memory by id.", parameters: { type: "object", properties: { record_id: { type: "string" } }, required: ["record_id"] } },
];

/** A stand-in for the model: remember "remember that …", recall before answering a question. */
export function scriptedModel(messages: ChatMessage[]): { content: string; tool_calls?: ToolCall[] } {
  const last = messages[messages.length - 1];
  if (last?.role === "tool") {
    return { content: last.content.startsWith("Memory:") ? `From memory: ${last.content.slice(7).trim()}` : last.content };
  }
  const text = last && "content" in last ? last.content : "";
  const remember = /^remember that (.+)$/i.exec(text);
  if (remember?.[1]) {
    return { content: "", tool_calls: [{ id: "call-1", name: "remember", arguments: JSON.stringify({ statement: `User said: ${remember[1]}` }) }] };
  }
  return { content: "", tool_calls: [{ id: "call-2", name: "recall", arguments: JSON.stringify({ query: text }) }] };
}

export async function runTool(user: SubjectClient, call: ToolCall): Promise<string> {
  const args = JSON.parse(call.arguments) as Record<string, string>;
  try {
    if (call.name === "recall") {
      const pack = await user.recall(args["query"] ?? "", "personalization", { k: 3 });
      if (pack.degraded) return `Memory is unavailable right now (${pack.degradedReason}); answer without it.`;
      const first = pack.items[0];
      return first ? `Memory: ${first.statement}` : "Nothing relevant is remembered.";
    }
    if (call.name === "remember") {
      const decision = await user.remember({
        memory_type: "semantic",
        namespace: "assistant/notes",
        statement: args["statement"] ?? "",
        assertion_kind: "user_explicit",
        confidence: 1,
        purpose: "personalization",
        consent_basis: "explicit_consent",
      });
      if (decision instanceof QueuedWrite) return "Engram is down; the memory is queued and will be kept when it is back.";
      return decision.operation === "ADD" || decision.operation === "CONFIRM" || decision.operation === "SUPERSEDE"
        ? "Remembered."
        : `Not remembered (${decision.reason_code}).`;
    }
    const result = await user.delete(args["record_id"] ?? "");
    return result instanceof QueuedWrite ? "Queued for deletion." : `Forgotten (${result.operation}).`;
  } catch (err) {
    // An API error goes back to the model as data it can act on (code, message, fields).
    if (err instanceof EngramAPIError) return JSON.stringify({ code: err.code, message: err.message, fields: err.fields });
    throw err;
  }
}

/** One user turn: call the model, run the tools it asks for, until it answers in text. */
export async function turn(user: SubjectClient, history: ChatMessage[], text: string): Promise<string> {
  history.push({ role: "user", content: text });
  for (let step = 0; step < 5; step++) {
    const reply = scriptedModel(history);
    history.push({ role: "assistant", content: reply.content, tool_calls: reply.tool_calls });
    if (!reply.tool_calls?.length) return reply.content;
    for (const call of reply.tool_calls) {
      history.push({ role: "tool", tool_call_id: call.id, content: await runTool(user, call) });
    }
  }
  return "I could not finish that.";
}

async function main(): Promise<void> {
  const key = process.env.ENGRAM_API_KEY ?? "egk_demo_key";
  const engram = new EngramClient({
    baseUrl: process.env.ENGRAM_URL ?? "http://127.0.0.1:8000",
    apiKey: key,
    adminApiKey: process.env.ENGRAM_ADMIN_API_KEY ?? key,
    outbox: new MemoryOutbox(),
  });
  const user = engram.forUser(process.env.ENGRAM_USER ?? "alice");
  const history: ChatMessage[] = [];
  for (const text of ["Remember that I prefer window seats on flights.", "Which seats do I prefer on flights?"]) {
    console.log(`> ${text}`);
    console.log(await turn(user, history, text));
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  await main();
}
