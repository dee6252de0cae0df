import Foundation

/// The `--database-url` setting for PostgreSQL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too, `?sslmode=disable` accepted).
///
/// `description` is the redacted form (`:***@`), so interpolating a URL into a log line or an
/// error can never print the password; only `password` itself holds it.
public struct PostgresDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    public static let defaultPort = 5432

    /// Whether a `--database-url` value names PostgreSQL (anything else is refused by the CLI).
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    public init(user: String, password: String?, host: String, port: Int = defaultPort, database: String) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses the setting; every refusal says what is wrong without repeating the password.
    public init(_ text: String) throws {
        guard Self.isPostgres(text) else {
            throw PostgresStoreError.invalidURL("expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        guard let components = URLComponents(string: text) else {
            throw PostgresStoreError.invalidURL("\(Self.redact(text)) is not a URL")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresStoreError.invalidURL("\(Self.redact(text)) names no user")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError.invalidURL("\(Self.redact(text)) names no host")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresStoreError.invalidURL("\(Self.redact(text)) names no database (…/DATABASE)")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw PostgresStoreError.invalidURL("port \(port) is out of range")
        }
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"?):
                continue
            case ("sslmode", let mode):
                // TLS needs swift-nio-ssl's configuration types, which this build does not link.
                throw PostgresStoreError.invalidURL("sslmode=\(mode ?? "") is not supported (only sslmode=disable)")
            default:
                throw PostgresStoreError.invalidURL("unknown parameter \(item.name)")
            }
        }
        self.init(
            user: user, password: components.password, host: host,
            port: components.port ?? Self.defaultPort, database: database
        )
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        let credentials = password == nil ? Self.escape(user) : "\(Self.escape(user)):***"
        return "postgres://\(credentials)@\(host):\(port)/\(database)"
    }

    /// Hides the password of a URL that may not even parse: whatever sits between the first
    /// `:` after the scheme and the last `@` before the path.
    public static func redact(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }

    private static func escape(_ part: String) -> String {
        part.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? part
    }
}
