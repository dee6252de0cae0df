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
    let configuration: ServerConfiguration

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/health", access: .public, "Liveness: 200 when the server answers") { _, context in
            try Response.json(["status": "ok"], context: context)
        }
        routes.on(.get, "/openapi.json", access: .public, "This API described as OpenAPI 3.1") { _, _ in
            let data = try OpenAPIDocument.json(for: registry.routes)
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: .init(bytes: data))
            )
        }
        if configuration.metrics {
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
