-- Money movements in one call (DECISIONS.md, Placements at 1 000 a second): the accounts are
-- found through their unique indexes and locked in id order (so concurrent callers never
-- deadlock), each transfer's net per account is carried forward in order, a user account that
-- would go below zero refuses the whole call (SQLSTATE 23514, as the balance CHECK does), and the
-- transfers, their entries (each with its balance after) and the new balances are written. The
-- caller (ledger.ts) has checked that every transfer sums to zero and is of one mode. A user's
-- accounts (all of `p_user_kinds`) are created on their first use. Returns each transfer's id by its ordinal (1-based).
-- Statements inside PL/pgSQL keep their plans for the connection's life, and the whole movement
-- is one round trip: what a placement, a settlement batch or a deposit review costs the server.
CREATE FUNCTION ledger_transfer(
  p_kind text[], p_user bigint[], p_ref text[], p_mode text[],
  p_ord int[], p_owner bigint[], p_account_kind text[], p_amount bigint[],
  p_user_kinds text[]
) RETURNS TABLE (ord int, transfer_id bigint) LANGUAGE plpgsql AS $$
DECLARE
  wanted int;
  acct_id bigint[];
  acct_owner bigint[];
  acct_kind text[];
  acct_balance bigint[];
  e_ord int[];
  e_account bigint[];
  e_amount bigint[];
  e_after bigint[];
  e_user boolean[];
  ids bigint[];
BEGIN
  SELECT count(*) INTO wanted
    FROM (SELECT DISTINCT w.o, w.k FROM unnest(p_owner, p_account_kind) AS w(o, k)) d;
  FOR attempt IN 1..2 LOOP
    SELECT array_agg(a.id ORDER BY a.id), array_agg(a.owner_id ORDER BY a.id),
           array_agg(a.kind ORDER BY a.id), array_agg(a.balance ORDER BY a.id)
      INTO acct_id, acct_owner, acct_kind, acct_balance
      FROM (SELECT l.id, l.owner_id, l.kind, l.balance FROM ledger_accounts l
             WHERE l.id = ANY(ARRAY(
               -- One lookup per leg through the unique index of its kind: a plan kept for the
               -- connection's life cannot turn this into a scan of every account.
               SELECT CASE WHEN w.o IS NULL
                        THEN (SELECT h.id FROM ledger_accounts h WHERE h.owner_id IS NULL AND h.kind = w.k)
                        ELSE (SELECT u.id FROM ledger_accounts u
                               WHERE u.owner_id = w.o AND u.kind = w.k AND u.owner_id IS NOT NULL)
                      END
                 FROM unnest(p_owner, p_account_kind) AS w(o, k)))
             ORDER BY l.id FOR UPDATE) a;
    EXIT WHEN coalesce(cardinality(acct_id), 0) >= wanted;
    IF attempt = 2 THEN
      RAISE EXCEPTION 'ledger_transfer: a house account is missing';
    END IF;
    INSERT INTO ledger_accounts (owner_id, kind)
      SELECT u.o, k.k FROM (SELECT DISTINCT o FROM unnest(p_owner) AS o WHERE o IS NOT NULL) u(o),
             unnest(p_user_kinds) AS k(k)
      ON CONFLICT (owner_id, kind) WHERE owner_id IS NOT NULL DO NOTHING;
  END LOOP;

  WITH legs AS (
    SELECT * FROM unnest(p_ord, p_owner, p_account_kind, p_amount) AS w(ord, o, k, amount)
  ), accts AS (
    SELECT * FROM unnest(acct_id, acct_owner, acct_kind, acct_balance) AS a(id, owner_id, kind, balance)
  ), net AS (
    SELECT l.ord, a.id AS account_id, sum(l.amount)::bigint AS amount, a.balance AS before,
           a.owner_id IS NOT NULL AS is_user
      FROM legs l JOIN accts a ON a.kind = l.k AND a.owner_id IS NOT DISTINCT FROM l.o
     GROUP BY l.ord, a.id, a.balance, a.owner_id
    HAVING sum(l.amount) <> 0
  ), running AS (
    SELECT n.*, (n.before + sum(n.amount) OVER (PARTITION BY n.account_id ORDER BY n.ord))::bigint AS after
      FROM net n
  )
  SELECT array_agg(r.ord ORDER BY r.ord, r.account_id), array_agg(r.account_id ORDER BY r.ord, r.account_id),
         array_agg(r.amount ORDER BY r.ord, r.account_id), array_agg(r.after ORDER BY r.ord, r.account_id),
         array_agg(r.is_user ORDER BY r.ord, r.account_id)
    INTO e_ord, e_account, e_amount, e_after, e_user
    FROM running r;

  IF EXISTS (SELECT 1 FROM unnest(e_after, e_user) AS x(after, is_user) WHERE x.is_user AND x.after < 0) THEN
    RAISE EXCEPTION 'Insufficient balance' USING ERRCODE = '23514';
  END IF;

  ids := ARRAY(SELECT nextval('transfers_id_seq')
                 FROM generate_series(1, cardinality(p_kind)));
  INSERT INTO transfers (id, kind, user_id, ref, mode) OVERRIDING SYSTEM VALUE
    SELECT ids[x.n], x.kind, x.user_id, x.ref, x.mode
      FROM unnest(p_kind, p_user, p_ref, p_mode) WITH ORDINALITY AS x(kind, user_id, ref, mode, n);
  INSERT INTO entries (transfer_id, account_id, amount, balance_after)
    SELECT ids[y.ord], y.account_id, y.amount, y.after
      FROM unnest(e_ord, e_account, e_amount, e_after) WITH ORDINALITY AS y(ord, account_id, amount, after, n)
     ORDER BY y.n;
  UPDATE ledger_accounts a SET balance = v.after
    FROM (SELECT DISTINCT ON (z.account_id) z.account_id, z.after
            FROM unnest(e_account, e_after) WITH ORDINALITY AS z(account_id, after, n)
           ORDER BY z.account_id, z.n DESC) v
   WHERE a.id = v.account_id;
  RETURN QUERY SELECT g.n::int, ids[g.n] FROM generate_series(1, cardinality(p_kind)) AS g(n);
END $$;

-- Every entry's account is of its transfer's mode (migration 0013), now checked once per writing
-- statement over all its entries instead of once per entry: a settlement batch writes thousands
-- of entries in one statement, and the check per row ran two queries each time. Each entry still
-- looks up its transfer and account through their primary keys.
DROP TRIGGER entries_same_mode ON entries;
DROP FUNCTION ledger_entry_same_mode();
CREATE FUNCTION ledger_entries_same_mode() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT x.transfer_id, x.transfer_mode, x.account_id, x.account_mode INTO bad
    FROM (SELECT e.transfer_id, e.account_id,
                 (SELECT t.mode FROM transfers t WHERE t.id = e.transfer_id) AS transfer_mode,
                 (SELECT a.mode FROM ledger_accounts a WHERE a.id = e.account_id) AS account_mode
            FROM written e) x
   WHERE x.transfer_mode IS DISTINCT FROM x.account_mode
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger: transfer % is % money, account % is %: practice and real money never mix',
      bad.transfer_id, bad.transfer_mode, bad.account_id, bad.account_mode
      USING ERRCODE = 'P0019';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER entries_same_mode_insert AFTER INSERT ON entries
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_same_mode();
CREATE TRIGGER entries_same_mode_update AFTER UPDATE ON entries
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_same_mode();
