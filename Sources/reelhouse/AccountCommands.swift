import ArgumentParser
import Foundation
import ReelModels
import ReelServer
import ReelStore

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.", subcommands: [Add.self, Passwd.self, List.self, Disable.self, Enable.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account; the password is read from stdin when it is not a terminal.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The new account's user name (what they sign in with).") var name: String
        @Option(help: "owner or member") var role: UserRole = .member
        @Option(name: .long, help: "Cost of the bcrypt hash.") var bcryptCost: UInt8 = 12

        func run() async throws {
            guard (1...64).contains(name.count), name.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else {
                throw CLIError("user add: a name is 1–64 letters, digits, dots, dashes or underscores")
            }
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "user add", creating: true) { context in
                // Said before the password is judged: a script learns the real problem first.
                if try await context.store.user(name: name) != nil {
                    throw CLIError("user add: a user named \(name) already exists")
                }
                let password = try PasswordInput.read(prompt: "Password for \(name): ")
                let hash = try await BcryptPasswordHasher(cost: bcryptCost).hash(password)
                do {
                    let user = try await context.store.createUser(name: name, role: role, passwordHash: hash, now: Date())
                    print("created \(user.role.rawValue) \(user.name) (id \(user.id))")
                } catch StoreError.conflict {
                    throw CLIError("user add: a user named \(name) already exists")
                }
            }
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a password (ends that user's sessions; enables a disabled account).")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The account whose password to set.") var name: String
        @Option(name: .long, help: "Cost of the bcrypt hash.") var bcryptCost: UInt8 = 12

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "user passwd") { context in
                guard let user = try await context.store.user(name: name) else { throw CLIError("user passwd: no user named \(name)") }
                let password = try PasswordInput.read(prompt: "New password for \(name): ")
                try await context.store.setPasswordHash(userID: user.id, passwordHash: try await BcryptPasswordHasher(cost: bcryptCost).hash(password))
                print("password changed for \(user.name)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts.")
        @OptionGroup var dataOptions: DataOptions

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "user list") { context in
                for user in try await context.store.users() {
                    let state = try await context.store.isDisabled(userID: user.id) ? "disabled" : "active"
                    print("\(user.id)\t\(user.name)\t\(user.role.rawValue)\t\(state)")
                }
            }
        }
    }
}

extension UserCommand {
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable an account: it cannot sign in, its sessions end, its API keys are revoked, and media URLs it was given stop playing within a minute."
        )
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The account to disable.") var name: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "user disable") { context in
                let store = context.store
                guard let user = try await store.user(name: name) else { throw CLIError("user disable: no user named \(name)") }
                if user.role == .owner {
                    // Never the last way in: the owner is who enables accounts again.
                    var otherOwners = 0
                    for other in try await store.users() where other.role == .owner && other.id != user.id {
                        if try await !store.isDisabled(userID: other.id) { otherOwners += 1 }
                    }
                    guard otherOwners > 0 else {
                        throw CLIError("user disable: \(user.name) is the only owner who can sign in; make another owner first")
                    }
                }
                try await store.disableUser(id: user.id, now: Date())
                print("disabled \(user.name): sessions ended, API keys revoked")
            }
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled account with the password it had (its revoked keys stay revoked).")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The account to enable.") var name: String

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "user enable") { context in
                guard let user = try await context.store.user(name: name) else { throw CLIError("user enable: no user named \(name)") }
                try await context.store.enableUser(id: user.id)
                print("enabled \(user.name)")
            }
        }
    }
}

struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Manage API keys.", subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an API key; prints only the key.")
        @OptionGroup var dataOptions: DataOptions
        @Option(help: "The user the key acts as.") var user: String
        @Option(help: "A label to tell keys apart.") var name: String = "cli"

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "key create") { context in
                guard let account = try await context.store.user(name: user) else { throw CLIError("key create: no user named \(user)") }
                let (_, key) = try await context.store.mintAPIKey(userID: account.id, name: name, now: Date())
                print(key)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List API keys (never the keys themselves).")
        @OptionGroup var dataOptions: DataOptions
        @Option(help: "Only this user's keys.") var user: String?

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "key list") { context in
                var userID: Int64?
                if let user {
                    guard let account = try await context.store.user(name: user) else { throw CLIError("key list: no user named \(user)") }
                    userID = account.id
                }
                let names = Dictionary(try await context.store.users().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
                for key in try await context.store.apiKeys(userID: userID) {
                    let state = key.revokedAt == nil ? "active" : "revoked"
                    let owner = names[key.userID] ?? "user \(key.userID)"
                    print("\(key.id)\t\(owner)\t\(key.prefix)…\t\(key.name)\t\(state)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an API key by id.")
        @OptionGroup var dataOptions: DataOptions
        @Argument(help: "The key's id (`key list` shows it).") var id: Int64

        func run() async throws {
            try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "key revoke") { context in
                do {
                    try await context.store.revokeAPIKey(id: id, now: Date())
                } catch StoreError.notFound {
                    throw CLIError("key revoke: no key with id \(id)")
                }
                print("revoked key \(id)")
            }
        }
    }
}

extension UserRole: ExpressibleByArgument {}

/// Reads a password without echo on a terminal, or one line from stdin otherwise (scripts).
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        var password: String?
        if isatty(STDIN_FILENO) == 1 {
            password = getpass(prompt).map { String(cString: $0) }
        } else {
            password = readLine(strippingNewline: true)
        }
        guard let password, password.count >= APIPasswordChangeRequest.minimumLength else {
            throw CLIError("a password of at least \(APIPasswordChangeRequest.minimumLength) characters is required")
        }
        return password
    }
}
