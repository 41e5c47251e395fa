import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '@shared/contract/endpoint';
import type * as endpoints from '@shared/operators/reviews.endpoints';
import * as reviews from '@shared/operators/reviews.routes';
import { depositStatuses, type DepositStatus } from '@shared/wallet/model';
import { call, OpsError } from '../api';
import { useT } from '../useT';
import { dateTime, money } from '../format';
import { ReasonDialog } from '../components/ReasonDialog';
import { DepositDetail, depositStatusText, KycDetail, WithdrawalDetail } from './queue-details';
import { ReviewContext } from '../components/UserContext';

type Kind = 'deposits' | 'withdrawals' | 'kyc';
type Deposit = AnswerOf<typeof endpoints.depositQueue>['items'][number];
type Withdrawal = AnswerOf<typeof endpoints.withdrawalQueue>['items'][number];
type Kyc = AnswerOf<typeof endpoints.kycQueue>['items'][number];
type Item = Deposit | Withdrawal | Kyc;
/** A page of any of the queues. */
type Page = Omit<AnswerOf<typeof endpoints.depositQueue>, 'items'> & { items: Item[] };

/**
 * Each queue's three endpoints. Only the deposits are looked through by another status than
 * pending (the filter is theirs; App mounts a new page per queue), so the others list pending.
 */
interface Queue {
  list: (status: DepositStatus) => Promise<Page>;
  approve: (id: string) => Promise<Item>;
  reject: (id: string, reason: string) => Promise<Item>;
}

const queues: Record<Kind, Queue> = {
  deposits: {
    list: (status) => call(reviews.depositQueue, { query: { status, limit: 100 } }),
    approve: (id) => call(reviews.approveDeposit, { params: { id } }),
    reject: (id, reason) => call(reviews.rejectDeposit, { params: { id }, body: { reason } }),
  },
  withdrawals: {
    list: () => call(reviews.withdrawalQueue, { query: { status: 'pending', limit: 100 } }),
    approve: (id) => call(reviews.approveWithdrawal, { params: { id } }),
    reject: (id, reason) => call(reviews.rejectWithdrawal, { params: { id }, body: { reason } }),
  },
  kyc: {
    list: () => call(reviews.kycQueue, { query: { status: 'pending', limit: 100 } }),
    approve: (id) => call(reviews.approveKyc, { params: { id } }),
    reject: (id, reason) => call(reviews.rejectKyc, { params: { id }, body: { reason } }),
  },
};

/** How long the keys wait after the item on screen was replaced by the next one. */
const SETTLE_MS = 800;

/** Keys typed into a field (a reason, a search) are text, not shortcuts. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * A review queue: the pending items on the left, the selected one's evidence beside it, Approve
 * or Reject (with a reason). j/k or ↑/↓ move, a approves, r rejects. A decision another operator
 * made first (409 INVALID_STATE) is news, not an error: the queue refreshes. The deposits can
 * also be looked through by another status (USDT transfers still confirming, credited, dropped
 * by a chain reorganisation), read-only.
 */
export function ReviewQueue({ kind }: { kind: Kind }) {
  const { t } = useT();
  const [status, setStatus] = useState<DepositStatus>('pending');
  const reviewable = status === 'pending';
  const key = ['queue', kind, status];
  const list = useQuery({
    queryKey: key,
    queryFn: () => queues[kind].list(status),
  });
  const items = list.data?.items ?? [];
  // The selection by id; when that item leaves the queue, the one now at its place.
  const [selection, setSelection] = useState<{ id: string | null; index: number }>({
    id: null,
    index: 0,
  });
  const selected =
    items.find((i) => i.id === selection.id) ?? items[Math.min(selection.index, items.length - 1)];
  const selectedIndex = selected ? items.indexOf(selected) : 0;
  const select = (i: number) => {
    const item = items[i];
    if (item) setSelection({ id: item.id, index: i });
  };
  const [rejecting, setRejecting] = useState<Item | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const decide = useDecision(kind, key, setNotice);

  const move = (step: number) =>
    select(Math.min(items.length - 1, Math.max(0, selectedIndex + step)));
  // When the item on screen leaves the queue (decided elsewhere), the next one takes its place;
  // a key pressed in that instant was meant for the one that left, so for a moment the keys
  // wait (the buttons do not: a click aims at what is on screen).
  const replacedAt = useRef(0);
  const fallback = selected !== undefined && selected.id !== selection.id && selection.id !== null;
  const shownId = selected?.id;
  useEffect(() => {
    if (fallback) replacedAt.current = performance.now();
  }, [shownId, fallback]);
  const settled = () => performance.now() - replacedAt.current > SETTLE_MS;
  const approve = () =>
    reviewable && selected && !decide.isPending && decide.mutate({ item: selected });
  const reject = () => reviewable && selected && setRejecting(selected);
  useQueueKeys({ move, approve, reject, settled, open: rejecting !== null });

  return (
    <div className="ops-queue" data-testid={`queue-${kind}`}>
      <QueueHead
        kind={kind}
        status={status}
        count={items.length}
        onStatus={(s) => {
          setStatus(s);
          setSelection({ id: null, index: 0 });
          setNotice(null);
        }}
      />
      {notice && (
        <p className={`ops-notice ops-${notice.tone}`} role="status" data-testid="queue-notice">
          {notice.text}
        </p>
      )}
      <div className="ops-queue-body">
        <QueueList
          kind={kind}
          reviewable={reviewable}
          pending={list.isPending}
          loaded={list.isSuccess}
          items={items}
          selected={selected}
          onSelect={select}
        />
        <section className="ops-detail" aria-label={t('review.details')}>
          {selected ? (
            <QueueDetail
              kind={kind}
              item={selected}
              reviewable={reviewable}
              busy={decide.isPending}
              onApprove={approve}
              onReject={reject}
            />
          ) : (
            <p className="ops-muted">{t('review.nothingSelected')}</p>
          )}
        </section>
      </div>
      {rejecting && (
        <ReasonDialog
          title={t('review.rejectTitle', { user: rejecting.userAccount })}
          confirm={t('review.reject')}
          onClose={() => setRejecting(null)}
          onConfirm={async (reason) => {
            setRejecting(null);
            await decide.mutateAsync({ item: rejecting, reason }).catch(() => undefined);
          }}
        />
      )}
    </div>
  );
}

type Notice = { tone: 'ok' | 'info' | 'error'; text: string };

/**
 * Approve (no reason) or reject (a reason) one item; the item leaves the page's list at once. A
 * decision another operator made first (409 INVALID_STATE, or 404) is news, not an error.
 */
function useDecision(kind: Kind, key: unknown[], setNotice: (notice: Notice) => void) {
  const { t } = useT();
  const client = useQueryClient();
  const drop = (item: Item) =>
    client.setQueryData<Page>(key, (page) =>
      page ? { ...page, items: page.items.filter((i) => i.id !== item.id) } : page,
    );
  return useMutation({
    mutationFn: ({ item, reason }: { item: Item; reason?: string }) =>
      reason === undefined ? queues[kind].approve(item.id) : queues[kind].reject(item.id, reason),
    onSuccess: (_answer, { item, reason }) => {
      setNotice({
        tone: 'ok',
        text: t(reason === undefined ? 'review.approved' : 'review.rejected', {
          user: item.userAccount,
        }),
      });
      drop(item);
    },
    onError: (err, { item }) => {
      if (err instanceof OpsError && (err.code === 'INVALID_STATE' || err.status === 404)) {
        setNotice({ tone: 'info', text: t('review.alreadyDecided', { user: item.userAccount }) });
        drop(item);
      } else setNotice({ tone: 'error', text: t('common.failed') });
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** j/k or ↑/↓ move, a approves, r rejects: not while typing, nor while the reason dialog is open. */
function useQueueKeys(actions: {
  move: (step: number) => void;
  approve: () => unknown;
  reject: () => unknown;
  settled: () => boolean;
  open: boolean;
}) {
  const keys = useRef(actions);
  useEffect(() => {
    keys.current = actions;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const k = keys.current;
      if (k.open || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const action = {
        j: () => k.move(1),
        ArrowDown: () => k.move(1),
        k: () => k.move(-1),
        ArrowUp: () => k.move(-1),
        a: () => k.settled() && k.approve(),
        r: () => k.settled() && k.reject(),
      }[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The queue's title, the deposits' status filter, the count and the key hints. */
function QueueHead({
  kind,
  status,
  count,
  onStatus,
}: {
  kind: Kind;
  status: DepositStatus;
  count: number;
  onStatus: (status: DepositStatus) => void;
}) {
  const { t } = useT();
  const reviewable = status === 'pending';
  return (
    <header className="ops-page-head">
      <h1>{t(`nav.${kind}`)}</h1>
      {kind === 'deposits' && (
        <label className="ops-filter">
          {t('review.statusFilter')}{' '}
          <select
            value={status}
            data-testid="status-filter"
            onChange={(e) => onStatus(e.target.value as DepositStatus)}
          >
            {depositStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`users.reviewStatus.${s}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      <span className="ops-count" data-testid="queue-count">
        {t(reviewable ? 'review.pendingCount' : 'review.shownCount', { count })}
      </span>
      <span className="ops-hints" aria-hidden="true">
        <kbd>j</kbd>/<kbd>k</kbd> {t('review.hintMove')}
        {reviewable && (
          <>
            {' '}
            · <kbd>a</kbd> {t('review.approve')} · <kbd>r</kbd> {t('review.reject')}
          </>
        )}
      </span>
    </header>
  );
}

/** The items of the queue, the selected one marked. */
function QueueList({
  kind,
  reviewable,
  pending,
  loaded,
  items,
  selected,
  onSelect,
}: {
  kind: Kind;
  reviewable: boolean;
  pending: boolean;
  loaded: boolean;
  items: Item[];
  selected: Item | undefined;
  onSelect: (index: number) => void;
}) {
  const { t, lang } = useT();
  const summary = (item: Item) =>
    'amount' in item
      ? money(item.amount, lang) + (reviewable ? '' : ` · ${depositStatusText(t, item)}`)
      : `${item.name} · ${item.nationality}`;
  return (
    <ul className="ops-list" aria-label={t(`nav.${kind}`)}>
      {pending && <li className="ops-muted">{t('common.loading')}</li>}
      {loaded && items.length === 0 && (
        <li className="ops-muted" data-testid="queue-empty">
          {t(reviewable ? 'review.empty' : 'review.emptyStatus')}
        </li>
      )}
      {items.map((item, i) => (
        <li key={item.id}>
          <button
            type="button"
            className="ops-list-item"
            aria-current={item === selected ? 'true' : undefined}
            data-testid="queue-item"
            data-id={item.id}
            onClick={() => onSelect(i)}
          >
            <span className="ops-list-main">
              <strong>{item.userAccount}</strong>
              <span>{summary(item)}</span>
            </span>
            <span className="ops-muted">{dateTime(item.createdAt, lang)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The selected item's actions and evidence, with the user's context beside money items. */
function QueueDetail({
  kind,
  item,
  reviewable,
  busy,
  onApprove,
  onReject,
}: {
  kind: Kind;
  item: Item;
  reviewable: boolean;
  busy: boolean;
  onApprove: () => unknown;
  onReject: () => unknown;
}) {
  const { t } = useT();
  return (
    <>
      <div className="ops-actions">
        <span className="ops-muted">
          #{item.id} · {item.userAccount}
        </span>
        {reviewable && (
          <>
            <button
              type="button"
              className="ops-btn ops-primary"
              disabled={busy}
              onClick={onApprove}
              data-testid="approve"
            >
              {t('review.approve')} <kbd>a</kbd>
            </button>
            <button
              type="button"
              className="ops-btn ops-danger"
              disabled={busy}
              onClick={onReject}
              data-testid="reject"
            >
              {t('review.reject')} <kbd>r</kbd>
            </button>
          </>
        )}
      </div>
      {kind === 'deposits' && <DepositDetail item={item as Deposit} />}
      {kind === 'withdrawals' && <WithdrawalDetail item={item as Withdrawal} />}
      {kind === 'kyc' && <KycDetail item={item as Kyc} />}
      {kind !== 'kyc' && (
        <ReviewContext key={item.id} userId={item.userId} kind={kind} current={item.id} />
      )}
    </>
  );
}
