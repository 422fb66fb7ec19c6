package io.polyrag.store.kuzu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Named parallel lists, one value per row in each, bound as list parameters. */
final class Columns {
    final Map<String, List<Object>> lists = new LinkedHashMap<>();

    Columns(String... names) {
        for (String n : names) {
            lists.put(n, new ArrayList<>());
        }
    }

    void add(Object... row) {
        int i = 0;
        for (List<Object> list : lists.values()) {
            list.add(row[i++]);
        }
    }

    boolean isEmpty() {
        return lists.values().iterator().next().isEmpty();
    }

    Map<String, Object> params() {
        return new LinkedHashMap<>(lists);
    }
}
