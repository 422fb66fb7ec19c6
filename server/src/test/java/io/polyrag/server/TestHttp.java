package io.polyrag.server;

import io.polyrag.app.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** What the server tests share: sending a request, reading JSON, building a multipart body. */
final class TestHttp {
    private TestHttp() {
    }

    /** A multipart body and its boundary. */
    record Multipart(String boundary, String body, byte[] bytes) {
        Multipart(String boundary, String body) {
            this(boundary, body, null);
        }

        HttpRequest.BodyPublisher publisher() {
            return bytes != null ? HttpRequest.BodyPublishers.ofByteArray(bytes)
                    : HttpRequest.BodyPublishers.ofString(body, java.nio.charset.StandardCharsets.UTF_8);
        }

        String contentType() {
            return "multipart/form-data; boundary=" + boundary;
        }
    }

    /** One file part named {@code part}, after the given form fields. */
    static Multipart multipart(String part, String fileName, String content, Map<String, String> fields) {
        String boundary = "----polyrag" + System.nanoTime();
        StringBuilder sb = new StringBuilder();
        fields.forEach((k, v) -> sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"")
                .append(k).append("\"\r\n\r\n").append(v).append("\r\n"));
        sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(part)
                .append("\"; filename=\"").append(fileName).append("\"\r\nContent-Type: text/markdown\r\n\r\n")
                .append(content).append("\r\n--").append(boundary).append("--\r\n");
        return new Multipart(boundary, sb.toString());
    }

    /** One binary file part named {@code part} with its media type, after the given form fields. */
    static Multipart binary(String part, String fileName, String mediaType, byte[] content, Map<String, String> fields) {
        String boundary = "----polyrag" + System.nanoTime();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        StringBuilder sb = new StringBuilder();
        fields.forEach((k, v) -> sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"")
                .append(k).append("\"\r\n\r\n").append(v).append("\r\n"));
        sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(part)
                .append("\"; filename=\"").append(fileName).append("\"\r\nContent-Type: ").append(mediaType)
                .append("\r\n\r\n");
        out.writeBytes(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return new Multipart(boundary, null, out.toByteArray());
    }

    static HttpResponse<String> send(HttpClient http, HttpRequest.Builder b) {
        try {
            return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString(
                    java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        return Json.MAPPER.readTree(r.body());
    }
}
