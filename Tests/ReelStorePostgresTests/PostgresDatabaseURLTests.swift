import ReelStorePostgres
import Testing

@Suite("PostgresDatabaseURL")
struct PostgresDatabaseURLTests {
    @Test("parses user, password, host, port and database; postgresql://, sslmode and sslrootcert too")
    func parses() throws {
        let url = try PostgresDatabaseURL("postgres://reel:s3cr%40t@db.internal:6543/reelhouse")
        #expect(url == PostgresDatabaseURL(user: "reel", password: "s3cr@t", host: "db.internal", port: 6543, database: "reelhouse"))
        #expect(url.tlsMode == .prefer, "libpq's default")
        let plain = try PostgresDatabaseURL("postgresql://reel@127.0.0.1/lib?sslmode=disable")
        #expect(plain == PostgresDatabaseURL(user: "reel", password: nil, host: "127.0.0.1", port: 5432, database: "lib", tlsMode: .disable))
        let verified = try PostgresDatabaseURL("postgres://reel@db/lib?sslmode=verify-full&sslrootcert=/etc/reelhouse/ca.pem")
        #expect(verified.tlsMode == .verifyFull && verified.rootCertificatePath == "/etc/reelhouse/ca.pem")
        #expect("\(verified)" == "postgres://reel@db:5432/lib?sslmode=verify-full&sslrootcert=/etc/reelhouse/ca.pem")
        for mode in PostgresDatabaseURL.TLSMode.allCases {
            #expect(try PostgresDatabaseURL("postgres://reel@db/lib?sslmode=\(mode.rawValue)").tlsMode == mode)
        }
    }

    @Test("a printed URL hides the password")
    func redacts() throws {
        let url = try PostgresDatabaseURL("postgres://reel:hunter2@db:5432/reelhouse")
        #expect("\(url)" == "postgres://reel:***@db:5432/reelhouse")
        #expect(!"\(url)".contains("hunter2"))
        #expect(PostgresDatabaseURL.redact("postgres://reel:hunter2@db/x") == "postgres://reel:***@db/x")
        #expect(PostgresDatabaseURL.redact("postgres://reel@db/x") == "postgres://reel@db/x")
        #expect(try PostgresDatabaseURL("postgres://reel@db/x").description == "postgres://reel@db:5432/x")
    }

    @Test("refuses what is not a usable PostgreSQL URL, without echoing the password", arguments: [
        ("mysql://reel:pw@db/x", "expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"),
        ("postgres://db.internal/reelhouse", "postgres://db.internal/reelhouse names no user"),
        ("postgres://reel:pw@db.internal", "postgres://reel:***@db.internal names no database (…/DATABASE)"),
        ("postgres://reel:pw@db.internal/", "postgres://reel:***@db.internal/ names no database (…/DATABASE)"),
        ("postgres://reel:pw@db/x?sslmode=allow", "sslmode=allow is not one of disable, prefer, require, verify-ca, verify-full"),
        ("postgres://reel:pw@db/x?sslrootcert=", "sslrootcert names no file"),
        ("postgres://reel:pw@db/x?pool=3", "unknown parameter pool"),
    ])
    func refuses(text: String, reason: String) {
        #expect(throws: PostgresStoreError.invalidURL(reason)) { try PostgresDatabaseURL(text) }
    }
}
