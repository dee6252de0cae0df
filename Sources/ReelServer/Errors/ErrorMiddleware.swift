import Foundation
import Hummingbird
import Logging

/// Every error a route throws passes through here and `ErrorMapping`, the one table from
/// errors to HTTP: a response is always `{"error":{"code","message"}}`, and a client never
/// sees a stack, a file path, an SQL statement or a Swift type name.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The registered routes, to tell "no such path" (404) from "not with this method" (405).
    let routes: RouteRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            let allowed = routes.methods(matching: request.uri.path)
            if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
                throw APIError.methodNotAllowed(allowed: allowed)
            }
            throw ErrorMapping.apiError(for: error, path: request.uri.path, maxBodyBytes: context.maxUploadSize, logger: context.logger)
        } catch {
            throw ErrorMapping.apiError(for: error, path: request.uri.path, maxBodyBytes: context.maxUploadSize, logger: context.logger)
        }
    }
}
