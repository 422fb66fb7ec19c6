package io.polyrag.core.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checks every connector's settings go through first: no unknown key, true-or-false flags. */
class SourceConnectorChecksTest {

    @Test
    void an_unknown_setting_is_refused_naming_the_known_ones() {
        SourceConnector.onlyKeys(Map.of("root", "/srv"), "a filesystem setting", List.of("root", "include"));
        assertThatThrownBy(() -> SourceConnector.onlyKeys(Map.of("rot", "/srv"), "a filesystem setting",
                List.of("root", "include"))).isInstanceOf(InvalidInputException.class)
                .hasMessage("'config.rot' is not a filesystem setting: use root, include");
    }

    @Test
    void a_flag_is_true_or_false_its_fallback_when_absent_and_nothing_else() {
        assertThat(SourceConnector.flag(Map.of(), "skip_graph", false)).isFalse();
        assertThat(SourceConnector.flag(Map.of("skip_graph", true), "skip_graph", false)).isTrue();
        assertThatThrownBy(() -> SourceConnector.flag(Map.of("skip_graph", "yes"), "skip_graph", false))
                .isInstanceOf(InvalidInputException.class).hasMessage("'config.skip_graph' must be true or false");
    }
}
