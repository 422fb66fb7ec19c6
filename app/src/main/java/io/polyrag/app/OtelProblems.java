package io.polyrag.app;

import io.polyrag.core.ConfigException;
import java.util.function.Function;

/** What a start refused by the OTEL_* variables says. */
final class OtelProblems {
    private OtelProblems() {
    }

    /**
     * OTLP over HTTP only: the SDK's gRPC sender is not in this build, and asked for it the SDK said only
     * "Unexpected configuration error".
     */
    static void requireHttp(Function<String, String> get) {
        for (String protocol : new String[] {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"}) {
            if ("grpc".equalsIgnoreCase(String.valueOf(get.apply(protocol)).strip())) {
                throw new ConfigException(protocol + "=grpc: polyrag sends OTLP over HTTP only (its gRPC sender is "
                        + "not bundled): set it to http/protobuf and point OTEL_EXPORTER_OTLP_ENDPOINT at the "
                        + "collector's HTTP port (4318)");
            }
        }
    }

    /**
     * The SDK's complaint and its causes': the first alone was often "Unexpected configuration error". (A headers
     * setting's value, a token, is not in either: the SDK names the setting only.)
     */
    static String shown(Throwable e) {
        StringBuilder out = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !out.toString().contains(c.getMessage())) {
                out.append(" (").append(c.getMessage()).append(')');
            }
        }
        return out.toString();
    }
}
