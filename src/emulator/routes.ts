/** Every API route of the emulator, in one table. */
import { cardRoutes } from './cards.js';
import { configRoutes } from './config.js';
import { customerRoutes } from './customers.js';
import { otpRoutes } from './auth-otp.js';
import { quoteRoutes } from './quotes.js';
import { refreshRoutes } from './refresh.js';
import { revealRoutes } from './reveal.js';
import { Router } from './router.js';
import { sandboxRoutes } from './sandbox.js';
import { sessionRoutes } from './sessions.js';

export function buildRouter(): Router {
  return new Router()
    .add(otpRoutes)
    .add(sessionRoutes)
    .add(refreshRoutes)
    .add(customerRoutes)
    .add(quoteRoutes)
    .add(sandboxRoutes)
    .add(cardRoutes)
    .add(revealRoutes)
    .add(configRoutes);
}
