import Foundation
import TallyCore
import TallyStorage

extension EntitlementAPI {
    /// What the store's replicas report (``ReplicaReporting``); nil for a store without replicas.
    var replicaReport: ReplicaReport? {
        (store as? any ReplicaReporting)?.replicaReport()
    }

    /// `/readyz`'s 200 body: `{"status":"ready"}`, with a `replicas` array when the store has replicas (each one's
    /// place in `store.replicas`, status, lag in seconds when known, and reads served; never its URL).
    func readyBody(_ report: ReplicaReport?) -> [UInt8] {
        JSONWriter.object { writer in
            writer.field("status", "ready")
            guard let report else { return }
            writer.key("replicas")
            writer.beginArray()
            for replica in report.replicas {
                writer.object { writer in
                    writer.field("replica", replica.index)
                    writer.field("status", replica.status.rawValue)
                    if let lag = replica.lagSeconds { writer.field("lagSeconds", Self.seconds(lag)) }
                    writer.field("reads", replica.reads)
                }
            }
            writer.endArray()
        }
    }

    /// `/metrics`' lines for the replicas: reads by node, fallbacks, and each replica's status and lag.
    static func replicaMetrics(_ report: ReplicaReport?) -> String {
        guard let report else { return "" }
        var lines = [
            "# HELP tally_store_reads_total Store read statements made for the read routes (reads arriving together share one), by the node that served them.",
            "# TYPE tally_store_reads_total counter",
            "tally_store_reads_total{node=\"primary\"} \(report.primaryReads)",
        ]
        for replica in report.replicas {
            lines.append("tally_store_reads_total{node=\"replica\(replica.index)\"} \(replica.reads)")
        }
        lines += [
            "# HELP tally_store_replica_fallbacks_total Reads that could have gone to a replica and went to the primary "
                + "(no replica up, or none had replayed the read's Tally-Read-After).",
            "# TYPE tally_store_replica_fallbacks_total counter",
            "tally_store_replica_fallbacks_total \(report.fallbacks)",
            "# HELP tally_store_replica_up Whether a replica serves reads now (1), or is skipped (0).",
            "# TYPE tally_store_replica_up gauge",
        ]
        for replica in report.replicas {
            lines.append("tally_store_replica_up{replica=\"\(replica.index)\",status=\"\(replica.status.rawValue)\"} "
                         + (replica.status == .up ? "1" : "0"))
        }
        lines += [
            "# HELP tally_store_replica_lag_seconds How far behind the primary a replica was at its last probe.",
            "# TYPE tally_store_replica_lag_seconds gauge",
        ]
        for replica in report.replicas {
            if let lag = replica.lagSeconds {
                lines.append("tally_store_replica_lag_seconds{replica=\"\(replica.index)\"} \(Self.seconds(lag))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds to the millisecond.
    private static func seconds(_ value: Double) -> Decimal {
        Decimal(Int64((value * 1_000).rounded())) / 1_000
    }
}
