package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Setting;
import io.polyrag.core.config.Settings;
import io.polyrag.core.spi.BlobStoreProvider;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.RdfStoreProvider;
import io.polyrag.core.spi.VectorStoreProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment files kept honest with the code, since no container can run here: every POLYRAG_* variable the
 * Dockerfile, the compose file and the Kubernetes manifests set is a declared setting and the whole set is a valid
 * configuration; every backend a setup names is a provider on the class path; ports and probes are the server's;
 * each compose profile starts one application (two for replicas) with the services it depends on, and replicas only
 * over networked stores with shared blobs, as docs/deploy.md requires.
 */
class DeploymentFilesTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z0-9_]+)(?::?[-?])?([^}]*)}");

    /** The Dockerfile's ENV, its continuation lines joined. */
    static Map<String, String> dockerfileEnv() throws IOException {
        String text = Files.readString(ROOT.resolve("Dockerfile")).replace("\\\n", " ");
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("ENV ")) {
                for (String pair : line.substring(4).trim().split("\\s+")) {
                    int eq = pair.indexOf('=');
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        return env;
    }

    /** Compose's ${VAR:-default} and ${VAR:?message} as a run without those variables set would see them. */
    static String interpolated(Object value) {
        Matcher m = INTERPOLATION.matcher(String.valueOf(value));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(0).contains(":?") ? "operator-key"
                    : m.group(2)));
        }
        m.appendTail(out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> composeServices() throws IOException {
        Map<String, Object> doc = new Yaml().load(Files.readString(ROOT.resolve("deploy/compose.yaml")));
        return (Map<String, Map<String, Object>>) doc.get("services");
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> environment(Map<String, Object> service) {
        Map<String, String> env = new TreeMap<>();
        ((Map<String, Object>) service.getOrDefault("environment", Map.of())).forEach((k, v) -> env.put(k,
                interpolated(v)));
        return env;
    }

    @SuppressWarnings("unchecked")
    static List<String> profiles(Map<String, Object> service) {
        return (List<String>) service.getOrDefault("profiles", List.of());
    }

    /** The ConfigMap of the base manifests with each overlay's additions: one environment per setup. */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, String>> kubernetesEnv() throws IOException {
        Path k8s = ROOT.resolve("deploy/kubernetes");
        Map<String, Object> map = new Yaml().load(Files.readString(k8s.resolve("base/configmap.yaml")));
        Map<String, String> base = new TreeMap<>();
        ((Map<String, Object>) map.get("data")).forEach((k, v) -> base.put(k, String.valueOf(v)));
        Map<String, Map<String, String>> out = new TreeMap<>();
        try (var overlays = Files.list(k8s.resolve("overlays"))) {
            for (Path o : overlays.toList()) {
                Map<String, String> env = new TreeMap<>(base);
                Map<String, Object> kustomization = new Yaml().load(Files.readString(o.resolve("kustomization.yaml")));
                for (Map<String, Object> p : (List<Map<String, Object>>) kustomization.getOrDefault("patches",
                        List.of())) {
                    if (!"ConfigMap".equals(((Map<String, Object>) p.get("target")).get("kind"))) {
                        continue;
                    }
                    for (Map<String, Object> op : (List<Map<String, Object>>) new Yaml().load((String) p.get("patch"))) {
                        String path = (String) op.get("path");
                        env.put(path.substring(path.lastIndexOf('/') + 1), String.valueOf(op.get("value")));
                    }
                }
                out.put(o.getFileName().toString(), env);
            }
        }
        return out;
    }

    /** Every environment the files give the application, by where it comes from. */
    static Map<String, Map<String, String>> environments() throws IOException {
        Map<String, Map<String, String>> out = new TreeMap<>();
        out.put("Dockerfile", dockerfileEnv());
        composeServices().forEach((name, s) -> {
            if (name.startsWith("polyrag")) {
                Map<String, String> env = new TreeMap<>(dockerfileEnv0());
                env.putAll(environment(s));
                out.put("compose " + name, env);
            }
        });
        kubernetesEnv().forEach((o, env) -> out.put("kubernetes " + o, env));
        return out;
    }

    private static Map<String, String> dockerfileEnv0() {
        try {
            return dockerfileEnv();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void every_variable_set_is_a_declared_setting_and_each_setup_is_a_valid_configuration() throws IOException {
        Set<String> declared = Settings.all().stream().map(Setting::env).collect(Collectors.toSet());
        Map<String, Map<String, String>> all = environments();
        assertThat(all).containsKeys("Dockerfile", "compose polyrag", "compose polyrag-postgres", "compose polyrag-a",
                "kubernetes embedded", "kubernetes replicas");
        all.forEach((where, env) -> {
            env.keySet().stream().filter(k -> k.startsWith("POLYRAG_")).forEach(k -> assertThat(declared)
                    .as(where + " sets " + k).contains(k));
            Map<String, String> polyrag = new TreeMap<>(env);
            polyrag.keySet().removeIf(k -> !k.startsWith("POLYRAG_"));
            polyrag.put("POLYRAG_DATA_DIR", "/tmp/never-opened");
            Config c = Config.load(polyrag, Map.of());
            assertThat(c.warnings()).as(where).isEmpty();
            assertThat(c.get(Settings.HTTP_PORT)).as(where + ": the port the files expose").isEqualTo(8080);
            assertThat(c.get(Settings.HTTP_REQUIRE_KEYS)).as(where + ": reachable from outside, so keyed").isTrue();
            // Each backend a setup names is a provider this build has.
            Providers.find(CatalogProvider.class, c.get(Settings.CATALOG_BACKEND), Settings.CATALOG_BACKEND);
            Providers.find(VectorStoreProvider.class, c.get(Settings.VECTOR_BACKEND), Settings.VECTOR_BACKEND);
            Providers.find(FullTextStoreProvider.class, c.get(Settings.FULLTEXT_BACKEND), Settings.FULLTEXT_BACKEND);
            Providers.find(GraphStoreProvider.class, c.get(Settings.GRAPH_BACKEND), Settings.GRAPH_BACKEND);
            Providers.find(RdfStoreProvider.class, c.get(Settings.RDF_BACKEND), Settings.RDF_BACKEND);
            Providers.find(BlobStoreProvider.class, c.get(Settings.BLOB_BACKEND), Settings.BLOB_BACKEND);
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void each_profile_starts_its_application_with_what_it_depends_on_and_replicas_only_over_networked_stores()
            throws IOException {
        Map<String, Map<String, Object>> services = composeServices();
        Set<String> profiles = services.values().stream().flatMap(s -> profiles(s).stream()).collect(
                Collectors.toCollection(java.util.TreeSet::new));
        assertThat(profiles).containsExactly("embedded", "neo4j", "opensearch", "postgres", "replicas", "s3", "sparql");
        assertThat(Files.readString(ROOT.resolve("deploy/.env"))).contains("COMPOSE_PROFILES=embedded");
        for (String profile : profiles) {
            Map<String, Map<String, Object>> on = new TreeMap<>();
            services.forEach((n, s) -> {
                if (profiles(s).contains(profile)) {
                    on.put(n, s);
                }
            });
            List<String> apps = on.keySet().stream().filter(n -> n.startsWith("polyrag")).toList();
            assertThat(apps).as(profile).hasSize(profile.equals("replicas") ? 2 : 1);
            List<Object> hostPorts = new ArrayList<>();
            for (String app : apps) {
                Map<String, Object> s = on.get(app);
                hostPorts.addAll((List<Object>) s.get("ports"));
                Object deps = s.getOrDefault("depends_on", Map.of());
                for (String dep : ((Map<String, Object>) deps).keySet()) {
                    assertThat(on).as(profile + ": " + app + " depends on " + dep + ", started by the same profile")
                            .containsKey(dep);
                }
                assertThat(((Map<String, Object>) s.get("healthcheck")).get("test").toString()).contains("/ready");
            }
            assertThat(hostPorts).as(profile + ": no two applications on one host port").doesNotHaveDuplicates()
                    .allSatisfy(p -> assertThat(p.toString()).endsWith(":8080"));
        }
        for (String replica : List.of("polyrag-a", "polyrag-b")) {
            Map<String, String> env = environment(services.get(replica));
            assertThat(env).as(replica + ": every store networked, blobs shared (docs/deploy.md)")
                    .containsEntry("POLYRAG_CATALOG_BACKEND", "postgres").containsEntry("POLYRAG_VECTOR_BACKEND",
                            "pgvector").containsEntry("POLYRAG_BLOB_BACKEND", "s3");
            assertThat(env.get("POLYRAG_FULLTEXT_BACKEND")).isIn("postgres", "opensearch");
            assertThat(env.getOrDefault("POLYRAG_GRAPH_ENABLED", "false")).isEqualTo("false");
        }
    }

    @Test
    void ports_and_probes_are_the_servers() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
        assertThat(dockerfile).contains("EXPOSE 8080").contains("http://127.0.0.1:${POLYRAG_HTTP_PORT:-8080}/health").contains("USER polyrag")
                .contains("VOLUME /data").contains("FROM eclipse-temurin:21-jre")
                // The wrapper runs the Maven on PATH (it downloads one only given MVNW_REPOURL): the build stage's
                // image must have it, which a plain JDK image has not.
                .containsPattern("FROM maven:[^ ]*eclipse-temurin-21[^ ]* AS build");
        String openapi = Files.readString(ROOT.resolve("docs/openapi.json"));
        assertThat(openapi).contains("\"/health\"").contains("\"/ready\"");
        String deployment = Files.readString(ROOT.resolve("deploy/kubernetes/base/deployment.yaml"));
        assertThat(deployment).contains("containerPort: 8080").contains("path: /health").contains("path: /ready")
                .contains("runAsNonRoot: true").as("a stop's budget: jobs 30 s, models 10 s, compaction")
                .contains("terminationGracePeriodSeconds: 90").as("no POLYRAG_SERVICE_* variables from the Service")
                .contains("enableServiceLinks: false").as("a node's own image, not pulled as ':latest' would be")
                .contains("imagePullPolicy: IfNotPresent");
        assertThat(Files.readString(ROOT.resolve("deploy/kubernetes/base/configmap.yaml"))).as("clients apart behind "
                + "the Ingress").contains("POLYRAG_HTTP_TRUSTED_PROXIES");
        assertThat(dockerfile).as("the MCP adapter's container, which serves no /health").contains("grep -q ' mcp '");
        var polyrags = composeServices().entrySet().stream().filter(e -> String.valueOf(e.getValue().get("image"))
                .startsWith("polyrag")).toList();
        assertThat(polyrags).isNotEmpty().allSatisfy(e -> assertThat(e.getValue().get("stop_grace_period"))
                .as(e.getKey()).isEqualTo("90s"));
        assertThat(Files.readString(ROOT.resolve("deploy/kubernetes/base/pdb.yaml"))).contains("PodDisruptionBudget");
        assertThat(Files.readString(ROOT.resolve("deploy/kubernetes/base/ingress.yaml"))).as("longer than an answer's "
                + "model calls").contains("proxy-read-timeout: \"600\"");
    }

    @Test
    void kustomize_renders_each_overlay_with_its_replicas_and_probes() throws Exception {
        boolean kubectl = java.util.stream.Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "kubectl")));
        org.junit.jupiter.api.Assumptions.assumeTrue(kubectl, "kubectl is not installed here (it is no Debian "
                + "package); the manifests' settings are still checked above, from the files");
        for (String overlay : List.of("embedded", "replicas")) {
            Process p = new ProcessBuilder("kubectl", "kustomize", ROOT.resolve("deploy/kubernetes/overlays")
                    .resolve(overlay).toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(out).isZero();
            assertThat(out).contains("kind: Deployment").contains("replicas: " + (overlay.equals("replicas") ? 2 : 1))
                    .contains("path: /ready").contains("kind: PodDisruptionBudget").contains("kind: Ingress");
        }
    }

    @Test
    void docker_compose_accepts_every_profile() throws Exception {
        boolean compose = java.util.stream.Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "docker-compose")));
        org.junit.jupiter.api.Assumptions.assumeTrue(compose, "docker-compose is not installed (.ci/run installs "
                + "Debian's); the compose file's profiles and settings are still checked above");
        for (String profile : List.of("embedded", "postgres", "opensearch", "neo4j", "sparql", "s3", "replicas")) {
            ProcessBuilder pb = new ProcessBuilder("docker-compose", "--profile", profile, "config", "-q")
                    .directory(ROOT.resolve("deploy").toFile()).redirectErrorStream(true);
            pb.environment().put("POLYRAG_HTTP_ADMIN_KEY", "operator-key");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(profile + ": " + out).isZero();
        }
        ProcessBuilder unset = new ProcessBuilder("docker-compose", "config", "-q").directory(ROOT.resolve("deploy")
                .toFile()).redirectErrorStream(true);
        unset.environment().remove("POLYRAG_HTTP_ADMIN_KEY");
        Process p = unset.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("no operator key: refused, saying which").isNotZero();
        assertThat(out).contains("set POLYRAG_HTTP_ADMIN_KEY");
    }
}
