package io.polyrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Argument tolerance: what clients send differs, the meaning must not. */
class ArgsTest {
    @Test
    void a_list_comes_as_a_list_a_json_array_string_a_comma_separated_string_or_one_bare_value() throws Exception {
        List<String> expected = List.of("/docs/a.md", "/docs/b b.pdf");
        assertThat(new Args(Map.of("paths", expected)).list("paths", 10)).isEqualTo(expected);
        assertThat(new Args(Map.of("paths", "[\"/docs/a.md\", \"/docs/b b.pdf\"]")).list("paths", 10))
                .isEqualTo(expected);
        assertThat(new Args(Map.of("paths", " /docs/a.md , /docs/b b.pdf ")).list("paths", 10)).isEqualTo(expected);
        assertThat(new Args(Map.of("paths", "/docs/a.md")).list("paths", 10)).containsExactly("/docs/a.md");
        assertThat(new Args(Map.of()).list("paths", 10)).isEmpty();
        assertThatThrownBy(() -> new Args(Map.of("paths", "[\"a\", ")).list("paths", 10)).isInstanceOf(Args.Bad.class)
                .hasMessageContaining("not valid JSON").extracting(e -> ((Args.Bad) e).field()).isEqualTo("paths");
        assertThatThrownBy(() -> new Args(Map.of("paths", "[1, 2]")).list("paths", 10)).isInstanceOf(Args.Bad.class);
        assertThatThrownBy(() -> new Args(Map.of("paths", "a,b,c")).list("paths", 2)).hasMessageContaining("at most 2");
    }

    @Test
    void an_object_comes_as_an_object_or_a_json_string() throws Exception {
        assertThat(new Args(Map.of("config", Map.of("fusion", "rrf"))).object("config")).containsEntry("fusion", "rrf");
        assertThat(new Args(Map.of("config", "{\"fusion\": \"rrf\", \"explain\": true}")).object("config"))
                .containsEntry("fusion", "rrf").containsEntry("explain", true);
        assertThat(new Args(Map.of("config", "")).object("config")).isEmpty();
        assertThatThrownBy(() -> new Args(Map.of("config", "[1]")).object("config")).hasMessageContaining("object");
        assertThatThrownBy(() -> new Args(Map.of("config", "{nope")).object("config"))
                .hasMessageContaining("not valid JSON");
    }

    @Test
    void numbers_and_booleans_may_come_as_strings_and_are_range_checked() throws Exception {
        assertThat(new Args(Map.of("top_k", "5")).integer("top_k", 8, 1, 100)).isEqualTo(5);
        assertThat(new Args(Map.of("top_k", 5.0)).integer("top_k", 8, 1, 100)).isEqualTo(5);
        assertThat(new Args(Map.of()).integer("top_k", 8, 1, 100)).isEqualTo(8);
        assertThatThrownBy(() -> new Args(Map.of("top_k", 5.5)).integer("top_k", 8, 1, 100))
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> new Args(Map.of("top_k", "1000")).integer("top_k", 8, 1, 100))
                .hasMessageContaining("between 1 and 100");
        // Past a long's range, as the SDK's JSON reader gives it: refused, not wrapped to its low 64 bits (8).
        java.math.BigInteger huge = java.math.BigInteger.TWO.pow(64).add(java.math.BigInteger.valueOf(8));
        assertThatThrownBy(() -> new Args(Map.of("top_k", huge)).integer("top_k", 8, 1, 100))
                .hasMessageContaining("between 1 and 100").hasMessageContaining("18446744073709551624");
        assertThatThrownBy(() -> new Args(Map.of("top_k", huge.negate().add(java.math.BigInteger.TEN)))
                .integer("top_k", 8, 1, 100)).hasMessageContaining("between 1 and 100");
        assertThat(new Args(Map.of("skip_graph", "true")).bool("skip_graph", false)).isTrue();
        assertThat(new Args(Map.of("skip_graph", false)).bool("skip_graph", true)).isFalse();
        assertThatThrownBy(() -> new Args(Map.of("skip_graph", "maybe")).bool("skip_graph", false))
                .hasMessageContaining("true or false");
    }

    /** A key a header cannot carry is refused by position, never quoted; a byte-order mark is dropped. */
    @Test
    void an_api_key_with_a_line_break_is_refused_without_quoting_it_and_a_bom_is_dropped() {
        assertThat(Backend.checkedKey("\uFEFFprk_abc123\n")).isEqualTo("prk_abc123");
        assertThat(Backend.checkedKey("  ")).isNull();
        assertThatThrownBy(() -> Backend.checkedKey("prk_secret\npart2")).isInstanceOf(
                io.polyrag.core.ConfigException.class).hasMessageContaining("POLYRAG_MCP_API_KEY holds U+000A at position 10")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> Backend.checkedKey("prk_s\u00e9cret")).hasMessageContaining("U+00E9")
                .hasMessageNotContaining("cret");
    }

    @Test
    void required_strings_unknown_names_and_oversized_values_are_named() {
        assertThatThrownBy(() -> new Args(Map.of("query", "  ")).string("query", true, 10))
                .hasMessageContaining("'query' is required");
        assertThatThrownBy(() -> new Args(Map.of("query", "x".repeat(11))).string("query", true, 10))
                .hasMessageContaining("at most 10");
        assertThatThrownBy(() -> new Args(Map.of("qeury", "x")).onlyKnown(java.util.Set.of("query")))
                .hasMessageContaining("unknown argument 'qeury'").hasMessageContaining("query");
    }
}
