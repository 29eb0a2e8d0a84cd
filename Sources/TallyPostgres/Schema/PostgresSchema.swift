/// The PostgreSQL store's schema as forward migrations, versioned like the SQLite store's (``TallyServer``'s
/// `StoreSchema`): migration `n` (1-based) takes `tally_schema.version` from `n - 1` to `n`, inside one
/// transaction. Append new migrations; never edit a released one.
///
/// Ids (customers, transactions, chains, tokens, spends, currencies, notifications) are `bytea`: stored,
/// compared and ordered as their exact UTF-8 bytes (a NUL byte included), as the SQLite store compares them.
/// Amounts are `numeric` (exact); dates are milliseconds since 1970 (`bigint`).
enum PostgresSchema {
    /// Each migration is one script of statements without parameters.
    static let migrations: [String] = [
        // 1: everything the SQLite store holds after its fourth migration.
        """
        CREATE TABLE customers (
            app_user_id bytea PRIMARY KEY,
            version bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE chains (
            original_transaction_id bytea PRIMARY KEY,
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id)
        );
        CREATE INDEX chains_by_customer ON chains(app_user_id);
        CREATE TABLE account_tokens (
            app_account_token bytea PRIMARY KEY,
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id)
        );
        CREATE TABLE transactions (
            transaction_id bytea PRIMARY KEY,
            original_transaction_id bytea NOT NULL REFERENCES chains(original_transaction_id),
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            app_account_token bytea,
            source text NOT NULL,
            payload text NOT NULL,
            signed_transaction bytea,
            signed_date_ms bigint,
            revoked boolean NOT NULL,
            product_type text NOT NULL,
            consumable boolean NOT NULL,
            updated_at bigint NOT NULL
        );
        CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable);
        CREATE INDEX transactions_by_chain ON transactions(original_transaction_id);
        CREATE INDEX transactions_by_token ON transactions(app_account_token, app_user_id);
        CREATE TABLE spends (
            sequence bigserial PRIMARY KEY,
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            spend_id bytea NOT NULL,
            currency bytea NOT NULL,
            amount numeric NOT NULL,
            date_ms bigint NOT NULL,
            UNIQUE (app_user_id, spend_id)
        );
        CREATE TABLE transfers (
            sequence bigserial PRIMARY KEY,
            original_transaction_id bytea NOT NULL,
            from_app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            to_app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            date_ms bigint NOT NULL
        );
        CREATE INDEX transfers_from ON transfers(from_app_user_id);
        CREATE INDEX transfers_to ON transfers(to_app_user_id);
        CREATE TABLE balances (
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            currency bytea NOT NULL,
            net numeric NOT NULL,
            PRIMARY KEY (app_user_id, currency)
        );
        CREATE TABLE store_settings (
            name text PRIMARY KEY,
            value text NOT NULL
        );
        CREATE TABLE renewal_infos (
            original_transaction_id bytea PRIMARY KEY,
            payload text NOT NULL,
            signed_renewal_info bytea,
            updated_at bigint NOT NULL
        );
        CREATE TABLE notifications (
            sequence bigserial PRIMARY KEY,
            notification_uuid bytea NOT NULL UNIQUE,
            notification_type text NOT NULL,
            subtype text,
            signed_date_ms bigint NOT NULL,
            original_transaction_id bytea,
            app_account_token bytea,
            app_user_id bytea REFERENCES customers(app_user_id),
            result text NOT NULL,
            signed_payload bytea NOT NULL,
            transaction_payload text,
            signed_transaction bytea,
            renewal_payload text,
            signed_renewal_info bytea,
            received_at bigint NOT NULL,
            applied_at bigint
        );
        CREATE INDEX notifications_by_customer ON notifications(app_user_id);
        CREATE INDEX notifications_pending ON notifications(original_transaction_id, received_at) WHERE result = 'pending';
        CREATE TABLE history_revisions (
            app_user_id bytea PRIMARY KEY REFERENCES customers(app_user_id),
            revision text NOT NULL,
            updated_at bigint NOT NULL
        );
        """,
        // 2: what the server did about each CONSUMPTION_REQUEST (the SQLite store's fifth migration).
        """
        CREATE TABLE consumption_answers (
            notification_uuid bytea PRIMARY KEY REFERENCES notifications(notification_uuid),
            transaction_id bytea NOT NULL,
            status text NOT NULL,
            body text,
            detail text,
            answered_at bigint NOT NULL
        );
        CREATE INDEX notifications_consumption_requests ON notifications(received_at)
            WHERE notification_type = 'CONSUMPTION_REQUEST';
        """,
        // 3: the dashboard (the SQLite store's sixth migration): when each customer was first seen (existing ones:
        // their earliest stored transaction's write, else now; new rows: the inserting transaction's time), and the
        // payload fields the dashboard's SQL aggregates as plain columns written beside the payload (PostgreSQL's
        // JSON functions refuse a payload holding `\u0000`, which an id may contain), with indexes over them.
        // Rows whose payload has no `\u0000` are filled here; the rest by ``PostgresConnection/fillDashboardColumns()``
        // in the same transaction.
        """
        ALTER TABLE customers ADD COLUMN first_seen_at bigint;
        UPDATE customers SET first_seen_at = coalesce(
            (SELECT min(updated_at) FROM transactions t WHERE t.app_user_id = customers.app_user_id),
            (extract(epoch FROM now()) * 1000)::bigint);
        ALTER TABLE customers ALTER COLUMN first_seen_at SET DEFAULT (extract(epoch FROM now()) * 1000)::bigint,
            ALTER COLUMN first_seen_at SET NOT NULL;
        CREATE INDEX customers_by_first_seen ON customers(first_seen_at);
        ALTER TABLE transactions ADD COLUMN product_id bytea, ADD COLUMN purchase_ms bigint, ADD COLUMN expires_ms bigint,
            ADD COLUMN revocation_ms bigint, ADD COLUMN price bigint, ADD COLUMN currency bytea,
            ADD COLUMN offer_type integer, ADD COLUMN is_upgraded boolean NOT NULL DEFAULT false;
        UPDATE transactions SET product_id = convert_to(p.j ->> 'productId', 'UTF8'),
            purchase_ms = (p.j ->> 'purchaseDate')::bigint, expires_ms = (p.j ->> 'expiresDate')::bigint,
            revocation_ms = (p.j ->> 'revocationDate')::bigint, price = (p.j ->> 'price')::bigint,
            currency = convert_to(p.j ->> 'currency', 'UTF8'), offer_type = (p.j ->> 'offerType')::integer,
            is_upgraded = coalesce((p.j ->> 'isUpgraded')::boolean, false)
        FROM (SELECT transaction_id AS id, payload::json AS j FROM transactions
              WHERE strpos(payload, '\\u0000') = 0) AS p
        WHERE transactions.transaction_id = p.id;
        ALTER TABLE renewal_infos ADD COLUMN in_billing_retry boolean NOT NULL DEFAULT false,
            ADD COLUMN grace_expires_ms bigint;
        UPDATE renewal_infos SET in_billing_retry = coalesce((p.j ->> 'isInBillingRetryPeriod')::boolean, false),
            grace_expires_ms = (p.j ->> 'gracePeriodExpiresDate')::bigint
        FROM (SELECT original_transaction_id AS id, payload::json AS j FROM renewal_infos
              WHERE strpos(payload, '\\u0000') = 0) AS p
        WHERE renewal_infos.original_transaction_id = p.id;
        CREATE INDEX renewal_infos_in_billing_retry ON renewal_infos(original_transaction_id, grace_expires_ms)
            WHERE in_billing_retry;
        CREATE INDEX transactions_by_purchase ON transactions(purchase_ms, transaction_id) INCLUDE (currency, price);
        CREATE INDEX transactions_by_revocation ON transactions(revocation_ms) INCLUDE (currency, price)
            WHERE revocation_ms IS NOT NULL;
        CREATE INDEX transactions_live ON transactions(expires_ms)
            INCLUDE (purchase_ms, revocation_ms, is_upgraded, product_id, offer_type, original_transaction_id)
            WHERE product_type = 'Auto-Renewable Subscription';
        CREATE INDEX transactions_by_product ON transactions(product_id, purchase_ms, transaction_id);
        """,
        // 4: each customer's encoded state, kept beside its row at the version it was computed from
        // (``PostgresCustomerStore/storedState(of:fingerprint:at:)``); a write changes `version`, which leaves it unused.
        """
        ALTER TABLE customers ADD COLUMN state_version bigint, ADD COLUMN state_fingerprint text,
            ADD COLUMN state_from_ms bigint, ADD COLUMN state_until_ms bigint, ADD COLUMN state_body text;
        """,
        // 5: the version at which each customer's facts (everything a state reads besides the nets) last changed
        // (TallyServer's `CustomerRecord/factsVersion`, the SQLite store's seventh migration): writes that move only
        // the nets leave it, so a state held at it is restated with the nets instead of computed.
        """
        ALTER TABLE customers ADD COLUMN facts_version bigint NOT NULL DEFAULT 0;
        UPDATE customers SET facts_version = version;
        """,
        // 6: subscription periods a state need not read (TallyCore's `PeriodSupersession`, the SQLite store's eighth
        // migration): from when each transaction is superseded (the largest bigint when it is not) and by which,
        // kept by the recorder; the state's index reads only the rows not superseded by the time asked.
        """
        ALTER TABLE transactions ADD COLUMN superseded_from_ms bigint NOT NULL DEFAULT 9223372036854775807,
            ADD COLUMN superseded_by bytea;
        DROP INDEX transactions_for_state;
        CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable, superseded_from_ms);
        CREATE INDEX transactions_by_superseder ON transactions(superseded_by) WHERE superseded_by IS NOT NULL;
        """,
        // 7: the account-token index keeps only rows that carry a token (every query on it names one), so a
        // write without one adds no index row (the SQLite store's ninth migration).
        """
        DROP INDEX IF EXISTS transactions_by_token;
        CREATE INDEX transactions_by_token ON transactions(app_account_token, app_user_id)
            WHERE app_account_token IS NOT NULL;
        """,
        // 8: transfers bounded per chain (the SQLite store's tenth migration): a move back between two customers
        // who swapped the chain within the hour rewrites their row and counts it in `moves`.
        """
        ALTER TABLE transfers ADD COLUMN moves bigint NOT NULL DEFAULT 1;
        CREATE INDEX transfers_by_chain ON transfers(original_transaction_id, date_ms);
        """,
        // 9: account tokens are minted by the server, one per customer (the SQLite store's eleventh migration): the
        // rows given before to whoever posted a token first, with no proof, are dropped; chains keep their owners.
        """
        DELETE FROM account_tokens;
        CREATE UNIQUE INDEX IF NOT EXISTS account_tokens_by_customer ON account_tokens(app_user_id);
        """,
        // 10: the offerings document (the SQLite store's twelfth migration): every saved version is kept, the
        // newest is live; a save names the version it follows, so two servers saving at once cannot both win.
        """
        CREATE TABLE IF NOT EXISTS offerings_versions (
            version bigint PRIMARY KEY,
            document bytea NOT NULL,
            saved_ms bigint NOT NULL,
            origin text NOT NULL,
            rolled_back_to bigint
        );
        """,
        // 11: customers from anonymous to identified (the SQLite store's thirteenth migration): an anonymous id aliased
        // to the identified customer its purchases moved to (for good), and each customer's attributes.
        """
        CREATE TABLE IF NOT EXISTS aliases (
            alias bytea PRIMARY KEY,
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            created_ms bigint NOT NULL
        );
        CREATE INDEX IF NOT EXISTS aliases_by_customer ON aliases(app_user_id, created_ms);
        CREATE TABLE IF NOT EXISTS attributes (
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            key bytea NOT NULL,
            value bytea NOT NULL,
            PRIMARY KEY (app_user_id, key)
        );
        """,
        // 12: promotional offer signatures issued per customer and offer (the SQLite store's fourteenth migration).
        """
        CREATE TABLE IF NOT EXISTS offer_signatures (
            app_user_id bytea NOT NULL REFERENCES customers(app_user_id),
            offer_identifier bytea NOT NULL,
            issued bigint NOT NULL,
            PRIMARY KEY (app_user_id, offer_identifier)
        );
        """,
        // 13: the dashboard's offers (the SQLite store's fifteenth migration): the offer's identifier, its discount
        // type and the environment as plain columns written beside the payload by every transaction write, filled
        // here for the stored transactions bought with an offer (the only rows they are read from; payloads holding
        // `\u0000` by ``PostgresConnection/fillOfferColumns()``), and a partial index of those rows.
        """
        ALTER TABLE transactions ADD COLUMN IF NOT EXISTS offer_identifier bytea,
            ADD COLUMN IF NOT EXISTS offer_discount_type text, ADD COLUMN IF NOT EXISTS environment text;
        UPDATE transactions SET offer_identifier = convert_to(p.j ->> 'offerIdentifier', 'UTF8'),
            offer_discount_type = p.j ->> 'offerDiscountType', environment = p.j ->> 'environment'
        FROM (SELECT transaction_id AS id, payload::json AS j FROM transactions
              WHERE offer_type IS NOT NULL AND strpos(payload, '\\u0000') = 0) AS p
        WHERE transactions.transaction_id = p.id;
        CREATE INDEX IF NOT EXISTS transactions_by_offer ON transactions(purchase_ms, transaction_id)
            INCLUDE (offer_type, offer_identifier) WHERE offer_type IS NOT NULL;
        """,
        // 14: the webhook outbox (the SQLite store's sixteenth migration): each event written in the transaction that
        // made it, one delivery per endpoint with its attempts, next attempt, lease (servers sharing the outbox
        // claim with `FOR UPDATE SKIP LOCKED`; a lease ends when its server died mid-send) and last result.
        """
        CREATE TABLE IF NOT EXISTS webhook_events (
            sequence bigserial PRIMARY KEY,
            event_id text NOT NULL UNIQUE,
            type text NOT NULL,
            app_user_id bytea NOT NULL,
            created_ms bigint NOT NULL,
            body text NOT NULL
        );
        CREATE INDEX IF NOT EXISTS webhook_events_by_date ON webhook_events(created_ms);
        CREATE TABLE IF NOT EXISTS webhook_deliveries (
            sequence bigint NOT NULL REFERENCES webhook_events(sequence),
            endpoint text NOT NULL,
            app_user_id bytea NOT NULL,
            state text NOT NULL,
            attempts integer NOT NULL DEFAULT 0,
            next_attempt_ms bigint NOT NULL,
            lease_until_ms bigint NOT NULL DEFAULT 0,
            lease_token text,
            last_status integer,
            last_error text,
            delivered_ms bigint,
            PRIMARY KEY (endpoint, sequence)
        );
        CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(next_attempt_ms)
            WHERE state = 'pending';
        CREATE INDEX IF NOT EXISTS webhook_deliveries_in_order ON webhook_deliveries(endpoint, app_user_id, sequence)
            WHERE state = 'pending';
        """,
    ]

    /// The migration that adds the dashboard's columns (filled for `\u0000` payloads by Swift code after its script).
    static let dashboardColumnsVersion = 3

    /// The migration that adds the offer columns (filled for `\u0000` payloads by Swift code after its script).
    static let offerColumnsVersion = 13

    /// The schema version this code writes.
    static var currentVersion: Int { migrations.count }

    /// The key of the transaction advisory lock every server takes in each migration and in the balance rebuild, so
    /// servers starting together migrate once (`pg_advisory_xact_lock(bigint)`; the per-chain locks use the two-`int`
    /// form, another key space).
    static let migrationLockKey: Int64 = 0x7461_6C6C_795F_6D67  // "tally_mg"
}
