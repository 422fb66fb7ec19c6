package io.polyrag.app;

import io.polyrag.core.ConfigException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.fs.Confinement;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.Parser;
import io.polyrag.core.port.SourceConnector;
import io.polyrag.core.port.SourceConnector.Original;
import io.polyrag.core.port.SourceStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.SourceConnectorProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The source connectors on the class path, one per type ({@code filesystem}, {@code web}, {@code s3}, …), opened
 * once per server; and the {@link SourceConnector.Host} each is lent while it serves one tenant's source.
 */
final class SourceConnectors implements AutoCloseable {
    private final Map<String, SourceConnector> byType = new TreeMap<>();
    private final Map<String, String> descriptions = new TreeMap<>();
    private final Config config;
    private final Path dataDir;
    private final SourceStore sources;
    private final BlobStore blobs;
    private final Parser parser;

    /**
     * @param sources the item state sources recorded
     * @param blobs the originals a sync kept
     * @param parser the links of a fetched page
     */
    SourceConnectors(ProviderContext context, SourceStore sources, BlobStore blobs, Parser parser) {
        this.config = context.config();
        this.dataDir = context.dataDir();
        this.sources = sources;
        this.blobs = blobs;
        this.parser = parser;
        // Read once at start: malformed, it failed every tenant's sync later, each job's error quoting the entry (an
        // other tenant's name and folders).
        tenantRoots(config.get(Settings.SYNC_TENANT_ROOTS));
        allowedRoots(config.get(Settings.SYNC_ALLOWED_ROOTS));
        for (var e : Providers.available(SourceConnectorProvider.class).entrySet()) {
            if (e.getValue().size() > 1) {
                throw new ConfigException(e.getValue().size() + " source connectors claim the type '" + e.getKey()
                        + "': " + e.getValue().stream().map(p -> p.getClass().getName()).toList() + "; remove one "
                        + "from the class path");
            }
            byType.put(e.getKey(), e.getValue().getFirst().open(context));
            descriptions.put(e.getKey(), e.getValue().getFirst().description());
        }
    }

    Optional<SourceConnector> get(String type) {
        return Optional.ofNullable(type == null ? null : byType.get(type));
    }

    Set<String> types() {
        return byType.keySet();
    }

    /** Each type with what it reads: {@code filesystem (a folder on the server, watched live), web (…)}. */
    String described() {
        return String.join(", ", descriptions.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
                .toList());
    }

    /**
     * What a connector may use for one source of {@code tenant}, for one scan or one check: the configuration, the
     * tenant's folders (read afresh for every host, so an operator who narrows them narrows what registered sources
     * read from the next scan on), the item state its source recorded (read once, at the first question), the
     * originals it kept and the parser's links.
     */
    SourceConnector.Host host(Tenant tenant, String sourceId, BooleanSupplier stopped) {
        return host(tenant, sourceId, stopped, true);
    }

    /**
     * @param recalled whether the connector is told each item's recorded state (a web page's validator for a
     *        conditional request); not when every item is to be read again (the indexing settings changed)
     */
    SourceConnector.Host host(Tenant tenant, String sourceId, BooleanSupplier stopped, boolean recalled) {
        return new SourceConnector.Host() {
            private Confinement confinement;
            private Map<String, SyncItem> recorded;

            @Override
            public Config config() {
                return config;
            }

            @Override
            public String tenant() {
                return tenant.name();
            }

            @Override
            public synchronized Confinement confinement() {
                if (confinement == null) {
                    confinement = SourceConnectors.this.confinement(tenant);
                }
                return confinement;
            }

            @Override
            public synchronized Optional<SyncItem> recorded(String item) {
                if (sourceId == null || !recalled) {
                    return Optional.empty();
                }
                if (recorded == null) {
                    recorded = sources.sourceItems(tenant.id(), sourceId);
                }
                return Optional.ofNullable(recorded.get(item));
            }

            @Override
            public Optional<Original> original(String documentId, long maxBytes) {
                Optional<BlobStore.Blob> blob = blobs.get(documentId);
                if (blob.isEmpty()) {
                    return Optional.empty();
                }
                try (InputStream in = blob.get().content()) {
                    return Optional.of(new Original(blob.get().mediaType(), in.readNBytes((int) Math.min(maxBytes,
                            Integer.MAX_VALUE - 8))));
                } catch (IOException e) {
                    return Optional.empty();
                }
            }

            @Override
            public List<String> links(String url, byte[] html) {
                try {
                    return parser.links(new SourceItem(url, "page.html", html, "text/html"));
                } catch (RuntimeException e) {
                    return List.of();
                }
            }

            @Override
            public boolean stopped() {
                return stopped.getAsBoolean();
            }
        };
    }

    /**
     * The folders {@code tenant}'s filesystem sources may read ({@code sync.allowed.roots} for the local tenant,
     * its entry of {@code sync.tenant.roots} for a tenant with keys), and the folders none may: the data directory
     * and the blob directory (other tenants' originals, the catalog, the indexes). Read at every scan, so an operator
     * who narrows a tenant's folders narrows what its registered sources read from then on.
     */
    Confinement confinement(Tenant tenant) {
        // A key's tenant that adopted local mode's data holds its rows, not the operator's folders: its key reaches
        // the folders the operator named for it, like any tenant's (local mode's own syncs run as local mode).
        boolean operator = tenant.isLocal() && tenant.name().isEmpty();
        List<Path> roots = (operator ? allowedRoots(config.get(Settings.SYNC_ALLOWED_ROOTS))
                : tenantRoots(config.get(Settings.SYNC_TENANT_ROOTS)).getOrDefault(tenant.name(),
                        List.of()));
        return Confinement.of(roots, forbidden());
    }

    private List<Path> forbidden() {
        List<Path> forbidden = new ArrayList<>();
        forbidden.add(dataDir);
        String blobs = config.get(Settings.BLOB_DIR);
        if (!blobs.isBlank()) {
            forbidden.add(Path.of(blobs.strip()));
        }
        return forbidden;
    }

    /**
     * The folders no source reads (the data directory, the blob directory), their links resolved where they exist:
     * a watch of a folder holding them saw every write polyrag itself made.
     */
    List<Path> forbiddenFolders() {
        List<Path> out = new ArrayList<>();
        for (Path p : forbidden()) {
            Path abs = p.toAbsolutePath().normalize();
            out.add(abs);
            try {
                out.add(abs.toRealPath());
            } catch (IOException e) {
                // not there (yet): its written form is all there is to compare
            }
        }
        return out;
    }

    private static List<Path> paths(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::strip).filter(x -> !x.isEmpty()).map(Path::of)
                .toList();
    }

    /**
     * {@code /a,/b}: absolute paths, or a refusal naming the setting. A relative one was resolved against the
     * process's working folder (a systemd unit's is not a shell's), a folder the operator never meant.
     */
    static List<Path> allowedRoots(String setting) {
        List<Path> out;
        try {
            out = paths(setting);
        } catch (InvalidPathException e) {
            out = null;
        }
        if (out == null || out.stream().anyMatch(p -> !p.isAbsolute())) {
            throw new ConfigException(Settings.SYNC_ALLOWED_ROOTS.env() + ": '" + Ids.abbreviate(setting.strip(), 200)
                    + "' is not a comma-separated list of absolute paths, e.g. /srv/docs,/home/ana/notes");
        }
        return out;
    }

    /** {@code tenant=/a,/b;other=/c} as a map; a malformed entry fails naming the setting and the form it wants. */
    static Map<String, List<Path>> tenantRoots(String setting) {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        for (String entry : setting.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            String id = eq < 0 ? "" : entry.substring(0, eq).strip();
            List<Path> paths;
            try {
                paths = eq < 0 ? List.of() : paths(entry.substring(eq + 1));
            } catch (InvalidPathException e) {
                paths = List.of();
            }
            if (id.isEmpty() || paths.isEmpty() || paths.stream().anyMatch(p -> !p.isAbsolute())) {
                throw new ConfigException(Settings.SYNC_TENANT_ROOTS.env() + ": '" + entry.strip()
                        + "' is not 'tenant=/absolute/path[,/another]': separate tenants with ';', e.g. "
                        + "acme=/srv/acme;globex=/srv/globex,/srv/shared");
            }
            String tenant;
            try {
                tenant = Tenant.of(id).id();
            } catch (InvalidInputException e) {
                throw new ConfigException(Settings.SYNC_TENANT_ROOTS.env() + ": " + e.getMessage());
            }
            out.merge(tenant, paths, (a, b) -> Stream.concat(a.stream(), b.stream()).toList());
        }
        return out;
    }

    @Override
    public void close() {
        for (SourceConnector c : byType.values()) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // closing: nothing to tell
            }
        }
    }
}
