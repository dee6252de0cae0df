import Foundation

/// One stored value as a table holds it, in SQLite's five storage classes: what a store copy
/// (`reelhouse migrate-store --to postgres://…`) reads from one store and converts to the
/// column types of the other.
public enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A table of the store being copied from, as it is on disk.
public struct CopySourceTable: Sendable, Equatable {
    public let name: String
    public let columns: [String]
    /// Rows have a `rowid` the copy can ask for (the order SQLite kept link rows in).
    public let hasRowID: Bool
    /// Why this table holds nothing to copy (a full-text index, the store's own bookkeeping),
    /// or nil for a table of data.
    public let notData: String?

    public init(name: String, columns: [String], hasRowID: Bool, notData: String?) {
        self.name = name
        self.columns = columns
        self.hasRowID = hasRowID
        self.notData = notData
    }
}

/// The reading side of a store copy: a store that can list its tables and hand out their rows
/// in key order, a batch at a time, so a copy can stop anywhere and resume after the last key
/// it wrote. `SQLiteStore` is one.
public protocol StoreCopySource: Sendable {
    /// Every table, data or not.
    func copyTables() async throws -> [CopySourceTable]

    func copyRowCount(table: String) async throws -> Int

    /// Up to `limit` rows of `columns` (the pseudo-column `rowid` included, when the table has
    /// one) whose `key` columns come strictly after `after` (nil: from the first row), in
    /// ascending `key` order with text compared by code point and blobs by byte.
    func copyRows(table: String, columns: [String], key: [String], after: [StoredValue]?, limit: Int) async throws -> [[StoredValue]]

    /// The highest id the table ever handed out, deleted rows included (nil: not tracked), so
    /// the copy's sequences never hand an id out twice either.
    func copyHighestID(table: String) async throws -> Int64?
}
