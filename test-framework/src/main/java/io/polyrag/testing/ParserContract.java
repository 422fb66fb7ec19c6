package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Block;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The contract every {@link Parser} passes; an implementation's test is a short subclass. */
public abstract class ParserContract {
    protected abstract Parser parser();

    /** A small valid file of a type the parser accepts, whose text contains {@code phrase}. */
    protected abstract SourceItem sample(String phrase);

    @Test
    void a_valid_file_yields_blocks_whose_offsets_point_into_the_text() {
        ParsedDocument d = parser().parse(sample("the quick brown fox"));
        assertThat(d.text()).contains("the quick brown fox");
        assertThat(d.blocks()).isNotEmpty();
        for (Block b : d.blocks()) {
            assertThat(d.text().substring(b.start(), b.end())).isEqualTo(b.text());
        }
        assertThat(parser().mediaTypes()).contains(d.mediaType());
    }

    @Test
    void binary_garbage_is_refused_with_the_file_name_whatever_the_name_claims() {
        byte[] garbage = new byte[4096];
        new Random(3).nextBytes(garbage);
        SourceItem item = sample("x");
        assertThatThrownBy(() -> parser().parse(new SourceItem(item.uri(), item.name(), garbage, item.mediaType())))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith(item.name() + ":");
    }

    @Test
    void an_empty_file_is_refused_not_parsed_into_nothing() {
        SourceItem item = sample("x");
        assertThatThrownBy(() -> parser().parse(new SourceItem(item.uri(), item.name(), new byte[0],
                item.mediaType()))).isInstanceOf(InvalidInputException.class).hasMessageStartingWith(item.name());
    }

    @Test
    void parsing_is_deterministic() {
        assertThat(parser().parse(sample("same input"))).isEqualTo(parser().parse(sample("same input")));
    }

    @Test
    void the_sample_name_is_accepted_by_name() {
        assertThat(parser().acceptsName(sample("x").name())).isTrue();
    }

    protected static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
