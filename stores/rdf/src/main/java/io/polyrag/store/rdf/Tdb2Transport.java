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
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.graph.Triple;
import org.apache.jena.query.Dataset;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.sparql.core.DatasetGraph;
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
 * {@value #COMPACTED_FILE} beside the generations. A new dataset records its own size: its index files are sparse
 * and start at 8 or 16 MB each (192 MB together, a few MB on disk), so measured from nothing a first ingest of a
 * thousand documents crossed {@code minBytes} and spent 1.5 s compacting 256 MB of mostly unwritten files into 192:
 * the size of an empty dataset. A dataset without the file (written before compaction existed) that is already past {@code minBytes} is
 * compacted when opened, so an old bloated dataset is not left to grow eightfold before its first compaction.
 */
final class Tdb2Transport implements SparqlTransport {
    private static final System.Logger LOG = System.getLogger(Tdb2Transport.class.getName());
    static final long MIN_COMPACT_BYTES = 256L << 20;
    static final int GROWTH_FACTOR = 8;
    static final String COMPACTED_FILE = "polyrag-compacted-bytes";

    private static final Node LABEL = NodeFactory.createURI("http://www.w3.org/2000/01/rdf-schema#label");
    private static final Node KEY = Triples.vocab("key");
    private static final Node ENTITY_TYPE = Triples.vocab("type");
    private static final Node NO_TYPE = Triples.text("");

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
        boolean fresh;
        try {
            Files.createDirectories(dir);
            try (Stream<Path> files = Files.list(dir)) {
                fresh = files.findAny().isEmpty();
            }
            this.dataset = TDB2Factory.connectDataset(dir.toString());
        } catch (Exception e) {
            throw new StoreException("cannot open the TDB2 dataset in " + dir + ": " + e.getMessage(), e);
        }
        if (fresh) {
            record(bytes());
        } else {
            this.baseline = recordedBaseline();
        }
        compactIfGrown();
    }

    /** Records {@code bytes} as the size after the last compaction (or of the new, empty dataset). */
    private void record(long bytes) {
        baseline = bytes;
        try {
            Files.writeString(dir.resolve(COMPACTED_FILE), Long.toString(bytes));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not record the TDB2 dataset's size in " + dir + ": "
                    + e.getMessage());
        }
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
            record(bytes());
            LOG.log(System.Logger.Level.INFO, () -> String.format(Locale.ROOT,
                    "compacted the TDB2 dataset in %s: %d MB -> %d MB in %.1f s", dir, now >> 20, baseline >> 20,
                    (System.nanoTime() - t0) / 1e9));
        } catch (RuntimeException e) {
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
     * The triples and the entities go in through the dataset's own API, in one write transaction: parsing the triples
     * as SPARQL was a third of writing them (as Turtle, a fifth), and the two conditional update operations per
     * entity, parsed and planned one by one, were two fifths of what was left.
     */
    @Override
    public void insert(String graphIri, Triples triples, List<NewEntity> entities) {
        try {
            Txn.executeWrite(dataset, () -> {
                DatasetGraph dsg = dataset.asDatasetGraph();
                Node graph = NodeFactory.createURI(graphIri);
                for (Triple t : triples.list()) {
                    dsg.add(graph, t.getSubject(), t.getPredicate(), t.getObject());
                }
                for (NewEntity e : entities) {
                    Node entity = NodeFactory.createURI(RdfEncoding.entityIri(e.key()));
                    if (!dsg.contains(graph, entity, KEY, Node.ANY)) {
                        dsg.add(graph, entity, LABEL, Triples.text(e.name()));
                        dsg.add(graph, entity, KEY, Triples.text(e.key()));
                        dsg.add(graph, entity, ENTITY_TYPE, Triples.text(e.type()));
                    } else if (!e.type().isEmpty() && dsg.contains(graph, entity, ENTITY_TYPE, NO_TYPE)) {
                        dsg.delete(graph, entity, ENTITY_TYPE, NO_TYPE);
                        dsg.add(graph, entity, ENTITY_TYPE, Triples.text(e.type()));
                    }
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
