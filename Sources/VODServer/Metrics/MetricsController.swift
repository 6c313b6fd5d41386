import Hummingbird
import VODCatalog

/// `GET /metrics`: every metric in the Prometheus text format, the queue gauges read from the catalog at each
/// scrape so that they are right across every process sharing it. Open like the other reads.
struct MetricsController: Sendable {
    static var contentType: String { "text/plain; version=0.0.4; charset=utf-8" }

    let metrics: ServiceMetrics
    let catalog: any MediaStore

    func addRoutes(to router: Router<VODRequestContext>) {
        router.get("metrics") { _, _ -> Response in
            let text = try await metrics.exposition(catalog: catalog)
            return Response(status: .ok, headers: [.contentType: Self.contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
