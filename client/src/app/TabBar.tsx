import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { ChartIcon, HomeIcon, OrdersIcon, SavingsIcon, UserIcon } from '@client/components/icons';
import { paths } from './route-table';

type TabLabel = 'tabs.home' | 'tabs.product' | 'tabs.orders' | 'tabs.money' | 'tabs.user';

const tabs: { path: string; label: TabLabel; Icon: ComponentType<{ className?: string }> }[] = [
  { path: paths.home, label: 'tabs.home', Icon: HomeIcon },
  { path: paths.product, label: 'tabs.product', Icon: ChartIcon },
  { path: paths.orders, label: 'tabs.orders', Icon: OrdersIcon },
  { path: paths.savings, label: 'tabs.money', Icon: SavingsIcon },
  { path: paths.user, label: 'tabs.user', Icon: UserIcon },
];

/** The app's own bottom tab bar, five tabs that share a 360 px width; NavLink marks the active tab with aria-current="page". */
export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('tabs.navLabel')}>
      {tabs.map(({ path, label, Icon }) => (
        <NavLink key={path} to={path} className="tab-bar__tab">
          <Icon className="tab-bar__icon" />
          <span>{t(label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
