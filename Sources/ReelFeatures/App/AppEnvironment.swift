import Foundation
import ReelKit

/// What the app plugs in: how a client talks to a server, the clock, where each account's
/// files live, the media prefetcher and the players. The iPhone app passes URLSession, the
/// system clock, Application Support and three `AVPlayerSlot`s; tests pass a manual clock, a
/// temporary folder and recording slots.
public struct AppEnvironment {
    public var client: @Sendable (URL, ReelCredentials) -> ReelClient
    public var clock: any ModelClock
    /// One folder per server and user, so one account's offline queue never replays as another.
    public var files: @Sendable (URL, String) -> any CacheFileSystem
    public var prefetcher: @Sendable (ReelClient) -> MediaPrefetcher?
    public var eventPolicy: EventRecorderPolicy
    /// The feed's players, made once per sign-in (the feed never has more than these).
    public var makeSlots: @MainActor (URL) -> [AnyPlayerSlot]

    public init(
        client: @escaping @Sendable (URL, ReelCredentials) -> ReelClient = { ReelClient(baseURL: $0, credentials: $1) },
        clock: any ModelClock = SystemModelClock(),
        files: @escaping @Sendable (URL, String) -> any CacheFileSystem,
        prefetcher: @escaping @Sendable (ReelClient) -> MediaPrefetcher? = { _ in nil },
        eventPolicy: EventRecorderPolicy = EventRecorderPolicy(),
        makeSlots: @escaping @MainActor (URL) -> [AnyPlayerSlot]
    ) {
        self.client = client
        self.clock = clock
        self.files = files
        self.prefetcher = prefetcher
        self.eventPolicy = eventPolicy
        self.makeSlots = makeSlots
    }

    /// A folder name for an account: readable, and safe whatever the host or name holds.
    public static func folderName(server: URL, user: String) -> String {
        let text = "\(server.host ?? "server")-\(server.port.map(String.init) ?? "")-\(user)"
        return String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }.prefix(120))
    }
}
