import ReelModels

/// A store that can say when a job becomes claimable, so an idle worker waits for that instead
/// of asking the queue over and over (PostgreSQL: `LISTEN reelhouse_jobs`, notified by every
/// write that makes a job claimable, from any node). A hint, never a promise: a worker still
/// claims (another may win the job) and still polls now and then, slowly — a job that becomes
/// due later (a retry's backoff, an expired lease) sends nothing, and nothing sent while no one
/// listened is replayed. A store without one (SQLite: one process) is simply polled.
public protocol JobWakeupSource: Sendable {
    /// Listens until the task is cancelled: `listening` once the subscription is in place
    /// (nothing committed after that is missed), then `wake` with each kind that became
    /// claimable. Throws when the subscription is lost; the caller may listen again.
    func listenForJobs(listening: @Sendable () -> Void, wake: @Sendable (JobKind) -> Void) async throws
}
