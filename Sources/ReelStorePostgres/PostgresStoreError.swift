import Foundation

/// Why the PostgreSQL store could not do what was asked: one enum for the module.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database URL is not `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    case invalidURL(String)
    /// The server could not be reached or refused the connection.
    case unreachable(String)
    /// A migration failed; nothing of that version was kept.
    case migrationFailed(version: String, reason: String)
    /// `migrate-store` will not copy into this database (it holds a library already, or its
    /// schema cannot take the source's rows); nothing was written.
    case copyRefused(String)
    /// A batch of `migrate-store` failed; it was rolled back and a new run resumes before it.
    case copyFailed(table: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let why): return "invalid database URL: \(why)"
        case .unreachable(let why): return "cannot reach the database: \(why)"
        case .migrationFailed(let version, let reason): return "migration \(version) failed: \(reason)"
        case .copyRefused(let why): return "cannot copy: \(why)"
        case .copyFailed(let table, let reason): return "copying \(table) failed: \(reason) (run again to resume)"
        }
    }
}
