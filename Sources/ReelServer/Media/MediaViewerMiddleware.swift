import Foundation
import Hummingbird
import ReelModels

extension MediaViewer {
    /// Whom the media URLs presented in this task are issued to: set for each API request by
    /// `MediaViewerMiddleware`, read by `VideoPresenter`. A task-local rather than a parameter
    /// because a dozen routes present posts through several layers, and a URL issued without
    /// its viewer would be one that cannot be revoked: here no handler can forget it. Nil
    /// outside a request (a shared token, which names no one).
    @TaskLocal public static var current: MediaViewer?
}

/// Works out the `MediaViewer` of a signed-in API call (`MediaAccess`, remembered for a few
/// seconds) and runs the rest of the request with it as `MediaViewer.current`.
struct MediaViewerMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let access: MediaAccess
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let identity = context.identity, AuthMiddleware.isAPICall(request) else { return try await next(request, context) }
        // No viewer for a signed-in caller: the key was revoked or the account removed since
        // `AuthMiddleware`'s few seconds of memory. Going on would issue shared tokens, which
        // name no one and so could not be revoked: the credential no longer works.
        guard let viewer = try await access.viewer(for: identity, now: now()) else { throw APIError.unauthorized }
        return try await MediaViewer.$current.withValue(viewer) { try await next(request, context) }
    }
}
