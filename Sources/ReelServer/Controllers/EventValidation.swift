import Foundation
import ReelModels

/// The rules of `POST /api/v1/events` beyond each event's own schema (which `WatchEvent`
/// checks as it decodes): the batch size, and times this server's clock and retention judge.
/// The first event that breaks a rule refuses the whole batch, with a message naming it.
struct EventValidation {
    let now: Date
    /// `eventRetentionDays` in seconds: an older event would be expired at once.
    let retention: TimeInterval

    /// Clocks drift; a client may be a little ahead of the server.
    static let allowedFuture: TimeInterval = 5 * 60

    func validate(_ batch: EventBatchBody) throws(APIError) -> [WatchEvent] {
        guard batch.events.count <= APIEventBatch.maxCount else {
            throw APIError.tooManyEvents(count: batch.events.count, limit: APIEventBatch.maxCount)
        }
        var accepted: [WatchEvent] = []
        accepted.reserveCapacity(batch.events.count)
        for (index, decoded) in batch.events.enumerated() {
            switch decoded {
            case .failure(let problem) where problem.kind == .unknownType:
                throw APIError.unknownEventType("events[\(index)]: \(problem.why)")
            case .failure(let problem):
                throw APIError.invalidEvent(Self.message(index: index, type: problem.type, eventID: problem.eventID, problem.why))
            case .success(let event):
                if let why = timeProblem(event.at) {
                    throw APIError.invalidEvent(Self.message(index: index, event: event, why))
                }
                accepted.append(event)
            }
        }
        return accepted
    }

    private func timeProblem(_ at: Date) -> String? {
        if at.timeIntervalSince(now) > Self.allowedFuture { return "at is more than 5 minutes in the future" }
        if now.timeIntervalSince(at) > retention {
            return "at is older than the \(Int((retention / 86_400).rounded()))-day retention"
        }
        return nil
    }

    /// `events[INDEX] (TYPE, event_id ID): WHY`.
    static func message(index: Int, event: WatchEvent, _ why: String) -> String {
        message(index: index, type: event.type.rawValue, eventID: event.id.uuidString.lowercased(), why)
    }

    private static func message(index: Int, type: String?, eventID: String?, _ why: String) -> String {
        let type = type.map(WatchEventProblem.short) ?? "no type"
        return "events[\(index)] (\(type), event_id \(eventID.map(WatchEventProblem.short) ?? "none")): \(why)"
    }
}
