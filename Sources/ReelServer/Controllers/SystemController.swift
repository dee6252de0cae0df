import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelModels
import ReelStore

/// Health, metrics and the OpenAPI document.
struct SystemController {
    let registry: RouteRegistry
    let metrics: MetricsRegistry
    let jobs: any JobStore
    /// Asked one small question by `/ready`: whether the database answers.
    let accounts: any AccountStore
    let settings: SystemSettings

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/health", access: .public, "Liveness: 200 when the server answers") { _, context in
            try Response.json(["status": "ok"], context: context)
        }
        // For the balancer and the edge: a node whose database does not answer says so here
        // (503) instead of taking traffic it can only refuse.
        routes.on(.get, "/ready", access: .public, "Readiness: 200 when this node can serve (its database answers), else 503") { _, context in
            do {
                _ = try await accounts.countUsers()
                return try Response.json(["status": "ok"], context: context)
            } catch let error as StoreError {
                guard case .unavailable = error else { throw error }
                var response = try Response.json(["status": "unavailable"], context: context)
                response.status = .serviceUnavailable
                response.headers[.retryAfter] = "5"
                return response
            }
        }
        routes.on(.get, "/openapi.json", access: .public, "This API described as OpenAPI 3.1") { _, _ in
            let data = try OpenAPIDocument.json(for: registry)
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: .init(bytes: data))
            )
        }
        if settings.metrics {
            routes.on(.get, "/metrics", access: .owner, "Prometheus metrics: requests, latencies, jobs, transcode seconds") { _, _ in
                var byState: [String: Int] = [:]
                for state in JobState.allCases {
                    // People's work only: the two upkeep jobs are always queued, which would read as a backlog.
                    byState[state.rawValue] = try await jobs.jobs(states: [state], kinds: JobKind.work, limit: 1_000_000).count
                }
                let text = metrics.render(jobsByState: byState)
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: .init(string: text))
                )
            }
        }
    }
}
