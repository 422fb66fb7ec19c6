package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a start refused by the OTEL_* variables says. */
class TracingConfigTest {

    @Test
    void grpc_is_refused_naming_the_protocol_that_works() {
        System.setProperty("otel.exporter.otlp.protocol", "grpc");
        try {
            assertThatThrownBy(() -> Tracing.of(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317"),
                    System.getProperties())).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("http/protobuf").hasMessageContaining("4318");
        } finally {
            System.clearProperty("otel.exporter.otlp.protocol");
        }
    }
}
