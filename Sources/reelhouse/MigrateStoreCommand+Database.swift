import Foundation
import Logging
import ReelPipeline
import ReelStorage
import ReelStorePostgres
import ReelStoreSQLite

/// `migrate-store --to postgres://…`: the SQLite library of `--data` into PostgreSQL. The
/// database is migrated first; then `PostgresBulkCopy` copies every table both schemas have
/// (the SQLite store reads, the PostgreSQL store writes), prints what it left out and why, and
/// the row counts of both sides. A count that differs is a failure (non-zero exit); any error
/// leaves whole batches only, and the next run resumes.
extension MigrateStoreCommand {
    /// Reads the data folder's SQLite file itself, whatever store the settings name: the copy's
    /// source is always that file.
    func copyDatabase(to text: String) async throws {
        let folder = DataFolder(root: URL(fileURLWithPath: dataOptions.resolvedPath))
        guard FileManager.default.fileExists(atPath: folder.databasePath) else {
            throw CLIError("migrate-store: no Reelhouse library at \(folder.root.path): check --data or REELHOUSE_DATA")
        }
        let sqlite: SQLiteStore
        do {
            sqlite = try SQLiteStore(path: folder.databasePath)
        } catch {
            throw CLIError("migrate-store: cannot open the database at \(folder.databasePath): \(error)")
        }
        let url: PostgresDatabaseURL
        do {
            url = try PostgresDatabaseURL(text)
        } catch {
            throw CLIError("migrate-store: \(error)")
        }
        var logger = Logger(label: "reelhouse.migrate-store")
        logger.logLevel = .warning
        let progress = ProgressReporter(quiet: false)
        let report: PostgresBulkCopy.Report
        do {
            report = try await PostgresStore.withStore(url: url, poolSize: 2, logger: logger) { store in
                let copy = PostgresBulkCopy(store: store, source: sqlite, batchSize: batchSize)
                let plan = try await copy.plan()
                print("copying \(folder.databasePath) into \(url)")
                for skipped in plan.skipped { print("  skipped \(skipped.table): \(skipped.reason)") }
                for column in plan.droppedColumns { print("  not copied \(column): not in this build's PostgreSQL schema") }
                let report = try await copy.run { step in
                    switch step.phase {
                    case .copying:
                        progress.step("copying", done: step.copied, total: step.total, detail: "\(step.table) \(step.tableCopied)/\(step.tableTotal)")
                    case .indexing:
                        progress.step("indexing for search", done: step.tableCopied, total: step.tableTotal, detail: "posts")
                    }
                }
                progress.finish()
                return report
            }
        } catch {
            progress.finish()
            throw CLIError("migrate-store: \(error)")
        }
        let width = max(5, report.counts.map(\.table.count).max() ?? 0)
        print("\("table".padding(toLength: width, withPad: " ", startingAt: 0))  \("sqlite".leftPadded(10))  \("postgres".leftPadded(10))")
        for count in report.counts {
            print("\(count.table.padding(toLength: width, withPad: " ", startingAt: 0))  \(String(count.source).leftPadded(10))  \(String(count.postgres).leftPadded(10))\(count.matches ? "" : "  MISMATCH")")
        }
        let rows = report.counts.map(\.source).reduce(0, +)
        guard report.mismatches.isEmpty else {
            let list = report.mismatches.map { "\($0.table) (sqlite \($0.source), postgres \($0.postgres))" }.joined(separator: ", ")
            throw CLIError("migrate-store: row counts differ: \(list)")
        }
        print("\(report.counts.count) tables, \(rows) rows: counts match (\(report.copied) rows copied by this run)")
        print("to serve from PostgreSQL: --database-url '\(url)' (or REELHOUSE_DATABASE_URL)")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
