/**
 * `POST /cards/{id}/reveal` → `{panEmbedUrl, expiresAt}`. The URL is a short-lived bearer secret
 * (anyone holding it sees the card number), so nothing here logs it and the client's --verbose log
 * sees only the path.
 */
import type { ApiClient } from '../../src/http/client.js';
import { ApiError } from '../../src/errors.js';
import { pathId } from '../../src/sandbox/api.js';

export interface CardReveal {
  panEmbedUrl: string;
  expiresAt: string;
}

export async function revealCard(client: ApiClient, cardId: string, signal?: AbortSignal): Promise<CardReveal> {
  const path = `/cards/${pathId(cardId)}/reveal`;
  const { status, body } = await client.request<Partial<CardReveal>>({ method: 'POST', path, signal });
  if (typeof body?.panEmbedUrl !== 'string' || typeof body.expiresAt !== 'string') {
    // Never echo the body: it may hold the very URL this would be complaining about.
    throw new ApiError({
      status,
      code: 'UNEXPECTED_RESPONSE',
      message: 'The reveal answer lacks panEmbedUrl or expiresAt.',
      method: 'POST',
      path,
    });
  }
  return { panEmbedUrl: body.panEmbedUrl, expiresAt: body.expiresAt };
}
