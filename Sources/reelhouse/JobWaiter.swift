import Foundation
import ReelJobs
import ReelModels
import ReelStore

/// Waits until the given jobs are all terminal, running a worker in this process meanwhile when
/// given one. Another worker (a running `reelhouse serve`) may pick some of them up; leases
/// keep the two from colliding.
struct JobWaiter {
    let store: any JobStore
    let jobIDs: [Int64]
    /// The worker's activity: woken by each change it makes; another process's worker (a
    /// running `serve` taking some of these jobs) sends none, so the jobs are read at least
    /// once a second anyway.
    let activity: JobActivity

    func wait(running worker: JobWorker?, onUpdate: @escaping @Sendable ([Job]) -> Void) async throws -> [Job] {
        try await withThrowingTaskGroup(of: [Job]?.self) { group in
            if let worker {
                group.addTask {
                    try await worker.run()
                    return nil
                }
            }
            group.addTask {
                while true {
                    let seen = activity.current
                    var jobs: [Job] = []
                    for id in jobIDs {
                        if let job = try await store.job(id: id) { jobs.append(job) }
                    }
                    onUpdate(jobs)
                    if jobs.allSatisfy({ $0.state.isTerminal }) { return jobs }
                    await activity.wait(after: seen, atMost: .seconds(1))
                    try Task.checkCancellation()
                }
            }
            while let result = try await group.next() {
                if let jobs = result {
                    group.cancelAll()
                    return jobs
                }
            }
            return []
        }
    }
}
