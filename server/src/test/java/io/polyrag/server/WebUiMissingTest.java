package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A build made without Node has no UI: {@code /} then says so and how to get it, under the same headers. */
class WebUiMissingTest {
    @Test
    void without_the_built_ui_the_root_says_how_to_get_it() throws Exception {
        Javalin app = Javalin.create(c -> WebUi.register(c, false));
        app.start("127.0.0.1", 0);
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + app.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith(
                    "text/html"));
            assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(WebUi.CSP);
            assertThat(r.body()).contains("has no web UI").contains("Node.js 20").contains("/v1/openapi.json");
        } finally {
            app.stop();
        }
    }
}
