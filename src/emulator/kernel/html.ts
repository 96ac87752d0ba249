/** Text placed in the emulator's HTML pages (card reveal, hosted KYC): every markup character escaped. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
