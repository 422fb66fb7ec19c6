package io.polyrag.model.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Loading the model calls no one: the tokenizer library's telemetry (DJL's "call home") is switched off. */
class NoNetworkTest {
    @Test
    void loading_and_using_the_embedding_model_opens_no_network_connection() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaBin.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), NoNetworkChild.class.getName()).redirectErrorStream(false)
                .start();
        p.getErrorStream().transferTo(java.io.OutputStream.nullOutputStream());
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as("the child ran to the end").contains("done");
        assertThat(out.replace("done", "").strip()).as("addresses connected to").isEmpty();
    }
}
