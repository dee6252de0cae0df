import Foundation
import Observation
import ReelKit
import ReelModels

/// Profile: who is signed in, the password, API keys (a new key's secret shown once), this
/// device's preferences, the libraries, and what the person hid from For You (with undo).
@Observable @MainActor
public final class ProfileModel {
    public private(set) var keys: [APIKey] = []
    /// The secret of the key just made: shown once, then `dismissNewKey()` forgets it.
    public private(set) var newKeySecret: String?
    public private(set) var libraries: [APILibrary] = []
    public private(set) var hiddenUploaders: [APIHiddenUploader] = []
    public private(set) var notInterested: [APINotInterestedEntry] = []
    public private(set) var error: ScreenError?
    public private(set) var passwordMessage: String?
    public var preferences: AppPreferences {
        didSet { try? preferences.save(to: context.files) }
    }
    private let context: FeatureContext

    public init(context: FeatureContext) {
        self.context = context
        preferences = AppPreferences.load(from: context.files)
    }

    public var account: APIMe? { context.account }

    public func load() async {
        let client = context.client
        let result = await context.attempt { () async throws in
            async let keys = client.apiKeys()
            async let libraries = client.libraries()
            async let hidden = client.hiddenUploaders()
            async let notInterested = client.notInterested(limit: 50)
            return try await (keys, libraries, hidden, notInterested.items)
        }
        switch result {
        case .success(let (keys, libraries, hidden, notInterested)):
            self.keys = keys
            self.libraries = libraries
            hiddenUploaders = hidden
            self.notInterested = notInterested
            error = nil
        case .failure(let failure):
            error = failure
        }
    }

    // MARK: Password

    /// Checks what it can here (the two new entries match, the length the server takes) before
    /// asking the server, which checks the current one. Returns whether it changed.
    public func changePassword(current: String, new: String, confirmation: String) async -> Bool {
        let range = APIPasswordChangeRequest.minimumLength...APIPasswordChangeRequest.maximumLength
        guard new == confirmation else {
            passwordMessage = "The new passwords do not match."
            return false
        }
        guard range.contains(new.count) else {
            passwordMessage = "The new password must be \(range.lowerBound) to \(range.upperBound) characters."
            return false
        }
        let client = context.client
        switch await context.attempt({ try await client.changePassword(current: current, new: new) }) {
        case .success:
            passwordMessage = "Password changed. Your other devices are signed out."
            return true
        case .failure(let failure):
            passwordMessage = failure.kind == .notAllowed ? "The current password is not right." : failure.message
            return false
        }
    }

    // MARK: API keys

    public func createKey(named name: String) async {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            error = ScreenError(.rejected, "Give the key a name, such as the device it is for.")
            return
        }
        let client = context.client
        switch await context.attempt({ try await client.createAPIKey(name: name) }) {
        case .success(let created):
            keys.insert(created.key, at: 0)
            newKeySecret = created.secret
        case .failure(let failure):
            error = failure
        }
    }

    public func dismissNewKey() {
        newKeySecret = nil
    }

    public func revokeKey(_ id: Int64) async {
        let client = context.client
        switch await context.attempt({ try await client.revokeAPIKey(id: id) }) {
        case .success: keys.removeAll { $0.id == id }
        case .failure(let failure): error = failure
        }
    }

    // MARK: Libraries (owners make them)

    public func createLibrary(named name: String) async {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return }
        let client = context.client
        switch await context.attempt({ try await client.createLibrary(name: name) }) {
        case .success(let library): libraries.append(library)
        case .failure(let failure): error = failure
        }
    }

    // MARK: What For You was told

    public func unhide(uploader: String) async {
        let client = context.client
        switch await context.attempt({ try await client.unhideUploader(uploader) }) {
        case .success: hiddenUploaders.removeAll { $0.uploader == uploader }
        case .failure(let failure): error = failure
        }
    }

    public func undoNotInterested(_ postID: Int64) async {
        let client = context.client
        switch await context.attempt({ try await client.undoNotInterested(postID: postID) }) {
        case .success: notInterested.removeAll { $0.postID == postID }
        case .failure(let failure): error = failure
        }
    }

    public func clearHistory() async {
        let client = context.client
        if case .failure(let failure) = await context.attempt({ try await client.clearHistory() }) { error = failure }
    }
}
