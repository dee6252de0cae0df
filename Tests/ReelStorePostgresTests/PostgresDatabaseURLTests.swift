import ReelStorePostgres
import Testing

@Suite("PostgresDatabaseURL")
struct PostgresDatabaseURLTests {
    @Test("parses user, password, host, port and database; postgresql:// and sslmode=disable too")
    func parses() throws {
        let url = try PostgresDatabaseURL("postgres://reel:s3cr%40t@db.internal:6543/reelhouse")
        #expect(url == PostgresDatabaseURL(user: "reel", password: "s3cr@t", host: "db.internal", port: 6543, database: "reelhouse"))
        let defaults = try PostgresDatabaseURL("postgresql://reel@127.0.0.1/lib?sslmode=disable")
        #expect(defaults == PostgresDatabaseURL(user: "reel", password: nil, host: "127.0.0.1", port: 5432, database: "lib"))
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
        ("postgres://reel:pw@db/x?sslmode=require", "sslmode=require is not supported (only sslmode=disable)"),
        ("postgres://reel:pw@db/x?pool=3", "unknown parameter pool"),
    ])
    func refuses(text: String, reason: String) {
        #expect(throws: PostgresStoreError.invalidURL(reason)) { try PostgresDatabaseURL(text) }
    }
}
