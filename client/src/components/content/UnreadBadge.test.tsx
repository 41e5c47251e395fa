import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { badgeText, UnreadBadge } from './UnreadBadge';

describe('the unread badge', () => {
  it('caps the shown count at 999+', () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(999)).toBe('999');
    expect(badgeText(1000)).toBe('999+');
    expect(badgeText(1200)).toBe('999+');
  });

  it('renders 1 200 unread as 999+ with the full count for screen readers, and nothing at zero', () => {
    const html = renderToStaticMarkup(
      <UnreadBadge count={1200} label="Unread messages: 1200" testId="messages-badge" />,
    );
    expect(html).toContain('data-testid="messages-badge"');
    expect(html).toContain('<span aria-hidden="true">999+</span>');
    expect(html).toContain('Unread messages: 1200');
    expect(renderToStaticMarkup(<UnreadBadge count={0} label="x" />)).toBe('');
    expect(renderToStaticMarkup(<UnreadBadge count={null} label="x" />)).toBe('');
  });
});
