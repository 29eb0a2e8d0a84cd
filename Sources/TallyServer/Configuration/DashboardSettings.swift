import Foundation

/// Where the dashboard's files come from (`dashboard` in `tally-server.json`).
public struct DashboardSettings: Sendable, Hashable {
    /// Debian's `libjs-chart.js` (Chart.js 3, UMD build): the charts' library, served as `/dashboard/vendor/chart.js`.
    public static let defaultChartJSPath = "/usr/share/javascript/chart.js/chart.min.js"
    /// Chart.js's file (`dashboard.chartJS`); when it cannot be read, the dashboard shows tables only.
    public var chartJSPath: String
    /// A directory of the dashboard's HTML, CSS and JavaScript (`dashboard.files`); nil: the copy built with
    /// the binary (the TallyServer resource bundle beside the executable).
    public var filesDirectory: String?

    /// Creates settings.
    public init(chartJSPath: String = DashboardSettings.defaultChartJSPath, filesDirectory: String? = nil) {
        self.chartJSPath = chartJSPath
        self.filesDirectory = filesDirectory
    }
}
