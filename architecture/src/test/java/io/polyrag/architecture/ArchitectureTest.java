package io.polyrag.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What modules may not see, checked on the compiled classes of every module (this module comes last in the build and
 * its class path holds all of them, bench included). Adapters are found, not listed: every package under
 * {@code io.polyrag.store}, {@code io.polyrag.model}, {@code io.polyrag.source} and {@code io.polyrag.parsers} is one,
 * so a new adapter module is
 * checked without anyone remembering to add it. Maven's module graph already forbids most edges; these rules pin the
 * rest and fail with the offending class and dependency.
 */
class ArchitectureTest {
    private static final String CORE = "io.polyrag.core..";
    private static final List<String> PIPELINES = List.of("io.polyrag.ingest..", "io.polyrag.retrieval..");
    private static final List<String> SURFACES = List.of("io.polyrag.server..", "io.polyrag.cli..",
            "io.polyrag.mcp..", "io.polyrag.eval..");
    private static final String BENCH = "io.polyrag.bench..";
    private static final String APP = "io.polyrag.app..";
    private static JavaClasses classes;
    private static List<String> adapters;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.polyrag");
        org.assertj.core.api.Assertions.assertThat(classes.size()).as("application classes found").isGreaterThan(80);
        adapters = classes.stream().map(c -> c.getPackageName()).map(ArchitectureTest::adapterOf)
                .filter(java.util.Objects::nonNull).distinct().sorted().toList();
        org.assertj.core.api.Assertions.assertThat(adapters).as("adapters found").contains("io.polyrag.store.lucene..",
                "io.polyrag.model.onnx..", "io.polyrag.parsers..", "io.polyrag.source.folder..",
                "io.polyrag.source.web..", "io.polyrag.source.s3..");
        org.assertj.core.api.Assertions.assertThat(classes.stream().anyMatch(c -> c.getPackageName()
                .startsWith("io.polyrag.bench"))).as("bench classes are checked too").isTrue();
    }

    /** The adapter a package belongs to ({@code io.polyrag.store.lucene..}), or null when it is no adapter's. */
    private static String adapterOf(String pkg) {
        String[] p = pkg.split("\\.");
        if (p.length >= 4 && p[0].equals("io") && p[1].equals("polyrag") && (p[2].equals("store")
                || p[2].equals("model") || p[2].equals("source"))) {
            return "io.polyrag." + p[2] + "." + p[3] + "..";
        }
        return pkg.equals("io.polyrag.parsers") || pkg.startsWith("io.polyrag.parsers.") ? "io.polyrag.parsers.."
                : null;
    }

    /** Package patterns from strings and lists of strings, flattened. */
    private static String[] all(Object... parts) {
        return Stream.of(parts).flatMap(p -> p instanceof List<?> l ? l.stream().map(String::valueOf)
                : Stream.of(String.valueOf(p))).toArray(String[]::new);
    }

    @Test
    void core_sees_nothing_but_itself() {
        noClasses().that().resideInAPackage(CORE).should().dependOnClassesThat()
                .resideInAnyPackage(all(adapters, PIPELINES, APP, SURFACES, BENCH))
                .check(classes);
    }

    @Test
    void adapters_see_core_only_never_each_other() {
        for (String adapter : adapters) {
            List<String> others = adapters.stream().filter(a -> !a.equals(adapter)).toList();
            noClasses().that().resideInAPackage(adapter).should().dependOnClassesThat()
                    .resideInAnyPackage(all(others, PIPELINES, APP, SURFACES, BENCH))
                    .check(classes);
        }
    }

    @Test
    void every_adapter_module_carries_the_marker_that_turns_on_its_maven_boundary() throws java.io.IOException {
        // The enforcer's bannedDependencies rule runs in modules that hold a .adapter file: one that lacks it fails.
        java.nio.file.Path root = java.nio.file.Path.of("").toAbsolutePath().getParent();
        List<java.nio.file.Path> modules;
        try (Stream<java.nio.file.Path> poms = java.nio.file.Files.walk(root, 3)) {
            modules = poms.filter(p -> p.getFileName().toString().equals("pom.xml")).map(java.nio.file.Path::getParent)
                    .filter(d -> root.relativize(d).toString().matches("(stores|models|sources)/[^/]+|parsers")).toList();
        }
        org.assertj.core.api.Assertions.assertThat(modules).as("adapter modules under " + root).hasSizeGreaterThan(5)
                .allSatisfy(m -> org.assertj.core.api.Assertions.assertThat(m.resolve(".adapter")).exists());
    }

    @Test
    void the_pipelines_see_ports_not_adapters_or_front_doors() {
        noClasses().that().resideInAnyPackage(PIPELINES.toArray(String[]::new)).should().dependOnClassesThat()
                .resideInAnyPackage(all(adapters, SURFACES, APP, BENCH)).check(classes);
        noClasses().that().resideInAPackage("io.polyrag.ingest..").should().dependOnClassesThat()
                .resideInAPackage("io.polyrag.retrieval..").check(classes);
        noClasses().that().resideInAPackage("io.polyrag.retrieval..").should().dependOnClassesThat()
                .resideInAPackage("io.polyrag.ingest..").check(classes);
    }

    @Test
    void front_doors_go_through_the_facade_only() {
        noClasses().that().resideInAnyPackage(SURFACES.toArray(String[]::new)).should().dependOnClassesThat()
                .resideInAnyPackage(all(adapters, PIPELINES, BENCH)).check(classes);
        noClasses().that().resideInAPackage(APP).should().dependOnClassesThat()
                .resideInAnyPackage(all(adapters, SURFACES, BENCH)).check(classes);
    }

    @Test
    void front_doors_never_import_each_other() {
        // The command line serves the REST API and MCP through the facade's HttpFrontDoor and McpFrontDoor, found by
        // ServiceLoader; the MCP tools reach polyrag over HTTP only.
        List<String> doors = List.of("io.polyrag.cli..", "io.polyrag.server..", "io.polyrag.mcp..");
        for (String door : doors) {
            noClasses().that().resideInAPackage(door).should().dependOnClassesThat()
                    .resideInAnyPackage(doors.stream().filter(d -> !d.equals(door)).toArray(String[]::new))
                    .check(classes);
        }
        org.assertj.core.api.Assertions.assertThat(classes.stream().anyMatch(c -> c.getPackageName()
                .equals("io.polyrag.mcp"))).as("MCP classes are checked too").isTrue();
    }

    @Test
    void the_mcp_tools_hold_no_business_logic_they_call_the_rest_api() {
        noClasses().that().resideInAPackage("io.polyrag.mcp..").should().dependOnClassesThat()
                .resideInAnyPackage("io.polyrag.app.wire..", "io.polyrag.core.model..", "io.polyrag.core.port..")
                .check(classes);
        noClasses().that().resideInAPackage("io.polyrag.mcp..").should().dependOnClassesThat()
                .haveFullyQualifiedName("io.polyrag.app.Polyrag").check(classes);
    }

    /** The Java client is what other programs put on their class path: the REST API's wire, none of the engine. */
    @Test
    void the_client_sees_no_other_polyrag_package() {
        org.assertj.core.api.Assertions.assertThat(classes.stream().anyMatch(c -> c.getPackageName()
                .startsWith("io.polyrag.client"))).as("the client's classes are checked").isTrue();
        noClasses().that().resideInAPackage("io.polyrag.client..").should().dependOnClassesThat()
                .resideInAnyPackage(all(CORE, adapters, PIPELINES, APP, SURFACES, BENCH))
                .check(classes);
    }

    /** The framework integrations reach polyrag through the client only: never the engine. */
    @Test
    void the_integrations_see_the_client_only() {
        org.assertj.core.api.Assertions.assertThat(classes.stream().anyMatch(c -> c.getPackageName()
                .startsWith("io.polyrag.langchain4j"))).as("the LangChain4j integration is checked").isTrue();
        org.assertj.core.api.Assertions.assertThat(classes.stream().anyMatch(c -> c.getPackageName()
                .startsWith("io.polyrag.springai"))).as("the Spring AI integration is checked").isTrue();
        noClasses().that().resideInAnyPackage("io.polyrag.langchain4j..", "io.polyrag.springai..").should()
                .dependOnClassesThat().resideInAnyPackage(all(CORE, adapters, PIPELINES, APP, SURFACES, BENCH))
                .check(classes);
    }

    @Test
    void there_are_no_package_cycles() {
        slices().matching("io.polyrag.(*)..").should().beFreeOfCycles().check(classes);
    }
}
