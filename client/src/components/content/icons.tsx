import type { ReactNode } from 'react';
import type { HighlightIcon } from '@shared/content/model';
import { Svg } from '../icons';

/** Line icons of Home's shortcuts and highlights. Decorative: the text beside them says it all. */
export const quickIcons = {
  deposit: (
    <Svg>
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M12 9v7M9 13l3 3 3-3" />
    </Svg>
  ),
  trade: (
    <Svg>
      <path d="M4 19h16M6 16l4-5 3 3 5-7" />
      <path d="M15 7h3v3" />
    </Svg>
  ),
  orders: (
    <Svg>
      <rect x="5" y="3" width="14" height="18" rx="2" />
      <path d="M9 8h6M9 12h6M9 16h3" />
    </Svg>
  ),
  withdrawal: (
    <Svg>
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M3 10h18M7 15h4" />
    </Svg>
  ),
  about: (
    <Svg>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </Svg>
  ),
  messages: (
    <Svg>
      <path d="M4 5h16v11H8l-4 4z" />
      <path d="M8 9h8M8 12h5" />
    </Svg>
  ),
  service: (
    <Svg>
      <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
      <rect x="3" y="13" width="4" height="6" rx="1.5" />
      <rect x="17" y="13" width="4" height="6" rx="1.5" />
      <path d="M19 19a3 3 0 0 1-3 2h-3" />
    </Svg>
  ),
} as const;

export const highlightIcons: Record<HighlightIcon, ReactNode> = {
  tape: (
    <Svg>
      <path d="M3 17l5-6 4 4 4-7 5 5" />
      <circle cx="8" cy="11" r="1" />
      <circle cx="16" cy="8" r="1" />
    </Svg>
  ),
  shield: (
    <Svg>
      <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z" />
      <path d="M8.5 12l2.5 2.5 4.5-5" />
    </Svg>
  ),
  clock: (
    <Svg>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </Svg>
  ),
  support: (
    <Svg>
      <path d="M4 5h16v11H8l-4 4z" />
      <path d="M9 10h.01M12 10h.01M15 10h.01" />
    </Svg>
  ),
};
