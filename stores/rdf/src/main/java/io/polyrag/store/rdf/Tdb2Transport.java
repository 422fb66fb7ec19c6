package io.polyrag.store.rdf;

import io.polyrag.core.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.jena.query.Dataset;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.system.Txn;
import org.apache.jena.tdb2.DatabaseMgr;
import org.apache.jena.tdb2.TDB2Factory;
import org.apache.jena.tdb2.sys.TDBInternal;
import org.apache.jena.update.UpdateAction;

/**
 * SPARQL on an embedded TDB2 dataset: reads in read transactions, each update request in one write transaction.
 *
 * <p>TDB2 never reuses the space of deleted or replaced data: its indexes are copy-on-write and grow with every
 * write, until a compaction copies the live data into a new generation. Re-indexing a 5,000-document corpus left a
 * 6.7 GB dataset whose live data compacted to 101 MB in 7 s (each write transaction copies the index blocks it
 * touches: about 1.3 MB per replaced document there). So after an update, when the files have grown past
 * {@code growthFactor} (8) times their size after the last compaction and past {@code minBytes} (256 MB), the
 * dataset is compacted and the old generation deleted. Readers carry on during it; the cost is proportional to the
 * live data and is paid once per that much growth, so disk use stays within about eight times the live data while
 * a mass re-index spends a bounded share of its time compacting. The size after a compaction is kept in
 * {@value #COMPACTED_FILE} beside the generations; a dataset without it (new, or written before compaction existed)
 * that is already past {@code minBytes} is compacted when opened, so an old bloated dataset is not left to grow
 * eightfold before its first compaction.
 */
final class Tdb2Transport implements SparqlTransport {
    private static final System.Logger LOG = System.getLogger(Tdb2Transport.class.getName());
    static final long MIN_COMPACT_BYTES = 256L << 20;
    static final int GROWTH_FACTOR = 8;
    static final String COMPACTED_FILE = "polyrag-compacted-bytes";

    private final Path dir;
    private final Dataset dataset;
    private final long minBytes;
    private final int growthFactor;
    private long baseline;

    Tdb2Transport(Path dir) {
        this(dir, MIN_COMPACT_BYTES, GROWTH_FACTOR);
    }

    Tdb2Transport(Path dir, long minBytes, int growthFactor) {
        this.dir = dir;
        this.minBytes = minBytes;
        this.growthFactor = growthFactor;
        try {
            Files.createDirectories(dir);
            this.dataset = TDB2Factory.connectDataset(dir.toString());
        } catch (Exception e) {
            throw new StoreException("cannot open the TDB2 dataset in " + dir + ": " + e.getMessage(), e);
        }
        this.baseline = recordedBaseline();
        compactIfGrown();
    }

    /** The size after the last compaction; 0 (compact as soon as past the minimum) when none is recorded. */
    private long recordedBaseline() {
        try {
            return Long.parseLong(Files.readString(dir.resolve(COMPACTED_FILE)).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /** Bytes of the dataset's files on disk, all generations. */
    long bytes() {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // removed while walking (an old generation)
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    /** Compacts when the files have outgrown the last compaction; a failure is logged and costs only disk space. */
    private synchronized void compactIfGrown() {
        long now = bytes();
        if (now < minBytes || now < growthFactor * baseline) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            DatabaseMgr.compact(dataset.asDatasetGraph(), true);
            baseline = bytes();
            Files.writeString(dir.resolve(COMPACTED_FILE), Long.toString(baseline));
            LOG.log(System.Logger.Level.INFO, () -> String.format(Locale.ROOT,
                    "compacted the TDB2 dataset in %s: %d MB -> %d MB in %.1f s", dir, now >> 20, baseline >> 20,
                    (System.nanoTime() - t0) / 1e9));
        } catch (IOException | RuntimeException e) {
            baseline = now;
            LOG.log(System.Logger.Level.WARNING, "could not compact the TDB2 dataset in " + dir + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public List<Map<String, String>> select(String query) {
        try {
            return Txn.calculateRead(dataset, () -> {
                try (QueryExecution qe = QueryExecution.dataset(dataset).query(query).build()) {
                    return Rows.of(qe.execSelect());
                }
            });
        } catch (RuntimeException e) {
            throw new StoreException("TDB2 query failed in " + dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void update(String request) {
        try {
            Txn.executeWrite(dataset, () -> UpdateAction.parseExecute(request, dataset));
        } catch (RuntimeException e) {
            throw new StoreException("TDB2 update failed in " + dir + " (nothing of it was applied): "
                    + e.getMessage(), e);
        }
        compactIfGrown();
    }

    /**
     * The triples go in through RIOT's Turtle parser and the graph API, the operations after them through the SPARQL
     * update parser, in one write transaction. A batch's triples are most of its request, and parsing them as SPARQL
     * was a third of writing them.
     */
    @Override
    public void insert(String graphIri, String triples, String then) {
        try {
            Txn.executeWrite(dataset, () -> {
                org.apache.jena.riot.RDFParser.create().fromString(RdfEncoding.PREFIXES + triples)
                        .lang(org.apache.jena.riot.Lang.TURTLE)
                        .parse(dataset.asDatasetGraph().getGraph(org.apache.jena.graph.NodeFactory.createURI(graphIri)));
                if (!then.isEmpty()) {
                    UpdateAction.parseExecute(RdfEncoding.PREFIXES + then, dataset);
                }
            });
        } catch (RuntimeException e) {
            throw new StoreException("TDB2 update failed in " + dir + " (nothing of it was applied): "
                    + e.getMessage(), e);
        }
        compactIfGrown();
    }

    @Override
    public String describe() {
        return "TDB2 " + dir;
    }

    /**
     * Closes the dataset and lets go of its directory: TDB2 keeps every dataset it opened, with the file lock that
     * stops another process opening it, until the JVM exits, unless it is expelled. Without this a process that
     * closed polyrag (a test, an embedding application, the CLI's in-process commands) kept every other process out
     * of the data directory. Expelling shuts the storage down and asks for a garbage collection (to unmap its
     * files), once per close.
     */
    @Override
    public void close() {
        try {
            TDBInternal.expel(dataset.asDatasetGraph());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not release the TDB2 dataset in " + dir + ": "
                    + e.getMessage(), e);
            dataset.close();
        }
    }
}
