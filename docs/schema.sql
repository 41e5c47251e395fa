-- The schema the migrations (infra/src/db/migrations) build, read back from the database
-- catalogue by `npm run schema`. Generated: do not edit; CI fails when it differs.

-- Tables

CREATE TABLE app_meta (
  key text NOT NULL,
  value text NOT NULL,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT app_meta_pkey PRIMARY KEY (key)
);

CREATE TABLE banners (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  lang text NOT NULL,
  "position" integer NOT NULL,
  title text NOT NULL,
  subtitle text NOT NULL DEFAULT ''::text,
  link text,
  theme text NOT NULL DEFAULT 'blue'::text,
  CONSTRAINT banners_link_check CHECK ((link ~ '^/pages/'::text)),
  CONSTRAINT banners_pkey PRIMARY KEY (id)
);

CREATE TABLE candles (
  product_id text NOT NULL,
  t bigint NOT NULL,
  o bigint NOT NULL,
  h bigint NOT NULL,
  l bigint NOT NULL,
  c bigint NOT NULL,
  v bigint NOT NULL,
  a bigint NOT NULL,
  n integer NOT NULL,
  CONSTRAINT candles_pkey PRIMARY KEY (product_id, t)
);

CREATE TABLE candles_1h (
  product_id text NOT NULL,
  t bigint NOT NULL,
  o bigint NOT NULL,
  h bigint NOT NULL,
  l bigint NOT NULL,
  c bigint NOT NULL,
  v bigint NOT NULL,
  a bigint NOT NULL,
  n integer NOT NULL,
  CONSTRAINT candles_1h_pkey PRIMARY KEY (product_id, t)
);

CREATE TABLE chain_cursors (
  network text NOT NULL,
  next_block bigint NOT NULL,
  head bigint NOT NULL DEFAULT 0,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT chain_cursors_network_check CHECK ((network = ANY (ARRAY['ERC20'::text, 'TRC20'::text]))),
  CONSTRAINT chain_cursors_next_block_check CHECK ((next_block >= 0)),
  CONSTRAINT chain_cursors_pkey PRIMARY KEY (network)
);

CREATE TABLE chart_drawings (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  product_id text NOT NULL,
  kind text NOT NULL,
  t1 bigint NOT NULL,
  p1 numeric NOT NULL,
  t2 bigint,
  p2 numeric,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT chart_drawings_check CHECK ((((kind = 'hline'::text) AND (t2 IS NULL) AND (p2 IS NULL)) OR ((kind = 'trend'::text) AND (t2 IS NOT NULL) AND (p2 IS NOT NULL) AND (t2 > t1)))),
  CONSTRAINT chart_drawings_kind_check CHECK ((kind = ANY (ARRAY['hline'::text, 'trend'::text]))),
  CONSTRAINT chart_drawings_p1_check CHECK ((p1 > (0)::numeric)),
  CONSTRAINT chart_drawings_p2_check CHECK ((p2 > (0)::numeric)),
  CONSTRAINT chart_drawings_pkey PRIMARY KEY (id),
  CONSTRAINT chart_drawings_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE deposit_addresses (
  user_id bigint NOT NULL,
  network text NOT NULL,
  address text NOT NULL,
  derivation_index bigint NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT deposit_addresses_derivation_index_check CHECK (((derivation_index >= 0) AND (derivation_index < '2147483648'::bigint))),
  CONSTRAINT deposit_addresses_network_address_key UNIQUE (network, address),
  CONSTRAINT deposit_addresses_network_check CHECK ((network = ANY (ARRAY['ERC20'::text, 'TRC20'::text]))),
  CONSTRAINT deposit_addresses_pkey PRIMARY KEY (user_id, network),
  CONSTRAINT deposit_addresses_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE deposits (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  channel text NOT NULL,
  amount bigint NOT NULL,
  quantity bigint,
  rate text,
  payer_bank text,
  payer_card text,
  payer_name text,
  remark text,
  screenshot_id text,
  status text NOT NULL DEFAULT 'pending'::text,
  reason text,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  reviewed_at timestamp with time zone,
  tx_id text,
  resubmitted_from bigint,
  source text NOT NULL DEFAULT 'claim'::text,
  tx_hash text,
  log_index integer,
  block_number bigint,
  block_hash text,
  from_address text,
  to_address text,
  confirmations integer,
  required_confirmations integer,
  CONSTRAINT deposit_chain_facts CHECK (((source = 'claim'::text) OR ((log_index IS NOT NULL) AND (block_number IS NOT NULL) AND (to_address IS NOT NULL)))),
  CONSTRAINT deposit_channel_fields CHECK ((((channel = 'bank'::text) AND (payer_bank IS NOT NULL) AND (payer_card IS NOT NULL) AND (payer_name IS NOT NULL)) OR ((channel <> 'bank'::text) AND (quantity IS NOT NULL) AND (rate IS NOT NULL)))),
  CONSTRAINT deposit_evidence CHECK ((((channel = 'bank'::text) AND (screenshot_id IS NOT NULL)) OR ((channel <> 'bank'::text) AND (tx_hash IS NOT NULL)))),
  CONSTRAINT deposit_reviewed CHECK (((status = ANY (ARRAY['confirming'::text, 'pending'::text])) = (reviewed_at IS NULL))),
  CONSTRAINT deposits_amount_check CHECK ((amount > 0)),
  CONSTRAINT deposits_channel_check CHECK ((channel = ANY (ARRAY['bank'::text, 'usdt-trc20'::text, 'usdt-erc20'::text]))),
  CONSTRAINT deposits_log_index_check CHECK ((log_index >= 0)),
  CONSTRAINT deposits_pkey PRIMARY KEY (id),
  CONSTRAINT deposits_quantity_check CHECK ((quantity > 0)),
  CONSTRAINT deposits_resubmitted_from_fkey FOREIGN KEY (resubmitted_from) REFERENCES deposits(id),
  CONSTRAINT deposits_screenshot_id_fkey FOREIGN KEY (screenshot_id) REFERENCES uploads(id),
  CONSTRAINT deposits_source_check CHECK ((source = ANY (ARRAY['claim'::text, 'chain'::text]))),
  CONSTRAINT deposits_status_check CHECK ((status = ANY (ARRAY['confirming'::text, 'pending'::text, 'approved'::text, 'rejected'::text, 'dropped'::text]))),
  CONSTRAINT deposits_tx_hash_check CHECK ((tx_hash ~ '^[0-9a-f]{64}$'::text)),
  CONSTRAINT deposits_tx_id_check CHECK ((tx_id ~ '^(0x)?[0-9a-f]{64}$'::text)),
  CONSTRAINT deposits_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE entries (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  transfer_id bigint NOT NULL,
  account_id bigint NOT NULL,
  amount bigint NOT NULL,
  balance_after bigint NOT NULL,
  CONSTRAINT entries_amount_check CHECK ((amount <> 0)),
  CONSTRAINT entries_pkey PRIMARY KEY (id)
);

CREATE TABLE fairness_periods (
  product_id text NOT NULL,
  period_start bigint NOT NULL,
  period_end bigint NOT NULL,
  commitment text NOT NULL,
  secret text NOT NULL,
  model jsonb NOT NULL,
  committed_at bigint NOT NULL,
  start_seq bigint,
  start_ts bigint,
  start_log_price text,
  start_log_vol text,
  revealed_at timestamp with time zone,
  CONSTRAINT fairness_periods_check CHECK ((period_end > period_start)),
  CONSTRAINT fairness_periods_check1 CHECK ((((start_seq IS NULL) = (start_log_price IS NULL)) AND ((start_seq IS NULL) = (start_log_vol IS NULL)))),
  CONSTRAINT fairness_periods_commitment_check CHECK ((commitment ~ '^[0-9a-f]{64}$'::text)),
  CONSTRAINT fairness_periods_pkey PRIMARY KEY (product_id, period_start),
  CONSTRAINT fairness_periods_secret_check CHECK ((secret ~ '^[0-9a-f]{64}$'::text))
);

CREATE TABLE favourites (
  user_id bigint NOT NULL,
  product_id text NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT favourites_pkey PRIMARY KEY (user_id, product_id),
  CONSTRAINT favourites_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE flagged_senders (
  network text NOT NULL,
  address text NOT NULL,
  reason text NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT flagged_senders_network_check CHECK ((network = ANY (ARRAY['ERC20'::text, 'TRC20'::text]))),
  CONSTRAINT flagged_senders_pkey PRIMARY KEY (network, address)
);

CREATE TABLE highlights (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  lang text NOT NULL,
  "position" integer NOT NULL,
  icon text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  CONSTRAINT highlights_pkey PRIMARY KEY (id)
);

CREATE TABLE idempotency_keys (
  user_id bigint NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  body jsonb,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  order_id bigint,
  CONSTRAINT idempotency_keys_answer CHECK (((order_id IS NULL) OR ((body IS NULL) AND (status = 201)))),
  CONSTRAINT idempotency_keys_pkey PRIMARY KEY (user_id, key)
);

CREATE TABLE invite_codes (
  code text NOT NULL,
  owner_id bigint,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT invite_codes_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES users(id),
  CONSTRAINT invite_codes_pkey PRIMARY KEY (code)
);

CREATE TABLE kyc_submissions (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  name text NOT NULL,
  id_number text NOT NULL,
  nationality text NOT NULL,
  front_id text NOT NULL,
  back_id text NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  reason text,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  reviewed_at timestamp with time zone,
  id_number_key text GENERATED ALWAYS AS (kyc_id_number_key(id_number, nationality)) STORED,
  CONSTRAINT kyc_reviewed CHECK (((status = 'pending'::text) = (reviewed_at IS NULL))),
  CONSTRAINT kyc_submissions_back_id_fkey FOREIGN KEY (back_id) REFERENCES uploads(id),
  CONSTRAINT kyc_submissions_front_id_fkey FOREIGN KEY (front_id) REFERENCES uploads(id),
  CONSTRAINT kyc_submissions_pkey PRIMARY KEY (id),
  CONSTRAINT kyc_submissions_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'verified'::text, 'rejected'::text]))),
  CONSTRAINT kyc_submissions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE ledger_accounts (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  owner_id bigint,
  kind text NOT NULL,
  balance bigint NOT NULL DEFAULT 0,
  mode text GENERATED ALWAYS AS (
CASE
    WHEN (kind = ANY (ARRAY['practice_available'::text, 'practice_in_orders'::text, 'house_practice'::text])) THEN 'practice'::text
    ELSE 'real'::text
END) STORED,
  CONSTRAINT house_kinds CHECK (((owner_id IS NULL) = (kind = ANY (ARRAY['house_trading'::text, 'house_interest'::text, 'world'::text, 'house_practice'::text, 'house_fees'::text])))),
  CONSTRAINT ledger_accounts_kind_check CHECK ((kind = ANY (ARRAY['available'::text, 'in_orders'::text, 'withdraw_hold'::text, 'savings_pending'::text, 'savings_confirmed'::text, 'practice_available'::text, 'practice_in_orders'::text, 'house_trading'::text, 'house_interest'::text, 'world'::text, 'house_practice'::text, 'house_fees'::text]))),
  CONSTRAINT ledger_accounts_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES users(id),
  CONSTRAINT ledger_accounts_pkey PRIMARY KEY (id),
  CONSTRAINT user_balance_not_negative CHECK (((owner_id IS NULL) OR (balance >= 0)))
);

CREATE TABLE message_reads (
  user_id bigint NOT NULL,
  message_id bigint NOT NULL,
  read_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT message_reads_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages(id),
  CONSTRAINT message_reads_pkey PRIMARY KEY (user_id, message_id),
  CONSTRAINT message_reads_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE messages (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint,
  kind text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  title text,
  body text,
  read_at timestamp with time zone,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT message_broadcast_read CHECK (((user_id IS NOT NULL) OR (read_at IS NULL))),
  CONSTRAINT message_custom_text CHECK (((kind <> 'custom'::text) OR ((title IS NOT NULL) AND (body IS NOT NULL)))),
  CONSTRAINT messages_pkey PRIMARY KEY (id)
);

CREATE TABLE news (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  published_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT news_pkey PRIMARY KEY (id)
);

CREATE TABLE news_texts (
  news_id bigint NOT NULL,
  lang text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  CONSTRAINT news_texts_news_id_fkey FOREIGN KEY (news_id) REFERENCES news(id) ON DELETE CASCADE,
  CONSTRAINT news_texts_pkey PRIMARY KEY (news_id, lang)
);

CREATE TABLE operator_sessions (
  token_hash text NOT NULL,
  operator_id bigint NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  expires_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  CONSTRAINT operator_sessions_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators(id),
  CONSTRAINT operator_sessions_pkey PRIMARY KEY (token_hash)
);

CREATE TABLE operators (
  id bigint NOT NULL DEFAULT nextval('operators_id_seq'::regclass),
  name text NOT NULL,
  role text NOT NULL,
  password_hash text NOT NULL,
  totp_secret text NOT NULL,
  totp_last_step bigint NOT NULL DEFAULT 0,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  disabled_at timestamp with time zone,
  CONSTRAINT operators_pkey PRIMARY KEY (id),
  CONSTRAINT operators_role_check CHECK ((role = ANY (ARRAY['reviewer'::text, 'support'::text, 'admin'::text])))
);

CREATE TABLE ops_access_log (
  id bigint NOT NULL DEFAULT nextval('ops_access_log_id_seq'::regclass),
  at timestamp with time zone NOT NULL DEFAULT now(),
  operator_id bigint,
  operator_name text NOT NULL,
  role text NOT NULL,
  kind text NOT NULL,
  user_id bigint NOT NULL,
  upload_id text,
  address text NOT NULL,
  CONSTRAINT ops_access_log_kind_check CHECK ((kind = ANY (ARRAY['profile'::text, 'review_context'::text, 'upload'::text]))),
  CONSTRAINT ops_access_log_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators(id),
  CONSTRAINT ops_access_log_pkey PRIMARY KEY (id)
);

CREATE TABLE ops_audit (
  id bigint NOT NULL DEFAULT nextval('ops_audit_id_seq'::regclass),
  at timestamp with time zone NOT NULL DEFAULT now(),
  operator_id bigint,
  operator_name text NOT NULL,
  role text NOT NULL,
  action text NOT NULL,
  target text,
  before jsonb,
  after jsonb,
  reason text,
  address text,
  status integer NOT NULL,
  CONSTRAINT ops_audit_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators(id),
  CONSTRAINT ops_audit_pkey PRIMARY KEY (id)
);

CREATE TABLE orders (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  product_id text NOT NULL,
  direction text NOT NULL,
  amount bigint NOT NULL,
  duration integer NOT NULL,
  rate_bp integer NOT NULL,
  entry_seq bigint,
  entry_ts bigint,
  entry_price bigint,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  expires_at timestamp with time zone NOT NULL,
  expires_ms bigint NOT NULL,
  status text NOT NULL DEFAULT 'open'::text,
  exit_seq bigint,
  exit_ts bigint,
  exit_price bigint,
  payout bigint,
  settled_at timestamp with time zone,
  void_reason text,
  accepted_ms bigint NOT NULL,
  mode text NOT NULL DEFAULT 'real'::text,
  result_seen_at timestamp with time zone,
  sell_requested_ms bigint,
  sell_annual_vol double precision,
  sell_spread_bp integer,
  expiry text,
  CONSTRAINT orders_amount_check CHECK ((amount > 0)),
  CONSTRAINT orders_check CHECK (((status = 'open'::text) = (settled_at IS NULL))),
  CONSTRAINT orders_clock_expiry CHECK (((expiry IS NULL) OR (((expires_ms % (60000)::bigint) = 0) AND ((expires_ms - accepted_ms) >= 30000) AND (duration = ((expires_ms - accepted_ms) / 1000))))),
  CONSTRAINT orders_direction_check CHECK ((direction = ANY (ARRAY['up'::text, 'down'::text]))),
  CONSTRAINT orders_duration_check CHECK ((duration > 0)),
  CONSTRAINT orders_entry_unless_void CHECK (((entry_seq IS NOT NULL) OR (status = ANY (ARRAY['open'::text, 'void'::text])))),
  CONSTRAINT orders_entry_whole CHECK ((((entry_seq IS NULL) = (entry_ts IS NULL)) AND ((entry_ts IS NULL) = (entry_price IS NULL)))),
  CONSTRAINT orders_expiry_check CHECK ((expiry = ANY (ARRAY['minute_end'::text, 'next_minute_end'::text]))),
  CONSTRAINT orders_mode_check CHECK ((mode = ANY (ARRAY['real'::text, 'practice'::text]))),
  CONSTRAINT orders_pkey PRIMARY KEY (id),
  CONSTRAINT orders_rate_bp_check CHECK ((rate_bp >= 0)),
  CONSTRAINT orders_sale_whole CHECK ((((status = 'sold'::text) = (sell_requested_ms IS NOT NULL)) AND ((sell_requested_ms IS NULL) = (sell_annual_vol IS NULL)) AND ((sell_requested_ms IS NULL) = (sell_spread_bp IS NULL)) AND ((status <> 'sold'::text) OR ((exit_seq IS NOT NULL) AND (payout IS NOT NULL) AND (exit_ts < expires_ms))))),
  CONSTRAINT orders_status_check CHECK ((status = ANY (ARRAY['open'::text, 'won'::text, 'lost'::text, 'draw'::text, 'void'::text, 'sold'::text]))),
  CONSTRAINT orders_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE pages (
  slug text NOT NULL,
  lang text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT pages_pkey PRIMARY KEY (slug, lang),
  CONSTRAINT pages_slug_check CHECK ((slug ~ '^[a-z0-9-]{1,40}$'::text))
);

CREATE TABLE practice_accounts (
  user_id bigint NOT NULL,
  opened_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT practice_accounts_pkey PRIMARY KEY (user_id),
  CONSTRAINT practice_accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE price_alerts (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  product_id text NOT NULL,
  direction text NOT NULL,
  threshold bigint NOT NULL,
  created_seq bigint NOT NULL,
  scanned_seq bigint NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  fired_at timestamp with time zone,
  fired_seq bigint,
  fired_ts bigint,
  fired_price bigint,
  CONSTRAINT price_alerts_check CHECK ((scanned_seq >= created_seq)),
  CONSTRAINT price_alerts_check1 CHECK ((((fired_at IS NULL) = (fired_seq IS NULL)) AND ((fired_at IS NULL) = (fired_ts IS NULL)) AND ((fired_at IS NULL) = (fired_price IS NULL)) AND ((fired_seq IS NULL) OR (fired_seq > created_seq)))),
  CONSTRAINT price_alerts_created_seq_check CHECK ((created_seq >= 0)),
  CONSTRAINT price_alerts_direction_check CHECK ((direction = ANY (ARRAY['above'::text, 'below'::text]))),
  CONSTRAINT price_alerts_pkey PRIMARY KEY (id),
  CONSTRAINT price_alerts_threshold_check CHECK ((threshold > 0)),
  CONSTRAINT price_alerts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE product_maintenance (
  product_id text NOT NULL,
  opens_at bigint,
  since timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT product_maintenance_pkey PRIMARY KEY (product_id)
);

CREATE TABLE savings_accounts (
  user_id bigint NOT NULL,
  next_day date NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT savings_accounts_pkey PRIMARY KEY (user_id),
  CONSTRAINT savings_accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE savings_days (
  user_id bigint NOT NULL,
  day date NOT NULL,
  confirmed_amount bigint NOT NULL,
  base bigint NOT NULL,
  income bigint NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT savings_days_base_check CHECK ((base >= 0)),
  CONSTRAINT savings_days_confirmed_amount_check CHECK ((confirmed_amount >= 0)),
  CONSTRAINT savings_days_income_check CHECK ((income >= 0)),
  CONSTRAINT savings_days_pkey PRIMARY KEY (user_id, day),
  CONSTRAINT savings_days_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE savings_records (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  kind text NOT NULL,
  amount bigint NOT NULL,
  day date NOT NULL,
  at_ms bigint NOT NULL,
  transfer_id bigint NOT NULL,
  CONSTRAINT savings_records_amount_check CHECK ((amount > 0)),
  CONSTRAINT savings_records_kind_check CHECK ((kind = ANY (ARRAY['in'::text, 'out'::text, 'income'::text]))),
  CONSTRAINT savings_records_pkey PRIMARY KEY (id),
  CONSTRAINT savings_records_transfer_id_fkey FOREIGN KEY (transfer_id) REFERENCES transfers(id),
  CONSTRAINT savings_records_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE schema_migrations (
  version text NOT NULL,
  applied_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT schema_migrations_pkey PRIMARY KEY (version)
);

CREATE TABLE sessions (
  token_hash text NOT NULL,
  user_id bigint NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  last_seen_at timestamp with time zone NOT NULL DEFAULT now(),
  expires_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  user_agent text,
  ip text,
  device_hash text,
  CONSTRAINT sessions_pkey PRIMARY KEY (token_hash),
  CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE sim_lease (
  id integer NOT NULL,
  holder text NOT NULL,
  epoch bigint NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  CONSTRAINT sim_lease_id_check CHECK ((id = 1)),
  CONSTRAINT sim_lease_pkey PRIMARY KEY (id)
);

CREATE TABLE tape_watermark (
  one boolean NOT NULL DEFAULT true,
  through_ms bigint NOT NULL,
  CONSTRAINT tape_watermark_one_check CHECK (one),
  CONSTRAINT tape_watermark_pkey PRIMARY KEY (one)
);

CREATE TABLE ticks (
  product_id text NOT NULL,
  seq bigint NOT NULL,
  ts bigint NOT NULL,
  price bigint NOT NULL,
  qty bigint NOT NULL,
  CONSTRAINT ticks_pkey PRIMARY KEY (product_id, seq),
  CONSTRAINT ticks_price_check CHECK ((price > 0)),
  CONSTRAINT ticks_qty_check CHECK ((qty >= 0))
);

CREATE TABLE transfers (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  user_id bigint,
  ref text,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  mode text NOT NULL DEFAULT 'real'::text,
  CONSTRAINT transfers_mode_check CHECK ((mode = ANY (ARRAY['real'::text, 'practice'::text]))),
  CONSTRAINT transfers_pkey PRIMARY KEY (id)
);

CREATE TABLE trusted_devices (
  token_hash text NOT NULL,
  user_id bigint NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  last_seen_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT trusted_devices_pkey PRIMARY KEY (token_hash),
  CONSTRAINT trusted_devices_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE two_factor_resets (
  id bigint NOT NULL DEFAULT nextval('two_factor_resets_id_seq'::regclass),
  user_id bigint NOT NULL,
  two_factor_since timestamp with time zone NOT NULL,
  reason text NOT NULL,
  ticket text NOT NULL,
  requested_by bigint NOT NULL,
  requested_by_name text NOT NULL,
  requested_at timestamp with time zone NOT NULL,
  approved_by bigint,
  approved_by_name text,
  approved_at timestamp with time zone,
  effective_at timestamp with time zone,
  ended_at timestamp with time zone,
  outcome text,
  ended_by_name text,
  CONSTRAINT two_factor_resets_approved_by_fkey FOREIGN KEY (approved_by) REFERENCES operators(id),
  CONSTRAINT two_factor_resets_check CHECK (((ended_at IS NULL) = (outcome IS NULL))),
  CONSTRAINT two_factor_resets_check1 CHECK (((approved_by IS NULL) OR (approved_by <> requested_by))),
  CONSTRAINT two_factor_resets_outcome_check CHECK ((outcome = ANY (ARRAY['applied'::text, 'cancelled_by_user'::text, 'cancelled_by_sign_in'::text, 'cancelled_by_operator'::text]))),
  CONSTRAINT two_factor_resets_pkey PRIMARY KEY (id),
  CONSTRAINT two_factor_resets_requested_by_fkey FOREIGN KEY (requested_by) REFERENCES operators(id),
  CONSTRAINT two_factor_resets_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE uploads (
  id text NOT NULL,
  owner_id bigint NOT NULL,
  mime text NOT NULL,
  size integer NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT uploads_id_check CHECK ((id ~ '^[A-Za-z0-9_-]{22}$'::text)),
  CONSTRAINT uploads_mime_check CHECK ((mime = ANY (ARRAY['image/jpeg'::text, 'image/png'::text, 'image/webp'::text]))),
  CONSTRAINT uploads_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES users(id),
  CONSTRAINT uploads_pkey PRIMARY KEY (id),
  CONSTRAINT uploads_size_check CHECK ((size > 0))
);

CREATE TABLE user_recovery_codes (
  user_id bigint NOT NULL,
  code_hash text NOT NULL,
  used_at timestamp with time zone,
  CONSTRAINT user_recovery_codes_pkey PRIMARY KEY (user_id, code_hash),
  CONSTRAINT user_recovery_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE user_two_factor (
  user_id bigint NOT NULL,
  secret text NOT NULL,
  enabled_at timestamp with time zone,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT user_two_factor_pkey PRIMARY KEY (user_id),
  CONSTRAINT user_two_factor_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

CREATE TABLE users (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  account text NOT NULL,
  phone text NOT NULL,
  nickname text NOT NULL,
  password_hash text NOT NULL,
  trade_password_hash text NOT NULL,
  invite_code text NOT NULL,
  invited_with text NOT NULL,
  credit_score integer NOT NULL DEFAULT 100,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  frozen_at timestamp with time zone,
  frozen_reason text,
  terms_version text,
  terms_accepted_at timestamp with time zone,
  anti_phishing text,
  CONSTRAINT users_invite_code_key UNIQUE (invite_code),
  CONSTRAINT users_pkey PRIMARY KEY (id)
);

CREATE TABLE watcher_lease (
  id text NOT NULL,
  holder text NOT NULL DEFAULT ''::text,
  epoch bigint NOT NULL DEFAULT 0,
  expires_at timestamp with time zone NOT NULL DEFAULT '1970-01-01 00:00:00+00'::timestamp with time zone,
  CONSTRAINT watcher_lease_id_check CHECK ((id = ANY (ARRAY['ERC20'::text, 'TRC20'::text]))),
  CONSTRAINT watcher_lease_pkey PRIMARY KEY (id)
);

CREATE TABLE withdrawal_accounts (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  type text NOT NULL,
  holder_name text,
  nationality text,
  bank_name text,
  card_number text,
  bank_address text,
  network text,
  address text,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  branch text,
  usable_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT withdrawal_account_fields CHECK ((((type = 'bank'::text) AND (holder_name IS NOT NULL) AND (nationality IS NOT NULL) AND (bank_name IS NOT NULL) AND (card_number IS NOT NULL) AND (network IS NULL) AND (address IS NULL)) OR ((type = 'coin'::text) AND (network IS NOT NULL) AND (address IS NOT NULL) AND (card_number IS NULL)))),
  CONSTRAINT withdrawal_accounts_network_check CHECK ((network = ANY (ARRAY['TRC20'::text, 'ERC20'::text]))),
  CONSTRAINT withdrawal_accounts_pkey PRIMARY KEY (id),
  CONSTRAINT withdrawal_accounts_type_check CHECK ((type = ANY (ARRAY['bank'::text, 'coin'::text]))),
  CONSTRAINT withdrawal_accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

CREATE TABLE withdrawals (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  user_id bigint NOT NULL,
  account_id bigint NOT NULL,
  amount bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending'::text,
  reason text,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  reviewed_at timestamp with time zone,
  fee bigint NOT NULL DEFAULT 0,
  CONSTRAINT withdrawal_reviewed CHECK (((status = 'pending'::text) = (reviewed_at IS NULL))),
  CONSTRAINT withdrawals_account_id_fkey FOREIGN KEY (account_id) REFERENCES withdrawal_accounts(id),
  CONSTRAINT withdrawals_amount_check CHECK ((amount > 0)),
  CONSTRAINT withdrawals_check CHECK (((fee >= 0) AND (fee < amount))),
  CONSTRAINT withdrawals_pkey PRIMARY KEY (id),
  CONSTRAINT withdrawals_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'success'::text, 'failed'::text]))),
  CONSTRAINT withdrawals_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

-- Indexes

CREATE INDEX banners_lang ON public.banners USING btree (lang, "position");

CREATE UNIQUE INDEX chart_drawings_same ON public.chart_drawings USING btree (user_id, product_id, kind, t1, p1, COALESCE(t2, (0)::bigint), COALESCE(p2, (0)::numeric));

CREATE INDEX deposits_confirming ON public.deposits USING btree (channel, block_number) WHERE (status = 'confirming'::text);

CREATE UNIQUE INDEX deposits_resubmitted_once ON public.deposits USING btree (resubmitted_from) WHERE (resubmitted_from IS NOT NULL);

CREATE INDEX deposits_status ON public.deposits USING btree (status, id);

CREATE UNIQUE INDEX deposits_transfer_live ON public.deposits USING btree (tx_hash, COALESCE(log_index, '-1'::integer)) WHERE ((tx_hash IS NOT NULL) AND (status = ANY (ARRAY['confirming'::text, 'pending'::text, 'approved'::text])));

CREATE UNIQUE INDEX deposits_tx_hash_claim_live ON public.deposits USING btree (tx_hash) WHERE ((tx_hash IS NOT NULL) AND (log_index IS NULL) AND (status = ANY (ARRAY['pending'::text, 'approved'::text])));

CREATE INDEX deposits_user ON public.deposits USING btree (user_id, id);

CREATE INDEX entries_account ON public.entries USING btree (account_id, id);

CREATE INDEX fairness_periods_unrevealed ON public.fairness_periods USING btree (period_end) WHERE (revealed_at IS NULL);

CREATE INDEX highlights_lang ON public.highlights USING btree (lang, "position");

CREATE INDEX idempotency_keys_created ON public.idempotency_keys USING btree (created_at);

CREATE INDEX kyc_submissions_id_number_key ON public.kyc_submissions USING btree (id_number_key) WHERE (status = ANY (ARRAY['pending'::text, 'verified'::text]));

CREATE UNIQUE INDEX kyc_submissions_one_open ON public.kyc_submissions USING btree (user_id) WHERE (status = ANY (ARRAY['pending'::text, 'verified'::text]));

CREATE INDEX kyc_submissions_status ON public.kyc_submissions USING btree (status, id);

CREATE INDEX kyc_submissions_user ON public.kyc_submissions USING btree (user_id, id);

CREATE UNIQUE INDEX ledger_accounts_house_kind ON public.ledger_accounts USING btree (kind) WHERE (owner_id IS NULL);

CREATE UNIQUE INDEX ledger_accounts_user_kind ON public.ledger_accounts USING btree (owner_id, kind) WHERE (owner_id IS NOT NULL);

CREATE INDEX messages_broadcast ON public.messages USING btree (id) WHERE (user_id IS NULL);

CREATE INDEX messages_broadcast_time ON public.messages USING btree (created_at) WHERE (user_id IS NULL);

CREATE INDEX messages_user ON public.messages USING btree (user_id, id) WHERE (user_id IS NOT NULL);

CREATE INDEX messages_user_unread ON public.messages USING btree (user_id) WHERE ((user_id IS NOT NULL) AND (read_at IS NULL));

CREATE INDEX operator_sessions_operator ON public.operator_sessions USING btree (operator_id);

CREATE UNIQUE INDEX operators_name_key ON public.operators USING btree (lower(name));

CREATE INDEX ops_access_log_operator ON public.ops_access_log USING btree (lower(operator_name), id DESC);

CREATE INDEX ops_access_log_user ON public.ops_access_log USING btree (user_id, id DESC);

CREATE INDEX ops_audit_at ON public.ops_audit USING btree (at DESC);

CREATE INDEX ops_audit_operator ON public.ops_audit USING btree (operator_id, at DESC);

CREATE INDEX orders_awaiting_entry ON public.orders USING btree (created_at) WHERE ((status = 'open'::text) AND (entry_seq IS NULL));

CREATE INDEX orders_created ON public.orders USING btree (created_at);

CREATE INDEX orders_due ON public.orders USING btree (expires_at, user_id) WHERE (status = 'open'::text);

CREATE INDEX orders_open_mode ON public.orders USING btree (mode, product_id) WHERE (status = 'open'::text);

CREATE INDEX orders_settled ON public.orders USING btree (settled_at) WHERE (settled_at IS NOT NULL);

CREATE INDEX orders_unseen_results ON public.orders USING btree (user_id, settled_at DESC) WHERE ((settled_at IS NOT NULL) AND (result_seen_at IS NULL));

CREATE INDEX orders_user_mode ON public.orders USING btree (user_id, mode, id DESC);

CREATE INDEX price_alerts_pending ON public.price_alerts USING btree (product_id, id) WHERE (fired_at IS NULL);

CREATE INDEX price_alerts_user ON public.price_alerts USING btree (user_id, id);

CREATE INDEX savings_accounts_due ON public.savings_accounts USING btree (next_day);

CREATE INDEX savings_records_user ON public.savings_records USING btree (user_id, id DESC);

CREATE INDEX savings_records_user_day ON public.savings_records USING btree (user_id, day, kind);

CREATE INDEX sessions_user ON public.sessions USING btree (user_id);

CREATE INDEX ticks_product_ts ON public.ticks USING btree (product_id, ts);

CREATE UNIQUE INDEX transfers_order_settlement ON public.transfers USING btree (ref) WHERE (kind = ANY (ARRAY['order_payout'::text, 'order_refund'::text, 'order_loss'::text, 'order_sale'::text]));

CREATE UNIQUE INDEX transfers_savings_day ON public.transfers USING btree (ref) WHERE (kind = ANY (ARRAY['savings_confirm'::text, 'savings_income'::text]));

CREATE INDEX transfers_user ON public.transfers USING btree (user_id, id);

CREATE INDEX trusted_devices_user ON public.trusted_devices USING btree (user_id);

CREATE INDEX two_factor_resets_due ON public.two_factor_resets USING btree (effective_at) WHERE ((ended_at IS NULL) AND (effective_at IS NOT NULL));

CREATE UNIQUE INDEX two_factor_resets_pending ON public.two_factor_resets USING btree (user_id) WHERE (ended_at IS NULL);

CREATE INDEX uploads_owner ON public.uploads USING btree (owner_id);

CREATE UNIQUE INDEX users_account_lower ON public.users USING btree (lower(account));

CREATE UNIQUE INDEX withdrawal_accounts_one_per_type ON public.withdrawal_accounts USING btree (user_id, type);

CREATE INDEX withdrawals_status ON public.withdrawals USING btree (status, id);

CREATE INDEX withdrawals_user ON public.withdrawals USING btree (user_id, id);

-- Functions

CREATE OR REPLACE FUNCTION public.fairness_periods_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'fairness_periods: periods are kept' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.product_id <> OLD.product_id OR NEW.period_start <> OLD.period_start
     OR NEW.period_end <> OLD.period_end OR NEW.commitment <> OLD.commitment
     OR NEW.secret <> OLD.secret OR NEW.model <> OLD.model OR NEW.committed_at <> OLD.committed_at
     OR (OLD.start_seq IS NOT NULL AND (NEW.start_seq IS DISTINCT FROM OLD.start_seq
         OR NEW.start_ts IS DISTINCT FROM OLD.start_ts
         OR NEW.start_log_price IS DISTINCT FROM OLD.start_log_price
         OR NEW.start_log_vol IS DISTINCT FROM OLD.start_log_vol))
     OR (OLD.revealed_at IS NOT NULL AND NEW.revealed_at IS DISTINCT FROM OLD.revealed_at) THEN
    RAISE EXCEPTION 'fairness_periods: a commitment and its period start cannot change'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE FUNCTION public.kyc_id_number_key(id_number text, nationality text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  SELECT CASE
    WHEN nationality = 'CN' AND n ~ '^[0-9]{15}$' THEN
      b || substr('10X98765432', 1 + (
        SELECT sum(substr(b, i, 1)::int * w[i]) FROM generate_series(1, 17) AS i
      )::int % 11, 1)
    ELSE n
  END
  FROM (SELECT upper(regexp_replace(id_number, '[[:space:]-]', '', 'g')) AS n) AS x,
  LATERAL (
    SELECT substr(n, 1, 6) || '19' || substr(n, 7) AS b,
      ARRAY[7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] AS w
  ) AS y
$function$;

CREATE OR REPLACE FUNCTION public.ledger_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger: % is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0019';
END $function$;

CREATE OR REPLACE FUNCTION public.ledger_entries_same_mode()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  bad record;
BEGIN
  SELECT x.transfer_id, x.transfer_mode, x.account_id, x.account_mode INTO bad
    FROM (SELECT e.transfer_id, e.account_id,
                 (SELECT t.mode FROM transfers t WHERE t.id = e.transfer_id) AS transfer_mode,
                 (SELECT a.mode FROM ledger_accounts a WHERE a.id = e.account_id) AS account_mode
            FROM written e) x
   -- NULL (a row missing) or false (modes differ); each lookup named once, so it runs once.
   WHERE (x.transfer_mode = x.account_mode) IS NOT TRUE
   LIMIT 1;
  IF FOUND AND (bad.transfer_mode IS NULL OR bad.account_mode IS NULL) THEN
    RAISE EXCEPTION 'ledger: entry of transfer % on account %: no such %', bad.transfer_id,
      bad.account_id, CASE WHEN bad.transfer_mode IS NULL THEN 'transfer' ELSE 'account' END
      USING ERRCODE = '23503';
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger: transfer % is % money, account % is %: practice and real money never mix',
      bad.transfer_id, bad.transfer_mode, bad.account_id, bad.account_mode
      USING ERRCODE = 'P0019';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.ledger_mode_fixed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger: the mode of % % is fixed', TG_TABLE_NAME, OLD.id USING ERRCODE = 'P0019';
END $function$;

CREATE OR REPLACE FUNCTION public.ledger_transfer(p_kind text[], p_user bigint[], p_ref text[], p_mode text[], p_ord integer[], p_owner bigint[], p_account_kind text[], p_amount bigint[], p_user_kinds text[])
 RETURNS TABLE(ord integer, transfer_id bigint)
 LANGUAGE plpgsql
AS $function$
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
END $function$;

CREATE OR REPLACE FUNCTION public.ops_access_log_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ops_access_log is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$function$;

CREATE OR REPLACE FUNCTION public.ops_audit_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ops_audit is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$function$;

-- Triggers

CREATE TRIGGER entries_same_mode_insert AFTER INSERT ON public.entries REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_same_mode();

CREATE TRIGGER entries_same_mode_update AFTER UPDATE ON public.entries REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_same_mode();

CREATE TRIGGER fairness_periods_immutable BEFORE DELETE OR UPDATE ON public.fairness_periods FOR EACH ROW EXECUTE FUNCTION fairness_periods_immutable();

CREATE TRIGGER ledger_accounts_id_fixed BEFORE UPDATE OF id ON public.ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER ledger_accounts_kind_fixed BEFORE UPDATE OF kind, owner_id ON public.ledger_accounts FOR EACH ROW WHEN (((old.kind IS DISTINCT FROM new.kind) OR (old.owner_id IS DISTINCT FROM new.owner_id))) EXECUTE FUNCTION ledger_mode_fixed();

CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON public.ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON public.ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER ops_access_log_no_truncate BEFORE TRUNCATE ON public.ops_access_log FOR EACH STATEMENT EXECUTE FUNCTION ops_access_log_append_only();

CREATE TRIGGER ops_access_log_no_update_delete BEFORE DELETE OR UPDATE ON public.ops_access_log FOR EACH ROW EXECUTE FUNCTION ops_access_log_append_only();

CREATE TRIGGER ops_audit_no_truncate BEFORE TRUNCATE ON public.ops_audit FOR EACH STATEMENT EXECUTE FUNCTION ops_audit_append_only();

CREATE TRIGGER ops_audit_no_update_delete BEFORE DELETE OR UPDATE ON public.ops_audit FOR EACH ROW EXECUTE FUNCTION ops_audit_append_only();

CREATE TRIGGER transfers_id_fixed BEFORE UPDATE OF id ON public.transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER transfers_mode_fixed BEFORE UPDATE OF mode ON public.transfers FOR EACH ROW WHEN ((old.mode IS DISTINCT FROM new.mode)) EXECUTE FUNCTION ledger_mode_fixed();

CREATE TRIGGER transfers_no_delete BEFORE DELETE ON public.transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER transfers_no_truncate BEFORE TRUNCATE ON public.transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
