package io.polyrag.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigTest {
    @Test
    void defaults_apply_when_nothing_is_set() {
        Config c = Config.load(Map.of(), Map.of());
        assertThat(c.get(Settings.FUSION_RRF_K)).isEqualTo(60);
        assertThat(c.get(Settings.VECTOR_BACKEND)).isEqualTo("lucene");
        assertThat(c.get(Settings.EMBEDDING_MODEL_DIR)).isNull();
        assertThat(c.origin(Settings.FUSION_RRF_K)).isEqualTo(Config.Origin.DEFAULT);
    }

    @Test
    void precedence_is_override_then_environment_then_file_then_default(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("polyrag.properties");
        Files.writeString(file, "fusion.rrf.k=10\nPOLYRAG_SEARCH_TOP_K=7\nsearch.candidates=99\n");
        Config c = Config.load(Map.of("POLYRAG_CONFIG_FILE", file.toString(), "POLYRAG_SEARCH_TOP_K", "8"),
                Map.of("search.candidates", "77"));
        assertThat(c.get(Settings.FUSION_RRF_K)).isEqualTo(10);
        assertThat(c.origin(Settings.FUSION_RRF_K)).isEqualTo(Config.Origin.FILE);
        assertThat(c.get(Settings.SEARCH_TOP_K)).isEqualTo(8);
        assertThat(c.origin(Settings.SEARCH_TOP_K)).isEqualTo(Config.Origin.ENVIRONMENT);
        assertThat(c.get(Settings.SEARCH_CANDIDATES)).isEqualTo(77);
        assertThat(c.origin(Settings.SEARCH_CANDIDATES)).isEqualTo(Config.Origin.OVERRIDE);
        // The file's line the environment shadows is named (the command line's, asked for there, is not).
        assertThat(c.warnings()).singleElement().asString().contains("search.top.k in config file")
                .contains("overridden by POLYRAG_SEARCH_TOP_K from the environment");
    }

    @Test
    void a_bad_value_names_the_setting_the_value_the_bound_and_the_fix() {
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_FUSION_RRF_K", "0"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("POLYRAG_FUSION_RRF_K='0' from the environment is out of range [1, 100000]")
                .hasMessageContaining("set it to a whole number in [1, 100000] (default 60)");
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_FUSION_WEIGHT_VECTOR", "heavy"), Map.of()))
                .hasMessageContaining("POLYRAG_FUSION_WEIGHT_VECTOR='heavy' from the environment is not a number");
        assertThatThrownBy(() -> Config.load(Map.of(), Map.of("fusion.method", "magic")))
                .hasMessageContaining("POLYRAG_FUSION_METHOD='magic' from the command line is not one of weighted, rrf");
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_VECTOR_ENABLED", "maybe"), Map.of()))
                .hasMessageContaining("set it to true or false");
    }

    @Test
    void every_problem_is_reported_at_once() {
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_FUSION_RRF_K", "x", "POLYRAG_HTTP_PORT", "70000"),
                Map.of())).hasMessageContaining("POLYRAG_FUSION_RRF_K").hasMessageContaining("POLYRAG_HTTP_PORT");
    }

    @Test
    void rules_across_settings_are_checked() {
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_VECTOR_ENABLED", "false",
                "POLYRAG_FULLTEXT_ENABLED", "false", "POLYRAG_GRAPH_ENABLED", "false", "POLYRAG_RDF_ENABLED", "false"),
                Map.of())).hasMessageContaining("at least one modality");
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_CHUNK_MAX_TOKENS", "64",
                "POLYRAG_CHUNK_OVERLAP_TOKENS", "64"), Map.of())).hasMessageContaining("must be below");
    }

    @Test
    void a_typo_in_the_config_file_is_an_error_with_a_suggestion(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("p.properties");
        Files.writeString(file, "fusion.rrf.kk=5\n");
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_CONFIG_FILE", file.toString()), Map.of()))
                .hasMessageContaining("unknown setting 'fusion.rrf.kk'").hasMessageContaining("did you mean fusion.rrf.k?");
    }

    @Test
    void an_unknown_environment_variable_is_a_warning_not_an_error() {
        Config c = Config.load(Map.of("POLYRAG_VECTOR_BACKEDN", "x", "HOME", "/root"), Map.of());
        assertThat(c.warnings()).singleElement().asString().contains("POLYRAG_VECTOR_BACKEDN")
                .contains("did you mean POLYRAG_VECTOR_BACKEND?");
    }

    @Test
    void a_missing_config_file_says_so() {
        assertThatThrownBy(() -> Config.load(Map.of("POLYRAG_CONFIG_FILE", "/nonexistent/p.properties"), Map.of()))
                .hasMessageContaining("does not name a readable file");
    }

    @Test
    void reading_an_undeclared_setting_fails() {
        Setting<String> rogue = Setting.string("rogue.setting", "x", "not declared");
        assertThatThrownBy(() -> Config.load(Map.of(), Map.of()).get(rogue))
                .hasMessageContaining("rogue.setting is not declared");
    }

    @Test
    void secrets_are_read_without_their_line_end_and_names_of_backends_as_their_lookups_match_them() {
        Config c = Config.load(Map.of(), Map.of("postgres.password", "pw\r\n", "s3.secret.key", " k\n",
                "catalog.backend", "H2 ", "llm.provider", "None", "data.dir", "~/polyrag-data"));
        assertThat(c.get(Settings.POSTGRES_PASSWORD)).isEqualTo("pw");
        assertThat(c.get(Settings.S3_SECRET_KEY)).isEqualTo("k");
        assertThat(c.get(Settings.CATALOG_BACKEND)).isEqualTo("h2");
        assertThat(c.get(Settings.LLM_PROVIDER)).isEqualTo("none");
        assertThat(c.get(Settings.DATA_DIR)).isEqualTo(Path.of(System.getProperty("user.home"), "polyrag-data"));
        assertThatThrownBy(() -> Config.load(Map.of(), Map.of("postgres.password", "p\nw")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_POSTGRES_PASSWORD=****")
                .hasMessageContaining("control character").hasMessageNotContaining("p\nw");
    }

    @Test
    void describe_lists_every_setting_with_its_origin_and_masks_secrets() {
        Setting<String> secret = Setting.string("x.key", "sk-123", "k").secret();
        assertThat(secret.isSecret()).isTrue();
        String d = Config.load(Map.of("POLYRAG_HTTP_PORT", "9000"), Map.of()).describe();
        assertThat(d).contains("POLYRAG_HTTP_PORT").contains("9000  [environment]").contains("[default]");
        assertThat(d.lines().count()).isEqualTo(Settings.all().size());
        // A password carried in a URL setting is masked too.
        String urls = Config.load(Map.of("POLYRAG_POSTGRES_URL", "jdbc:postgresql://db/polyrag?user=p&password=s3cret",
                "POLYRAG_LLM_BASE_URL", "https://bob:hunter2@llm.example/v1"), Map.of()).describe();
        assertThat(urls).doesNotContain("s3cret").doesNotContain("hunter2").contains("password=***")
                .contains("https://bob:***@llm.example/v1");
    }

    @Test
    void an_empty_value_is_kept_apart_from_an_unset_one_and_shown_as_such() {
        Config c = Config.load(Map.of("POLYRAG_EMBEDDING_QUERY_PREFIX", ""), Map.of());
        assertThat(c.get(Settings.EMBEDDING_QUERY_PREFIX)).isEmpty();
        assertThat(c.get(Settings.EMBEDDING_PASSAGE_PREFIX)).isNull();
        assertThat(c.describe()).containsPattern("POLYRAG_EMBEDDING_QUERY_PREFIX +\\(empty\\) +\\[environment]")
                .containsPattern("POLYRAG_EMBEDDING_PASSAGE_PREFIX +\\(unset\\) +\\[default]");
    }
}
