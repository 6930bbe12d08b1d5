import CPwquality
import Foundation
import Synchronization

/// Whether a new password is good enough, for sign-up and `user add` alike: libpwquality's checks with
/// cracklib's dictionary, plus the student's own email and names. Its answer is one sentence a student
/// reads, and never repeats the password.
enum PasswordPolicy {
    /// cracklib opens its dictionary into one static handle per process, so two checks at once make one
    /// fail ("another dictionary already open"): checks take turns.
    private static let dictionaryTurn = Mutex(())

    /// Shorter names and email pieces turn up inside too many good passwords to refuse them.
    private static let shortestRefusedName = 3

    /// nil if the password is acceptable; otherwise what the student should change, in one sentence.
    static func problem(with password: String, email: String, names: [String]) -> String? {
        let lowered = password.lowercased()
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let localPart = address.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map(String.init) ?? ""
        if !address.isEmpty && lowered.contains(address) {
            return "The password contains your email: choose one that does not."
        }
        // "ada.lovelace" is in "AdaLovelace1!" piece by piece, which libpwquality's whole-name check misses.
        let emailPieces = localPart.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        if emailPieces.contains(where: { $0.count >= shortestRefusedName && $0.contains(where: \.isLetter)
                                         && lowered.contains($0) }) {
            return "The password is too similar to your email: choose one that does not contain it."
        }
        let refusedNames = names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
            .filter { $0.count >= shortestRefusedName }
        if refusedNames.contains(where: { lowered.contains($0) }) {
            return "The password contains your name: choose one that does not."
        }
        return libraryProblem(with: password, user: localPart)
    }

    /// libpwquality's verdict. Settings are made per call (about 8 µs with the config file read; measured),
    /// so no C state is shared between threads but cracklib's, which `dictionaryTurn` guards.
    private static func libraryProblem(with password: String, user: String) -> String? {
        guard let settings = pwquality_default_settings() else { return unavailable }
        defer { pwquality_free_settings(settings) }
        var configError: UnsafeMutableRawPointer?
        let configResult = pwquality_read_config(settings, nil, &configError)
        // A missing or odd /etc/security/pwquality.conf leaves the defaults; strerror frees what it allocated.
        if configResult != 0 { _ = libraryText(for: configResult, aux: configError) }
        pwquality_set_int_value(settings, PWQ_SETTING_MIN_LENGTH, Int32(AccountRegistry.minimumPasswordLength))
        // The server's policy holds whatever the host's PAM configuration turns off.
        pwquality_set_int_value(settings, PWQ_SETTING_DICT_CHECK, 1)
        pwquality_set_int_value(settings, PWQ_SETTING_USER_CHECK, 1)
        // Students are not accounts on this host: their email must not be looked up in /etc/passwd.
        pwquality_set_int_value(settings, PWQ_SETTING_GECOS_CHECK, 0)

        var aux: UnsafeMutableRawPointer?
        let result = dictionaryTurn.withLock { _ in
            pwquality_check(settings, password, nil, user.isEmpty ? nil : user, &aux)
        }
        guard result < 0 else { return nil }
        return sentence(for: result, aux: aux)
    }

    private static let unavailable =
        "The server cannot check passwords right now: try again later, or tell the course staff."

    private static func sentence(for error: Int32, aux: UnsafeMutableRawPointer?) -> String {
        switch error {
        case PWQ_ERROR_CRACKLIB_CHECK:
            return dictionarySentence(for: aux.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
        case PWQ_ERROR_MIN_LENGTH:
            return "The password needs at least \(AccountRegistry.minimumPasswordLength) characters."
        case PWQ_ERROR_USER_CHECK:
            return "The password is too similar to your email: choose one that does not contain it."
        case PWQ_ERROR_PALINDROME:
            return "The password reads the same backwards: choose one that does not."
        case PWQ_ERROR_MAX_CONSECUTIVE:
            return "The password repeats one character too many times in a row: break up the run."
        case PWQ_ERROR_MAX_SEQUENCE:
            return "The password has a long run like abcd or 4321: break it up."
        case PWQ_ERROR_MAX_CLASS_REPEAT:
            return "The password has too many characters of one kind in a row: mix in others."
        case PWQ_ERROR_MIN_CLASSES:
            return "The password needs more kinds of characters: mix lowercase, capitals, digits and symbols."
        case PWQ_ERROR_BAD_WORDS:
            return "The password contains a word this server does not allow: choose a different one."
        case PWQ_ERROR_EMPTY_PASSWORD:
            return "The password is missing."
        default:
            return "\(libraryText(for: error, aux: aux)): choose a different password."
        }
    }

    /// cracklib says why in its own words (fascist.c); the dictionary's absence is the server's fault.
    private static func dictionarySentence(for reason: String?) -> String {
        switch reason {
        case let reason? where reason.contains("error loading dictionary"):
            return unavailable
        case let reason? where reason.contains("simplistic"):
            return "This password is too simple: avoid keyboard runs and number sequences, and mix words, digits and symbols."
        case let reason? where reason.contains("DIFFERENT"):
            return "This password uses too few different characters: mix more letters, digits and symbols."
        default:
            return "This password is too common: choose one that is not based on a dictionary word."
        }
    }

    /// libpwquality's own message, into a buffer of ours (its static one is not thread safe).
    private static func libraryText(for error: Int32, aux: UnsafeMutableRawPointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { buffer in
            String(cString: pwquality_strerror(buffer.baseAddress, buffer.count, error, aux))
        }
    }
}
