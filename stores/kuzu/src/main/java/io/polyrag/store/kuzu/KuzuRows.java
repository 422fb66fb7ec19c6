package io.polyrag.store.kuzu;

import com.kuzudb.Connection;
import com.kuzudb.FlatTuple;
import com.kuzudb.KuzuList;
import com.kuzudb.QueryResult;
import com.kuzudb.Value;
import io.polyrag.core.StoreException;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.SearchScope;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** Kuzu's results and parameters as plain Java values, every native value released where it is read. */
final class KuzuRows {
    private KuzuRows() {
    }

    /** Runs a statement without parameters and hands each row to {@code each}, one at a time. */
    static void each(Connection c, String cypher, Consumer<List<Object>> each) {
        try (QueryResult r = check(c.query(cypher), cypher)) {
            long columns = r.getNumColumns();
            while (r.hasNext()) {
                each.accept(row(r, columns));
            }
        }
    }

    /** The result's next row as plain Java values, every native value released. */
    static List<Object> row(QueryResult r, long columns) {
        try (FlatTuple t = r.getNext()) {
            List<Object> row = new ArrayList<>((int) columns);
            for (int i = 0; i < columns; i++) {
                try (Value v = t.getValue(i)) {
                    row.add(v.isNull() ? null : v.getValue());
                }
            }
            return row;
        }
    }

    /** Up to {@code limit} rows of a result as plain Java values, every native value released. */
    static List<List<Object>> rows(QueryResult r, int limit) {
        List<List<Object>> rows = new ArrayList<>();
        long columns = r.getNumColumns();
        while (r.hasNext() && rows.size() < limit) {
            rows.add(row(r, columns));
        }
        return rows;
    }

    static QueryResult check(QueryResult r, String cypher) {
        if (!r.isSuccess()) {
            String message = r.getErrorMessage();
            r.close();
            throw new StoreException("Kuzu query failed: " + message + " in: " + cypher);
        }
        return r;
    }

    static Value value(Object v, List<Value> owned) {
        Value out;
        if (v instanceof List<?> list) {
            Value[] items = new Value[list.size()];
            for (int i = 0; i < items.length; i++) {
                items[i] = value(list.get(i), owned);
            }
            try (KuzuList kl = new KuzuList(items)) {
                out = kl.getValue().clone();
            }
        } else if (v instanceof Integer i) {
            out = new Value((long) i);
        } else {
            out = new Value(v);
        }
        owned.add(out);
        return out;
    }

    static List<EntityHit> hits(List<List<Object>> rows) {
        List<EntityHit> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> aliases = List.of(((String) row.get(3)).strip().split("\n")).stream()
                    .filter(a -> !a.isBlank()).toList();
            out.add(new EntityHit(new Entity((String) row.get(0), (String) row.get(1), (String) row.get(2), aliases),
                    ((Number) row.get(4)).longValue()));
        }
        return out;
    }

    /** Properties as {@code k=v&k2=v2}, URL-encoded: small, readable in Cypher results, no JSON library needed. */
    static String encode(Map<String, String> properties) {
        return properties.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    /** Parameters {@code key → value}, plus {@code kbs} (the scope's knowledge bases) when the scope is limited. */
    static Map<String, Object> scoped(String key, Object value, SearchScope scope) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put(key, value);
        if (!scope.knowledgeBases().isEmpty()) {
            params.put("kbs", List.copyOf(scope.knowledgeBases()));
        }
        if (!scope.documentIds().isEmpty()) {
            params.put("docs", List.copyOf(scope.documentIds()));
        }
        return params;
    }

    /** {@code each} over the ids a thousand at a time (one statement's list parameter). */
    static void inThousands(List<String> ids, Consumer<List<String>> each) {
        for (int i = 0; i < ids.size(); i += 1000) {
            each.accept(ids.subList(i, Math.min(ids.size(), i + 1000)));
        }
    }
}
