import Foundation
import Hummingbird
import ReelForYou
import ReelModels
import ReelStore

/// `POST /api/v1/events` (docs/recommendations-api.md, "Events"): a person's watch events in
/// batches, from the web client's flushes and `sendBeacon`, and from ReelKit's offline queue.
/// A batch is checked whole (`EventValidation`, then the posts' visibility in the store's
/// transaction) and stored whole or not at all.
struct EventsController {
    let events: any EventStore
    let limiter: any RateLimitStore
    /// Told of every batch with signals in it, so this node's next feed of the person counts
    /// them (the twentieth makes For You their default).
    let readiness: ForYouReadiness
    /// `eventRetentionDays`, in seconds.
    let retention: TimeInterval
    let now: @Sendable () -> Date

    /// Per person, per fixed one-minute window. A person makes a few events a second at most.
    static let eventsPerMinute = 1_200
    static let rateWindow: TimeInterval = 60

    func register(_ routes: APIRoutes) {
        routes.on(.post, "/api/v1/events", access: .user, "Record watch events in a batch (at most 500; a resent event_id counts once)") { request, context in
            let user = try context.requireUser()
            let body = try await EventBatchBody.read(request, context: context)
            let now = now()
            let batch = try EventValidation(now: now, retention: retention).validate(body)
            if let retry = try await limiter.take(
                key: "events:\(user.id)", count: batch.count, limit: Self.eventsPerMinute, window: Self.rateWindow, now: now
            ).retryAfter {
                throw APIError.rateLimited(retryAfter: retry)
            }
            // After the write, whatever its outcome: a count read before it committed is not kept.
            defer { if batch.contains(where: { $0.type != .impression }) { readiness.changed(userID: user.id) } }
            switch try await events.recordEvents(userID: user.id, batch, aggregation: ForYouRules()) {
            case .recorded(let accepted, let duplicates):
                return try Response.json(APIEventReceipt(accepted: accepted, duplicates: duplicates), context: context)
            case .refused(let index, let reason):
                throw APIError.invalidEvent(EventValidation.message(index: index, event: batch[index], reason))
            }
        }
    }
}
