import TallyPostgres
import TallySQLiteStore
import TallyServer
import TallyStorage

/// Opens the customer store `tally-server.json` names: SQLite in `--data` (the default), or PostgreSQL
/// (`store.kind: "postgres"`), which several servers share. The CLI is the only place that knows both.
enum ServeStore {
    static func open(_ configuration: ServerConfiguration, data: String, readers: Int) throws(CustomerStoreError)
        -> any CustomerStore
    {
        switch configuration.store.kind {
        case .sqlite:
            return try SQLiteCustomerStore(directory: data, credits: configuration.credits, readers: max(1, readers),
                                           transferLimit: configuration.transferLimit)
        case .postgres(let url, let poolSize):
            return try PostgresCustomerStore(url: url, poolSize: poolSize, credits: configuration.credits,
                                             transferLimit: configuration.transferLimit,
                                             replicas: configuration.store.replicas,
                                             maxReplicaLagSeconds: configuration.store.maxReplicaLagSeconds,
                                             preparedStatements: configuration.store.preparedStatements)
        }
    }
}
