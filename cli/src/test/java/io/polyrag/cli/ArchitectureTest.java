package io.polyrag.cli;

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
 * What modules may not see, checked on the compiled classes of the whole application (this module's class path holds
 * all of them). Maven's module graph already forbids most edges; these rules pin the rest and fail with the offending
 * class and dependency.
 */
class ArchitectureTest {
    private static final String CORE = "io.polyrag.core..";
    private static final List<String> ADAPTERS = List.of("io.polyrag.store..", "io.polyrag.model..",
            "io.polyrag.parsers..");
    private static final List<String> PIPELINES = List.of("io.polyrag.ingest..", "io.polyrag.retrieval..");
    private static final List<String> SURFACES = List.of("io.polyrag.server..", "io.polyrag.cli..",
            "io.polyrag.eval..");
    private static final String APP = "io.polyrag.app..";
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.polyrag");
        org.assertj.core.api.Assertions.assertThat(classes.size()).as("application classes found").isGreaterThan(80);
    }

    /** Package patterns from strings and lists of strings, flattened. */
    private static String[] all(Object... parts) {
        return Stream.of(parts).flatMap(p -> p instanceof List<?> l ? l.stream().map(String::valueOf)
                : Stream.of(String.valueOf(p))).toArray(String[]::new);
    }

    @Test
    void core_sees_nothing_but_itself() {
        noClasses().that().resideInAPackage(CORE).should().dependOnClassesThat()
                .resideInAnyPackage(all(ADAPTERS, PIPELINES, APP, SURFACES))
                .check(classes);
    }

    @Test
    void adapters_see_core_only_never_each_other() {
        List<String> each = List.of("io.polyrag.store.lucene..", "io.polyrag.store.jdbc..", "io.polyrag.store.kuzu..",
                "io.polyrag.store.neo4j..", "io.polyrag.store.rdf..", "io.polyrag.model.onnx..",
                "io.polyrag.model.llm..", "io.polyrag.model.opennlp..", "io.polyrag.parsers..");
        for (String adapter : each) {
            List<String> others = each.stream().filter(a -> !a.equals(adapter)).toList();
            noClasses().that().resideInAPackage(adapter).should().dependOnClassesThat()
                    .resideInAnyPackage(all(others, PIPELINES, APP, SURFACES))
                    .check(classes);
        }
    }

    @Test
    void the_pipelines_see_ports_not_adapters_or_front_doors() {
        noClasses().that().resideInAnyPackage(PIPELINES.toArray(String[]::new)).should().dependOnClassesThat()
                .resideInAnyPackage(all(ADAPTERS, SURFACES, APP)).check(classes);
        noClasses().that().resideInAPackage("io.polyrag.ingest..").should().dependOnClassesThat()
                .resideInAPackage("io.polyrag.retrieval..").check(classes);
        noClasses().that().resideInAPackage("io.polyrag.retrieval..").should().dependOnClassesThat()
                .resideInAPackage("io.polyrag.ingest..").check(classes);
    }

    @Test
    void front_doors_go_through_the_facade_only() {
        noClasses().that().resideInAnyPackage(SURFACES.toArray(String[]::new)).should().dependOnClassesThat()
                .resideInAnyPackage(all(ADAPTERS, PIPELINES)).check(classes);
        noClasses().that().resideInAPackage(APP).should().dependOnClassesThat()
                .resideInAnyPackage(all(ADAPTERS, SURFACES)).check(classes);
    }

    @Test
    void there_are_no_package_cycles() {
        slices().matching("io.polyrag.(*)..").should().beFreeOfCycles().check(classes);
    }
}
