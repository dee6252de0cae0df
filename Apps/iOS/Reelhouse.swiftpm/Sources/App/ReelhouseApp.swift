import AVFoundation
import ReelFeatures
import ReelKit
import ReelKitAVFoundation
import SwiftUI

/// The app's entry: the one place (with `KeychainCredentialStore`) that builds clients and
/// storage. Everything below binds to `AppModel` and its session's screen models.
@main
struct ReelhouseApp: App {
    @State private var appModel: AppModel
    @State private var network = NetworkPathMonitor()

    init() {
        // Sound plays with the ring/silent switch on, as a video app's should; AirPlay too.
        try? AVAudioSession.sharedInstance().setCategory(.playback, mode: .moviePlayback)
        _appModel = State(initialValue: AppModel(credentials: KeychainCredentialStore(), environment: Self.environment()))
    }

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(appModel)
                .environment(network)
                .environment(\.serverURL, appModel.session?.context.client.baseURL)
                .onOpenURL { appModel.open($0) }
        }
    }

    /// URLSession, the system clock, one folder per account under Application Support, a
    /// memory + disk media cache per server under Caches, and three AVPlayer slots.
    static func environment() -> AppEnvironment {
        let support = URL.applicationSupportDirectory.appending(path: "Reelhouse", directoryHint: .isDirectory)
        let caches = URL.cachesDirectory.appending(path: "Reelhouse", directoryHint: .isDirectory)
        return AppEnvironment(
            client: { server, credentials in ReelClient(baseURL: server, credentials: credentials, transport: URLSessionTransport()) },
            clock: SystemModelClock(),
            files: { server, user in
                LocalFileSystem(root: support.appending(path: AppEnvironment.folderName(server: server, user: user), directoryHint: .isDirectory))
            },
            prefetcher: { client in
                // Per server: cache keys drop the URL's signature but not its host.
                let folder = caches.appending(path: AppEnvironment.folderName(server: client.baseURL, user: ""), directoryHint: .isDirectory)
                let disk = DiskCache(fileSystem: LocalFileSystem(root: folder), sizeLimit: 300 * 1024 * 1024)
                return MediaPrefetcher(client: client, cache: MediaCache(memory: MemoryCache(), disk: disk))
            },
            makeSlots: { server in
                (0..<3).map { _ in AnyPlayerSlot(AVPlayerSlot(baseURL: server)) }
            }
        )
    }
}
