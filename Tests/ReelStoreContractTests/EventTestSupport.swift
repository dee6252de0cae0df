import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing

// Setup steps and checks beneath the protocols for the event and For You suites, on either
// backend (as `rawStrings`).

/// Bulk-loads watch events with their aggregates (`loadEvents`), by For You's rules.
func loadEvents(_ store: any PortableStore, _ events: [PersonEvent]) async throws {
    if let sqlite = store as? SQLiteStore { return try sqlite.loadEvents(events, aggregation: ForYouRules()) }
    if let postgres = store as? PostgresStore { return try await postgres.loadEvents(events, aggregation: ForYouRules()) }
    Issue.record("no event loader for \(type(of: store))")
}

/// Writes the neighbour table (`loadNeighbors`).
func loadNeighbors(_ store: any PortableStore, _ neighbors: [Int64: [Neighbor]]) async throws {
    if let sqlite = store as? SQLiteStore { return try sqlite.loadNeighbors(neighbors) }
    if let postgres = store as? PostgresStore { return try await postgres.loadNeighbors(neighbors) }
    Issue.record("no neighbour loader for \(type(of: store))")
}

/// The first column of every row of `sql` as numbers (NaN where it is not one).
func rawNumbers(_ store: any PortableStore, _ sql: String) async throws -> [Double] {
    try await rawStrings(store, sql).map { Double($0) ?? .nan }
}

/// The first column of the first row of `sql` as a number (NaN without one).
func rawNumber(_ store: any PortableStore, _ sql: String) async throws -> Double {
    try await rawNumbers(store, sql).first ?? .nan
}

func rawCount(_ store: any PortableStore, _ table: String) async throws -> Int {
    Int(try await rawNumber(store, "SELECT COUNT(*) FROM \(table)"))
}

/// The tags of the posts served to the person lately, as the profile reads them.
func recentTags(_ store: any PortableStore, userID: Int64, now: Date) async throws -> [String] {
    try await store.profileRows(userID: userID, limits: ForYouAssembly.profileLimits, now: now).recentTags
}
