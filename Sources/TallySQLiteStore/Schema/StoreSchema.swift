/// The customer store's schema as forward migrations: migration `n` (1-based) takes `PRAGMA user_version`
/// from `n - 1` to `n`. Append new migrations; never edit a released one.
enum StoreSchema {
    /// Each migration is a list of single statements, run in order inside one transaction.
    static let migrations: [[String]] = [
        // 1: customers, chains and account tokens with their owners, transactions, spends, transfers.
        [
            """
            CREATE TABLE customers (
                app_user_id TEXT PRIMARY KEY NOT NULL,
                version INTEGER NOT NULL DEFAULT 0
            )
            """,
            """
            CREATE TABLE chains (
                original_transaction_id TEXT PRIMARY KEY NOT NULL,
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id)
            )
            """,
            "CREATE INDEX chains_by_customer ON chains(app_user_id)",
            """
            CREATE TABLE account_tokens (
                app_account_token TEXT PRIMARY KEY NOT NULL,
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id)
            )
            """,
            """
            CREATE TABLE transactions (
                transaction_id TEXT PRIMARY KEY NOT NULL,
                original_transaction_id TEXT NOT NULL REFERENCES chains(original_transaction_id),
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                app_account_token TEXT,
                source TEXT NOT NULL,
                payload TEXT NOT NULL,
                signed_transaction TEXT,
                updated_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX transactions_by_customer ON transactions(app_user_id)",
            "CREATE INDEX transactions_by_chain ON transactions(original_transaction_id)",
            "CREATE INDEX transactions_by_token ON transactions(app_account_token, app_user_id)",
            """
            CREATE TABLE spends (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                spend_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                amount TEXT NOT NULL,
                date_ms INTEGER NOT NULL,
                UNIQUE (app_user_id, spend_id)
            )
            """,
            """
            CREATE TABLE transfers (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                original_transaction_id TEXT NOT NULL,
                from_app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                to_app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                date_ms INTEGER NOT NULL
            )
            """,
            "CREATE INDEX transfers_from ON transfers(from_app_user_id)",
            "CREATE INDEX transfers_to ON transfers(to_app_user_id)",
        ],
        // 2: balances kept materialised (the net per customer and currency, exact decimal text), so a spend
        // and a state read do not replay the ledger; consumables flagged, so a state read skips them; store
        // settings (the fingerprint of the credits the balances were built with). Balances are filled at open.
        [
            """
            CREATE TABLE balances (
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                currency TEXT NOT NULL,
                net TEXT NOT NULL,
                PRIMARY KEY (app_user_id, currency)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE store_settings (
                name TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            ) WITHOUT ROWID
            """,
            "ALTER TABLE transactions ADD COLUMN consumable INTEGER NOT NULL DEFAULT 0",
            "UPDATE transactions SET consumable = (json_extract(payload, '$.type') IS 'Consumable')",
            "CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable)",
        ],
        // 3: App Store Server Notifications (the raw signed payload kept, with the decoded transaction and
        // renewal info so an unowned one can be applied when its chain is adopted), and renewal info per
        // subscription chain (newer `signedDate` wins; its owner is the chain's).
        [
            """
            CREATE TABLE renewal_infos (
                original_transaction_id TEXT PRIMARY KEY NOT NULL,
                payload TEXT NOT NULL,
                signed_renewal_info TEXT,
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE notifications (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                notification_uuid TEXT NOT NULL UNIQUE,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                signed_date_ms INTEGER NOT NULL,
                original_transaction_id TEXT,
                app_account_token TEXT,
                app_user_id TEXT REFERENCES customers(app_user_id),
                result TEXT NOT NULL,
                signed_payload TEXT NOT NULL,
                transaction_payload TEXT,
                signed_transaction TEXT,
                renewal_payload TEXT,
                signed_renewal_info TEXT,
                received_at INTEGER NOT NULL,
                applied_at INTEGER
            )
            """,
            "CREATE INDEX notifications_by_customer ON notifications(app_user_id)",
            "CREATE INDEX notifications_pending ON notifications(original_transaction_id, received_at) WHERE result = 'pending'",
        ],
        // 4: the App Store Server API's transaction-history revision reached per customer (reconciliation's cursor).
        [
            """
            CREATE TABLE history_revisions (
                app_user_id TEXT PRIMARY KEY NOT NULL REFERENCES customers(app_user_id),
                revision TEXT NOT NULL,
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
        ],
        // 5: what the server did about each CONSUMPTION_REQUEST (Send Consumption Information sent, refused,
        // skipped or expired), so each is answered once; the transaction id of a notification, indexed.
        [
            """
            CREATE TABLE consumption_answers (
                notification_uuid TEXT PRIMARY KEY NOT NULL REFERENCES notifications(notification_uuid),
                transaction_id TEXT NOT NULL,
                status TEXT NOT NULL,
                body TEXT,
                detail TEXT,
                answered_at INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE INDEX notifications_consumption_requests ON notifications(received_at)
            WHERE notification_type = 'CONSUMPTION_REQUEST'
            """,
        ],
        // 6: the dashboard (docs/server.md, *Dashboard*): when each customer was first seen (existing customers:
        // their earliest stored transaction's write, else the migration's time); the payload fields its SQL
        // aggregates as virtual generated columns (computed from `payload`, nothing stored in the table; no write
        // path changes), with covering indexes over them — purchase and revocation days, live subscriptions,
        // product lists.
        [
            "ALTER TABLE customers ADD COLUMN first_seen_at INTEGER",
            """
            UPDATE customers SET first_seen_at = coalesce(
                (SELECT min(updated_at) FROM transactions WHERE transactions.app_user_id = customers.app_user_id),
                CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
            """,
            "CREATE INDEX customers_by_first_seen ON customers(first_seen_at)",
            "ALTER TABLE transactions ADD COLUMN product_id TEXT AS (json_extract(payload, '$.productId')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN type TEXT AS (json_extract(payload, '$.type')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN purchase_ms INTEGER AS (json_extract(payload, '$.purchaseDate')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN expires_ms INTEGER AS (json_extract(payload, '$.expiresDate')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN revocation_ms INTEGER AS (json_extract(payload, '$.revocationDate')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN price INTEGER AS (json_extract(payload, '$.price')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN currency TEXT AS (json_extract(payload, '$.currency')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN offer_type INTEGER AS (json_extract(payload, '$.offerType')) VIRTUAL",
            "ALTER TABLE transactions ADD COLUMN is_upgraded INTEGER AS (coalesce(json_extract(payload, '$.isUpgraded'), 0)) VIRTUAL",
            "CREATE INDEX transactions_by_purchase ON transactions(purchase_ms, currency, price)",
            """
            CREATE INDEX transactions_by_revocation ON transactions(revocation_ms, currency, price)
            WHERE revocation_ms IS NOT NULL
            """,
            """
            CREATE INDEX transactions_live ON transactions(expires_ms, purchase_ms, revocation_ms, is_upgraded, product_id,
                offer_type, original_transaction_id)
            WHERE type = 'Auto-Renewable Subscription'
            """,
            "CREATE INDEX transactions_by_product ON transactions(product_id, purchase_ms)",
        ],
        // 7: the version at which each customer's facts (everything a state reads besides the nets) last changed
        // (``CustomerRecord/factsVersion``): writes that move only the nets leave it, so a state held at it is
        // restated with the nets instead of computed.
        [
            "ALTER TABLE customers ADD COLUMN facts_version INTEGER NOT NULL DEFAULT 0",
            "UPDATE customers SET facts_version = version",
        ],
        // 8: subscription periods a state need not read (TallyCore's `PeriodSupersession`): from when each
        // transaction is superseded (the largest integer when it is not) and by which, kept by the recorder. The
        // state's index reads only the customer's rows not superseded by the time asked; existing rows start
        // unmarked, and the next write of a period marks them.
        [
            "ALTER TABLE transactions ADD COLUMN superseded_from_ms INTEGER NOT NULL DEFAULT 9223372036854775807",
            "ALTER TABLE transactions ADD COLUMN superseded_by TEXT",
            "DROP INDEX transactions_for_state",
            "CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable, superseded_from_ms)",
            "CREATE INDEX transactions_by_superseder ON transactions(superseded_by) WHERE superseded_by IS NOT NULL",
        ],
        // 9: fewer index rows per write: the customer's index is the state index's prefix, and the account-token
        // index keeps only rows that carry a token (every query on it names one).
        [
            "DROP INDEX IF EXISTS transactions_by_customer",
            "DROP INDEX IF EXISTS transactions_by_token",
            """
            CREATE INDEX transactions_by_token ON transactions(app_account_token, app_user_id)
            WHERE app_account_token IS NOT NULL
            """,
        ],
        // 10: transfers bounded per chain (docs/server.md, `transfersPerChainPerHour`): a move back between two
        // customers who swapped the chain within the hour rewrites their row and counts it in `moves`, so a
        // ping-pong adds no row; the chain's recent rows are read by its index.
        [
            "ALTER TABLE transfers ADD COLUMN moves INTEGER NOT NULL DEFAULT 1",
            "CREATE INDEX transfers_by_chain ON transfers(original_transaction_id, date_ms)",
        ],
        // 11: account tokens are minted by the server, one per customer (docs/security.md, *Account tokens*). The
        // rows stored before were given to whoever posted a token first, with no proof: they are dropped, so no
        // token carries authority until its customer asks for one. Chains keep their owners.
        [
            "DELETE FROM account_tokens",
            "CREATE UNIQUE INDEX IF NOT EXISTS account_tokens_by_customer ON account_tokens(app_user_id)",
        ],
        // 12: the offerings document (docs/server.md, *Offerings*): every saved version is kept, the newest is live.
        // `origin` is how it was saved (`seed`, `put`, `rollback`); a rollback names the version it restored.
        [
            """
            CREATE TABLE IF NOT EXISTS offerings_versions (
                version INTEGER PRIMARY KEY,
                document BLOB NOT NULL,
                saved_ms INTEGER NOT NULL,
                origin TEXT NOT NULL,
                rolled_back_to INTEGER
            )
            """,
        ],
        // 13: customers from anonymous to identified (docs/server.md, *Aliases*): an anonymous id aliased to the
        // identified customer its purchases moved to (for good: the alias is the key), and each customer's attributes.
        // Idempotent, as the migrations since the eleventh: a schema version moved back (a restore) runs it again.
        [
            """
            CREATE TABLE IF NOT EXISTS aliases (
                alias TEXT PRIMARY KEY NOT NULL,
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                created_ms INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            "CREATE INDEX IF NOT EXISTS aliases_by_customer ON aliases(app_user_id, created_ms)",
            """
            CREATE TABLE IF NOT EXISTS attributes (
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (app_user_id, key)
            ) WITHOUT ROWID
            """,
        ],
        // 14: promotional offer signatures issued per customer and offer (docs/server.md, *Offers*, `perCustomer`).
        [
            """
            CREATE TABLE IF NOT EXISTS offer_signatures (
                app_user_id TEXT NOT NULL REFERENCES customers(app_user_id),
                offer_identifier TEXT NOT NULL,
                issued INTEGER NOT NULL,
                PRIMARY KEY (app_user_id, offer_identifier)
            ) WITHOUT ROWID
            """,
        ],
        // 15: the dashboard's offers (docs/server.md, *Dashboard*, `/v1/dashboard/offers`): the transactions bought
        // with an offer, newest first, and their count per offer, each read by a partial index of only those rows.
        [
            """
            CREATE INDEX IF NOT EXISTS transactions_by_offer ON transactions(purchase_ms, transaction_id)
            WHERE offer_type IS NOT NULL
            """,
            """
            CREATE INDEX IF NOT EXISTS transactions_offer_totals
            ON transactions(offer_type, payload -> '$.offerIdentifier') WHERE offer_type IS NOT NULL
            """,
        ],
    ]

    /// The schema version this code writes.
    static var currentVersion: Int { migrations.count }
}
