import Network
import Observation
import ReelFeatures

/// The system's view of the network: whether there is a path at all, and whether the person
/// turned on Low Data Mode for it (`isConstrained`). Views read it; the models only get the
/// data saver decision through `AppPreferences.savesData(lowDataMode:)`.
@Observable @MainActor
final class NetworkPathMonitor {
    private(set) var isOnline = true
    private(set) var isConstrained = false
    private let monitor = NWPathMonitor()

    init() {
        isConstrained = monitor.currentPath.isConstrained
        monitor.pathUpdateHandler = { @Sendable [weak self] path in
            guard let self else { return }
            let online = path.status == .satisfied, constrained = path.isConstrained
            Task { @MainActor in self.update(online: online, constrained: constrained) }
        }
        monitor.start(queue: DispatchQueue(label: "org.reelhouse.path"))
    }

    private func update(online: Bool, constrained: Bool) {
        if isOnline != online { isOnline = online }
        if isConstrained != constrained { isConstrained = constrained }
    }

    /// The data saver in effect for these preferences on the current path.
    func savesData(_ preferences: AppPreferences) -> Bool {
        preferences.savesData(lowDataMode: isConstrained)
    }
}
