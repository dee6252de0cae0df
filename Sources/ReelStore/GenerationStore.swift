import Foundation
import ReelModels

/// Durable generation jobs. The generation service leases due ones (several workers may run:
/// a lease is exclusive until it expires), advances them and saves them back.
public protocol GenerationStore: Sendable {
    /// Creates a queued generation unless the user already started `dailyLimit` since
    /// `dayStart`; then `StoreError.conflict` (the server answers 429).
    func createGeneration(_ new: NewGeneration, dailyLimit: Int, dayStart: Date, now: Date) async throws -> Generation
    func generation(id: Int64) async throws -> Generation?
    /// The user's generations, newest first.
    func generations(userID: Int64, limit: Int) async throws -> [Generation]
    /// Leases the active generation due soonest (`nextPollAt ≤ now`, no live lease).
    func claimDueGeneration(owner: String, now: Date, leaseSeconds: Double) async throws -> Generation?
    /// Saves every field; a generation whose lease `owner` lost (another worker took it over)
    /// is `StoreError.conflict`. `owner` nil: a user action (publish, discard) that needs no lease,
    /// refused as `conflict` while a worker holds it.
    func saveGeneration(_ generation: Generation, owner: String?, now: Date) async throws -> Generation
}
