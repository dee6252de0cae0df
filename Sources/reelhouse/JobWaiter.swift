import Foundation
import ReelJobs
import ReelModels
import ReelStore

/// Runs a worker in this process until the given jobs are all terminal. Another worker (a
/// running `reelhouse serve`) may pick some of them up; leases keep the two from colliding.
struct JobWaiter {
    let store: any JobStore
    let jobIDs: [Int64]

    func wait(running worker: JobWorker, onUpdate: @escaping @Sendable ([Job]) -> Void) async throws -> [Job] {
        try await withThrowingTaskGroup(of: [Job]?.self) { group in
            group.addTask {
                try await worker.run()
                return nil
            }
            group.addTask {
                while true {
                    var jobs: [Job] = []
                    for id in jobIDs {
                        if let job = try await store.job(id: id) { jobs.append(job) }
                    }
                    onUpdate(jobs)
                    if jobs.allSatisfy({ $0.state.isTerminal }) { return jobs }
                    try await Task.sleep(for: .milliseconds(250))
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
