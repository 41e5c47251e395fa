import { memo, startTransition, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageSelect } from '@client/components/LanguageSelect';
import { Brand } from '@client/components/Brand';
import { PageHeader } from '@client/components/PageHeader';
import { ProductsView } from '@client/components/ProductList';
import {
  HomeBanner,
  HomeFooter,
  HomeMore,
  useHomeContent,
} from '@client/components/content/HomeContent';
import { QuickLinks } from '@client/components/content/QuickLinks';
import { PracticeCard } from '@client/components/orders/PracticeCard';
import { useIsLoggedIn, useProducts, type LiveProduct, type LiveRequest } from '@client/state';
import { paths } from '@client/app/route-table';
import { BalanceCard, GuestActions, OpenTradesPill } from './HomeAccount';

/**
 * Home (/pages/index/index): for a signed-in trader the real open-trades pill, the real balance
 * card and the practice card (each mode's figures apart), for a guest Sign up / Log in in the
 * header and the banners; then shortcuts, the live recommended products, platform highlights,
 * news, the privacy policy link and the language switch.
 */
export function HomePage() {
  const { t } = useTranslation();
  // Banners, highlights and news are drawn at a lower priority (issue 21): a query's answer
  // re-renders its reader at once and in one piece; deferred, React draws them in a transition,
  // in slices, as it does the live list below.
  const home = useDeferredValue(useHomeContent());
  const loggedIn = useIsLoggedIn();
  // The page fills in from the top: what lies below the live list appears once the list has
  // loaded (or failed), so nothing already on screen is pushed down by it (in a transition too).
  const [listSettled, setListSettled] = useState(false);
  const settle = useCallback(() => startTransition(() => setListSettled(true)), []);
  return (
    <>
      <PageHeader title={<Brand />}>{loggedIn ? <LanguageSelect /> : <GuestActions />}</PageHeader>
      {loggedIn ? (
        <p className="page-intro">{t('app.tagline')}</p>
      ) : (
        // A guest's header holds Sign up and Log in: the language switch moves beside the tagline.
        <div className="home-intro">
          <p className="page-intro">{t('app.tagline')}</p>
          <LanguageSelect />
        </div>
      )}
      {loggedIn ? (
        <>
          <OpenTradesPill />
          <BalanceCard />
          <PracticeCard place="home" />
        </>
      ) : (
        <HomeBanner home={home} />
      )}
      <QuickLinks />
      <section className="section" aria-labelledby="recommended-title">
        <div className="section__head">
          <h2 id="recommended-title">{t('market.recommended')}</h2>
          <Link to={paths.product} className="section__link">
            {t('market.allProducts')}
          </Link>
        </div>
        <LiveProducts onSettled={settle} />
      </section>
      {listSettled && <HomeMore home={home} />}
      {listSettled && home.status !== 'loading' && <HomeFooter />}
    </>
  );
}

/** What the list shows until its first drawing: the header and tagline are painted before it. */
const drawingList: LiveRequest<LiveProduct[]> = { status: 'loading', retry: () => undefined };

/** Re-drawn only when the (deferred) request changes, not on every render of its parent. */
const ProductsDrawing = memo(ProductsView);

/**
 * The live list on its own: the market snapshot re-renders it each second, not the whole page.
 * Its rows are drawn at a lower priority (issue 21): React draws them in a transition, in slices
 * that leave the phone's main thread free between them, and the first paint of the page (its
 * header and tagline) does not wait for twelve rows.
 */
function LiveProducts({ onSettled }: { onSettled: () => void }) {
  const products = useDeferredValue(useProducts(), drawingList);
  const settled = products.status !== 'loading';
  useEffect(() => {
    if (settled) onSettled();
  }, [settled, onSettled]);
  return <ProductsDrawing request={products} />;
}
