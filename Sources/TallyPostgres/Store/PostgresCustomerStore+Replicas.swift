import TallyStorage

extension PostgresCustomerStore: ReplicaReporting {
    /// Each replica's standing and the reads each node served; nil when the store has no replicas.
    public func replicaReport() -> ReplicaReport? {
        router?.report()
    }
}
