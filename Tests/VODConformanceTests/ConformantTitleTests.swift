import Foundation
import Testing
@testable import VODConformance

@Suite struct ConformantTitleTests {
    @Test func conformantTitleHasNoViolations() throws {
        let title = try TestTitle.conformant.get()
        let report = HLSConformance.check(masterURL: title.master)
        #expect(report.violations.map(\.description) == [])
        print(report.violations)
    }
}
