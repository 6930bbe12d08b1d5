import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Why an account could not be created; each message tells the person what to change.
public struct AccountError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// The details a new student gives (sign-up page or `user add`).
public struct NewAccount: Sendable {
    public var email: String
    public var password: String
    public var firstName: String
    public var lastName: String
    public var nickname: String?

    public init(email: String, password: String, firstName: String, lastName: String, nickname: String? = nil) {
        self.email = email
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
    }
}

/// Creates accounts and checks passwords. bcrypt runs on NIO's thread pool, never on the threads that serve requests;
/// the routes bound each client's share of it (`PasswordTurns`).
public struct AccountRegistry: Sendable {
    public let store: any StudentStore
    let hashCost: UInt8
    let now: @Sendable () -> Date
    /// Checked against when the email is unknown, so a wrong email takes as long as a wrong password.
    private let decoyHash: String

    public static let minimumPasswordLength = 8
    /// bcrypt reads only the first 72 bytes; refuse more than it would check.
    public static let maximumPasswordBytes = 72
    static let maximumNameLength = 100
    static let maximumEmailLength = 254

    public init(store: any StudentStore, hashCost: UInt8 = 12, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.hashCost = hashCost
        self.now = now
        decoyHash = Bcrypt.hash(RandomToken.secret(), cost: hashCost)
    }

    /// Emails are compared as one address however they are typed: without surrounding spaces, in Unicode's composed
    /// form (NFC: "é" typed as e + accent is the same letter) and case-folded ("Straße" is "strasse").
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
    }

    @discardableResult
    public func create(_ new: NewAccount) async throws -> Account {
        let email = Self.normalizedEmail(new.email)
        let firstName = new.firstName.trimmingCharacters(in: .whitespacesAndNewlines)
        let lastName = new.lastName.trimmingCharacters(in: .whitespacesAndNewlines)
        let nickname = new.nickname?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        try Self.validate(email: email, password: new.password, names: [
            ("first name", firstName, true), ("last name", lastName, true), ("nickname", nickname, false),
        ])
        // A taken email is refused before any hashing: a failing sign-up costs no bcrypt.
        if try await store.account(email: email) != nil { throw AccountError(description: StoreError.emailTaken(email).description) }
        let hash = try await Self.offloaded { [hashCost] in Bcrypt.hash(new.password, cost: hashCost) }
        let account = Account(key: RandomToken.accountKey(), email: email, passwordHash: hash, firstName: firstName,
                              lastName: lastName, nickname: nickname.isEmpty ? firstName : nickname, createdAt: now())
        do {
            try await store.createAccount(account)
        } catch let error as StoreError {
            throw AccountError(description: error.description)
        }
        return account
    }

    /// The account if the password is its own; nil for an unknown email or a wrong password alike.
    public func verify(email: String, password: String) async throws -> Account? {
        let account = try await store.account(email: Self.normalizedEmail(email))
        let hash = account?.passwordHash ?? decoyHash
        let matches = try await Self.offloaded { Bcrypt.verify(password, hash: hash) }
        return matches ? account : nil
    }

    private static func validate(email: String, password: String, names: [(String, String, Bool)]) throws {
        if let problem = InputText.problem(email, maximum: maximumEmailLength) {
            throw AccountError(description: problem.message("The email"))
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(where: \.isWhitespace) else {
            throw AccountError(description: "\"\(email)\" is not an email address (name@example.org).")
        }
        if password.unicodeScalars.contains("\0") {
            throw AccountError(description: InputText.containsNUL.message("The password"))
        }
        guard password.unicodeScalars.count >= minimumPasswordLength else {
            throw AccountError(description: "The password needs at least \(minimumPasswordLength) characters.")
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw AccountError(description: "The password is too long: at most \(maximumPasswordBytes) bytes.")
        }
        for (label, value, required) in names {
            if required && value.isEmpty { throw AccountError(description: "The \(label) is missing.") }
            if let problem = InputText.problem(value, maximum: maximumNameLength) {
                throw AccountError(description: problem.message("The \(label)"))
            }
        }
        if let problem = PasswordPolicy.problem(with: password, email: email, names: names.map(\.1)) {
            throw AccountError(description: problem)
        }
    }

    private static func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(work)
    }
}
