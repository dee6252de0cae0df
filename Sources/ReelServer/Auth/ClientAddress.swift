import Foundation
import Hummingbird
import HTTPTypes

/// The address per-IP limits count. Behind the edge (nginx, a CDN) every request comes from the
/// proxy's address, so one person's failed logins would lock out everyone; the proxy adds the
/// client's address to `X-Forwarded-For`. That header is anyone's to write, so it is believed
/// only from the peers listed in `trustedProxies`, and only its right-hand part: walking from
/// the right, the first address that is not itself a trusted proxy is the client.
enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func resolve(peer: String?, forwardedFor: [String], trusted: Set<String>) -> String? {
        guard let peer, trusted.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !hop.isEmpty && !trusted.contains(hop) {
            return isPlausibleAddress(hop) ? hop : peer
        }
        return peer
    }

    /// An IPv4 or IPv6 literal (digits, hex, dots and colons, at most 45 characters): a hop
    /// that is anything else is not believed, and the proxy's own address is used instead.
    static func isPlausibleAddress(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 45 && text.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
    }

    /// `trustedProxies`: comma-separated addresses.
    static func trustedSet(_ setting: String) -> Set<String> {
        Set(setting.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}

/// Rewrites the context's `remoteAddress` with `ClientAddress` before anything counts it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trusted: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trusted.isEmpty else { return try await next(request, context) }
        var context = context
        context.remoteAddress = ClientAddress.resolve(
            peer: context.remoteAddress, forwardedFor: request.headers[values: ClientAddress.forwardedFor], trusted: trusted
        )
        return try await next(request, context)
    }
}
