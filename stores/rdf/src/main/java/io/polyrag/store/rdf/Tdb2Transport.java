package io.polyrag.store.rdf;

import io.polyrag.core.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.jena.query.Dataset;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.system.Txn;
import org.apache.jena.tdb2.TDB2Factory;
import org.apache.jena.update.UpdateAction;

/** SPARQL on an embedded TDB2 dataset: reads in read transactions, each update request in one write transaction. */
final class Tdb2Transport implements SparqlTransport {
    private final Path dir;
    private final Dataset dataset;

    Tdb2Transport(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            this.dataset = TDB2Factory.connectDataset(dir.toString());
        } catch (Exception e) {
            throw new StoreException("cannot open the TDB2 dataset in " + dir + ": " + e.getMessage(), e);
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
    }

    @Override
    public String describe() {
        return "TDB2 " + dir;
    }

    @Override
    public void close() {
        dataset.close();
    }
}
