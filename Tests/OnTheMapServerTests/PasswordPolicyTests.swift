import Foundation
@testable import OnTheMapServer
import Synchronization
import XCTest

/// The password check sign-up and `user add` share, against the real libpwquality and cracklib dictionary.
final class PasswordPolicyTests: XCTestCase {
    private let email = "ada.lovelace@example.org"
    private let names = ["Ada", "Lovelace", "Countess"]

    private func problem(_ password: String, email: String? = nil, names: [String]? = nil) -> String? {
        PasswordPolicy.problem(with: password, email: email ?? self.email, names: names ?? self.names)
    }

    func testAStrongPasswordIsAccepted() {
        XCTAssertNil(problem("Correct-Horse-Battery-9"))
    }

    func testDictionaryWordsAreRefusedAsTooCommon() {
        for password in ["password", "qwertyuiop", "letmein123"] {
            XCTAssertEqual(problem(password),
                           "This password is too common: choose one that is not based on a dictionary word.",
                           password)
        }
    }

    func testANumberRunIsRefusedAsTooSimple() {
        XCTAssertEqual(problem("12345678")?.hasPrefix("This password is too simple:"), true)
    }

    func testThePasswordNeedsTheServersMinimumLength() {
        XCTAssertEqual(problem("xK9#qT2", names: []),
                       "The password needs at least \(AccountRegistry.minimumPasswordLength) characters.")
    }

    func testTheEmailsPiecesAreRefusedEvenWithoutNames() {
        XCTAssertEqual(problem("AdaLovelace1!", names: []),
                       "The password is too similar to your email: choose one that does not contain it.")
    }

    func testTheWholeEmailIsRefused() {
        XCTAssertEqual(problem("Mine:ADA.LOVELACE@example.org", names: []),
                       "The password contains your email: choose one that does not.")
    }

    func testTheEmailBackwardsIsRefusedByLibpwquality() {
        // "reppohg" is "ghopper" reversed: no piece of the email is in it, libpwquality's user check finds it.
        XCTAssertEqual(problem("Blue-Reppohg-77", email: "ghopper@example.org", names: []),
                       "The password is too similar to your email: choose one that does not contain it.")
    }

    func testANameOfThreeOrMoreLettersIsRefused() {
        XCTAssertEqual(problem("Amazing-Countess-1815"), "The password contains your name: choose one that does not.")
    }

    func testShorterNamesAreNotRefused() {
        XCTAssertNil(problem("Always-Alert-Otter-7", email: "al@example.org", names: ["Al", "Bo"]))
    }

    func testAPalindromeIsRefused() {
        XCTAssertEqual(problem("xk7!Qm22mQ!7kx", names: []),
                       "The password reads the same backwards: choose one that does not.")
    }

    func testNoMessageRepeatsThePassword() {
        let refused = ["password", "12345678", "qwertyuiop", "letmein123", "AdaLovelace1!", "xk7!Qm22mQ!7kx",
                       "Amazing-Countess-1815", "Mine:ada.lovelace@example.org", "xK9#qT2"]
        for password in refused {
            let message = problem(password)
            XCTAssertNotNil(message, password)
            // Every sentence says "password", which is also one of the refused passwords.
            let rest = message?.lowercased().replacingOccurrences(of: "password", with: "")
            XCTAssertFalse(rest?.contains(password.lowercased()) ?? true, password)
        }
    }

    /// cracklib holds one dictionary handle per process: without taking turns, concurrent checks fail.
    func testConcurrentChecksAllReachTheDictionary() {
        let verdicts = Mutex<[String?]>([])
        let (email, names) = (email, names)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let password = index.isMultiple(of: 2) ? "Correct-Horse-Battery-9" : "letmein123"
            let verdict = PasswordPolicy.problem(with: password, email: email, names: names)
            verdicts.withLock { $0.append(verdict) }
        }
        let all = verdicts.withLock { $0 }
        XCTAssertEqual(all.count, 400)
        XCTAssertEqual(all.filter { $0 == nil }.count, 200, "a strong password was refused: \(Set(all.compactMap { $0 }))")
        XCTAssertEqual(Set(all.compactMap { $0 }),
                       ["This password is too common: choose one that is not based on a dictionary word."])
    }
}
