import Foundation

/// Why the PostgreSQL store could not do what was asked: one enum for the module.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database URL is not `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    case invalidURL(String)
    /// The server could not be reached or refused the connection.
    case unreachable(String)
    /// A migration failed; nothing of that version was kept.
    case migrationFailed(version: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let why): return "invalid database URL: \(why)"
        case .unreachable(let why): return "cannot reach the database: \(why)"
        case .migrationFailed(let version, let reason): return "migration \(version) failed: \(reason)"
        }
    }
}
