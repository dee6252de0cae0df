import GRDB

extension SQLiteStore {
    /// Runs literal SQL outside the store's API, for tests that must build states the API
    /// cannot (an old-schema library, a corrupted row). Not public: it bypasses every invariant.
    func executeRaw(_ sql: String) throws {
        do {
            try writer.write { db in try db.execute(sql: sql) }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The first column of every row of a literal query, as text, e.g. to check that SQL written
    /// against an older schema still works.
    func rawStrings(_ sql: String, _ arguments: [Int64] = []) throws -> [String] {
        do {
            return try writer.read { db in try String.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) }
        } catch {
            throw Self.storeError(error)
        }
    }
}
