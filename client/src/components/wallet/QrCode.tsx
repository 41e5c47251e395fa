import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/**
 * A QR code of `text` (a deposit address), drawn on the client with the `qrcode` library. Until it
 * is ready, or if drawing fails, nothing is shown: the address and its copy button stay beside it.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(text, { margin: 1, width: 180, errorCorrectionLevel: 'M' }).then(
      (url) => {
        if (live) setSrc(url);
      },
      () => {
        if (live) setSrc(null);
      },
    );
    return () => {
      live = false;
    };
  }, [text]);
  if (!src) return null;
  return (
    <img
      className="qr-code"
      src={src}
      alt={label}
      width={180}
      height={180}
      data-testid="address-qr"
    />
  );
}
