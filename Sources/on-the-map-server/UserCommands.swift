import ArgumentParser
import Foundation
import OnTheMapServer

struct User: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create, list and remove student accounts.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account. The password is read from standard input (one line), never from arguments.")

        @OptionGroup var storage: StorageOptions
        @Option(help: "The email the student logs in with.") var email: String
        @Option(help: "Shown beside the student's location.") var firstName: String
        @Option(help: "Shown beside the student's location.") var lastName: String
        @Option(help: "Defaults to the first name.") var nickname: String?

        func run() async throws {
            let logger = try storage.logger()
            let password = try PasswordInput.read(prompt: "Password for \(email): ")
            let new = NewAccount(email: email, password: password, firstName: firstName, lastName: lastName,
                                 nickname: nickname)
            do {
                let account = try await withMigratedStore(try storage.location(), logger: logger) { store in
                    try await AccountRegistry(store: store).create(new)
                }
                print("Created \(account.email) with key \(account.key).")
            } catch let error as AccountError {
                throw ValidationError(error.description)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts: key, email, names.")
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let accounts = try await withMigratedStore(try storage.location(), logger: try storage.logger()) { store in
                try await store.allAccounts()
            }
            for account in accounts {
                print([account.key, account.email, account.firstName, account.lastName, account.nickname]
                    .joined(separator: "\t"))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an account with its sessions and its locations.")
        @OptionGroup var storage: StorageOptions
        @Option(help: "The account's email.") var email: String

        func run() async throws {
            let email = AccountRegistry.normalizedEmail(self.email)
            let removed = try await withMigratedStore(try storage.location(), logger: try storage.logger()) { store in
                try await store.removeAccount(email: email)
            }
            guard removed else { throw ValidationError("No account has the email \(email).") }
            print("Removed \(email).")
        }
    }
}

/// Reads a password from standard input: without echo at a terminal, else the first line (scripts, tests).
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        let terminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if terminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            tcgetattr(STDIN_FILENO, &saved)
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw ValidationError("No password given: type it, or pipe it to standard input (one line).")
        }
        return line
    }
}
