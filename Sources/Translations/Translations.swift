#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CIntl
import Foundation

/// The gettext domain of both apps: one `po/` folder, one catalogue (meson's project name).
public let translationDomain = "virtual-tourist"

/// The user's language for `message`, a literal that xgettext finds (`--keyword=tr`); a
/// `StaticString` so no translated text is ever built by interpolation.
public func tr(_ message: StaticString) -> String {
    message.withUTF8Buffer { bytes in
        String(cString: dgettext(translationDomain, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)))
    }
}

/// The plural form of `singular`/`plural` for `count` in the user's language (`--keyword=trn:1,2`).
/// The texts carry the count as a format directive (`%d photos`), filled by `formatted`.
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int) -> String {
    singular.withUTF8Buffer { one in
        plural.withUTF8Buffer { many in
            String(cString: dngettext(translationDomain,
                                      UnsafeRawPointer(one.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      UnsafeRawPointer(many.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      UInt(max(0, count))))
        }
    }
}

/// `trn` with its count filled in, for the common "%d photos" shape.
public func trn(_ singular: StaticString, _ plural: StaticString, count: Int) -> String {
    formatted(trn(singular, plural, count), count)
}

public enum Translations {
    /// Takes the user's locale from the environment (LANG, LC_*, LANGUAGE) and binds the catalogue: the
    /// first of the installed prefix beside the executable (`bin/../share/locale`) and `XDG_DATA_DIRS`
    /// that holds one in a language the user reads. Call once, first thing in `main`.
    public static func setUp(environment: [String: String] = ProcessInfo.processInfo.environment) {
        setlocale(LC_ALL, "")
        let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        if let folder = catalogueFolder(languages: languages(environment: environment, messagesLocale: messages),
                                        environment: environment) {
            bindtextdomain(translationDomain, folder)
        }
        bind_textdomain_codeset(translationDomain, "UTF-8")
        textdomain(translationDomain)
        formattingLocale = localeOfCategory(LC_TIME)
        measuringLocale = localeOfCategory(LC_MEASUREMENT)
    }

    /// Numbers and dates as the user's locale writes them. Foundation's `Locale.current` does not read
    /// the POSIX locale on Linux, so it is built from what `setlocale` chose.
    nonisolated(unsafe) public private(set) static var formattingLocale = Locale(identifier: "en_001")
    /// Which units distances are given in (miles where the locale uses them).
    nonisolated(unsafe) public private(set) static var measuringLocale = Locale(identifier: "en_001")

    /// True where the user's locale measures roads in miles (en_US, en_GB …).
    public static var usesMiles: Bool {
        measuringLocale.measurementSystem != .metric
    }

    /// The catalogue folders gettext would try, in its order: LANGUAGE's list (which gettext reads only
    /// when the locale is not C), then the messages locale, each also without its country.
    static func languages(environment: [String: String], messagesLocale: String) -> [String] {
        guard messagesLocale != "C", messagesLocale != "POSIX" else { return [] }
        let named = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        let locale = messagesLocale.split(separator: ".").first.map(String.init) ?? messagesLocale
        return (named + [locale]).flatMap { [$0, String($0.prefix { $0 != "_" && $0 != "@" })] }
    }

    static func catalogueFolder(languages: [String], environment: [String: String]) -> String? {
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() ?? URL(fileURLWithPath: "/")
        let prefixShare = InstalledData.shareFolder(besideExecutable: executable).path
        // The XDG Base Directory default when XDG_DATA_DIRS is unset or empty.
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        for share in [prefixShare] + dataDirs {
            let folder = share + "/locale"
            if languages.contains(where: { FileManager.default.fileExists(
                atPath: "\(folder)/\($0)/LC_MESSAGES/\(translationDomain).mo") }) {
                return folder
            }
        }
        return nil
    }

    /// "de_DE.UTF-8@euro" → Locale "de_DE"; the C locale keeps international English (metric, 24-hour).
    private static func localeOfCategory(_ category: Int32) -> Locale {
        guard let name = setlocale(category, nil).map({ String(cString: $0) }), name != "C", name != "POSIX",
              !name.hasPrefix("C.") else {
            return Locale(identifier: "en_001")
        }
        let identifier = name.split(separator: ".").first.map { String($0.split(separator: "@").first ?? $0) } ?? name
        return Locale(identifier: identifier)
    }
}
