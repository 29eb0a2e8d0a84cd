import Foundation
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `GET /readyz`: 200 `{"status":"ready"}` while writes work, else 503 `not_ready` (see ``Readiness``).
    /// Why writes fail goes to the server's log, never to the client (it may name paths).
    func readyz() -> HTTPResponse {
        let failure = readiness.check { () -> Readiness.Failure? in
            do throws(CustomerStoreError) {
                try store.checkWritable()
                return nil
            } catch {
                log("GET /readyz: not ready: store \(error.reason.rawValue): \(error.message)")
                return Readiness.Failure(message: error.message)
            }
        }
        guard failure == nil else { return APIError.notReady.response }
        return APIResponse.json(readyBody(replicaReport))
    }

    /// Runs a store write and notes its outcome for `/readyz`; a refused spend is no write failure.
    func noteWrite<T>(_ body: () throws(CustomerStoreError) -> T) throws(CustomerStoreError) -> T {
        do {
            let value = try body()
            readiness.noteWrite(failure: nil)
            return value
        } catch {
            if error.reason != .refused, error.reason != .tooLarge { readiness.noteWrite(failure: Readiness.Failure(message: error.message)) }
            throw error
        }
    }
}
