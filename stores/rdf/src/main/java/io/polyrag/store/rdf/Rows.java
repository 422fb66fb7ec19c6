package io.polyrag.store.rdf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.jena.query.QuerySolution;
import org.apache.jena.query.ResultSet;
import org.apache.jena.rdf.model.RDFNode;

/** SELECT results as plain rows: IRIs as their string, literals as their lexical form, unbound variables absent. */
final class Rows {
    private Rows() {
    }

    static List<Map<String, String>> of(ResultSet results) {
        List<Map<String, String>> rows = new ArrayList<>();
        while (results.hasNext()) {
            QuerySolution s = results.next();
            Map<String, String> row = new LinkedHashMap<>();
            s.varNames().forEachRemaining(v -> {
                RDFNode n = s.get(v);
                if (n != null) {
                    row.put(v, n.isLiteral() ? n.asLiteral().getLexicalForm() : n.isURIResource()
                            ? n.asResource().getURI() : n.toString());
                }
            });
            rows.add(row);
        }
        return rows;
    }
}
