export * from "./client.js";
export * from "./errors.js";
export * from "./outbox.js";
export * from "./resilience.js";
export type { components, operations, paths } from "./schema.js";
