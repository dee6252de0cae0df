import Foundation
import ReelTestSupport
import Testing

@testable import ReelStorePostgres

/// `sslmode` against the test cluster, which speaks TLS with a self-signed certificate for
/// `localhost` and 127.0.0.1: what each mode connects with, as the server itself reports it
/// (`pg_stat_ssl`), and that the verifying modes refuse a server they cannot verify.
@Suite("PostgreSQL over TLS")
struct PostgresTLSTests {
    /// Whether the store's pooled connection and its LISTEN connection are encrypted.
    static func encryption(_ url: PostgresDatabaseURL) async throws -> (pool: Bool, listener: Bool) {
        try await PostgresStore.withStore(url: url, poolSize: 1, migrating: false, logger: testLogger) { store in
            let pool = try await store.rawStrings("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            let listener = try await store.withJobWakeups { _ in
                // The LISTEN connection is the store's other backend in this database.
                try await store.rawStrings("""
                    SELECT s.ssl::text FROM pg_stat_ssl s JOIN pg_stat_activity a ON a.pid = s.pid
                    WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'
                    """)
            }
            return (pool == ["true"], listener == ["true"])
        }
    }

    static func database(_ change: (inout PostgresDatabaseURL) -> Void) async throws -> PostgresDatabaseURL {
        var url = try await PostgresCluster.shared.freshDatabase()
        change(&url)
        return url
    }

    @Test("prefer (the default) and require encrypt; disable does not")
    func modes() async throws {
        let preferred = try await Self.database { _ in }
        #expect(preferred.tlsMode == .prefer)
        #expect(try await Self.encryption(preferred) == (true, true))
        #expect(try await Self.encryption(try await Self.database { $0.tlsMode = .require }) == (true, true))
        #expect(try await Self.encryption(try await Self.database { $0.tlsMode = .disable }) == (false, false))
    }

    @Test("verify-full and verify-ca accept the server with its certificate as the root, by name and by address")
    func verified() async throws {
        let certificate = try await PostgresCluster.shared.serverCertificate()
        let byName = try await Self.database { url in
            url.host = "localhost"
            url.tlsMode = .verifyFull
            url.rootCertificatePath = certificate
        }
        #expect(try await Self.encryption(byName) == (true, true))
        let byAddress = try await Self.database { url in
            url.tlsMode = .verifyCA
            url.rootCertificatePath = certificate
        }
        #expect(try await Self.encryption(byAddress) == (true, true))
    }

    @Test("a server the trust roots do not vouch for is unreachable under verify-full; an unreadable root file is named")
    func refused() async throws {
        // No sslrootcert: the system's trust store, which has never heard of the test cluster.
        let unverifiable = try await Self.database { url in
            url.host = "localhost"
            url.tlsMode = .verifyFull
        }
        await #expect(throws: PostgresStoreError.self) {
            try await PostgresStore.checkReachable(unverifiable, logger: testLogger)
        }
        do {
            try await PostgresStore.checkReachable(unverifiable, logger: testLogger)
        } catch let PostgresStoreError.unreachable(reason) {
            #expect(reason.contains("localhost") && reason.lowercased().contains("certificate"), "\(reason)")
        }

        let missing = try await Self.database { url in
            url.tlsMode = .verifyCA
            url.rootCertificatePath = "/nonexistent/ca.pem"
        }
        #expect(throws: PostgresStoreError.invalidURL("sslrootcert /nonexistent/ca.pem cannot be read")) {
            try PostgresStore(url: missing, logger: testLogger)
        }
    }
}
