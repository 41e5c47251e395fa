/** The badge shows at most this number, then `999+` (seed spec §9). */
export const BADGE_MAX = 999;

/** The badge text: the count, or `999+` above the badge maximum (seed spec §9). */
export function badgeText(count: number): string {
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

/**
 * A red count on an icon. Nothing at zero or while unknown. `label` is the full phrase for
 * screen readers ("Unread messages: 1200"); the capped number is only what the eye sees.
 */
export function UnreadBadge({
  count,
  label,
  testId,
}: {
  count: number | null;
  label: string;
  testId?: string;
}) {
  if (!count || count <= 0) return null;
  return (
    <span className="unread-badge" data-testid={testId} data-count={count}>
      <span aria-hidden="true">{badgeText(count)}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
