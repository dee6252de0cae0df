import Foundation
import ReelJobs
import ReelModels
import ReelStore
@testable import ReelStorePostgres
import ReelTestSupport
import Testing

@Suite("JobWorker woken by PostgreSQL's LISTEN/NOTIFY")
struct JobWakeupTests {
    /// Polls an hour apart: only a wake-up can start these jobs within the test's wait.
    static func sleepyConfiguration() -> JobWorkerConfiguration {
        var configuration = testConfiguration()
        configuration.pollInterval = 3600
        configuration.wakeupPollInterval = 3600
        return configuration
    }

    @Test("an idle worker starts each job another node enqueues, though it polls only hourly", .timeLimit(.minutes(3)))
    func wokenByAnotherNode() async throws {
        try await withPostgresStore { store in
            try await PostgresStore.withStore(url: store.url, migrating: false, logger: testLogger) { otherNode in
                let journal = Journal()
                let worker = JobWorker(
                    store: store, wakeups: store, handlers: [RecordingHandler(journal: journal)],
                    configuration: Self.sleepyConfiguration(), logger: quietLogger
                )
                try await whileRunning(worker) {
                    // One after another, each once the worker is idle again: at most the first can
                    // be found by the look the worker takes when its subscription begins.
                    for expected in 1...3 {
                        _ = try await otherNode.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: Date())
                        try await waitUntil("job \(expected) to run") { await journal.startedCount == expected }
                    }
                    // Started is not finished: stopping the worker now could leave the third job
                    // running (the suite on a loaded machine did, about one run in three).
                    try await waitUntil("the three jobs to be recorded") { try await store.jobs(states: [.succeeded], limit: 10).count == 3 }
                }
                #expect(try await store.jobs(states: [.succeeded], limit: 10).count == 3)
            }
        }
    }

    @Test("wake-ups for kinds the worker does not run leave it idle; its own kind still starts", .timeLimit(.minutes(3)))
    func otherKindsDoNotWake() async throws {
        try await withPostgresStore { store in
            let journal = Journal()
            let worker = JobWorker(
                store: store, wakeups: store, handlers: [RecordingHandler(journal: journal)],
                configuration: Self.sleepyConfiguration(), logger: quietLogger
            )
            try await whileRunning(worker) {
                _ = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: Date())
                try await waitUntil("the first transcode to run") { await journal.startedCount == 1 }
                let other = try await store.enqueue(kind: .uploadImport, subject: "upload-x", maxAttempts: 3, timeLimit: nil, now: Date())
                _ = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: Date())
                try await waitUntil("the second transcode to run") { await journal.startedCount == 2 }
                #expect(try await store.job(id: other.id)?.state == .queued, "not this worker's kind")
            }
        }
    }

    @Test("a lost subscription makes the worker poll at pollInterval instead of waiting for wake-ups", .timeLimit(.minutes(3)))
    func lostSubscriptionFallsBackToPolling() async throws {
        try await withPostgresStore { store in
            var configuration = testConfiguration()  // polls every 20 ms without a subscription
            configuration.wakeupPollInterval = 3600  // …and hourly with one, subscribing again an hour later
            let journal = Journal()
            let worker = JobWorker(
                store: store, wakeups: store, handlers: [RecordingHandler(journal: journal)], configuration: configuration, logger: quietLogger
            )
            let listeners = """
                SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()
                """
            try await whileRunning(worker) {
                try await waitUntil("the worker to subscribe") { try await !store.rawStrings(listeners).isEmpty }
                _ = try await store.rawStrings("SELECT pg_terminate_backend(pid) FROM (\(listeners)) AS l")
                try await waitUntil("the subscription to be gone") { try await store.rawStrings(listeners).isEmpty }
                // No one listens now, and no one will for an hour: only polling can start these.
                for expected in 1...2 {
                    _ = try await store.enqueue(kind: .transcode, postID: nil, maxAttempts: 3, now: Date())
                    try await waitUntil("job \(expected) to run") { await journal.startedCount == expected }
                }
                #expect(try await store.rawStrings(listeners).isEmpty, "not subscribed again before wakeupPollInterval")
            }
        }
    }
}
