package io.polyrag.testing;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OpenTelemetry collector as far as a test needs one: OTLP over HTTP on 127.0.0.1, each export decoded with the
 * protocol's own message classes, every span kept. {@link #configure} points the SDK at it through the standard
 * settings' system-property form, which the SDK reads like the {@code OTEL_*} variables.
 */
public final class OtlpCollector implements AutoCloseable {
    private final HttpServer server;
    private final List<Span> spans = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    public OtlpCollector() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestURI().getPath() + " " + exchange.getRequestHeaders()
                    .getFirst("Content-Type"));
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(exchange.getRequestBody()
                    .readAllBytes());
            request.getResourceSpansList().forEach(r -> r.getScopeSpansList().forEach(s -> spans.addAll(
                    s.getSpansList())));
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, 0);
            exchange.close();
        });
        server.start();
    }

    /** Sends this JVM's spans here, exported every 100 ms, as service {@code service}. */
    public OtlpCollector configure(String service) {
        System.setProperty("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + server.getAddress().getPort());
        System.setProperty("otel.bsp.schedule.delay", "100");
        System.setProperty("otel.service.name", service);
        return this;
    }

    /** Every span received so far. */
    public List<Span> spans() {
        return spans;
    }

    /** The path and content type of every export request. */
    public List<String> requests() {
        return requests;
    }

    /** The spans of one trace (32 hex digits). */
    public List<Span> trace(String traceId) {
        return spans.stream().filter(s -> hex(s.getTraceId()).equals(traceId)).toList();
    }

    /** The one span named {@code name} whose parent is {@code parent}; fails naming what there is when not one. */
    public static Span only(List<Span> trace, String name, Span parent) {
        return trace.stream().filter(s -> s.getName().equals(name)).filter(s -> s.getParentSpanId().equals(parent
                .getSpanId())).reduce((a, b) -> {
                    throw new AssertionError("two spans named " + name);
                }).orElseThrow(() -> new AssertionError("no span " + name + " under " + parent.getName() + " in "
                        + trace.stream().map(Span::getName).toList()));
    }

    /** A span's attribute as text ("" when it has none). */
    public static String attribute(Span s, String key) {
        return s.getAttributesList().stream().filter(a -> a.getKey().equals(key)).map(KeyValue::getValue)
                .map(v -> v.hasStringValue() ? v.getStringValue() : v.hasIntValue() ? Long.toString(v.getIntValue())
                        : v.toString()).findFirst().orElse("");
    }

    /** Trace and span ids as hex. */
    public static String hex(ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    /** Stops receiving and clears the settings {@link #configure} made. */
    @Override
    public void close() {
        System.clearProperty("otel.exporter.otlp.endpoint");
        System.clearProperty("otel.bsp.schedule.delay");
        System.clearProperty("otel.service.name");
        server.stop(0);
    }
}
