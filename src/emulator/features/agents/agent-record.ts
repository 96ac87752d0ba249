/** An agent as the emulator keeps it: shared by the agents table (agents.ts) and the policy checks (enforce.ts). */
export interface AgentRec {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  isConnected: boolean;
  policy: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** SHA-256 hex of the access token, once a device code was redeemed. */
  tokenHash?: string;
}
