-- Content (issue 9): text pages, news, Home banners and highlights, system messages.
-- Language codes are those of shared/src/languages.ts; a missing language falls back to zh-CN.

-- About us, privacy and the rules pages: one text per slug and language.
CREATE TABLE pages (
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9-]{1,40}$'),
  lang text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (slug, lang)
);

-- A news item, and its title and body per language (any subset of the ten).
CREATE TABLE news (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE news_texts (
  news_id bigint NOT NULL REFERENCES news (id) ON DELETE CASCADE,
  lang text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (news_id, lang)
);

-- Home's carousel and platform highlights: a set per language, shown in `position` order.
CREATE TABLE banners (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lang text NOT NULL,
  position integer NOT NULL,
  title text NOT NULL,
  subtitle text NOT NULL DEFAULT '',
  link text CHECK (link ~ '^/pages/'),
  theme text NOT NULL DEFAULT 'blue'
);
CREATE INDEX banners_lang ON banners (lang, position);
CREATE TABLE highlights (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lang text NOT NULL,
  position integer NOT NULL,
  icon text NOT NULL,
  title text NOT NULL,
  body text NOT NULL
);
CREATE INDEX highlights_lang ON highlights (lang, position);

-- System messages. `user_id` null is a broadcast: one row for every user, never copied per user.
-- A system message is a kind plus parameters (the client words it in the reader's language);
-- `custom` carries an operator's title and body.
CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint REFERENCES users (id),
  kind text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  title text,
  body text,
  -- Read state of a user's own message; broadcasts keep theirs in message_reads.
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT message_custom_text CHECK (kind <> 'custom' OR (title IS NOT NULL AND body IS NOT NULL)),
  CONSTRAINT message_broadcast_read CHECK (user_id IS NOT NULL OR read_at IS NULL)
);
CREATE INDEX messages_user ON messages (user_id, id) WHERE user_id IS NOT NULL;
-- Unread own messages: the count reads only these index entries.
CREATE INDEX messages_user_unread ON messages (user_id) WHERE user_id IS NOT NULL AND read_at IS NULL;
CREATE INDEX messages_broadcast ON messages (id) WHERE user_id IS NULL;
CREATE INDEX messages_broadcast_time ON messages (created_at) WHERE user_id IS NULL;

-- Which broadcasts a user has read: a row per (user, broadcast) read, written only when read.
-- Unread broadcasts = broadcasts since the user registered − this user's rows here.
CREATE TABLE message_reads (
  user_id bigint NOT NULL REFERENCES users (id),
  message_id bigint NOT NULL REFERENCES messages (id),
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, message_id)
);
