-- ledger_transfer (migration 0022) looked up the account of every leg, one index lookup each:
-- a settlement batch of 200 orders has some 500 legs on a handful of accounts (the house's and a
-- few users' in_orders and available). It now looks up each distinct account once. Nothing else
-- changes: the same accounts, locked in the same order, the same entries and balances.
CREATE OR REPLACE FUNCTION ledger_transfer(
  p_kind text[], p_user bigint[], p_ref text[], p_mode text[],
  p_ord int[], p_owner bigint[], p_account_kind text[], p_amount bigint[],
  p_user_kinds text[]
) RETURNS TABLE (ord int, transfer_id bigint) LANGUAGE plpgsql AS $$
DECLARE
  house boolean;
  wanted int;
  acct_id bigint[];
  acct_owner bigint[];
  acct_kind text[];
  acct_balance bigint[];
  e_ord int[];
  e_account bigint[];
  e_amount bigint[];
  e_after bigint[];
  ids bigint[];
BEGIN
  FOREACH house IN ARRAY ARRAY[false, true] LOOP
    -- No house leg (a placement, a deposit to a user): nothing more to lock or write.
    CONTINUE WHEN house AND array_position(p_owner, NULL) IS NULL;
    SELECT count(*) INTO wanted
      FROM (SELECT DISTINCT w.o, w.k FROM unnest(p_owner, p_account_kind) AS w(o, k)
             WHERE (w.o IS NULL) = house) d;
    acct_id := NULL;
    IF wanted > 0 THEN
      FOR attempt IN 1..2 LOOP
        SELECT array_agg(a.id ORDER BY a.id), array_agg(a.owner_id ORDER BY a.id),
               array_agg(a.kind ORDER BY a.id), array_agg(a.balance ORDER BY a.id)
          INTO acct_id, acct_owner, acct_kind, acct_balance
          FROM (SELECT l.id, l.owner_id, l.kind, l.balance FROM ledger_accounts l
                 WHERE l.id = ANY(ARRAY(
                   -- One lookup per leg through the unique index of its kind: a plan kept for
                   -- the connection's life cannot turn this into a scan of every account.
                   SELECT CASE WHEN w.o IS NULL
                            THEN (SELECT h.id FROM ledger_accounts h WHERE h.owner_id IS NULL AND h.kind = w.k)
                            ELSE (SELECT u.id FROM ledger_accounts u
                                   WHERE u.owner_id = w.o AND u.kind = w.k AND u.owner_id IS NOT NULL)
                          END
                     -- Once per account, not per leg: a batch's hundreds of legs are on a few accounts.
                     FROM (SELECT DISTINCT d.o, d.k FROM unnest(p_owner, p_account_kind) AS d(o, k)
                            WHERE (d.o IS NULL) = house) w))
                 ORDER BY l.id FOR UPDATE) a;
        EXIT WHEN coalesce(cardinality(acct_id), 0) >= wanted;
        IF attempt = 2 OR house THEN
          RAISE EXCEPTION 'ledger_transfer: an account is missing';
        END IF;
        INSERT INTO ledger_accounts (owner_id, kind)
          SELECT u.o, k.k FROM (SELECT DISTINCT o FROM unnest(p_owner) AS o WHERE o IS NOT NULL) u(o),
                 unnest(p_user_kinds) AS k(k)
          ON CONFLICT (owner_id, kind) WHERE owner_id IS NOT NULL DO NOTHING;
      END LOOP;
    END IF;

    WITH legs AS (
      SELECT * FROM unnest(p_ord, p_owner, p_account_kind, p_amount) AS w(ord, o, k, amount)
       WHERE (w.o IS NULL) = house
    ), accts AS (
      SELECT * FROM unnest(acct_id, acct_owner, acct_kind, acct_balance) AS a(id, owner_id, kind, balance)
    ), net AS (
      SELECT l.ord, a.id AS account_id, sum(l.amount)::bigint AS amount, a.balance AS before
        FROM legs l JOIN accts a ON coalesce(a.owner_id, -1) = coalesce(l.o, -1) AND a.kind = l.k
       GROUP BY l.ord, a.id, a.balance
      HAVING sum(l.amount) <> 0
    ), running AS (
      SELECT n.*, (n.before + sum(n.amount) OVER (PARTITION BY n.account_id ORDER BY n.ord))::bigint AS after
        FROM net n
    )
    SELECT array_agg(r.ord ORDER BY r.ord, r.account_id), array_agg(r.account_id ORDER BY r.ord, r.account_id),
           array_agg(r.amount ORDER BY r.ord, r.account_id), array_agg(r.after ORDER BY r.ord, r.account_id)
      INTO e_ord, e_account, e_amount, e_after
      FROM running r;

    IF NOT house THEN
      -- A user's account may never go below zero: refused before anything is written.
      IF EXISTS (SELECT 1 FROM unnest(e_after) AS x(after) WHERE x.after < 0) THEN
        RAISE EXCEPTION 'Insufficient balance' USING ERRCODE = '23514';
      END IF;
      ids := ARRAY(SELECT nextval('transfers_id_seq')
                     FROM generate_series(1, cardinality(p_kind)));
      INSERT INTO transfers (id, kind, user_id, ref, mode) OVERRIDING SYSTEM VALUE
        SELECT ids[x.n], x.kind, x.user_id, x.ref, x.mode
          FROM unnest(p_kind, p_user, p_ref, p_mode) WITH ORDINALITY AS x(kind, user_id, ref, mode, n);
    END IF;
    IF e_ord IS NOT NULL THEN
      INSERT INTO entries (transfer_id, account_id, amount, balance_after)
        SELECT ids[y.ord], y.account_id, y.amount, y.after
          FROM unnest(e_ord, e_account, e_amount, e_after) WITH ORDINALITY AS y(ord, account_id, amount, after, n)
         ORDER BY y.n;
      UPDATE ledger_accounts a SET balance = v.after
        FROM (SELECT DISTINCT ON (z.account_id) z.account_id, z.after
                FROM unnest(e_account, e_after) WITH ORDINALITY AS z(account_id, after, n)
               ORDER BY z.account_id, z.n DESC) v
       WHERE a.id = v.account_id;
    END IF;
  END LOOP;
  RETURN QUERY SELECT g.n::int, ids[g.n] FROM generate_series(1, cardinality(p_kind)) AS g(n);
END $$;
