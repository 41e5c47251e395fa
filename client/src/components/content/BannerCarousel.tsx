import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Banner } from '@shared/content/model';

/** Swiper interval and height (seed spec §9). */
export const SWIPER_INTERVAL_MS = 3000;
/** A horizontal move this long (px) turns the slide. */
const SWIPE_PX = 40;

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';
function subscribeReducedMotion(onChange: () => void) {
  const list = window.matchMedia?.(reducedMotionQuery);
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}
const prefersReducedMotion = () => window.matchMedia?.(reducedMotionQuery).matches ?? false;

function Slide({ banner }: { banner: Banner }) {
  const inner = (
    <>
      <strong className="banner__title">{banner.title}</strong>
      <span className="banner__subtitle">{banner.subtitle}</span>
    </>
  );
  const className = `banner__card banner__card--${banner.theme}`;
  return banner.link ? (
    <Link to={banner.link} className={className} draggable={false}>
      {inner}
    </Link>
  ) : (
    <div className={className}>{inner}</div>
  );
}

/**
 * Swiping the slides by touch (or a mouse drag): `drag` is the horizontal offset while a swipe
 * is under way (null otherwise); a long enough one turns the slide, and the click that ends it
 * is swallowed so a swipe never opens a banner's link.
 */
function useSwipe(count: number, shown: number, go: (i: number) => void) {
  const [drag, setDrag] = useState<number | null>(null);
  const pointer = useRef<{ id: number; x: number; y: number; moved: boolean } | null>(null);

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    pointer.current = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = pointer.current;
    if (!p || p.id !== e.pointerId || count < 2) return;
    const dx = e.clientX - p.x;
    if (!p.moved && Math.abs(dx) > 8 && Math.abs(dx) > Math.abs(e.clientY - p.y)) {
      p.moved = true;
      e.currentTarget.setPointerCapture?.(e.pointerId);
    }
    if (p.moved) setDrag(dx);
  };
  const onPointerEnd = () => {
    if (drag !== null && Math.abs(drag) >= SWIPE_PX) go(shown + (drag < 0 ? 1 : -1));
    setDrag(null);
    // Keep `moved` until the click that follows a swipe has been swallowed.
    setTimeout(() => (pointer.current = null), 0);
  };
  const onClickCapture = (e: MouseEvent) => {
    if (pointer.current?.moved) e.preventDefault();
  };

  return {
    drag,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: onPointerEnd,
      onPointerCancel: onPointerEnd,
      onClickCapture,
    },
  };
}

/** Play / pause, a dot per slide, previous and next (shown when there is more than one). */
function BannerControls({
  banners,
  shown,
  wantsPlay,
  onToggle,
  go,
}: {
  banners: Banner[];
  shown: number;
  wantsPlay: boolean;
  onToggle: () => void;
  go: (i: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="banner__controls">
      <button
        type="button"
        className="banner__button"
        onClick={onToggle}
        aria-label={wantsPlay ? t('content.banner.pause') : t('content.banner.play')}
        data-testid="banner-play"
      >
        <span aria-hidden="true">{wantsPlay ? '❚❚' : '▶'}</span>
      </button>
      <div className="banner__dots">
        {banners.map((banner, i) => (
          <button
            key={banner.id}
            type="button"
            className="banner__dot"
            aria-label={t('content.banner.goTo', { index: i + 1 })}
            aria-current={i === shown ? 'true' : undefined}
            data-testid={`banner-dot-${i}`}
            onClick={() => go(i)}
          >
            <span aria-hidden="true" />
          </button>
        ))}
      </div>
      <button
        type="button"
        className="banner__button"
        onClick={() => go(shown - 1)}
        aria-label={t('content.banner.previous')}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <button
        type="button"
        className="banner__button"
        onClick={() => go(shown + 1)}
        aria-label={t('content.banner.next')}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}

/**
 * Home's banner carousel (WAI-ARIA carousel pattern): turns every 3 s; holds still while
 * hovered, focused or swiped, when paused with its button, and, unless asked to play, for
 * people who prefer reduced motion. Swipe by touch, or use the arrows and dots.
 */
export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const { t } = useTranslation();
  const count = banners.length;
  const [index, setIndex] = useState(0);
  const [choice, setChoice] = useState<'play' | 'pause' | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reducedMotion = useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion);

  const shown = count > 0 ? index % count : 0;
  const go = (i: number) => setIndex(((i % count) + count) % count);
  const { drag, handlers } = useSwipe(count, shown, go);
  const wantsPlay = choice ? choice === 'play' : !reducedMotion;
  const playing = count > 1 && wantsPlay && !hovered && !focused && drag === null;

  // One timer per slide shown: a manual turn starts a full interval again.
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => setIndex((shown + 1) % count), SWIPER_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [playing, shown, count]);

  if (count === 0) return null;

  return (
    <section
      className="banner"
      aria-roledescription={t('content.banner.carousel')}
      aria-label={t('content.banner.label')}
      data-testid="banner"
      data-active={shown}
      data-playing={playing}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false);
      }}
    >
      <div className="banner__viewport" {...handlers}>
        <div
          className={`banner__track${drag === null && !reducedMotion ? ' banner__track--animated' : ''}`}
          style={{ transform: `translateX(calc(${-shown * 100}% + ${drag ?? 0}px))` }}
          aria-live={playing ? 'off' : 'polite'}
        >
          {banners.map((banner, i) => (
            <div
              key={banner.id}
              className="banner__slide"
              role="group"
              aria-roledescription={t('content.banner.slide')}
              aria-label={t('content.banner.position', { index: i + 1, count })}
              aria-hidden={i !== shown}
              inert={i !== shown}
            >
              <Slide banner={banner} />
            </div>
          ))}
        </div>
      </div>
      {count > 1 && (
        <BannerControls
          banners={banners}
          shown={shown}
          wantsPlay={wantsPlay}
          onToggle={() => setChoice(wantsPlay ? 'pause' : 'play')}
          go={go}
        />
      )}
    </section>
  );
}
