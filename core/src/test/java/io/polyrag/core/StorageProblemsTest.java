package io.polyrag.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StorageProblemsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "No space left on device|no space left on device at /d/fulltext (the full-text index could not write): free",
        "Read-only file system|cannot write to /d/fulltext (the full-text index could not write): the folder is read-only",
        "codec footer mismatch (resource=/d/fulltext/_0.cfs)|the full-text index at /d/fulltext is damaged (codec footer",
        "Problem reading index from /d/fulltext|the full-text index at /d/fulltext is damaged",
        "something else|the full-text index at /d/fulltext could not write: wrapper"})
    void names_the_cause_the_place_and_the_fix(String cause, String expected) {
        Exception e = new RuntimeException("wrapper", new IOException(cause));
        assertThat(StorageProblems.describe("full-text index", "/d/fulltext", "write", e)).startsWith(expected);
    }

    @ParameterizedTest
    @CsvSource({"No space left on device", "codec footer mismatch"})
    void a_damaged_index_names_the_repair_and_a_full_disk_says_what_is_kept(String cause) {
        String line = StorageProblems.describe("vector index", "/d/vector", "open", new IOException(cause));
        assertThat(line).containsAnyOf("polyrag check --repair", "what was committed before is kept");
    }

    @org.junit.jupiter.api.Test
    void an_access_denied_file_is_named() {
        FileSystemException denied = new AccessDeniedException("/d/vector/_p.fdm");
        assertThat(StorageProblems.describe("vector index", "/d/vector", "write", denied))
                .startsWith("cannot write to /d/vector").contains("(/d/vector/_p.fdm)").contains("fix its permissions");
    }

    @org.junit.jupiter.api.Test
    void an_outage_is_told_from_a_refusal() {
        assertThat(StorageProblems.unreachable(new StoreException("x", new java.net.ConnectException("refused"))))
                .isTrue();
        assertThat(StorageProblems.unreachable(new java.sql.SQLException("io", "08006"))).isTrue();
        assertThat(StorageProblems.unreachable(new java.sql.SQLException("terminating connection", "57P01"))).isTrue();
        assertThat(StorageProblems.unreachable(new StoreException("w", new java.sql.SQLException("Connection is closed"))))
                .as("HikariCP's closed proxy").isTrue();
        assertThat(StorageProblems.unreachable(new java.sql.SQLTransientConnectionException("pool timed out")))
                .isTrue();
        assertThat(StorageProblems.unreachable(new UnavailableException("endpoint down"))).isTrue();
        assertThat(StorageProblems.unreachable(new java.net.SocketException("Connection reset"))).isTrue();
        assertThat(StorageProblems.unreachable(new StoreException("stage", new java.sql.SQLException(
                "canceling statement due to lock timeout", "55P03")))).isTrue();
        assertThat(StorageProblems.unreachable(new java.sql.SQLException("Timeout trying to lock table", "HYT00")))
                .isTrue();
        assertThat(StorageProblems.unreachable(new java.sql.SQLException("syntax error at or near", "42601")))
                .isFalse();
        assertThat(StorageProblems.unreachable(new StoreException("no space left on device"))).isFalse();
        assertThat(StorageProblems.unreachable(new IllegalStateException("bad"))).isFalse();
        // Not a read timeout: one batch too large for the store times out every time, and a job would wait for good.
        assertThat(StorageProblems.unreachable(new StoreException("bulk", new java.net.SocketTimeoutException(
                "Read timed out")))).isFalse();
        // A connect timeout is: Apache HttpClient's is a SocketTimeoutException by class (OpenSearch's transport).
        assertThat(StorageProblems.unreachable(new StoreException("bulk", new ConnectTimeoutException(
                "Connect to http://10.0.0.9:9200 failed: Connect timed out")))).isTrue();
        assertThat(StorageProblems.unreachable(new StoreException("word", new StoreException("refused")))).isFalse();
    }

    /** Words a budget and usage count by: four characters of prose a token, a Chinese character one. */
    @org.junit.jupiter.api.Test
    void tokens_are_estimated_by_script() {
        assertThat(io.polyrag.core.model.TokenEstimate.tokens("abcdefgh")).isEqualTo(2);
        assertThat(io.polyrag.core.model.TokenEstimate.tokens("发酵面团")).isEqualTo(4);
        assertThat(io.polyrag.core.model.TokenEstimate.tokens("")).isZero();
        assertThat(io.polyrag.core.model.TokenEstimate.proseChars(null)).isZero();
    }

    /** Named as Apache HttpClient's (org.apache.hc.client5.http.ConnectTimeoutException), which core does not see. */
    private static final class ConnectTimeoutException extends java.net.SocketTimeoutException {
        private static final long serialVersionUID = 1L;

        ConnectTimeoutException(String message) {
            super(message);
        }
    }
}
