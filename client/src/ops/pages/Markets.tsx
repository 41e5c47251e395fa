import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as Radix from '@radix-ui/react-dialog';
import type { AnswerOf } from '@shared/contract/endpoint';
import type * as marketEndpoints from '@shared/market/endpoints';
import * as market from '@shared/market/routes';
import * as users from '@shared/accounts/ops.routes';
import { call, OpsError } from '../api';
import { useT, type OpsT } from '../useT';
import { dateTime } from '../format';

/** A product as GET /api/market/products answers it. */
type MarketProduct = AnswerOf<typeof marketEndpoints.products>[number];

/** A failed call as a line for the operator: a 400's own message (which field, why), else ours. */
export const failure = (err: unknown, t: OpsT) =>
  err instanceof OpsError && err.status === 400 ? err.message : t('common.failed');

/** Markets (admin): every product's state, and maintenance started or ended per product. */
export function MarketsPage() {
  const { t, lang } = useT();
  const client = useQueryClient();
  const products = useQuery({
    queryKey: ['market-products'],
    queryFn: () => call(market.products, { query: {} }),
    refetchInterval: 5000,
  });
  const [starting, setStarting] = useState<MarketProduct | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const maintenance = useMutation({
    mutationFn: ({ id, on, opensAt }: { id: string; on: boolean; opensAt?: number }) =>
      call(users.setMaintenance, {
        params: { id },
        body: { on, ...(opensAt === undefined ? {} : { opensAt }) },
      }),
    onSuccess: ({ id, on }) => {
      setNotice({ ok: true, text: t(on ? 'markets.started' : 'markets.ended', { id }) });
      void client.invalidateQueries({ queryKey: ['market-products'] });
    },
  });
  const end = (p: MarketProduct) =>
    maintenance
      .mutateAsync({ id: p.id, on: false })
      .catch((err: unknown) => setNotice({ ok: false, text: failure(err, t) }));
  return (
    <div className="ops-page">
      <header className="ops-page-head">
        <h1>{t('nav.markets')}</h1>
      </header>
      {notice && (
        <p
          className={`ops-notice ${notice.ok ? 'ops-ok' : 'ops-error'}`}
          role="status"
          data-testid="markets-notice"
        >
          {notice.text}
        </p>
      )}
      {products.isError && <p className="ops-alert">{t('common.loadFailed')}</p>}
      <div className="ops-table-wrap">
        <table className="ops-table" data-testid="markets-table">
          <thead>
            <tr>
              <th>{t('markets.id')}</th>
              <th>{t('markets.name')}</th>
              <th>{t('markets.category')}</th>
              <th>{t('markets.status')}</th>
              <th>{t('markets.last')}</th>
              <th>{t('markets.opensAt')}</th>
              <th>{t('markets.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {products.data?.map((p) => (
              <tr key={p.id} data-testid="market-row" data-id={p.id} data-status={p.status}>
                <td>{p.id}</td>
                <td>{p.name}</td>
                <td>{t(`markets.categories.${p.category}`)}</td>
                <td>
                  <span className={`ops-tag${p.status === 'maintenance' ? ' ops-tag-danger' : ''}`}>
                    {t(`markets.states.${p.status}`)}
                  </span>
                </td>
                <td>{p.last?.price ?? '--'}</td>
                <td>{p.status === 'maintenance' && p.opensAt ? dateTime(p.opensAt, lang) : ''}</td>
                <td>
                  {p.status === 'maintenance' ? (
                    <button
                      type="button"
                      className="ops-btn"
                      disabled={maintenance.isPending}
                      onClick={() => void end(p)}
                    >
                      {t('markets.end')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="ops-btn"
                      disabled={maintenance.isPending}
                      onClick={() => {
                        setNotice(null);
                        setStarting(p);
                      }}
                    >
                      {t('markets.start')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {starting && (
        <StartDialog
          product={starting}
          onClose={() => setStarting(null)}
          onConfirm={async (opensAt) => {
            await maintenance.mutateAsync({ id: starting.id, on: true, opensAt });
            setStarting(null);
          }}
        />
      )}
    </div>
  );
}

/** Start maintenance: an optional opening time (the operator's local time), in the future. */
function StartDialog({
  product,
  onClose,
  onConfirm,
}: {
  product: MarketProduct;
  onClose: () => void;
  onConfirm: (opensAt: number | undefined) => Promise<void>;
}) {
  const { t } = useT();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    let opensAt: number | undefined;
    if (value) {
      opensAt = new Date(value).getTime();
      if (!Number.isFinite(opensAt) || opensAt <= Date.now()) {
        setError(t('markets.opensAtFuture'));
        return;
      }
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(opensAt);
    } catch (err) {
      setError(failure(err, t));
      setBusy(false);
    }
  };
  return (
    <Radix.Root open onOpenChange={(open) => !open && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="ops-overlay" />
        <Radix.Content
          className="ops-dialog"
          aria-describedby={undefined}
          data-testid="maintenance-dialog"
        >
          <Radix.Title>{t('markets.startTitle', { name: product.name })}</Radix.Title>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
            noValidate
          >
            <label className="ops-field">
              <span>{t('markets.opensAtLabel')}</span>
              <input
                type="datetime-local"
                name="opensAt"
                value={value}
                onChange={(e) => setValue(e.target.value)}
                aria-invalid={error ? true : undefined}
              />
              <span className="ops-muted">{t('markets.opensAtHint')}</span>
              {error && (
                <span className="ops-field-error" role="alert">
                  {error}
                </span>
              )}
            </label>
            <div className="ops-row-end">
              <button type="button" className="ops-btn" onClick={onClose}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="ops-btn ops-danger" disabled={busy}>
                {t('markets.start')}
              </button>
            </div>
          </form>
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
