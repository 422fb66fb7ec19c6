package io.polyrag.model.opennlp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What of a chunk the extractor reads: each kind of non-prose blanked, plain prose left as it is. */
class ProseTest {
    @Test
    void code_links_addresses_and_emphasis_are_blanked_and_plain_prose_is_kept() {
        assertThat(Prose.of("Ada wrote:\n```rust\nlet s = String::from(x);\n```\nThen Babbage read it."))
                .doesNotContain("String::from").contains("Ada wrote:").contains("Then Babbage read it.");
        assertThat(Prose.of("See [the Kestrel manual](https://example.com/k9) today.")).isEqualTo(
                "See the Kestrel manual today.");
        assertThat(Prose.of("Call `Foo.bar()` first.")).isEqualTo("Call   first.");
        assertThat(Prose.of("Visit WWW.Example.COM/Path or ftp://files.example.org now.")).doesNotContain("Example")
                .doesNotContain("files").contains("Visit").contains("now.");
        assertThat(Prose.of("Write to marta@borealis.example for a quote.")).isEqualTo("Write to   for a quote.");
        assertThat(Prose.of("The *Morning Tern* sailed in __May__.")).isEqualTo("The Morning Tern sailed in May.");
        String plain = "Marta Lindqvist founded Borealis Instruments in Uppsala, e.g. in 1994 (or so).";
        assertThat(Prose.of(plain)).isEqualTo(plain);
        assertThat(Prose.of("# Heading words\nBody text.")).isEqualTo("\nBody text.");
    }
}
