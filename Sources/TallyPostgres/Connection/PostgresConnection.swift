import CPostgreSQL
import Foundation
import TallyCore
import TallyStorage

/// One libpq connection, used by one thread at a time (the pool hands it out to one caller and takes it back).
/// Every statement is prepared once on the connection (`PQprepare`, named by its text) and executed with
/// `PQexecPrepared`; with ``namedStatements`` off (`store.preparedStatements: false`, for a pooler in transaction
/// mode that cannot carry named statements across its server connections, such as PgBouncer before 1.21), each is
/// sent as the unnamed statement with its values (`PQexecParams`). Either way values never enter SQL text.
final class PostgresConnection {
    private let handle: OpaquePointer
    /// Whether statements are prepared once under a name (else sent unnamed, parsed each time).
    let namedStatements: Bool
    /// Statement names by SQL text, for the statements prepared on this connection.
    private var prepared: [String: String] = [:]
    /// Whether a failure showed the connection unusable; the pool then drops it.
    private(set) var isBroken = false
    /// Customers whose rows the open transaction has locked (cleared at each BEGIN by the store).
    var lockedCustomers: Set<UTF8Key> = []
    /// Transactions already decoded from stored payload text.
    var decodedPayloads = DecodedPayloads()

    /// Connects with a libpq connection string or `postgresql://` URL; fails with what libpq said.
    init(url: String, connectTimeoutSeconds: Int, namedStatements: Bool = true) throws(PostgresError) {
        self.namedStatements = namedStatements
        let keys = ["dbname", "connect_timeout", "application_name"]
        let values = [url, String(connectTimeoutSeconds), "tally serve"]
        let connection: OpaquePointer? = withCStrings(keys) { keyPointers in
            withCStrings(values) { valuePointers in
                PQconnectdbParams(keyPointers, valuePointers, 1)  // expand_dbname: dbname may be a URL
            }
        }
        guard let connection else { throw PostgresError("libpq could not allocate a connection", connectionLost: true) }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(message.isEmpty ? "cannot connect" : message, connectionLost: true)
        }
        handle = connection
    }

    deinit {
        PQfinish(handle)
    }

    /// Why libpq cannot parse `url` as a connection string or URL; nil when it can (nothing is connected).
    static func problem(withURL url: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            defer { if let error { PQfreemem(error) } }
            return error.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "not a libpq URL"
        }
        PQconninfoFree(options)
        return nil
    }

    /// Whether libpq still holds the connection as open.
    var isOpen: Bool { !isBroken && PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement (prepared on first use) and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        let name = namedStatements ? try statementName(sql) : nil
        var encoded: [(bytes: [UInt8]?, binary: Bool)] = []
        encoded.reserveCapacity(values.count)
        for value in values { encoded.append(try value.encoded()) }
        let result = Self.withParameters(encoded) { pointers, lengths, formats in
            if let name { return PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 0) }
            return PQexecParams(handle, sql, Int32(values.count), nil, pointers, lengths, formats, 0)
        }
        return try check(result, sql: sql)
    }

    /// Runs a statement that takes no parameters and returns nothing, such as BEGIN and COMMIT (prepared too).
    func execute(_ sql: String) throws(PostgresError) {
        try query(sql)
    }

    /// Runs a script of several statements without parameters (the schema migrations): `PQexec`, the only
    /// call that is not a prepared statement, used for fixed text only.
    func executeScript(_ sql: String) throws(PostgresError) {
        _ = try check(PQexec(handle, sql), sql: sql)
    }

    private func statementName(_ sql: String) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "tally_\(prepared.count)"
        _ = try check(PQprepare(handle, name, sql, 0, nil), sql: sql)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> PostgresRows {
        guard let result else {
            isBroken = true
            throw PostgresError(Self.trimmed(PQerrorMessage(handle)), connectionLost: true)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return PostgresRows(result)
        default:
            let state = PQresultErrorField(result, tally_pg_diag_sqlstate()).map { String(cString: $0) } ?? ""
            var message = Self.trimmed(PQresultErrorMessage(result))
            if message.isEmpty { message = Self.trimmed(PQerrorMessage(handle)) }
            PQclear(result)
            let lost = PQstatus(handle) != CONNECTION_OK || state.isEmpty || state.hasPrefix("08") || state.hasPrefix("57P")
            if lost { isBroken = true }
            throw PostgresError(sqlState: state, message, connectionLost: lost)
        }
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func withParameters<T>(
        _ values: [(bytes: [UInt8]?, binary: Bool)],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        // Each value copied with a NUL after it (text parameters are C strings; binary ones go by length).
        let buffers: [UnsafeMutablePointer<CChar>?] = values.map { value in
            guard let bytes = value.bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress { buffer.initialize(from: base, count: bytes.count) }
                }
            }
            buffer[bytes.count] = 0
            return buffer
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = buffers.map { $0.map { UnsafePointer($0) } }
        let lengths = values.map { Int32($0.bytes?.count ?? 0) }
        let formats = values.map { Int32($0.binary ? 1 : 0) }
        return pointers.withUnsafeBufferPointer { p in
            lengths.withUnsafeBufferPointer { l in
                formats.withUnsafeBufferPointer { f in body(p.baseAddress, l.baseAddress, f.baseAddress) }
            }
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
