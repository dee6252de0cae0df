/// The one error type of the store module.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case conflict(String)
    /// The caller asked for something that can never succeed as asked (a rating of 9, a
    /// negative page size); distinct from `conflict`, which depends on what is already stored.
    case invalid(String)
    case corrupt(String)
    /// The database cannot be reached or is not taking work right now (a restart, lost
    /// connections, a lock held too long): worth trying again shortly.
    case unavailable(String)
    /// The database refused or failed a statement for another reason: a fault, not an outage.
    case failed(String)

    public var description: String {
        switch self {
        case .notFound(let what): "not found: \(what)"
        case .conflict(let what): "conflict: \(what)"
        case .invalid(let why): "invalid request: \(why)"
        case .corrupt(let what): "database content is invalid: \(what)"
        case .unavailable(let what): "database unavailable: \(what)"
        case .failed(let what): "database error: \(what)"
        }
    }
}
