import WebSocket from 'ws';
import * as wsModule from 'ws';

/**
 * The floor's framing, done by `ws` itself: `WebSocket.Sender.frame` (untyped in @types/ws) builds
 * a server frame (unmasked, FIN, text) once; `sender.sendFrame` writes a ready frame to one
 * socket — the same two calls Socket.IO's adapter and Engine.IO use for a pre-encoded broadcast.
 */
interface FrameOptions {
  fin: boolean;
  rsv1: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
}
type SenderStatics = { frame(data: Buffer, options: FrameOptions): Buffer[] };
type SenderOf = { _sender: { sendFrame(list: Buffer[], cb?: (err?: Error) => void): void } };

const Sender = (wsModule as unknown as { Sender: SenderStatics }).Sender;

/** One text frame, header and payload in one Buffer, so a delivery is one write. */
export function prebuiltTextFrame(text: string): Buffer {
  return Buffer.concat(
    Sender.frame(Buffer.from(text), {
      fin: true,
      rsv1: false,
      opcode: 1,
      mask: false,
      readOnly: false,
    }),
  );
}

export function sendPrebuilt(ws: WebSocket, frame: Buffer): void {
  if (ws.readyState === WebSocket.OPEN) (ws as unknown as SenderOf)._sender.sendFrame([frame]);
}
