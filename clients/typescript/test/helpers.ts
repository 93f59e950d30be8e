import { EngramClient, MemoryOutbox, RetryPolicy, type EngramClientOptions } from "../src/index.js";

/** The live server the Python test driver started (tests/clients/test_typescript.py). */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run these tests through ./dev test (tests/clients/test_typescript.py starts Engram and passes its address and keys).`);
  }
  return value;
}

export const quiet = { warn() {}, info() {}, debug() {} };

export function live(options: Partial<EngramClientOptions> = {}): EngramClient {
  return new EngramClient({
    baseUrl: env("ENGRAM_URL"),
    apiKey: env("ENGRAM_API_KEY"),
    adminApiKey: env("ENGRAM_ADMIN_API_KEY"),
    // A first recall loads the embedding model in the worker: generous deadlines here; the
    // defaults are what down.test.ts and hung.test.ts exercise.
    timeouts: { recallMs: 30000, readMs: 30000, writeMs: 30000 },
    retry: new RetryPolicy(2, 0),
    logger: quiet,
    ...options,
  });
}

export function closedPort(options: Partial<EngramClientOptions> = {}): EngramClient {
  return new EngramClient({
    baseUrl: env("ENGRAM_DOWN_URL"),
    apiKey: "egk_x_y",
    adminApiKey: "egk_x_z",
    outbox: new MemoryOutbox(),
    logger: quiet,
    ...options,
  });
}

export function unique(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`;
}

export function preference(statement: string, extra: Record<string, unknown> = {}) {
  return {
    memory_type: "semantic" as const,
    namespace: "assistant/profile",
    statement,
    assertion_kind: "user_explicit" as const,
    confidence: 1.0,
    purpose: "personalization",
    consent_basis: "explicit_consent" as const,
    ...extra,
  };
}
