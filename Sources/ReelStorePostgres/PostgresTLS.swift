import Foundation
import NIOSSL
import PostgresNIO

/// The URL turned into postgres-nio's configurations, `sslmode` and `sslrootcert` included, in one
/// place for the pool, the reachability check and the LISTEN connection, so all three connect
/// alike.
extension PostgresDatabaseURL {
    /// The TLS configuration `tlsMode` asks for; nil for `disable`.
    func tlsConfiguration() throws -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable:
            return nil
        case .prefer:
            tls.certificateVerification = .none
        case .require:
            tls.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
        case .verifyFull:
            tls.certificateVerification = .fullVerification
        }
        if let rootCertificatePath {
            // Checked here so a wrong path is named as such, not reported as a failed handshake.
            guard FileManager.default.isReadableFile(atPath: rootCertificatePath) else {
                throw PostgresStoreError.invalidURL("sslrootcert \(rootCertificatePath) cannot be read")
            }
            tls.trustRoots = .file(rootCertificatePath)
        }
        return tls
    }

    /// The pool's (`PostgresClient`): at most `size` connections.
    func poolConfiguration(size: Int, connectTimeout: Duration) throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: try poolTLS()
        )
        configuration.options.maximumConnections = max(1, size)
        configuration.options.connectTimeout = connectTimeout
        return configuration
    }

    /// A connection outside the pool (the reachability check, the LISTEN connection).
    func connectionConfiguration(connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: try connectionTLS()
        )
        configuration.options.connectTimeout = .seconds(connectTimeout.components.seconds)
        return configuration
    }

    private func poolTLS() throws -> PostgresClient.Configuration.TLS {
        guard let tls = try tlsConfiguration() else { return .disable }
        return tlsMode == .prefer ? .prefer(tls) : .require(tls)
    }

    private func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        guard let tls = try tlsConfiguration() else { return .disable }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw PostgresStoreError.invalidURL(rootCertificatePath.map { "sslrootcert \($0) holds no usable certificate (\(error))" }
                ?? "TLS cannot be set up (\(error))")
        }
        return tlsMode == .prefer ? .prefer(context) : .require(context)
    }
}
