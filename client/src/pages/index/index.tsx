import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageSelect } from '@client/components/LanguageSelect';
import { PageHeader } from '@client/components/PageHeader';
import { ProductsView } from '@client/components/ProductList';
import {
  HomeBanner,
  HomeFooter,
  HomeMore,
  useHomeContent,
} from '@client/components/content/HomeContent';
import { QuickLinks } from '@client/components/content/QuickLinks';
import { useProducts } from '@client/state';

/**
 * Home (/pages/index/index): banners, shortcuts, the live recommended products, platform
 * highlights, news, the privacy policy link and the language switch.
 */
export function HomePage() {
  const { t } = useTranslation();
  const home = useHomeContent();
  return (
    <>
      <PageHeader title={t('app.title')}>
        <LanguageSelect />
      </PageHeader>
      <p className="page-intro">{t('app.tagline')}</p>
      <HomeBanner home={home} />
      <QuickLinks />
      <section className="section" aria-labelledby="recommended-title">
        <div className="section__head">
          <h2 id="recommended-title">{t('market.recommended')}</h2>
          <Link to="/pages/product/product" className="section__link">
            {t('market.allProducts')}
          </Link>
        </div>
        <LiveProducts />
      </section>
      <HomeMore home={home} />
      <HomeFooter />
    </>
  );
}

/** The live list on its own: the market snapshot re-renders it each second, not the whole page. */
function LiveProducts() {
  return <ProductsView request={useProducts()} />;
}
