package io.polyrag.app;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Setting;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.Embedder;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * How each embedding model this data directory has served was configured ({@code <data>/embedders/}, one file per
 * model), so that after a change of model the previous one can be opened again to serve its index while the new
 * model's is back-filled.
 */
final class EmbedderRecipes {
    private static final System.Logger LOG = System.getLogger(EmbedderRecipes.class.getName());
    private static final List<Setting<?>> SETTINGS = List.of(Settings.EMBEDDING_PROVIDER, Settings.EMBEDDING_MODEL,
            Settings.EMBEDDING_MODEL_DIR, Settings.EMBEDDING_POOLING, Settings.EMBEDDING_QUERY_PREFIX,
            Settings.EMBEDDING_PASSAGE_PREFIX, Settings.EMBEDDING_MAX_TOKENS, Settings.EMBEDDING_THREADS);

    /** A model served before: its id and the settings that open it. */
    record Recipe(String modelId, Map<String, String> settings) {
    }

    private EmbedderRecipes() {
    }

    /** Records how {@code embedder} was configured; a failure costs only the stand-in after a later change. */
    static void remember(Path dataDir, Embedder embedder, Config config) {
        Properties p = new Properties();
        p.setProperty("model.id", embedder.modelId());
        for (Setting<?> s : SETTINGS) {
            Object v = config.get(s);
            if (v != null) {
                p.setProperty(s.key(), v.toString());
            }
        }
        Path file = dir(dataDir).resolve(Integer.toHexString(embedder.modelId().hashCode()) + ".properties");
        try {
            Files.createDirectories(file.getParent());
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                p.store(w, "how polyrag opened this embedding model (to serve its index after a change of model)");
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot record the embedding model's settings in " + file + ": "
                    + e.getMessage());
        }
    }

    /** The models served before, other than {@code current}, most recent first. */
    static List<Recipe> others(Path dataDir, String current) {
        List<Recipe> out = new ArrayList<>();
        if (!Files.isDirectory(dir(dataDir))) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir(dataDir))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".properties")).sorted(Comparator.comparing(
                    EmbedderRecipes::modified).reversed()).toList()) {
                Properties p = new Properties();
                try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                    p.load(r);
                }
                String id = p.getProperty("model.id");
                if (id == null || id.equals(current)) {
                    continue;
                }
                Map<String, String> settings = new HashMap<>();
                p.stringPropertyNames().stream().filter(k -> !k.equals("model.id")).forEach(k -> settings.put(k,
                        p.getProperty(k)));
                out.add(new Recipe(id, settings));
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read the recorded embedding models: " + e.getMessage());
        }
        return out;
    }

    /**
     * What opening the stores needs of the model this configuration loads — its id, dimension and token window —
     * as recorded the last time it was loaded here ({@link #know}), so the model itself can wait until a text is
     * embedded. Keyed by everything that decides what gets loaded: the model settings, the class path (a bundled
     * model ships in a versioned jar) and the size and time of each file of a model directory.
     */
    record Known(String modelId, int dimension, int maxTokens) {
    }

    static Optional<Known> known(Path dataDir, Config config) {
        Path file = knownFile(dataDir, config);
        if (file == null || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
            return Optional.of(new Known(p.getProperty("model.id"), Integer.parseInt(p.getProperty(
                    "dimension")), Integer.parseInt(p.getProperty("max.tokens"))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Records what {@link #known} returns for this configuration; a failure costs only a lazy start. */
    static void know(Path dataDir, Config config, Embedder loaded) {
        Path file = knownFile(dataDir, config);
        if (file == null) {
            return;
        }
        Properties p = new Properties();
        p.setProperty("model.id", loaded.modelId());
        p.setProperty("dimension", Integer.toString(loaded.dimension()));
        p.setProperty("max.tokens", Integer.toString(loaded.maxTokens()));
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), "known", ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "what the stores need of this embedding model, so it loads when first used");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot record the embedding model for a lazy start: " + e.getMessage());
        }
    }

    /** Drops what {@link #known} would return, so the next start loads the model before opening the stores. */
    static void forget(Path dataDir, Config config) {
        Path file = knownFile(dataDir, config);
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot drop " + file + ": " + e.getMessage());
        }
    }

    /** The file keyed by the configuration's fingerprint, or null when a model directory cannot be read. */
    private static Path knownFile(Path dataDir, Config config) {
        StringBuilder key = new StringBuilder(System.getProperty("java.class.path", ""));
        for (Setting<?> s : SETTINGS) {
            key.append('\n').append(s.key()).append('=').append(config.get(s));
        }
        Path modelDir = config.get(Settings.EMBEDDING_MODEL_DIR);
        if (modelDir != null) {
            try (Stream<Path> files = Files.walk(modelDir)) { // every file the model is read from, subfolders too
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    key.append('\n').append(modelDir.relativize(f)).append(' ').append(Files.size(f)).append(' ')
                            .append(Files.getLastModifiedTime(f).toMillis());
                }
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
        String hash = Ids.sha256Hex(key.toString().getBytes(StandardCharsets.UTF_8));
        return dir(dataDir).resolve("loaded-" + hash.substring(0, 16) + ".start");
    }

    private static long modified(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static Path dir(Path dataDir) {
        return dataDir.resolve("embedders");
    }
}
