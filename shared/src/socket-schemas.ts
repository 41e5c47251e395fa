import { z } from 'zod';
import { socketLimits } from './socket';

/*
 * The gateway's checks of what a socket sends, apart from the socket contract (socket.ts) so
 * that a client importing the contract's names does not load zod with its first page.
 */

/** The payload of `subscribe` and `unsubscribe`. */
/** The payload of `subscribe` and `unsubscribe`. */
export const channelsSchema = z.array(z.string().max(40)).min(1).max(socketLimits.maxChannels);

/** `subscribe`'s options (absent from older clients). */
export const subscribeOptionsSchema = z
  .object({
    after: z
      .record(z.string().max(16), z.number().int().nonnegative())
      .refine((after) => Object.keys(after).length <= socketLimits.maxChannels)
      .optional(),
  })
  .optional();
