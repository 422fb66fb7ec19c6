package io.polyrag.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Settings are declared once and read only through {@link Config}: this scans every module's main sources.
 * {@code docs/configuration.md} is generated from the declarations; regenerate it with
 * {@code ./mvnw -pl core test -Dtest=DeclaredSettingsTest -Dpolyrag.writeDocs=true}.
 */
class DeclaredSettingsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern ENV_NAME = Pattern.compile("POLYRAG_[A-Z0-9_]+");

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> s = Files.walk(ROOT)) {
            return s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/node_modules/") && !p.toString().contains("/target/"))
                    .toList();
        }
    }

    @Test
    void no_code_reads_the_environment_or_system_properties_except_the_config_loader() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path p : mainSources()) {
            String src = Files.readString(p, StandardCharsets.UTF_8);
            // The test framework reads the test harness's own variables (POLYRAG_TEST_*: which servers to test against).
            boolean loader = p.endsWith("io/polyrag/core/config/Config.java")
                    || p.toString().contains("/test-framework/");
            if (!loader && (src.contains("System.getenv(") || src.contains("System.getProperty(\"polyrag"))) {
                offenders.add(ROOT.relativize(p).toString());
            }
        }
        assertThat(offenders).as("files reading settings outside Config").isEmpty();
        assertThat(mainSources()).as("the scan found the sources").hasSizeGreaterThan(20);
    }

    @Test
    void every_polyrag_variable_named_in_code_or_docs_is_declared() throws IOException {
        Set<String> declared = Settings.all().stream().map(Setting::env).collect(Collectors.toSet());
        List<Path> files = new ArrayList<>(mainSources());
        try (Stream<Path> s = Files.walk(ROOT, 3)) {
            s.filter(p -> p.toString().endsWith(".md") || p.getFileName().toString().equals("polyrag")
                    || p.toString().endsWith("/.ci/run")).filter(p -> !p.toString().contains("/target/"))
                    .forEach(files::add);
        }
        List<String> undeclared = new ArrayList<>();
        for (Path p : files) {
            Matcher m = ENV_NAME.matcher(Files.readString(p, StandardCharsets.UTF_8));
            while (m.find()) {
                if (!declared.contains(m.group()) && !m.group().equals("POLYRAG_")
                        && !m.group().startsWith("POLYRAG_TEST_")) {
                    undeclared.add(ROOT.relativize(p) + ": " + m.group());
                }
            }
        }
        assertThat(undeclared).as("POLYRAG_ names that no Setting declares").isEmpty();
    }

    @Test
    void the_configuration_reference_is_generated_from_the_declarations() throws IOException {
        Path doc = ROOT.resolve("docs/configuration.md");
        String expected = ConfigDocs.markdown();
        if (Boolean.getBoolean("polyrag.writeDocs")) {
            Files.writeString(doc, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(doc)).as(doc + " exists").isTrue();
        assertThat(Files.readString(doc, StandardCharsets.UTF_8))
                .as("docs/configuration.md is stale: regenerate it with ./mvnw -pl core test "
                        + "-Dtest=DeclaredSettingsTest -Dpolyrag.writeDocs=true")
                .isEqualTo(expected);
    }
}
