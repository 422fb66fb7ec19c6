package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * An {@link Error} out of a route (a stack overflow in a parser, a class missing at run time) answers the same
 * problem+json internal error as an exception, not Jetty's empty 500.
 */
class HandlerErrorTest {
    @Test
    void an_error_in_a_handler_is_a_problem_with_an_error_id() throws Exception {
        Javalin app = Javalin.create(c -> {
            Api api = new Api(c.routes, ProblemMapper::guarded);
            api.get("/v1/overflow", ctx -> recurse(0));
            api.get("/v1/linkage", ctx -> {
                throw new NoClassDefFoundError("com/example/Missing");
            });
            ProblemMapper.register(c.routes, ProblemMapper.tooLarge(1 << 20));
        });
        app.start("127.0.0.1", 0);
        try {
            HttpClient http = HttpClient.newHttpClient();
            for (String path : new String[] {"/v1/overflow", "/v1/linkage"}) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + app.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(path).isEqualTo(500);
                assertThat(r.headers().firstValue("Content-Type")).as(path).hasValueSatisfying(t -> assertThat(t)
                        .startsWith(Http.PROBLEM));
                assertThat(r.body()).as(path).contains("\"status\":500").contains("error id")
                        .doesNotContain("Missing").doesNotContain("StackOverflow");
            }
        } finally {
            app.stop();
        }
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }
}
