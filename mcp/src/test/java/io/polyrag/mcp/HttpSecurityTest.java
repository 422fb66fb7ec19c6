package io.polyrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.McpFrontDoor;
import io.polyrag.core.config.Config;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The networked transports' guards, over real HTTP: bearer JWTs verified against a JWKS served by a local HTTP server
 * and signed with a test key (valid, expired, not yet valid, wrong issuer, wrong audience, wrong key, unsigned, none),
 * every rejection the same 401; and the Origin and Host validator the SDK leaves off by default.
 */
class HttpSecurityTest {
    private static final String ISSUER = "https://idp.example.test";
    private static final String AUDIENCE = "polyrag-mcp";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private HttpServer jwks;
    private RSAKey key;
    private McpFrontDoor mcp;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        key = new RSAKeyGenerator(2048).keyID("test-key").generate();
        byte[] published = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwks.createContext("/jwks.json", ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, published.length);
            ex.getResponseBody().write(published);
            ex.close();
        });
        jwks.start();
        Config config = Config.load(Map.of(), Map.of("mcp.jwt.jwks.url", "http://127.0.0.1:" + jwks.getAddress()
                .getPort() + "/jwks.json", "mcp.jwt.issuer", ISSUER, "mcp.jwt.audience", AUDIENCE));
        mcp = new McpServers().start(new McpFrontDoor.Options("streamable-http", URI.create("http://127.0.0.1:9"),
                null, "127.0.0.1", 0, null, null, config));
    }

    @AfterEach
    void stop() {
        mcp.close();
        jwks.stop(0);
    }

    @Test
    void only_a_valid_token_from_the_identity_provider_gets_in_and_every_rejection_looks_the_same() throws Exception {
        Instant now = Instant.now();
        assertThat(post(signed(key, claims(now).build())).statusCode()).as("a valid token").isEqualTo(200);
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("expired", signed(key, claims(now).expirationTime(Date.from(now.minusSeconds(600))).build()));
        bad.put("not yet valid", signed(key, claims(now).notBeforeTime(Date.from(now.plusSeconds(600))).build()));
        bad.put("wrong issuer", signed(key, claims(now).issuer("https://evil.example").build()));
        bad.put("wrong audience", signed(key, claims(now).audience("another-service").build()));
        bad.put("wrong key", signed(new RSAKeyGenerator(2048).keyID("test-key").generate(), claims(now).build()));
        bad.put("unsigned (alg none)", new PlainJWT(claims(now).build()).serialize());
        bad.put("no expiry", signed(key, claims(now).expirationTime(null).build()));
        bad.put("garbage", "not.a.token");
        bad.put("none at all", null);
        String body = null;
        for (var e : bad.entrySet()) {
            HttpResponse<String> r = post(e.getValue());
            assertThat(r.statusCode()).as(e.getKey()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).as(e.getKey()).hasValue("Bearer");
            if (body == null) {
                body = r.body();
            }
            assertThat(r.body()).as("%s: the same answer as every other rejection", e.getKey()).isEqualTo(body);
        }
        assertThat(body).doesNotContain("expired").doesNotContain("issuer").doesNotContain("audience");
    }

    /** An access token typed at+jwt (RFC 9068) is a token like any other; a JWKS URL without an audience is refused. */
    @Test
    void an_rfc_9068_access_token_gets_in_and_a_jwks_url_without_an_audience_does_not_start() throws Exception {
        SignedJWT typed = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(new com.nimbusds.jose.JOSEObjectType("at+jwt")).build(), claims(Instant.now()).build());
        typed.sign(new RSASSASigner(key));
        assertThat(post(typed.serialize()).statusCode()).isEqualTo(200);
        SignedJWT spelledOut = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(new com.nimbusds.jose.JOSEObjectType("application/at+jwt")).build(), claims(Instant.now())
                .build());
        spelledOut.sign(new RSASSASigner(key));
        assertThat(post(spelledOut.serialize()).statusCode()).as("RFC 9068's other spelling").isEqualTo(200);
        Config open = Config.load(Map.of(), Map.of("mcp.jwt.jwks.url", "http://127.0.0.1:" + jwks.getAddress()
                .getPort() + "/jwks.json", "mcp.jwt.issuer", ISSUER));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new McpServers().start(new McpFrontDoor.Options(
                "streamable-http", URI.create("http://127.0.0.1:9"), null, "127.0.0.1", 0, null, null, open)))
                .isInstanceOf(io.polyrag.core.ConfigException.class).hasMessageContaining("POLYRAG_MCP_JWT_AUDIENCE");
    }

    /** A body past the stdio bound is refused unread (413): the SDK reads a body whole before parsing it. */
    @Test
    void a_body_past_the_limit_is_refused_unread_and_the_server_goes_on() throws Exception {
        String token = signed(key, claims(Instant.now()).build());
        byte[] huge = new byte[(int) McpServers.MAX_BODY_BYTES + 1024];
        java.util.Arrays.fill(huge, (byte) ' ');
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri()).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(huge)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(post(token).statusCode()).as("the next request is served").isEqualTo(200);
    }

    @Test
    void a_foreign_origin_or_host_is_refused_before_the_protocol_sees_it() throws Exception {
        String token = signed(key, claims(Instant.now()).build());
        HttpResponse<String> evil = send(HttpRequest.newBuilder(uri()).header("Authorization", "Bearer " + token)
                .header("Origin", "http://evil.example"));
        assertThat(evil.statusCode()).isEqualTo(403);
        assertThat(send(HttpRequest.newBuilder(uri()).header("Authorization", "Bearer " + token)
                .header("Origin", "http://localhost:5173")).statusCode()).as("a local web client").isEqualTo(200);
        assertThat(rawHostStatus("evil.example", token)).as("DNS rebinding: a foreign Host").isEqualTo(421);
    }

    private URI uri() {
        return URI.create("http://127.0.0.1:" + mcp.port() + "/mcp");
    }

    private static JWTClaimsSet.Builder claims(Instant now) {
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("agent-7")
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
    }

    private static String signed(RSAKey with, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(with.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(with));
        return jwt.serialize();
    }

    private HttpResponse<String> post(String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b);
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.header("Content-Type", "application/json").header("Accept",
                "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The JDK client will not send a Host header of our choosing; a socket will. */
    private int rawHostStatus(String host, String token) throws Exception {
        byte[] body = INITIALIZE.getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket("127.0.0.1", mcp.port())) {
            s.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(body);
            String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }
}
