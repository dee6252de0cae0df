import Foundation

/// The `--database-url` setting for PostgreSQL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too), with libpq's `sslmode` (`disable`, `prefer` — the default, as in libpq —
/// `require`, `verify-ca`, `verify-full`) and `sslrootcert=PATH` (the CA to verify the server
/// by; the system's trust store without it).
///
/// `description` is the redacted form (`:***@`), so interpolating a URL into a log line or an
/// error can never print the password; only `password` itself holds it.
public struct PostgresDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tlsMode: TLSMode
    /// A PEM file of the certificate authorities the server's certificate must chain to.
    public var rootCertificatePath: String?

    public static let defaultPort = 5432

    /// libpq's `sslmode` values and what each one promises.
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP when it does not; the certificate unchecked
        /// (libpq's default: it stops a passive listener, not an impostor).
        case prefer
        /// TLS or no connection; the certificate unchecked unless `sslrootcert` is given (then
        /// as `verify-ca`, as in libpq).
        case require
        /// TLS, and the certificate must chain to a trusted authority.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host (a host given as an IP address
        /// is checked as `verify-ca`: TLS cannot carry an address as the server name).
        case verifyFull = "verify-full"
    }

    /// Whether a `--database-url` value names PostgreSQL (anything else is refused by the CLI).
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    public init(
        user: String, password: String?, host: String, port: Int = defaultPort, database: String,
        tlsMode: TLSMode = .prefer, rootCertificatePath: String? = nil
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tlsMode = tlsMode
        self.rootCertificatePath = rootCertificatePath
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
        var tlsMode = TLSMode.prefer
        var rootCertificatePath: String? = nil
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", let mode):
                guard let mode, let known = TLSMode(rawValue: mode) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw PostgresStoreError.invalidURL("sslmode=\(mode ?? "") is not one of \(modes)")
                }
                tlsMode = known
            case ("sslrootcert", let path):
                guard let path, !path.isEmpty else { throw PostgresStoreError.invalidURL("sslrootcert names no file") }
                rootCertificatePath = path
            default:
                throw PostgresStoreError.invalidURL("unknown parameter \(item.name)")
            }
        }
        self.init(
            user: user, password: components.password, host: host, port: components.port ?? Self.defaultPort, database: database,
            tlsMode: tlsMode, rootCertificatePath: rootCertificatePath
        )
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        let credentials = password == nil ? Self.escape(user) : "\(Self.escape(user)):***"
        var query: [String] = tlsMode == .prefer ? [] : ["sslmode=\(tlsMode.rawValue)"]
        if let rootCertificatePath { query.append("sslrootcert=\(rootCertificatePath)") }
        return "postgres://\(credentials)@\(host):\(port)/\(database)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
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
