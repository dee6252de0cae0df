import ReelFeatures
import SwiftUI

/// The server's address, then a password or an API key (`reelhouse key create`).
struct SignInView: View {
    @Environment(AppModel.self) private var appModel
    @State private var usesKey = false
    @State private var username = ""
    @State private var password = ""
    @State private var apiKey = ""

    var body: some View {
        @Bindable var appModel = appModel
        NavigationStack {
            Form {
                Section {
                    TextField("https://reels.example.org", text: $appModel.serverAddress)
                        .keyboardType(.URL)
                        .textContentType(.URL)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                } header: {
                    Text("Server")
                } footer: {
                    Text("The address of your Reelhouse server. https is used unless you type http://.")
                }
                Picker("Sign in with", selection: $usesKey) {
                    Text("Password").tag(false)
                    Text("API key").tag(true)
                }
                .pickerStyle(.segmented)
                .listRowBackground(Color.clear)
                Section {
                    if usesKey {
                        SecureField("API key", text: $apiKey)
                    } else {
                        TextField("Username", text: $username)
                            .textContentType(.username)
                            .textInputAutocapitalization(.never)
                            .autocorrectionDisabled()
                        SecureField("Password", text: $password)
                            .textContentType(.password)
                    }
                } footer: {
                    if usesKey { Text("Make a key on the server with `reelhouse key create`, or in Profile on a signed-in device.") }
                }
                Section {
                    Button { signIn() } label: {
                        if appModel.phase == .signingIn {
                            ProgressView().frame(maxWidth: .infinity)
                        } else {
                            Text("Sign in").frame(maxWidth: .infinity)
                        }
                    }
                    .disabled(!canSubmit)
                }
                if let message = appModel.signInMessage {
                    Section { Text(message).foregroundStyle(.red) }
                }
            }
            .navigationTitle("Reelhouse")
            .onSubmit { signIn() }
        }
    }

    private var canSubmit: Bool {
        appModel.phase != .signingIn && !appModel.serverAddress.isEmpty && (usesKey ? !apiKey.isEmpty : !username.isEmpty && !password.isEmpty)
    }

    private func signIn() {
        guard canSubmit else { return }
        let method: AppModel.SignInMethod = usesKey ? .apiKey(apiKey.trimmingCharacters(in: .whitespacesAndNewlines)) : .password(username: username, password: password)
        Task {
            await appModel.signIn(method)
            password = ""
        }
    }
}
