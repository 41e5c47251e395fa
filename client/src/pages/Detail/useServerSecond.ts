import { useEffect, useState } from 'react';
import { serverNow } from '@client/streams';

/**
 * Now on the server's clock, read again at each whole second (the ticket's clock-time choices
 * count down with it). The timer is aligned to the second, so the minute rolls on time.
 */
export function useServerSecond(): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(
        () => {
          setNow(serverNow());
          next();
        },
        1000 - (serverNow() % 1000) + 5,
      );
    };
    next();
    return () => clearTimeout(timer);
  }, []);
  return now;
}
