/**
 * Platform configuration (the webhook endpoint) and the sandbox test webhook. The TEST event is
 * delivered synchronously so the caller learns at once whether its endpoint works: 200 with the
 * endpoint's status, or 400 WEBHOOK_DELIVERY_ERROR. It is not queued for retry.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, badRequest } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { UNSET_WEBHOOK_ENDPOINT_PATH } from '../../../service/emulator-endpoints.js';
import { platformId } from './platform-id.js';

/** Also the webhook-events area's check of a replay's `to`. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The webhook endpoint is the platform's, not a customer's: an agent (bound to one customer) may
 * neither read it, move it elsewhere nor fire events at it.
 */
function platformOnly(req: Req): void {
  if (req.principal.kind === 'agent') {
    throw new HttpError(
      403,
      'FORBIDDEN',
      'An agent token is bound to its customer and cannot use the platform configuration; use the platform credentials',
    );
  }
}

/**
 * The rest of the description's PlatformConfigUpdateRequest: every field is optional. The emulator
 * keeps what was last given for each (checked by the description's schema) and shows it in the
 * config; nothing else in the emulator reads them (its currencies are its rate table's).
 */
const KEPT_SETTINGS = [
  'umaDomain',
  'supportedCurrencies',
  'embeddedWalletConfig',
  'cardTokenization2faConfig',
  'feeConfigs',
] as const;

/** The description's PlatformConfig: webhookEndpoint is a string, so an unset one is left out (never null). */
function renderConfig(emu: EmulatorContext): Record<string, unknown> {
  const endpoint = emu.core.config.webhookEndpoint;
  return {
    id: platformId(emu),
    ...emu.core.config.settings,
    ...(endpoint ? { webhookEndpoint: endpoint } : {}),
  };
}

export const webhookConfigRoutes: Route[] = [
  // Emulator-only: unsets the endpoint, which PATCH /config cannot (its webhookEndpoint is a string).
  // svc demo and webhook listen restore "no endpoint" with it; events raised meanwhile are logged, undelivered.
  {
    method: 'DELETE',
    path: UNSET_WEBHOOK_ENDPOINT_PATH,
    permission: 'none',
    unversioned: true,
    handler(_req, emu) {
      delete emu.core.config.webhookEndpoint;
      emu.changed();
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/config',
    permission: 'VIEW',
    handler(req, emu) {
      platformOnly(req);
      return { status: 200, body: renderConfig(emu) };
    },
  },
  {
    method: 'PATCH',
    path: '/config',
    permission: 'MANAGE',
    handler(req, emu) {
      platformOnly(req);
      const body = req.json();
      const f = new Fields(body);
      // The description's webhookEndpoint is a string: null does not unset it (the emulator-only DELETE does);
      // absent, it stays as it was.
      const endpoint = f.string('webhookEndpoint', {
        format: 'url',
        maxLength: 2048,
        check: (v) => (isHttpUrl(v) ? undefined : 'webhookEndpoint must be an http or https URL'),
      });
      f.done();
      if (endpoint !== undefined) emu.core.config.webhookEndpoint = endpoint;
      const settings = { ...emu.core.config.settings };
      for (const key of KEPT_SETTINGS) if (body[key] !== undefined) settings[key] = body[key];
      emu.core.config.settings = settings;
      emu.changed();
      return { status: 200, body: renderConfig(emu) };
    },
  },
  {
    method: 'POST',
    path: '/sandbox/webhooks/test',
    permission: 'TRANSACT',
    async handler(req, emu) {
      platformOnly(req);
      const endpoint = emu.core.config.webhookEndpoint;
      if (!endpoint)
        throw badRequest(
          'WEBHOOK_ENDPOINT_NOT_SET',
          'No webhook endpoint is configured; set one with PATCH /config {"webhookEndpoint": "<url>"}',
        );
      const copies = emu.opts.duplicateDeliveries ? 2 : 1;
      const message = { message: 'Test webhook from the svc emulator' };
      const { id, results } = await emu.outbox.sendNow('TEST', message, endpoint, copies);
      const failed = results.find((r) => !r.ok);
      if (failed) {
        throw new HttpError(
          400,
          'WEBHOOK_DELIVERY_ERROR',
          `Delivering the test webhook to ${endpoint} failed: ${failed.status ?? failed.error}`,
          {
            details: {
              id,
              endpoint,
              ...(failed.status !== undefined ? { responseStatus: failed.status } : { error: failed.error }),
            },
          },
        );
      }
      // The description's TestWebhookResponse (snake_case there); id and type say which event went out.
      return {
        status: 200,
        body: { url: endpoint, response_status: results[0]!.status, id, type: 'TEST' },
      };
    },
  },
];
